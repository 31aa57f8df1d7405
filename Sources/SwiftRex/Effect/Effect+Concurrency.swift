import Synchronization

/// The sending end an async effect body receives: call it as `send(action)`.
///
/// Actions are stamped with the effect factory's call site. Once the effect is cancelled (or its
/// body has returned) every action sent is dropped, so a body that keeps running after
/// cancellation cannot reach the Store.
///
/// ```swift
/// Effect<AppAction>.task { send in
///     send(.loading)
///     send(.loaded(await api.fetch()))
/// }
/// ```
public struct Send<Action: Sendable>: Sendable {
    private let run: EffectRun
    private let deliver: @Sendable (Action) -> Void

    internal init(run: EffectRun, deliver: @escaping @Sendable (Action) -> Void) {
        self.run = run
        self.deliver = deliver
    }

    /// Sends `action` to the Store, unless the effect was cancelled or has finished.
    ///
    /// - Complexity: O(1).
    public func callAsFunction(_ action: Action) {
        guard run.isRunning else { return }
        deliver(action)
    }

    /// Whether the effect was cancelled; actions sent from now on are dropped.
    public var isCancelled: Bool { run.isCancelled }
}

/// The life of one async effect run: running, then either cancelled or finished — exactly one of
/// the two, decided atomically, so a run never completes after it was cancelled.
internal final class EffectRun: Sendable {
    private static let running: UInt8 = 0
    private static let cancelled: UInt8 = 1
    private static let finished: UInt8 = 2

    private let phase = Atomic<UInt8>(EffectRun.running)

    init() {}

    /// Whether the run is neither cancelled nor finished.
    var isRunning: Bool { phase.load(ordering: .acquiring) == Self.running }

    /// Whether the run was cancelled.
    var isCancelled: Bool { phase.load(ordering: .acquiring) == Self.cancelled }

    /// Marks the run cancelled; `false` when it had already finished or been cancelled.
    @discardableResult
    func cancel() -> Bool {
        phase.compareExchange(expected: Self.running, desired: Self.cancelled, ordering: .acquiringAndReleasing).exchanged
    }

    /// Marks the run finished; `false` when it was cancelled first (then it must not complete).
    func finish() -> Bool {
        phase.compareExchange(expected: Self.running, desired: Self.finished, ordering: .acquiringAndReleasing).exchanged
    }
}

extension Effect {
    /// Runs `body` in a `Task` when the effect starts; `body` sends actions through ``Send``.
    ///
    /// The effect completes when `body` returns — never after cancellation. Cancelling it (through
    /// `scheduling`, ``cancel(id:)-(AnyHashableSendable)`` or the Store's teardown) cancels the task and
    /// drops every later `send`. A run cancelled before its task starts never calls `body`.
    ///
    /// ```swift
    /// .task(scheduling: .replacing(id: "search")) { send in
    ///     send(.results(await api.search(query)))
    /// }
    /// ```
    public static func task(
        scheduling: EffectScheduling = .immediately,
        file: String = #fileID, function: String = #function, line: UInt = #line,
        _ body: @escaping @Sendable (_ send: Send<Action>) async -> Void
    ) -> Effect {
        let source = ActionSource(file: file, function: function, line: line)
        return .subscribe(scheduling: scheduling) { send, complete in
            let run = EffectRun()
            let sender = Send<Action>(run: run) { send(DispatchedAction($0, dispatcher: source)) }
            let task = Task {
                guard run.isRunning else { return }
                await body(sender)
                if run.finish() { complete() }
            }
            return SubscriptionToken {
                run.cancel()
                task.cancel()
            }
        }
    }

    /// Runs `operation` in a `Task` and sends the action it returns, if any; then completes.
    ///
    /// The single-action convenience of ``task(scheduling:file:function:line:_:)``, labelled
    /// `operation:` so the two never clash. The same cancellation rules apply: after cancellation
    /// the returned action is dropped and the effect never completes.
    ///
    /// ```swift
    /// .task(operation: { await api.isReachable() ? .online : nil })
    /// ```
    public static func task(
        scheduling: EffectScheduling = .immediately,
        file: String = #fileID, function: String = #function, line: UInt = #line,
        operation: @escaping @Sendable () async -> Action?
    ) -> Effect {
        task(scheduling: scheduling, file: file, function: function, line: line) { send in
            if let action = await operation() { send(action) }
        }
    }

    /// Sends every element of `sequence`, in order, then completes when it ends.
    ///
    /// Iteration runs in a `Task`; cancelling the effect cancels that task, drops any element sent
    /// afterwards and never completes.
    ///
    /// ```swift
    /// .asyncSequence(locationManager.updates.map(AppAction.moved), scheduling: .keyed(id: "gps"))
    /// ```
    public static func asyncSequence(
        _ sequence: some AsyncSequence<Action, Never> & Sendable,
        scheduling: EffectScheduling = .immediately,
        file: String = #fileID, function: String = #function, line: UInt = #line
    ) -> Effect {
        task(scheduling: scheduling, file: file, function: function, line: line) { send in
            for await action in sequence {
                guard !send.isCancelled else { return }
                send(action)
            }
        }
    }

    /// Opens a channel under `scheduling.id` whose values are consumed as an `AsyncStream`.
    ///
    /// Wraps ``channel(value:scheduling:file:function:line:_:)``: `value` and every value delivered
    /// later into the live channel (through ``broadcast(_:channel:)-(_,AnyHashableSendable)`` or another
    /// `channel` under the same id) is yielded into the stream, buffered by `bufferingPolicy`.
    /// `consume` runs in a `Task`. Cancelling the channel finishes the stream, cancels the task and
    /// drops later sends; when `consume` returns, the channel completes and closes.
    ///
    /// - Important: give `scheduling` an id, as for every channel.
    ///
    /// ```swift
    /// .channel(value: query, scheduling: .keyed(id: "search"), bufferingPolicy: .bufferingNewest(1)) { queries, send in
    ///     for await query in queries { send(.results(await api.search(query))) }
    /// }
    /// ```
    public static func channel<Value: Sendable>(
        value: Value,
        scheduling: EffectScheduling,
        bufferingPolicy: AsyncStream<Value>.Continuation.BufferingPolicy = .unbounded,
        file: String = #fileID, function: String = #function, line: UInt = #line,
        consume: @escaping @Sendable (_ values: AsyncStream<Value>, _ send: Send<Action>) async -> Void
    ) -> Effect {
        channel(value: value, scheduling: scheduling, bufferingPolicy: bufferingPolicy, file: file, function: function, line: line) { values, send, _ in
            await consume(values, send)
        }
    }
}
