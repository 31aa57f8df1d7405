import Foundation
import Testing
@_spi(Testing) import SwiftRex

/// A store for tests: the real `Store` pipeline (phases, effects, channels and reconcile), a
/// ``SwiftRex/ManualClock``, and assertions on every state change and every action effects send
/// back (<doc:Testing>).
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

    /// The current state.
    public var state: State { store.state }

    /// A test store over a behavior and an environment, on a fresh ``SwiftRex/ManualClock``, with a
    /// fixed date and sequential UUIDs.
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
                "Must handle \(count(receivedActions.count, "received action")) before sending \(describe(action)): \(describe(receivedActions))",
                sourceLocation: location
            )
        }
        var expected = store.state
        assert?(&expected)
        store.dispatch(action, source: ActionSource(file: fileID, function: "TestStore.send", line: UInt(line)))
        expectState(expected, after: "sending \(describe(action))", location: location)
        return self
    }

    // MARK: Receiving

    /// Pops the first action effects sent, checks it with `matches`, processes it and asserts the
    /// resulting state. Waits (yielding the main actor, bounded) for async effects to send it.
    /// A non-matching action is still processed, so later assertions stay meaningful.
    public func receive(
        _ matches: (Action) -> Bool,
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column,
        assert: ((inout State) -> Void)? = nil
    ) async {
        let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        await receive(
            expecting: "an action the predicate accepts",
            location: location,
            mismatch: { matches($0) ? nil : "" },
            assert: { state, _ in assert?(&state) }
        )
    }

    /// Receives an action equal to `action`; see
    /// ``receive(_:fileID:filePath:line:column:assert:)-((Action)->Bool,_,_,_,_,_)``. A different
    /// action is reported with both actions side by side and, when they are the same case, the
    /// parts of the payload that differ.
    public func receive(
        _ action: Action,
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column,
        assert: ((inout State) -> Void)? = nil
    ) async where Action: Equatable {
        let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        await receive(
            expecting: describe(action),
            location: location,
            mismatch: { received in
                guard received != action else { return nil }
                // Different cases: the side-by-side lines say it all; the same case: show what differs.
                guard isSameCase(action, received) else { return "" }
                return "\n" + stateDifference(expected: action, actual: received, limit: 10)
            },
            assert: { state, _ in assert?(&state) }
        )
    }

    /// Receives an action in `prism`'s case; `assert` also gets the extracted payload.
    public func receive<Value>(
        _ prism: Prism<Action, Value>,
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column,
        assert: ((Value, inout State) -> Void)? = nil
    ) async {
        let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        await receive(
            expecting: "an action in the prism's case (carrying \(Value.self))",
            location: location,
            mismatch: { prism.preview($0) == nil ? "" : nil },
            assert: { state, received in
                if let value = prism.preview(received) { assert?(value, &state) }
            }
        )
    }

    /// The shared body of every `receive`: pops the first received action, reports a mismatch
    /// (`mismatch` returns `nil` when the action is the expected one, else extra detail), processes
    /// the action anyway and asserts the state.
    private func receive(
        expecting expectation: String,
        location: SourceLocation,
        mismatch: (Action) -> String?,
        assert: (inout State, Action) -> Void
    ) async {
        guard let (received, depth) = await nextReceived() else {
            Issue.record(Comment(rawValue: nothingArrived(expecting: expectation)), sourceLocation: location)
            return
        }
        if let detail = mismatch(received.action) {
            Issue.record(
                Comment(rawValue: "Received an action other than the expected one:\n  expected: \(expectation)\n  received: \(describe(received.action))\(detail)"),
                sourceLocation: location
            )
        }
        var expected = store.state
        assert(&expected, received.action)
        store.processEffectAction(received, depth: depth)
        expectState(expected, after: "receiving \(describe(received.action))", location: location)
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

    private func nextReceived() async -> (DispatchedAction<Action>, Int)? {
        for _ in 0..<1_000 {
            collectReceived()
            if !receivedActions.isEmpty {
                return (receivedActions.removeFirst(), receivedDepths.removeFirst())
            }
            await Task.yield()
        }
        return nil
    }

    private func expectState(_ expected: State, after step: String, location: SourceLocation) {
        let actual = store.state
        guard expected != actual else { return }
        Issue.record(
            Comment(rawValue: "State after \(step) differs from the expected state:\n\(stateDifference(expected: expected, actual: actual))"),
            sourceLocation: location
        )
    }

    /// Why no action arrived: what the store still holds, and what would move it on.
    private func nothingArrived(expecting expectation: String) -> String {
        var message = "Expected to receive \(expectation), but no action arrived."
        let pending = store.pendingEffects.filter { $0.kind != .openChannel }
        if pending.isEmpty {
            message += " No effect is running or waiting on the clock."
        } else {
            message += " Still pending:\n" + pending.map { "  \($0)" }.joined(separator: "\n")
            if pending.contains(where: \.waitsOnTheClock) {
                message += "\n(advance the manual clock with `advance(by:)` to fire what waits on it)"
            }
        }
        return message
    }

    private func checkExhaustion(sourceLocation: SourceLocation?) {
        collectReceived()
        var problems: [String] = []
        if !receivedActions.isEmpty {
            problems.append("\(count(receivedActions.count, "received action")) not asserted: \(describe(receivedActions))\n  (assert each with `receive`, or drop them with `skipReceivedActions()`)")
        }
        let pending = store.pendingEffects
        let effects = pending.filter { $0.kind != .openChannel }
        let channels = pending.filter { $0.kind == .openChannel }
        if !effects.isEmpty {
            var text = "\(count(effects.count, "effect")) still running or waiting:\n" + effects.map { "  \($0)" }.joined(separator: "\n")
            text += effects.contains(where: \.waitsOnTheClock)
                ? "\n  (advance the manual clock with `advance(by:)` and assert what they send, or cancel them with `Effect.cancel(id:)`)"
                : "\n  (let them finish and assert what they send, or cancel them with `Effect.cancel(id:)`)"
            problems.append(text)
        } else if !store.isIdle {
            problems.append("effects are still running or waiting on the clock (\(store.registeredEffectCount) registered)")
        }
        if !channels.isEmpty {
            problems.append(
                "\(count(channels.count, "channel")) still open:\n" + channels.map { "  \($0)" }.joined(separator: "\n")
                    + "\n  (a supervised channel closes when the state stops wanting it; close others with `Effect.cancel(id:)`)"
            )
        }
        guard !problems.isEmpty else { return }
        let message = Comment(rawValue: "TestStore finished with work left:\n- " + problems.joined(separator: "\n- "))
        if let sourceLocation {
            Issue.record(message, sourceLocation: sourceLocation)
        } else {
            Issue.record(message)
        }
    }

    /// An action in a failure message: at most a few hundred characters, however large its payload.
    private func describe(_ action: Action) -> String {
        boundedDescription(action, budget: 200)
    }

    private func describe(_ actions: [DispatchedAction<Action>]) -> String {
        let shown = actions.prefix(10).map { describe($0.action) }.joined(separator: ", ")
        return actions.count > 10 ? shown + ", … (\(actions.count - 10) more)" : shown
    }

    private func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
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
