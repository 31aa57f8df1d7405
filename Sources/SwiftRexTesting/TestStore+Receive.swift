@_spi(Testing) import SwiftRex
import Testing

extension TestStore {
    /// Pops the first action effects sent, checks it with `matches`, processes it and asserts the
    /// resulting state. A non-matching action is still processed, so later assertions stay
    /// meaningful (a non-exhaustive store processes it unasserted and looks at the next one).
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
        await receive(
            extracting: prism.preview, expecting: "an action in the prism's case (carrying \(Value.self))", timeout: timeout,
            location: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column), assert: assert)
    }

    /// Receives an action in the case a chain of case properties names, `\.search.results` (see
    /// ``CaseChain``); `assert` also gets the payload. Waits as
    /// ``receive(_:timeout:fileID:filePath:line:column:assert:)-((Action)->Bool,_,_,_,_,_,_)`` does.
    ///
    /// ```swift
    /// await store.receive(\.search.results) { results, state in state.search.results = results }
    /// ```
    public func receive<Value>(
        _ casePath: KeyPath<CaseChain<Action>, CaseChain<Value>>,
        timeout: Duration = .seconds(5),
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column,
        assert: ((Value, inout State) -> Void)? = nil
    ) async {
        await receive(
            extracting: { CaseChain($0)[keyPath: casePath].value },
            expecting: "an action in the case key path's case (carrying \(Value.self))", timeout: timeout,
            location: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column), assert: assert)
    }

    /// A `receive` whose expected action is the one `extract` finds a payload in; `assert` gets it.
    private func receive<Value>(
        extracting extract: (Action) -> Value?, expecting expectation: String, timeout: Duration, location: SourceLocation,
        assert: ((Value, inout State) -> Void)?
    ) async {
        await receive(
            expecting: expectation,
            location: location,
            timeout: timeout,
            mismatch: { extract($0) == nil ? "" : nil },
            assert: { state, received in
                if let value = extract(received) { assert?(value, &state) }
            }
        )
    }

    /// The shared body of every `receive`: pops the first received action, reports a mismatch
    /// (`mismatch` returns `nil` when the action is the expected one, else extra detail), processes
    /// the action anyway and asserts the state. A non-exhaustive store processes a mismatch
    /// unasserted and goes on to the next action.
    private func receive(
        expecting expectation: String,
        location: SourceLocation,
        timeout: Duration,
        mismatch: (Action) -> String?,
        assert: (inout State, Action) -> Void
    ) async {
        let deadline = ContinuousClock.now.advanced(by: max(timeout, .zero))
        while true {
            let (next, timedOut) = await nextReceived(timeout: ContinuousClock.now.duration(to: deadline))
            guard let (received, depth) = next else {
                Issue.record(Comment(rawValue: nothingArrived(expecting: expectation, within: timedOut ? timeout : nil)), sourceLocation: location)
                return
            }
            let before = store.state
            if let detail = mismatch(received.action) {
                guard exhaustivity == .on else {
                    store.processEffectAction(received, depth: depth)
                    skipped(receivedUnasserted(received.action, before: before), at: location)
                    continue
                }
                Issue.record(
                    Comment(
                        rawValue:
                            "Received an action other than the expected one:\n  expected: \(expectation)\n  received: \(describe(received.action))\(detail)"
                    ),
                    sourceLocation: location
                )
            }
            store.processEffectAction(received, depth: depth)
            expectState(
                before: before, assert: { assert(&$0, received.action) }, after: "receiving \(describe(received.action))", location: location)
            return
        }
    }

    // MARK: Waiting

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

    /// Resumes the `receive` waiting for an action.
    func wakeReceive() {
        guard let arrival else { return }
        self.arrival = nil
        arrival.resume()
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
}
