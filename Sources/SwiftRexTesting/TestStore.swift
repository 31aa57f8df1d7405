import Foundation
@_spi(Testing) import SwiftRex
import Testing

/// A store for tests: the real `Store` pipeline (phases, effects, channels and reconcile), a
/// ``SwiftRex/ManualClock``, and assertions on every state change and every action effects send
/// back (<doc:Testing>).
///
/// Exhaustive by default: sending while received actions are unhandled, and finishing with
/// unhandled actions, running effects or open channels, are recorded as test issues. Set
/// ``exhaustivity`` to ``Exhaustivity/off`` to assert only what you care about.
///
/// ```swift
/// let store = TestStore(initial: Search.State(), behavior: search, environment: env)
/// store.send(.query("swift")) { $0.query = "swift" }
/// await store.advance(by: .milliseconds(300))
/// await store.receive(\.results) { $0.results = ["SwiftRex"] }
/// await store.finish()
/// ```
@MainActor
public final class TestStore<Action: Sendable, State: Sendable & Equatable, Environment: Sendable> {
    /// The store under test: the same pipeline as production.
    public let store: Store<Action, State, Environment>
    /// The manual clock the store schedules on; ``advance(by:)`` moves it.
    public let clock: ManualClock
    /// How much of the test is checked (default ``Exhaustivity/on``).
    public var exhaustivity: Exhaustivity
    /// Actions sent by effects and channels, not yet asserted with `receive`.
    public internal(set) var receivedActions: [DispatchedAction<Action>] = []
    var receivedDepths: [Int] = []
    private var finished = false
    /// The `receive` waiting for an action, resumed when one arrives (or on its next tick).
    var arrival: CheckedContinuation<Void, Never>?
    /// Where the checks a non-exhaustive store skips go when it shows them (a test may capture them).
    @_spi(Testing) public var reportSkipped: SkippedAssertionReporter = recordSkippedAssertion(_:at:)

    /// The current state.
    public var state: State { store.state }

    /// A test store over a behavior and an environment, on a fresh ``SwiftRex/ManualClock``, with a
    /// fixed date and sequential UUIDs.
    public init(
        initial: State,
        behavior: Behavior<Action, State, Environment>,
        environment: Environment,
        exhaustivity: Exhaustivity = .on,
        clock: ManualClock = ManualClock(),
        date: @escaping @Sendable () -> Date = { Date(timeIntervalSince1970: 0) },
        uuid: (@Sendable () -> UUID)? = nil
    ) {
        self.clock = clock
        self.exhaustivity = exhaustivity
        let generators = StoreGenerators.deterministic(clock: clock)
        store = Store(
            initial: initial, behavior: behavior, environment: environment, clock: { _ in clock }, date: date, uuid: uuid ?? generators.uuid)
        store.effectActionInterceptor = { [weak self] action, depth in
            self?.receivedActions.append(action)
            self?.receivedDepths.append(depth)
            self?.wakeReceive()
        }
    }

    isolated deinit {
        if exhaustivity == .on && !finished { checkExhaustion(sourceLocation: nil) }
    }

    // MARK: Sending

    /// Dispatches `action` and asserts the resulting state: `assert` turns the state before into
    /// the state expected after (omit it when the action must not change the state). A
    /// non-exhaustive store first processes, unasserted, the actions effects sent meanwhile, and
    /// checks only what `assert` sets.
    @discardableResult
    public func send(
        _ action: Action,
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column,
        assert: ((inout State) -> Void)? = nil
    ) -> Self {
        let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        collectReceived()
        if !receivedActions.isEmpty {
            if exhaustivity == .on {
                Issue.record(
                    "Must handle \(count(receivedActions.count, "received action")) before sending \(describe(action)): \(describe(receivedActions))",
                    sourceLocation: location
                )
            } else {
                processReceivedUnasserted(location: location)
            }
        }
        let before = store.state
        store.dispatch(action, source: ActionSource(file: fileID, function: "TestStore.send", line: UInt(line)))
        expectState(before: before, assert: { assert?(&$0) }, after: "sending \(describe(action))", location: location)
        return self
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
    /// every effect still running and every channel still open (a non-exhaustive store that shows
    /// what it skips lists them instead).
    public func finish(fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column) async {
        await settle()
        finished = true
        checkExhaustion(sourceLocation: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    // MARK: Checks

    func collectReceived() {
        store.drainEffectActionsNow()
    }

    /// Checks the state after a step: against `before` changed by `assert` when exhaustive; else
    /// only what `assert` sets, against the actual state (the rest is a skipped check).
    func expectState(before: State, assert: (inout State) -> Void, after step: String, location: SourceLocation) {
        let actual = store.state
        var expected = before
        assert(&expected)
        guard case .off = exhaustivity else {
            if expected != actual {
                Issue.record(
                    Comment(rawValue: "State after \(step) differs from the expected state:\n\(stateDifference(expected: expected, actual: actual))"),
                    sourceLocation: location
                )
            }
            return
        }
        var asserted = actual
        assert(&asserted)
        if asserted != actual {
            Issue.record(
                Comment(
                    rawValue:
                        "State after \(step) differs from what the assertion sets:\n\(stateDifference(expected: asserted, actual: actual))"
                ),
                sourceLocation: location
            )
        } else if expected != actual {
            skipped("State changes after \(step) not asserted:\n\(stateDifference(expected: expected, actual: actual))", at: location)
        }
    }

    /// Processes the actions received so far without asserting them (a non-exhaustive store,
    /// before a step).
    func processReceivedUnasserted(location: SourceLocation) {
        let actions = receivedActions
        let depths = receivedDepths
        receivedActions.removeAll()
        receivedDepths.removeAll()
        for (received, depth) in zip(actions, depths) {
            let before = store.state
            store.processEffectAction(received, depth: depth)
            skipped(receivedUnasserted(received.action, before: before), at: location)
        }
    }

    /// The skipped check of an action processed without `receive`: the action, and what it changed.
    func receivedUnasserted(_ action: Action, before: State) -> String {
        let after = store.state
        let change = before == after ? " (no state change)" : ":\n" + stateDifference(expected: before, actual: after)
        return "Received \(describe(action)) unasserted\(change)"
    }

    /// A check a non-exhaustive store skipped, reported when it shows them.
    func skipped(_ text: String, at location: SourceLocation?) {
        guard exhaustivity == .off(showSkippedAssertions: true) else { return }
        reportSkipped("Skipped: " + text, location)
    }

    private func checkExhaustion(sourceLocation: SourceLocation?) {
        collectReceived()
        let problems = workLeft()
        guard !problems.isEmpty else { return }
        guard exhaustivity == .on else {
            for problem in problems { skipped(problem, at: sourceLocation) }
            return
        }
        let message = Comment(rawValue: "TestStore finished with work left:\n- " + problems.joined(separator: "\n- "))
        if let sourceLocation {
            Issue.record(message, sourceLocation: sourceLocation)
        } else {
            Issue.record(message)
        }
    }

    /// What is left to assert or to end: received actions, effects and channels.
    private func workLeft() -> [String] {
        var problems: [String] = []
        if !receivedActions.isEmpty {
            problems.append(
                "\(count(receivedActions.count, "received action")) not asserted: \(describe(receivedActions))\n  (assert each with `receive`, or drop them with `skipReceivedActions()`)"
            )
        }
        let pending = store.pendingEffects
        let effects = pending.filter { $0.kind != .openChannel }
        let channels = pending.filter { $0.kind == .openChannel }
        if !effects.isEmpty {
            var text = "\(count(effects.count, "effect")) still running or waiting:\n" + effects.map { "  \($0)" }.joined(separator: "\n")
            text +=
                effects.contains(where: \.waitsOnTheClock)
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
        return problems
    }

    /// An action in a failure message: at most a few hundred characters, however large its payload.
    func describe(_ action: Action) -> String {
        boundedDescription(action, budget: 200)
    }

    func describe(_ actions: [DispatchedAction<Action>]) -> String {
        let shown = actions.prefix(10).map { describe($0.action) }.joined(separator: ", ")
        return actions.count > 10 ? shown + ", … (\(actions.count - 10) more)" : shown
    }

    func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }
}

extension TestStore where Environment == Void {
    /// A test store over a behavior with no environment.
    public convenience init(
        initial: State, behavior: Behavior<Action, State, Void>, exhaustivity: Exhaustivity = .on, clock: ManualClock = ManualClock()
    ) {
        self.init(initial: initial, behavior: behavior, environment: (), exhaustivity: exhaustivity, clock: clock)
    }

    /// A test store over a reducer.
    public convenience init(initial: State, reducer: Reducer<Action, State>, exhaustivity: Exhaustivity = .on) {
        self.init(initial: initial, behavior: reducer.asBehavior(), environment: (), exhaustivity: exhaustivity)
    }
}
