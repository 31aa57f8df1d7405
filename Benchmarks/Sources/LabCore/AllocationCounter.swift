import CJemalloc

/// A point-in-time reading of jemalloc's allocation statistics.
public struct AllocationSnapshot: Equatable, Sendable {
    /// Cumulative number of allocation requests served by all arenas
    /// (`stats.arenas.4096.small.nrequests + stats.arenas.4096.large.nrequests`).
    public var count: UInt64
    /// Cumulative bytes allocated by the calling thread (`thread.allocated`),
    /// counted in jemalloc size classes (usable size, not requested size).
    public var bytes: UInt64

    /// Creates a snapshot from raw counter values.
    public init(count: UInt64, bytes: UInt64) {
        self.count = count
        self.bytes = bytes
    }

    /// The allocations that happened between `earlier` and `self`.
    public func since(_ earlier: AllocationSnapshot) -> AllocationSnapshot {
        AllocationSnapshot(count: count &- earlier.count, bytes: bytes &- earlier.bytes)
    }
}

/// Errors raised while talking to jemalloc.
public enum AllocationCounterError: Error, CustomStringConvertible, Equatable {
    /// A `mallctl` name could not be resolved (jemalloc missing or built without stats).
    case unavailable(name: String, code: Int32)
    /// The counter read zero allocations: jemalloc is linked but malloc is not routed to it.
    case jemallocNotActive
    /// The counter read back a different number than the known allocations made.
    case calibrationMismatch(expected: UInt64, measured: UInt64)

    /// A human-readable explanation.
    public var description: String {
        switch self {
        case let .unavailable(name, code):
            return "jemalloc control '\(name)' is unavailable (mallctl error \(code)); is libjemalloc (with stats) linked?"
        case .jemallocNotActive:
            return "jemalloc is not the active allocator: allocations made by Swift are not counted (counter read 0). Allocation figures would be meaningless."
        case let .calibrationMismatch(expected, measured):
            return "allocation counter calibration failed: made \(expected) allocations but jemalloc reported \(measured)."
        }
    }
}

/// Exact allocation counting through jemalloc's `mallctl` statistics.
///
/// The MIBs are resolved once. Every `snapshot()` flushes the calling
/// thread's tcache (so its request counts are merged into the arena stats)
/// and advances `epoch` (so the stats are refreshed) before reading.
/// Counts cover every thread; bytes cover the calling thread only, which is
/// where the lab runs its measured closures.
public final class AllocationCounter {
    private var epochMIB: [Int]
    private var flushMIB: [Int]
    private var smallMIB: [Int]
    private var largeMIB: [Int]
    private var threadAllocatedMIB: [Int]

    /// Resolves the `mallctl` names; throws if jemalloc statistics are unavailable.
    public init() throws {
        epochMIB = try Self.mib("epoch")
        flushMIB = try Self.mib("thread.tcache.flush")
        smallMIB = try Self.mib("stats.arenas.4096.small.nrequests")
        largeMIB = try Self.mib("stats.arenas.4096.large.nrequests")
        threadAllocatedMIB = try Self.mib("thread.allocated")
    }

    private static func mib(_ name: String) throws -> [Int] {
        var mib = [Int](repeating: 0, count: 8)
        var length = mib.count
        let code = mib.withUnsafeMutableBufferPointer { buffer in
            mallctlnametomib(name, buffer.baseAddress, &length)
        }
        guard code == 0 else { throw AllocationCounterError.unavailable(name: name, code: code) }
        return Array(mib.prefix(length))
    }

    private func readUInt64(_ mib: inout [Int]) -> UInt64 {
        var value: UInt64 = 0
        var size = MemoryLayout<UInt64>.size
        let length = mib.count
        _ = mib.withUnsafeMutableBufferPointer { buffer in
            mallctlbymib(buffer.baseAddress, length, &value, &size, nil, 0)
        }
        return value
    }

    /// Flushes the tcache, refreshes the statistics and reads the counters.
    public func snapshot() -> AllocationSnapshot {
        let flushLength = flushMIB.count
        _ = flushMIB.withUnsafeMutableBufferPointer { buffer in
            mallctlbymib(buffer.baseAddress, flushLength, nil, nil, nil, 0)
        }
        var newEpoch: UInt64 = 1
        var oldEpoch: UInt64 = 0
        var epochSize = MemoryLayout<UInt64>.size
        let epochLength = epochMIB.count
        _ = epochMIB.withUnsafeMutableBufferPointer { buffer in
            mallctlbymib(buffer.baseAddress, epochLength, &oldEpoch, &epochSize, &newEpoch, MemoryLayout<UInt64>.size)
        }
        let count = readUInt64(&smallMIB) &+ readUInt64(&largeMIB)
        let bytes = readUInt64(&threadAllocatedMIB)
        return AllocationSnapshot(count: count, bytes: bytes)
    }

    /// Counts the allocations made by `body`.
    public func measure(_ body: () -> Void) -> AllocationSnapshot {
        let before = snapshot()
        body()
        return snapshot().since(before)
    }

    /// Allocates `objects` class instances kept alive in a pre-reserved array and
    /// checks that exactly that many allocations are read back. Retries a few
    /// times (taking the minimum) so a stray allocation on another thread cannot
    /// fail it; throws a clear error otherwise.
    @discardableResult
    public func calibrate(objects: Int = 1000, attempts: Int = 5) throws -> UInt64 {
        var best = UInt64.max
        for _ in 0..<max(1, attempts) {
            var keep: [CalibrationObject] = []
            keep.reserveCapacity(objects)
            let measured = measure {
                for index in 0..<objects { keep.append(CalibrationObject(index)) }
            }
            blackHole(keep)
            best = min(best, measured.count)
            if best == UInt64(objects) { return best }
        }
        if best == 0 { throw AllocationCounterError.jemallocNotActive }
        throw AllocationCounterError.calibrationMismatch(expected: UInt64(objects), measured: best)
    }

    /// The jemalloc version string (e.g. `5.3.0-0-g…`), or nil.
    public static var jemallocVersion: String? {
        var pointer: UnsafePointer<CChar>? = nil
        var size = MemoryLayout<UnsafePointer<CChar>?>.size
        guard mallctl("version", &pointer, &size, nil, 0) == 0, let pointer else { return nil }
        return String(cString: pointer)
    }
}

/// A tiny heap object used to calibrate the counter (one allocation each).
final class CalibrationObject {
    let value: Int
    init(_ value: Int) { self.value = value }
}
