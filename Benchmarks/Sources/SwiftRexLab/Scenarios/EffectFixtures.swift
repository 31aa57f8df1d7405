import Baselines
import SwiftRex
import Synchronization

/// Actions of `effects.task.keyed`: a query and the answer to it.
enum SearchAction: Sendable, Equatable {
    case query(Int)
    case results(Int)
}

/// State of `effects.task.keyed`: the last query answered.
struct SearchState: Sendable, Equatable {
    var answered = 0
}

/// The store of `effects.task.keyed` and `effects.task.keyed.dispatch`: each query starts a task
/// under one id, replacing the previous one, whose answer the reducer keeps when it is the
/// highest yet.
@MainActor
final class SearchStore {
    private let arrivals = Arrivals()
    private let store: Store<SearchAction, SearchState, Void>
    private var last = 0

    init() {
        let arrivals = self.arrivals
        let behavior = Behavior<SearchAction, SearchState, Void>
            .reduce { action, state in
                // Answers of replaced queries may still arrive, in any order: keep the highest.
                if case .results(let query) = action, query > state.answered {
                    state.answered = query
                    arrivals.arrived(query)
                }
            }
            .produce { action, _ in
                guard case .query(let query) = action else { return .doNothing }
                return Producer { _ in
                    .task(scheduling: .keyed(id: "search")) { send in send(.results(query)) }
                }
            }
        store = Store(initial: SearchState(), behavior: behavior)
    }

    /// Dispatches `count` queries, each replacing the one before.
    func query(_ count: Int) {
        for _ in 0..<count {
            last &+= 1
            store.dispatch(.query(last))
        }
    }

    /// Waits for the answer to the last query.
    func settle() async {
        await arrivals.wait(for: last, current: store.state.answered)
    }
}

/// Actions of `effects.channel.fanIn`.
enum FanInAction: Sendable, Equatable {
    case open
    case got(producer: Int, sequence: Int)
}

/// State of `effects.channel.fanIn`.
struct FanInState: Sendable, Equatable {
    var isOpen = false
    var count = 0
}

/// Resumes a measured loop once the store has reduced what it waits for: the reducer reports a
/// running figure with ``arrived(_:)``, and the loop awaits ``wait(for:current:)``. No polling, and
/// no allocation per wait.
final class Arrivals: @unchecked Sendable {
    // `@unchecked`: only touched on the main actor (the measured loop and the Store's reducers),
    // never by overlapping accesses, so no dynamic exclusivity checks (each would cost the
    // measured loops, the reference's as the library's, a few dozen instructions).
    @exclusivity(unchecked) private var target = Int.max
    @exclusivity(unchecked) private var waiter: UnsafeContinuation<Void, Never>?
    /// Called, instead of resuming a waiter, when the target is reached (``expect(_:then:)``).
    @exclusivity(unchecked) private var reached: (() -> Void)?

    /// Called by the reducer with the figure it reached; resumes the loop (or calls what
    /// ``expect(_:then:)`` was given) when it is the target.
    func arrived(_ figure: Int) {
        guard figure == target else { return }
        target = .max
        if let waiter {
            self.waiter = nil
            waiter.resume()
        } else if let reached {
            self.reached = nil
            reached()
        }
    }

    /// Suspends until the reducer reports `target`; returns at once when `current` already is.
    @MainActor
    func wait(for target: Int, current: Int) async {
        guard current < target else { return }
        self.target = target
        await withUnsafeContinuation { waiter = $0 }
    }

    /// Calls `reached` from the reducer that reports `target`.
    @MainActor
    func expect(_ target: Int, then reached: @escaping () -> Void) {
        self.target = target
        self.reached = reached
    }
}

/// Runs round trips in turns: `start(n)` sends `n` (dispatches actions whose answers come back
/// later), and the turn's last answer, as the store's reducer reports it to ``Arrivals``, starts
/// the next turn, until the sample's last answer resumes the waiting loop.
///
/// Why not await each turn: on Linux a continuation resumed on the main actor is first enqueued
/// on the global executor and then hops back, and each of those hops finds an idle thread to wake
/// (20–40 µs per resume on this 2-core VM, measured in the control and the library alike). That is
/// the waiting loop's own cost, not the answers'. The measured loop still waits through one
/// continuation per sample, resumed by the store's reducer. (An observer of the store would do
/// too, but is called for every dispatch: about 80 ns per round trip here, which the reference,
/// `effects.roundtrip.taskPerAction`, does not pay.)
///
/// A turn of one (one action in flight) starts the next at once, from the reducer: the dispatch
/// is queued behind the answer being processed, as an observer's would be. A longer turn starts
/// the next from a main-actor task, so its dispatches run as the loop's would, not through the
/// Store's synchronous queue; that task runs right after the drain (the main queue is busy: no
/// thread to wake), one hop per turn.
@MainActor
final class RoundTripChain {
    private let arrivals: Arrivals
    private let start: @MainActor (Int) -> Void
    private let turn: Int
    // Unchecked, as in ``Arrivals``: only the main actor touches them, one access at a time.
    @exclusivity(unchecked) private var remaining = 0
    @exclusivity(unchecked) private var expected: Int
    @exclusivity(unchecked) private var waiter: UnsafeContinuation<Void, Never>?

    /// A chain over `store`, whose `CounterState.count` counts answers (each reported to
    /// `arrivals` by its reducer); `start(n)` sends `n` round trips, at most `turn` at a time.
    init<Environment>(
        store: Store<CounterAction, CounterState, Environment>, arrivals: Arrivals, turn: Int = 1, start: @escaping @MainActor (Int) -> Void
    ) {
        precondition(turn > 0, "a turn sends at least one round trip")
        self.arrivals = arrivals
        self.start = start
        self.turn = turn
        expected = store.state.count
    }

    /// The turn's last answer arrived: start the next turn, or resume the loop after the last.
    private func turnAnswered() {
        if remaining > 0 {
            if turn == 1 {
                startTurn()
            } else {
                Task { @MainActor in self.startTurn() }
            }
        } else if let waiter {
            self.waiter = nil
            waiter.resume()
        }
    }

    /// Sends the next turn. The expected count is kept here: the reducer that reports an answer
    /// runs while the store's state is being mutated, where reading it is not allowed.
    private func startTurn() {
        let count = min(turn, remaining)
        remaining -= count
        expected += count
        arrivals.expect(expected) { [unowned self] in self.turnAnswered() }
        start(count)
    }

    /// Runs `count` round trips, a turn at a time, and returns after the last answer.
    func run(_ count: Int) async {
        guard count > 0 else { return }
        remaining = count
        await withUnsafeContinuation { continuation in
            waiter = continuation
            startTurn()
        }
    }
}

/// `effects.task.roundtrip.raw`: one global-executor Task per action and one hop back to the main
/// actor per call, by hand.
final class RawTaskRoundTrip: Sendable {
    private struct State {
        var arrived = 0
        var target = 0
        var waiter: UnsafeContinuation<Void, Never>?
    }

    private let state = Mutex(State())

    /// Starts `count` tasks and waits until each has answered.
    @MainActor
    func run(_ count: Int) async {
        state.withLock { $0.target = $0.arrived + count }
        for _ in 0..<count { spawn() }
        await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
            let done = state.withLock { state -> Bool in
                if state.arrived >= state.target { return true }
                state.waiter = continuation
                return false
            }
            if done { continuation.resume() }
        }
    }

    private nonisolated func spawn() {
        Task<Void, any Error> { () async throws in self.arrive() }
    }

    private func arrive() {
        let waiter = state.withLock { state -> UnsafeContinuation<Void, Never>? in
            state.arrived += 1
            guard state.arrived == state.target, let waiter = state.waiter else { return nil }
            state.waiter = nil
            return waiter
        }
        waiter?.resume()
    }
}

/// `effects.task.keyed.raw`: what a replaced keyed task costs by hand. Each query cancels the
/// previous run (a flag, then its Task) and creates a main-actor Task, as the Store does so a
/// replaced run never wakes a worker thread; the one not replaced hops to the global executor and
/// resumes the loop.
@MainActor
final class RawKeyedTasks {
    final class Run: Sendable {
        let running = Atomic<Bool>(true)
        nonisolated(unsafe) var task: Task<Void, any Error>?
    }

    private var previous: Run?
    private var waiter: UnsafeContinuation<Void, Never>?

    /// Starts `count` replacing tasks and waits for the last one's answer.
    func run(_ count: Int) async {
        guard count > 0 else { return }
        await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
            waiter = continuation
            for index in 0..<count { start(isLast: index == count - 1) }
        }
    }

    /// Starts `count` replacing tasks that do not answer (`run` answers and awaits).
    func start(_ count: Int) {
        for _ in 0..<count { start(isLast: false) }
    }

    private func start(isLast: Bool) {
        if let previous, previous.running.exchange(false, ordering: .acquiringAndReleasing) { previous.task?.cancel() }
        let run = Run()
        run.task = Task<Void, any Error> { @MainActor () async throws in
            guard run.running.load(ordering: .acquiring) else { return }
            await Self.answer(isLast: isLast)
            guard isLast else { return }
            self.answered()
        }
        previous = run
    }

    /// The body's hop to the global executor, where an effect's body runs.
    private nonisolated static func answer(isLast: Bool) async {}

    private func answered() {
        let waiter = self.waiter
        self.waiter = nil
        waiter?.resume()
    }
}
