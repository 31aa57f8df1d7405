import Synchronization

/// Something the effect engine can cancel: a subscription token or an async effect run.
@usableFromInline
internal protocol EffectCancellable: AnyObject, Sendable {
    /// Cancels the work; idempotent.
    func cancelRun()
}

extension SubscriptionToken: EffectCancellable {
    @usableFromInline
    func cancelRun() { cancel() }
}

/// The life of one effect run: running, then either cancelled or finished — exactly one of the
/// two, decided atomically, so a run never completes after it was cancelled.
///
/// A run the engine registered also carries its registry key (`nil` for an anonymous run, kept in
/// the engine's own table) and generation: when a registered run finishes, the run itself goes
/// through the mailbox, so the engine learns it on the main actor, after every action it sent.
@usableFromInline
internal class EffectRun: @unchecked Sendable {
    // `@unchecked`: the atomics are thread-safe and `key` and `generation` are immutable.
    @usableFromInline static var running: UInt8 { 0 }
    private static let cancelled: UInt8 = 1
    private static let finished: UInt8 = 2

    // Reachable from inlinable code, so a run's task reads it in place rather than through a call.
    @usableFromInline final let phase = Atomic<UInt8>(EffectRun.running)
    /// The registry key; `nil` for an anonymous run.
    @usableFromInline final let key: AnyHashableSendable?
    /// The registration's generation (stale completions are ignored).
    @usableFromInline final let generation: UInt64
    /// Whether the run has a registry key: tested where a run ends without copying the key.
    @usableFromInline final let isRegistered: Bool

    @usableFromInline
    init(key: AnyHashableSendable? = nil, generation: UInt64 = 0) {
        // Moved, not compared: `key != nil` copied the key through its generic value witnesses.
        switch consume key {
        case .some(let key):
            self.key = key
            isRegistered = true
        case .none:
            self.key = nil
            isRegistered = false
        }
        self.generation = generation
    }

    /// Whether the run is neither cancelled nor finished.
    @inlinable
    var isRunning: Bool { phase.load(ordering: .acquiring) == Self.running }

    /// Whether the run was cancelled.
    var isCancelled: Bool { phase.load(ordering: .acquiring) == Self.cancelled }

    /// Marks the run cancelled; `false` when it had already finished or been cancelled.
    @discardableResult @usableFromInline
    final func cancel() -> Bool {
        phase.compareExchange(expected: Self.running, desired: Self.cancelled, ordering: .acquiringAndReleasing).exchanged
    }

    /// Marks the run finished; `false` when it was cancelled first (then it must not complete).
    @usableFromInline
    final func finish() -> Bool {
        phase.compareExchange(expected: Self.running, desired: Self.finished, ordering: .acquiringAndReleasing).exchanged
    }

    // Whether the engine registered the run once its subscription (or channel opening) returned,
    // or the run ended before that: decided once, atomically, from either side.
    private static let opening: UInt8 = 0
    private static let registered: UInt8 = 1
    private static let endedWhileOpening: UInt8 = 2
    private let registration = Atomic<UInt8>(EffectRun.opening)

    /// Called by the engine when the subscription returned: `false` when the run already ended
    /// (then nothing is registered and nobody will post it).
    @usableFromInline
    final func register() -> Bool {
        registration.compareExchange(expected: Self.opening, desired: Self.registered, ordering: .acquiringAndReleasing).exchanged
    }

    /// Called when the run ends: `true` when the subscription has not returned yet (the engine will
    /// see it ended, so the run need not be posted).
    final func endWhileOpening() -> Bool {
        registration.compareExchange(expected: Self.opening, desired: Self.endedWhileOpening, ordering: .acquiringAndReleasing).exchanged
    }
}

/// Where a ``Send`` delivers: a run that also knows how to forward an action.
@usableFromInline
internal class EffectSendTarget<Action: Sendable>: EffectRun, @unchecked Sendable {
    @usableFromInline
    override init(key: AnyHashableSendable? = nil, generation: UInt64 = 0) {
        super.init(key: key, generation: generation)
    }

    /// Forwards `action` (the caller checked that the run is running).
    @usableFromInline
    func deliver(_ action: Action) {}
}

/// A send target that forwards to a closure (effects subscribed outside a Store, channel consumers).
internal final class ClosureSendTarget<Action: Sendable>: EffectSendTarget<Action>, @unchecked Sendable {
    private let forward: @Sendable (Action) -> Void

    init(_ forward: @escaping @Sendable (Action) -> Void) {
        self.forward = forward
    }

    override func deliver(_ action: Action) { forward(action) }
}

/// A send target that transforms actions into another target's (a mapped `Effect.task`): it runs,
/// and is cancelled, exactly when that target is.
internal final class MappedSendTarget<Action: Sendable, Outer: Sendable>: EffectSendTarget<Action>, @unchecked Sendable {
    private let outer: EffectSendTarget<Outer>
    private let transform: @Sendable (Action) -> Outer

    init(_ outer: EffectSendTarget<Outer>, _ transform: @escaping @Sendable (Action) -> Outer) {
        self.outer = outer
        self.transform = transform
    }

    override var isRunning: Bool { outer.isRunning }
    override var isCancelled: Bool { outer.isCancelled }
    override func deliver(_ action: Action) { outer.deliver(transform(action)) }
}

/// The work of an `Effect.task`: its body and the factory's call site, which stamps its actions.
@usableFromInline
internal struct TaskWork<Action: Sendable>: Sendable {
    @usableFromInline let body: @Sendable (Send<Action>) async -> Void
    @usableFromInline let source: ActionSource

    @usableFromInline
    init(body: @escaping @Sendable (Send<Action>) async -> Void, source: ActionSource) {
        self.body = body
        self.source = source
    }

    /// The same work sending `transform`ed actions.
    @usableFromInline
    func map<NewAction: Sendable>(_ transform: @escaping @Sendable (Action) -> NewAction) -> TaskWork<NewAction> {
        let body = self.body
        return TaskWork<NewAction>(body: { send in await body(send.pullback(transform)) }, source: source)
    }

    /// Runs the work outside a Store: actions go to `send`, `complete` is called when the body
    /// returns (never after cancellation); the token cancels the task and drops later sends.
    @usableFromInline
    func subscribe(
        send: @escaping @Sendable (DispatchedAction<Action>) -> Void,
        complete: @escaping @Sendable () -> Void
    ) -> SubscriptionToken {
        let source = self.source
        let target = ClosureSendTarget<Action> { send(DispatchedAction($0, dispatcher: source)) }
        let body = self.body
        let task = Task<Void, any Error> { () async throws in
            guard target.isRunning else { return }
            await body(Send(target: target))
            if target.finish() { complete() }
        }
        return SubscriptionToken {
            if target.cancel() { task.cancel() }
        }
    }
}

/// Whether one opened channel is still open: it closes when the channel is cancelled or completes.
/// What the channel's `dispatch` is given afterwards is dropped, and the first such action is
/// reported (once per opening, so a chatty late callback does not flood the log).
@usableFromInline
internal final class ChannelGate: EffectRun, @unchecked Sendable {
    private let reported = Atomic<Bool>(false)
    private let id: AnyHashableSendable?
    private let source: ActionSource

    @usableFromInline
    init(id: AnyHashableSendable?, source: ActionSource) {
        self.id = id
        self.source = source
        super.init()
    }

    /// Reports the first action dispatched after the channel closed.
    @usableFromInline
    func reportLate(_ action: Any) {
        guard !reported.exchange(true, ordering: .relaxed) else { return }
        // Composed here: the action is not known to be Sendable (this runs once per opening).
        let message =
            "Channel \(describeChannel(id)) dispatched \(action) after it closed: dropped (later actions of this opening are dropped without a report)"
        reportDiagnostic(
            StoreDiagnostic(
                kind: .actionAfterClose,
                message: message,
                source: source, cause: "channel \(describeChannel(id))"
            ))
    }
}

/// Reports a channel body (or consumer) that threw.
@usableFromInline
internal func reportChannelFailure(id: AnyHashableSendable?, source: ActionSource, error: any Error, whileOpening: Bool) {
    let outcome =
        whileOpening
        ? "threw while opening: \(error). It did not open and counts as completed."
        : "consumer threw: \(error). The channel closed."
    reportDiagnostic(
        StoreDiagnostic(
            kind: .channelFailed, message: "Channel \(describeChannel(id)) \(outcome)", source: source, cause: "channel \(describeChannel(id))"))
}

private func describeChannel(_ id: AnyHashableSendable?) -> String {
    id.map { "\"\($0)\"" } ?? "(no id)"
}
