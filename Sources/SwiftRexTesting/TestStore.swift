import Foundation
@_spi(Testing) import SwiftRex
import Testing

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
    /// The `receive` waiting for an action, resumed when one arrives (or on its next tick).
    private var arrival: CheckedContinuation<Void, Never>?

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
        store = Store(
            initial: initial, behavior: behavior, environment: environment, clock: { _ in clock }, date: date, uuid: uuid ?? generators.uuid)
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
    /// resulting state. A non-matching action is still processed, so later assertions stay
    /// meaningful.
    ///
    /// When no action is there yet, it waits for one while an effect is still running or a channel
    /// is open (an `Effect.task` calling a slow fake, say): for `timeout` of real time, then for
    /// 10 more turns of the main actor before it reports the timeout. Each turn waits up to 10 ms
    /// (less when an action arrives) and resumes through the main actor's queue, so only after
    /// every job queued there before the turn has run: an action whose delivering job was
    /// stuck behind other main-actor work when the timeout passed (a busy test suite, a test
    /// blocking the main thread) is still received. On an idle main actor the turns add about
    /// 0.1 s to a timeout; behind a backlog they last as long as the backlog does.
    ///
    /// When nothing can send — every effect has ended, or waits on the manual ``clock`` — it fails
    /// at once instead: advance the clock first. Actions that effects send synchronously when
    /// ``advance(by:)`` fires their timers are already there, so that path never waits.
    public func receive(
        _ matches: (Action) -> Bool,
        timeout: Duration = .seconds(5),
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column,
        assert: ((inout State) -> Void)? = nil
    ) async {
        let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        await receive(
            expecting: "an action the predicate accepts",
            location: location,
            timeout: timeout,
            mismatch: { matches($0) ? nil : "" },
            assert: { state, _ in assert?(&state) }
        )
    }

    /// Receives an action equal to `action`, waiting as
    /// ``receive(_:timeout:fileID:filePath:line:column:assert:)-((Action)->Bool,_,_,_,_,_,_)`` does.
    /// A different action is reported with both actions side by side and, when they are the same
    /// case, the parts of the payload that differ.
    public func receive(
        _ action: Action,
        timeout: Duration = .seconds(5),
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column,
        assert: ((inout State) -> Void)? = nil
    ) async where Action: Equatable {
        let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        await receive(
            expecting: describe(action),
            location: location,
            timeout: timeout,
            mismatch: { received in
                guard received != action else { return nil }
                // Different cases: the side-by-side lines say it all; the same case: show what differs.
                guard isSameCase(action, received) else { return "" }
                return "\n" + stateDifference(expected: action, actual: received, limit: 10)
            },
            assert: { state, _ in assert?(&state) }
        )
    }

    /// Receives an action in `prism`'s case; `assert` also gets the extracted payload. Waits as
    /// ``receive(_:timeout:fileID:filePath:line:column:assert:)-((Action)->Bool,_,_,_,_,_,_)`` does.
    public func receive<Value>(
        _ prism: Prism<Action, Value>,
        timeout: Duration = .seconds(5),
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column,
        assert: ((Value, inout State) -> Void)? = nil
    ) async {
        let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        await receive(
            expecting: "an action in the prism's case (carrying \(Value.self))",
            location: location,
            timeout: timeout,
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
        timeout: Duration,
        mismatch: (Action) -> String?,
        assert: (inout State, Action) -> Void
    ) async {
        let (next, timedOut) = await nextReceived(timeout: timeout)
        guard let (received, depth) = next else {
            Issue.record(Comment(rawValue: nothingArrived(expecting: expectation, within: timedOut ? timeout : nil)), sourceLocation: location)
            return
        }
        if let detail = mismatch(received.action) {
            Issue.record(
                Comment(
                    rawValue:
                        "Received an action other than the expected one:\n  expected: \(expectation)\n  received: \(describe(received.action))\(detail)"
                ),
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

    /// The longest `receive` waits between two looks (to notice effects that end without sending).
    private static var tick: Duration { .milliseconds(10) }

    /// The turns of the main actor `receive` still waits once its timeout has passed (see `receive`).
    private static var turnsAfterTimeout: Int { 10 }

    /// The first received action, waiting for it while something can still send (see `receive`);
    /// `nil` when none came, with whether the wait timed out (else nothing could send).
    private func nextReceived(timeout: Duration) async -> (received: (DispatchedAction<Action>, Int)?, timedOut: Bool) {
        let deadline = ContinuousClock.now.advanced(by: max(timeout, .zero))
        var turnsAfterDeadline = 0
        while true {
            collectReceived()
            if !receivedActions.isEmpty {
                return ((receivedActions.removeFirst(), receivedDepths.removeFirst()), false)
            }
            if !store.hasRunningEffects && store.openChannelIDs.isEmpty { return (nil, false) }
            let now = ContinuousClock.now
            let tickEnd = now.advanced(by: Self.tick)
            if now < deadline {
                await waitForArrival(until: min(deadline, tickEnd))
            } else if turnsAfterDeadline < Self.turnsAfterTimeout {
                // Time is up, but the main actor may not have run the job that delivers the action
                // yet (queued behind other work, not late): each turn runs what was queued before it.
                turnsAfterDeadline += 1
                await waitForArrival(until: tickEnd)
            } else {
                return (nil, true)
            }
        }
    }

    /// Suspends until an action arrives or `end` passes. The timer's wake-up is a main-actor job,
    /// so without an arrival it resumes only after every main-actor job queued before it has run.
    private func waitForArrival(until end: ContinuousClock.Instant) async {
        let timer = Task { @MainActor [weak self] in
            try? await Task.sleep(until: end, clock: .continuous)
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
        Issue.record(
            Comment(rawValue: "State after \(step) differs from the expected state:\n\(stateDifference(expected: expected, actual: actual))"),
            sourceLocation: location
        )
    }

    /// Why no action arrived: within how long (when `receive` waited on a running effect), what the
    /// store still holds, and what would move it on.
    private func nothingArrived(expecting expectation: String, within timeout: Duration?) -> String {
        var message = "Expected to receive \(expectation), but no action arrived"
        message += timeout.map { " within \($0) (the timeout)." } ?? "."
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
