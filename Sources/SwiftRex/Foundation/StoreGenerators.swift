import Foundation
import Synchronization

/// The sources of nondeterminism a Store injects into effects: a clock, the current date and UUIDs.
///
/// Production uses ``live``; tests pass a ``ManualClock`` and fixed generators so every effect is
/// deterministic. Effects read them from ``PostReducerContext/generators``.
public struct StoreGenerators: Sendable {
    /// The clock effects should sleep on (the same one the Store schedules timers on).
    public var clock: any Clock<Duration>
    /// The current date.
    public var date: @Sendable () -> Date
    /// A new UUID.
    public var uuid: @Sendable () -> UUID

    /// Generators from their parts.
    public init(clock: any Clock<Duration>, date: @escaping @Sendable () -> Date, uuid: @escaping @Sendable () -> UUID) {
        self.clock = clock
        self.date = date
        self.uuid = uuid
    }

    /// A continuous clock, the system date and random UUIDs.
    public static var live: StoreGenerators {
        StoreGenerators(clock: ContinuousClock(), date: { Date() }, uuid: { UUID() })
    }

    /// Deterministic generators for tests: the given clock, a fixed date, and UUIDs counting up
    /// from `00000000-0000-0000-0000-000000000000`.
    public static func deterministic(clock: any Clock<Duration>, date: Date = Date(timeIntervalSince1970: 0)) -> StoreGenerators {
        let counter = UUIDCounter()
        return StoreGenerators(clock: clock, date: { date }, uuid: { counter.next() })
    }
}

/// Hands out sequential UUIDs, thread-safely.
private final class UUIDCounter: Sendable {
    private let value = Mutex<UInt64>(0)

    func next() -> UUID {
        let n = value.withLock { value -> UInt64 in
            defer { value &+= 1 }
            return value
        }
        let hex = String(n, radix: 16)
        let padded = String(repeating: "0", count: 12 - min(12, hex.count)) + hex.suffix(12)
        return UUID(uuidString: "00000000-0000-0000-0000-\(padded)")!
    }
}
