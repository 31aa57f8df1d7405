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
    @usableFromInline let target: EffectSendTarget<Action>

    @inlinable
    internal init(target: EffectSendTarget<Action>) {
        self.target = target
    }

    /// Sends `action` to the Store, unless the effect was cancelled or has finished. Callable from
    /// any thread; the action goes straight into the Store's mailbox.
    ///
    /// - Complexity: O(1).
    @inlinable
    public func callAsFunction(_ action: Action) {
        guard target.isRunning else { return }
        target.deliver(action)
    }

    /// Whether the effect was cancelled; actions sent from now on are dropped.
    public var isCancelled: Bool { target.isCancelled }

    /// A `Send` of local actions that transforms them into this one's (for mapped effects).
    internal func pullback<Local: Sendable>(_ transform: @escaping @Sendable (Local) -> Action) -> Send<Local> {
        Send<Local>(target: MappedSendTarget(target, transform))
    }
}

extension Effect {
    /// Runs `body` in a `Task` when the effect starts; `body` sends actions through ``Send``.
    ///
    /// In a Store, the task is created when the effect starts (inheriting priority and task-local
    /// values) and `body` runs on the global executor. With an id, a delay or coalescing, the
    /// task starts on the main actor and `body` begins once the main actor's current turn ends,
    /// so a run replaced within that turn never calls it. The effect completes when `body`
    /// returns — never after cancellation.
    /// Cancelling it (through `scheduling`, ``cancel(id:)-(AnyHashableSendable)`` or the Store's
    /// teardown) cancels the task and drops every later `send`. A run cancelled before its task
    /// starts never calls `body`.
    ///
    /// ```swift
    /// .task(scheduling: .replacing(id: "search")) { send in
    ///     send(.results(await api.search(query)))
    /// }
    /// ```
    @inlinable
    public static func task(
        scheduling: consuming EffectScheduling,
        file: String = #fileID, function: String = #function, line: UInt = #line,
        _ body: @escaping @Sendable (_ send: Send<Action>) async -> Void
    ) -> Effect {
        let work = TaskWork(body: body, source: ActionSource(file: file, function: function, line: line))
        if EffectScheduling.isImmediately(scheduling) { return Effect(storage: .immediate(.task(work))) }
        if case .some(let key) = scheduling.id, EffectScheduling.isPlainKeyed(scheduling) {
            return Effect(storage: .keyedTask(work, key: key, exclusive: scheduling.exclusive))
        }
        // Moved on: passed as it is, the consuming scheduling was copied and the original
        // destroyed (two outlined copies and a destroy per keyed task).
        return Effect(Component(work: .task(work), scheduling: consume scheduling))
    }

    /// ``task(scheduling:file:function:line:_:)`` scheduled ``EffectScheduling/immediately``:
    /// the task starts at once, anonymously.
    @inlinable
    public static func task(
        file: String = #fileID, function: String = #function, line: UInt = #line,
        _ body: @escaping @Sendable (_ send: Send<Action>) async -> Void
    ) -> Effect {
        Effect(storage: .immediate(.task(TaskWork(body: body, source: ActionSource(file: file, function: function, line: line)))))
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
    /// drops later sends; when `consume` returns, the channel completes and closes. When `consume`
    /// throws, the channel closes the same way and the error is reported as a
    /// ``StoreDiagnostic/Kind/channelFailed`` diagnostic.
    ///
    /// - Important: give `scheduling` an id, as for every channel.
    ///
    /// ```swift
    /// .channel(value: query, scheduling: .keyed(id: "search"), bufferingPolicy: .bufferingNewest(1)) { queries, send in
    ///     for await query in queries { send(.results(try await api.search(query))) }
    /// }
    /// ```
    public static func channel<Value: Sendable>(
        value: Value,
        scheduling: EffectScheduling,
        bufferingPolicy: AsyncStream<Value>.Continuation.BufferingPolicy = .unbounded,
        file: String = #fileID, function: String = #function, line: UInt = #line,
        consume: @escaping @Sendable (_ values: AsyncStream<Value>, _ send: Send<Action>) async throws -> Void
    ) -> Effect {
        channel(value: value, scheduling: scheduling, bufferingPolicy: bufferingPolicy, file: file, function: function, line: line) {
            values, send, _ in
            try await consume(values, send)
        }
    }
}
