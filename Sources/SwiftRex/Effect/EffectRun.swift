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

/// One `Effect.task` run started by a Store's engine: a single object that is the task's state, its
/// `Send` target and its registration. Actions go straight into the mailbox from whatever thread
/// the body sends on; when the body of a registered (keyed) run returns, the run itself is posted
/// so the registry can forget it (an anonymous run is pruned from its table instead).
/// Inlinable: created and started from the Store's specialised phase 4.
@usableFromInline
internal final class EffectTaskRun<Action: Sendable>: EffectSendTarget<Action>, EffectCancellable, @unchecked Sendable {
    @usableFromInline let work: TaskWork<Action>
    @usableFromInline let posting: MailboxPosting<Action>
    @usableFromInline let depth: Int
    // Set on the main actor right after the task is created, read by `cancelRun` on the main actor
    // (the engine cancels only there); the task itself never reads it. Unchecked: no access to it
    // can overlap another.
    @exclusivity(unchecked) @usableFromInline nonisolated(unsafe) var task: Task<Void, any Error>?
    /// Whether the body may have started, so cancelling must reach the task (for
    /// `Task.isCancelled` and cancellation handlers inside it). A run started from the main actor
    /// clears it until its first job, on the main actor, starts the body: cancelled before then
    /// (a replaced keyed search), only the run's flag is set, and its job returns without the
    /// body. Both sides run on the main actor, so the flag needs no synchronisation.
    @exclusivity(unchecked) @usableFromInline nonisolated(unsafe) var mayRunBody = true
    /// The neighbours of an anonymous run in its Store's ``AnonymousTaskRuns`` (unretained; only
    /// touched under that list's lock, and only while the run is linked). Unmanaged, so relinking
    /// neighbours retains and releases nothing: the list's lock is taken on the main actor and on
    /// the worker threads where runs end, and a reference count changed under it is one more cache
    /// line the two sides pass back and forth.
    @exclusivity(unchecked) @usableFromInline nonisolated(unsafe) var previous: Unmanaged<EffectTaskRun>?
    @exclusivity(unchecked) @usableFromInline nonisolated(unsafe) var next: Unmanaged<EffectTaskRun>?

    @inlinable
    init(work: TaskWork<Action>, posting: MailboxPosting<Action>, depth: Int, key: AnyHashableSendable?, generation: UInt64) {
        self.work = work
        self.posting = posting
        self.depth = depth
        super.init(key: key, generation: generation)
    }

    /// Starts an anonymous run's task on the global executor (inheriting priority and
    /// task-locals). Call once, on the main actor.
    @inlinable
    func start() {
        task = Self.spawn(self)
    }

    /// Created from a nonisolated context so the task is enqueued on the global executor directly,
    /// not on the main actor first. A throwing operation avoids a reabstraction thunk (an
    /// allocation per task).
    @inlinable
    nonisolated static func spawn(_ run: EffectTaskRun) -> Task<Void, any Error> {
        Task<Void, any Error> { () async throws in await run.execute() }
    }

    /// Starts a registered run's task (inheriting priority and task-locals) on the main actor,
    /// where the Store runs: its first job hops to the global executor for the body once the
    /// current turn ends. A run replaced or cancelled before then (a keyed search replaced by
    /// the next keystroke) never leaves the main actor and never calls its body. Enqueued on the
    /// global executor instead, every replaced run still woke an idle worker thread (a futex
    /// wake, the largest cost of `effects.task.keyed` on a small machine) only to find itself
    /// cancelled. Call once, on the main actor.
    @inlinable
    @MainActor
    func startFromMainActor() {
        mayRunBody = false
        task = Task<Void, any Error> { @MainActor () async throws in
            guard self.isRunning else { return }
            self.mayRunBody = true
            await self.execute()
        }
    }

    @inlinable
    func execute() async {
        if isRunning {
            await work.body(Send(target: self))
            // Only a registered run is posted: an anonymous one leaves its list below.
            if finish(), isRegistered { posting.finished(self) }
        }
        // On this thread, as the task ends: the main actor neither pays for nor waits for the
        // run's release (and its task's) when the next one starts.
        if !isRegistered { posting.unlinkAnonymous(self) }
    }

    override func deliver(_ action: Action) {
        posting.action(action, work.source, depth)
    }

    /// Cancels the run: later sends are dropped, the body's task is cancelled (when the body may
    /// have started), and the run never completes. Called on the main actor.
    @usableFromInline
    func cancelRun() {
        if cancel(), mayRunBody { task?.cancel() }
    }
}

/// A Store's anonymous `Effect.task` runs whose task has not ended, linked through the runs
/// themselves: linked on the main actor when they start (before their task exists), each unlinks
/// itself from its task's thread as the task ends, and the Store's teardown cancels those still
/// linked. Starting a run costs one lock and three pointer writes, with no table to grow or prune
/// on the main actor, and the run is released where its task ends. The links do not retain: a
/// linked run is kept alive by its task, which unlinks it (under the lock) before letting go.
@usableFromInline
internal final class AnonymousTaskRuns<Action: Sendable>: @unchecked Sendable {
    // `@unchecked`: `head` and every linked run's `previous` and `next` are only touched while
    // `lock` is held.
    @usableFromInline let lock = _MutexHandle()
    @exclusivity(unchecked) @usableFromInline var head: Unmanaged<EffectTaskRun<Action>>?

    @usableFromInline
    init() {}

    /// Links a run that is about to start its task (main actor).
    @inlinable
    func link(_ run: EffectTaskRun<Action>) {
        let node = Unmanaged.passUnretained(run)
        lock.unsafeLock()
        run.next = head
        head?._withUnsafeGuaranteedRef { $0.previous = node }
        head = node
        lock.unsafeUnlock()
    }

    /// Unlinks a run whose task is ending (any thread; once per linked run).
    @inlinable
    func unlink(_ run: EffectTaskRun<Action>) {
        lock.unsafeLock()
        let previous = run.previous
        let next = run.next
        if let previous { previous._withUnsafeGuaranteedRef { $0.next = next } } else { head = next }
        next?._withUnsafeGuaranteedRef { $0.previous = previous }
        run.previous = nil
        run.next = nil
        lock.unsafeUnlock()
    }

    /// The runs linked now, retained: what the caller does with them (cancelling them, which may
    /// run cancellation handlers) happens outside the lock.
    func linked() -> [EffectTaskRun<Action>] {
        var runs: [EffectTaskRun<Action>] = []
        forEachLinked { runs.append($0) }
        return runs
    }

    /// How many linked runs are still running (neither cancelled nor finished).
    var runningCount: Int {
        var count = 0
        forEachLinked { if $0.isRunning { count += 1 } }
        return count
    }

    /// Calls `body` with each linked run, under the lock: `body` must not reach the list again.
    private func forEachLinked(_ body: (EffectTaskRun<Action>) -> Void) {
        lock.unsafeLock()
        var cursor = head
        while let node = cursor {
            node._withUnsafeGuaranteedRef { run in
                body(run)
                cursor = run.next
            }
        }
        lock.unsafeUnlock()
    }
}

/// Whether one opened channel is still open: it closes when the channel is cancelled or completes.
/// What the channel's `dispatch` is given afterwards is dropped, and the first such action is
/// reported (once per opening, so a chatty late callback does not flood the log).
internal final class ChannelGate: EffectRun, @unchecked Sendable {
    private let reported = Atomic<Bool>(false)
    private let id: AnyHashableSendable?
    private let source: ActionSource

    init(id: AnyHashableSendable?, source: ActionSource) {
        self.id = id
        self.source = source
        super.init()
    }

    /// Reports the first action dispatched after the channel closed.
    func reportLate(_ action: Any) {
        guard !reported.exchange(true, ordering: .relaxed) else { return }
        // Composed here: the action is not known to be Sendable (this runs once per opening).
        let message =
            "Channel \(describeChannel(id)) dispatched \(action) after it closed: dropped (later actions of this opening are dropped without a report)"
        reportDiagnostic(
            StoreDiagnostic(
                kind: .actionAfterClose,
                message: message,
                source: source
            ))
    }
}

/// Reports a channel body (or consumer) that threw.
internal func reportChannelFailure(id: AnyHashableSendable?, source: ActionSource, error: any Error, whileOpening: Bool) {
    let outcome =
        whileOpening
        ? "threw while opening: \(error). It did not open and counts as completed."
        : "consumer threw: \(error). The channel closed."
    reportDiagnostic(StoreDiagnostic(kind: .channelFailed, message: "Channel \(describeChannel(id)) \(outcome)", source: source))
}

private func describeChannel(_ id: AnyHashableSendable?) -> String {
    id.map { "\"\($0)\"" } ?? "(no id)"
}
