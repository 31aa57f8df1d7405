import Foundation
import Testing
@_spi(Testing) import SwiftRex

/// A store for tests: the real `Store` pipeline (phases, effects, channels and reconcile), a
/// ``ManualClock``, and assertions on every state change and every action effects send back.
///
/// Exhaustive by default: sending while received actions are unhandled, and finishing with
/// unhandled actions, running effects or open channels, are recorded as test issues. Set
/// ``exhaustive`` to `false` to assert only what you care about.
///
/// ```swift
/// let store = TestStore(initial: Search.State(), behavior: search, environment: env)
/// store.send(.query("swift")) { $0.query = "swift" }
/// await store.advance(by: .milliseconds(300))
/// await store.receive({ if case .results = $0 { true } else { false } }) { $0.results = ["SwiftRex"] }
/// await store.finish()
/// ```
@MainActor
public final class TestStore<Action: Sendable, State: Sendable & Equatable, Environment: Sendable> {
    /// The store under test: the same pipeline as production.
    public let store: Store<Action, State, Environment>
    /// The manual clock the store schedules on; ``advance(by:)`` moves it.
    public let clock: ManualClock
    /// Whether every received action must be asserted and every effect finished (default `true`).
    public var exhaustive: Bool
    /// Actions sent by effects and channels, not yet asserted with `receive`.
    public private(set) var receivedActions: [DispatchedAction<Action>] = []
    private var receivedDepths: [Int] = []
    private var finished = false
    /// The `receive` waiting for an action, resumed when one arrives (or on its next tick).
    private var arrival: CheckedContinuation<Void, Never>?

    /// The current state.
    public var state: State { store.state }

    /// A test store over a behavior and an environment, on a fresh ``ManualClock``, with a fixed
    /// date and sequential UUIDs.
    public init(
        initial: State,
        behavior: Behavior<Action, State, Environment>,
        environment: Environment,
        exhaustive: Bool = true,
        clock: ManualClock = ManualClock(),
        date: @escaping @Sendable () -> Date = { Date(timeIntervalSince1970: 0) },
        uuid: (@Sendable () -> UUID)? = nil
    ) {
        self.clock = clock
        self.exhaustive = exhaustive
        let generators = StoreGenerators.deterministic(clock: clock)
        store = Store(initial: initial, behavior: behavior, environment: environment, clock: { _ in clock }, date: date, uuid: uuid ?? generators.uuid)
        store.effectActionInterceptor = { [weak self] action, depth in
            self?.receivedActions.append(action)
            self?.receivedDepths.append(depth)
            self?.wakeReceive()
        }
    }

    isolated deinit {
        if exhaustive && !finished { checkExhaustion(sourceLocation: nil) }
    }

    // MARK: Sending

    /// Dispatches `action` and asserts the resulting state: `assert` turns the state before into
    /// the state expected after (omit it when the action must not change the state).
    @discardableResult
    public func send(
        _ action: Action,
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column,
        assert: ((inout State) -> Void)? = nil
    ) -> Self {
        let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        collectReceived()
        if exhaustive && !receivedActions.isEmpty {
            Issue.record(
                "Must handle \(receivedActions.count) received action(s) before sending \(action): \(describe(receivedActions))",
                sourceLocation: location
            )
        }
        var expected = store.state
        assert?(&expected)
        store.dispatch(action, source: ActionSource(file: fileID, function: "TestStore.send", line: UInt(line)))
        expectState(expected, after: "sending \(action)", location: location)
        return self
    }

    // MARK: Receiving

    /// Pops the first action effects sent, checks it with `matches`, processes it and asserts the
    /// resulting state. A non-matching action is still processed, so later assertions stay
    /// meaningful.
    ///
    /// When no action is there yet, it waits for one for up to `timeout` of real time, while an
    /// effect is still running or a channel is open (an `Effect.task` calling a slow fake, say). When
    /// nothing can send — every effect has ended, or waits on the manual ``clock`` — it fails at
    /// once instead: advance the clock first. Actions that effects send synchronously when
    /// ``advance(by:)`` fires their timers are already there, so that path never waits.
    public func receive(
        _ matches: (Action) -> Bool,
        timeout: Duration = .seconds(5),
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column,
        assert: ((inout State) -> Void)? = nil
    ) async {
        let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        guard let (received, depth) = await nextReceived(timeout: timeout, location: location) else { return }
        if !matches(received.action) {
            Issue.record("Received \(received.action), which does not match", sourceLocation: location)
        }
        var expected = store.state
        assert?(&expected)
        store.processEffectAction(received, depth: depth)
        expectState(expected, after: "receiving \(received.action)", location: location)
    }

    /// Receives an action equal to `action`; see ``receive(_:timeout:fileID:filePath:line:column:assert:)-(Action)->Bool``.
    public func receive(
        _ action: Action,
        timeout: Duration = .seconds(5),
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column,
        assert: ((inout State) -> Void)? = nil
    ) async where Action: Equatable {
        await receive({ $0 == action }, timeout: timeout, fileID: fileID, filePath: filePath, line: line, column: column, assert: assert)
    }

    /// Receives an action in `prism`'s case; `assert` also gets the extracted payload. Waits as
    /// ``receive(_:timeout:fileID:filePath:line:column:assert:)-(Action)->Bool`` does.
    public func receive<Value>(
        _ prism: Prism<Action, Value>,
        timeout: Duration = .seconds(5),
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column,
        assert: ((Value, inout State) -> Void)? = nil
    ) async {
        let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        guard let (received, depth) = await nextReceived(timeout: timeout, location: location) else { return }
        var expected = store.state
        if let value = prism.preview(received.action) {
            assert?(value, &expected)
        } else {
            Issue.record("Received \(received.action), which is not the expected case", sourceLocation: location)
        }
        store.processEffectAction(received, depth: depth)
        expectState(expected, after: "receiving \(received.action)", location: location)
    }

    /// Drops the received actions without asserting them.
    public func skipReceivedActions() async {
        await settle()
        receivedActions.removeAll()
        receivedDepths.removeAll()
    }

    // MARK: Time

    /// Advances the manual clock (firing the store's timers synchronously), then lets async
    /// effects that were waiting on it run.
    public func advance(by duration: Duration) async {
        clock.advance(by: duration)
        await settle()
    }

    /// Yields the main actor until effects stop sending (bounded), collecting what they sent.
    public func settle(turns: Int = 100) async {
        var quiet = 0
        var lastCount = -1
        for _ in 0..<turns {
            collectReceived()
            if receivedActions.count == lastCount && store.isIdle {
                quiet += 1
                if quiet >= 3 { break }
            } else {
                quiet = 0
            }
            lastCount = receivedActions.count
            await Task.yield()
        }
        collectReceived()
    }

    /// Ends the test: in exhaustive mode, records an issue for every unhandled received action,
    /// every effect still running and every channel still open.
    public func finish(fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column) async {
        await settle()
        finished = true
        if exhaustive {
            checkExhaustion(sourceLocation: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
        }
    }

    // MARK: Private

    private func collectReceived() {
        store.drainEffectActionsNow()
    }

    /// The first received action, waiting for it (see `receive`); records the issue when none comes.
    private func nextReceived(timeout: Duration, location: SourceLocation) async -> (DispatchedAction<Action>, Int)? {
        let realTime = ContinuousClock()
        let deadline = realTime.now.advanced(by: max(timeout, .zero))
        while true {
            collectReceived()
            if !receivedActions.isEmpty {
                return (receivedActions.removeFirst(), receivedDepths.removeFirst())
            }
            if !store.hasRunningEffects && store.openChannelIDs.isEmpty {
                let waiting = clock.pendingCount
                let hint = waiting > 0 ? " (\(waiting) wait on the manual clock: advance it first)" : ""
                Issue.record(Comment(rawValue: "Expected to receive an action, but none arrived and no effect is running" + hint), sourceLocation: location)
                return nil
            }
            if realTime.now >= deadline {
                Issue.record("Expected to receive an action, but none arrived within \(timeout)", sourceLocation: location)
                return nil
            }
            await waitForArrival(until: deadline, on: realTime)
        }
    }

    /// Suspends until an action arrives or a short tick passes (to notice effects that end without
    /// sending), never past `deadline`.
    private func waitForArrival(until deadline: ContinuousClock.Instant, on clock: ContinuousClock) async {
        let tick = min(deadline, clock.now.advanced(by: .milliseconds(10)))
        let timer = Task { @MainActor [weak self] in
            try? await Task.sleep(until: tick, clock: clock)
            self?.wakeReceive()
        }
        await withCheckedContinuation { arrival = $0 }
        timer.cancel()
    }

    private func wakeReceive() {
        guard let arrival else { return }
        self.arrival = nil
        arrival.resume()
    }

    private func expectState(_ expected: State, after step: String, location: SourceLocation) {
        let actual = store.state
        guard expected != actual else { return }
        Issue.record("State after \(step) differs from the expected state \(stateDifference(expected: expected, actual: actual))", sourceLocation: location)
    }

    private func checkExhaustion(sourceLocation: SourceLocation?) {
        collectReceived()
        var problems: [String] = []
        if !receivedActions.isEmpty { problems.append("\(receivedActions.count) received action(s) not asserted: \(describe(receivedActions))") }
        if !store.isIdle { problems.append("effects are still running or waiting on the clock (\(store.registeredEffectCount) registered)") }
        if !store.openChannelIDs.isEmpty { problems.append("channels are still open: \(store.openChannelIDs)") }
        guard !problems.isEmpty else { return }
        let message = Comment(rawValue: "TestStore finished with " + problems.joined(separator: "; "))
        if let sourceLocation {
            Issue.record(message, sourceLocation: sourceLocation)
        } else {
            Issue.record(message)
        }
    }

    private func describe(_ actions: [DispatchedAction<Action>]) -> String {
        actions.map { "\($0.action)" }.joined(separator: ", ")
    }
}

extension TestStore where Environment == Void {
    /// A test store over a behavior with no environment.
    public convenience init(initial: State, behavior: Behavior<Action, State, Void>, exhaustive: Bool = true, clock: ManualClock = ManualClock()) {
        self.init(initial: initial, behavior: behavior, environment: (), exhaustive: exhaustive, clock: clock)
    }

    /// A test store over a reducer.
    public convenience init(initial: State, reducer: Reducer<Action, State>, exhaustive: Bool = true) {
        self.init(initial: initial, behavior: reducer.asBehavior(), environment: (), exhaustive: exhaustive)
    }
}
