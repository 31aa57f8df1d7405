import Synchronization

/// A clock that only moves when told to: the deterministic time source for tests.
///
/// Async sleepers (`try await clock.sleep(for:)`) resume when ``advance(by:)`` reaches their
/// deadline. The Store's own timers (delay, debounce, throttle windows, channel pacing, settle) are
/// registered synchronously and fire synchronously inside ``advance(by:)``, in deadline order, with
/// ``now`` set to each timer's deadline as it fires — so tests drive scheduling without tasks.
public final class ManualClock: Clock, Sendable {
    /// A point in manual time: an offset from the clock's origin.
    public struct Instant: InstantProtocol, Sendable {
        /// The offset from the clock's origin.
        public let offset: Duration

        /// An instant at `offset` from the origin.
        public init(offset: Duration) { self.offset = offset }

        /// The instant `duration` later, saturating at the latest (or earliest) representable
        /// instant instead of trapping.
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset.saturatingAdding(duration)) }

        /// The duration from this instant to `other`.
        public func duration(to other: Instant) -> Duration { other.offset - offset }

        /// Earlier instants compare less.
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private struct Sleeper {
        let id: UInt64
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct Timer {
        let id: UInt64
        let deadline: Instant
        let fire: @MainActor @Sendable () -> Void
    }

    private struct State {
        var now = Instant(offset: .zero)
        var nextID: UInt64 = 0
        var sleepers: [Sleeper] = []
        var timers: [Timer] = []
    }

    private let state = Mutex(State())

    /// A clock at offset zero.
    public init() {}

    /// The current manual time.
    public var now: Instant { state.withLock { $0.now } }

    /// Manual time has no resolution limit.
    public var minimumResolution: Duration { .zero }

    /// Suspends until ``advance(by:)`` reaches `deadline` (at once when it already has); throws
    /// `CancellationError` when the task is cancelled first.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = state.withLock { state -> UInt64 in
            state.nextID &+= 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let resumeNow = state.withLock { state -> Bool in
                    if deadline <= state.now { return true }
                    state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let sleeper = state.withLock { state -> Sleeper? in
                guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
                return state.sleepers.remove(at: index)
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Registers a synchronous timer fired by ``advance(by:)`` once time reaches `deadline`.
    /// Releasing or cancelling the returned token removes it.
    @MainActor
    public func scheduleTimer(at deadline: Instant, _ fire: @escaping @MainActor @Sendable () -> Void) -> SubscriptionToken {
        let id = state.withLock { state -> UInt64 in
            state.nextID &+= 1
            state.timers.append(Timer(id: state.nextID, deadline: deadline, fire: fire))
            return state.nextID
        }
        return SubscriptionToken { [weak self] in
            self?.state.withLock { state in state.timers.removeAll { $0.id == id } }
        }
    }

    /// The number of async sleepers waiting and synchronous timers pending.
    public var pendingCount: Int { state.withLock { $0.sleepers.count + $0.timers.count } }

    /// Moves time forward by `duration`, firing every due timer and resuming every due sleeper in
    /// deadline order (ties in registration order). A non-positive duration fires what is due now.
    @MainActor
    public func advance(by duration: Duration) {
        let target = state.withLock { $0.now.advanced(by: max(duration, .zero)) }
        while true {
            let next = state.withLock { state -> (timer: Timer?, sleepers: [Sleeper])? in
                let dueTimer = state.timers.indices
                    .filter { state.timers[$0].deadline <= target }
                    .min { (state.timers[$0].deadline, state.timers[$0].id) < (state.timers[$1].deadline, state.timers[$1].id) }
                let dueSleeper = state.sleepers.filter { $0.deadline <= target }.map(\.deadline).min()
                switch (dueTimer, dueSleeper) {
                case (nil, nil):
                    return nil
                case (let timerIndex?, let sleeperDeadline) where sleeperDeadline.map({ state.timers[timerIndex].deadline <= $0 }) ?? true:
                    let timer = state.timers.remove(at: timerIndex)
                    if timer.deadline > state.now { state.now = timer.deadline }
                    return (timer, [])
                default:
                    let deadline = dueSleeper!
                    if deadline > state.now { state.now = deadline }
                    let due = state.sleepers.filter { $0.deadline <= deadline }
                    state.sleepers.removeAll { $0.deadline <= deadline }
                    return (nil, due)
                }
            }
            guard let next else { break }
            next.timer?.fire()
            for sleeper in next.sleepers { sleeper.continuation.resume() }
        }
        state.withLock { $0.now = target }
    }
}
