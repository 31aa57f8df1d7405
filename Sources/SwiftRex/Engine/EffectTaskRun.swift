// One of the library's files with unsafe code: a run's fields skip the runtime's exclusivity
// checks (`@exclusivity(unchecked)`), and the anonymous runs are linked through unretained
// references (`UnretainedReference`) under a bare lock (`_MutexHandle`), each use with its invariant.
// Exercised under TSan and ASan by EffectConcurrencyTests (keyed runs replaced before and while
// their body runs) and AnonymousTaskRunTests (anonymous runs linked and unlinked across threads).

import Synchronization

/// One `Effect.task` run started by a Store's engine: a single object that is the task's state, its
/// `Send` target and its registration. Actions go straight into the mailbox from whatever thread
/// the body sends on; when the body of a registered (keyed) run returns, the run itself is posted
/// so the registry can forget it (an anonymous run is pruned from its table instead).
/// Inlinable: created and started from the Store's specialised phase 4.
@usableFromInline
internal final class EffectTaskRun<Action: Sendable>: EffectSendTarget<Action>, EffectCancellable, @unchecked Sendable {
    @usableFromInline let work: TaskWork<Action>
    @usableFromInline let outlet: EffectOutlet<Action>
    @usableFromInline let depth: Int
    /// The run's task.
    // Unchecked: written once as the task is created and read by `cancelRun`, both on the main actor.
    @exclusivity(unchecked) @usableFromInline nonisolated(unsafe) var task: Task<Void, any Error>?
    /// Whether the body may have started, so cancelling must reach the task (for
    /// `Task.isCancelled` and cancellation handlers inside it). A run started from the main actor
    /// clears it until its first job starts the body: cancelled before then (a replaced keyed
    /// search), only the run's flag is set, and its job returns without the body.
    // Unchecked: touched only by that first job and by `cancelRun`, both on the main actor.
    @exclusivity(unchecked) @usableFromInline nonisolated(unsafe) var mayRunBody = true
    /// The neighbours of an anonymous run in its Store's ``AnonymousTaskRuns``, unretained: relinking
    /// them under the list's lock changes no reference count.
    // Unchecked, unmanaged: touched only under the list's lock, while the run is linked (kept alive by its task).
    @exclusivity(unchecked) @usableFromInline nonisolated(unsafe) var previous: UnretainedReference<EffectTaskRun>?
    // Unchecked, unmanaged: touched only under the list's lock, while the run is linked (kept alive by its task).
    @exclusivity(unchecked) @usableFromInline nonisolated(unsafe) var next: UnretainedReference<EffectTaskRun>?

    @inlinable
    init(work: TaskWork<Action>, outlet: EffectOutlet<Action>, depth: Int, key: AnyHashableSendable?, generation: UInt64) {
        self.work = work
        self.outlet = outlet
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
    /// the next keystroke) never leaves the main actor and never calls its body, nor wakes a
    /// worker thread to find itself cancelled. Call once, on the main actor.
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
            if finish(), isRegistered { outlet.finished(self) }
        }
        // On this thread, as the task ends: the main actor neither pays for nor waits for the
        // run's release (and its task's) when the next one starts.
        if !isRegistered { outlet.unlinkAnonymous(self) }
    }

    override func deliver(_ action: Action) {
        outlet.action(action, work.source, depth)
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
    // Bare lock (and `@unchecked`): `head` and the runs' links are touched only between `unsafeLock` and `unsafeUnlock`.
    @usableFromInline let lock = _MutexHandle()
    // Unchecked, unmanaged: touched only under `lock`; it points at a linked run, kept alive by its task.
    @exclusivity(unchecked) @usableFromInline var head: UnretainedReference<EffectTaskRun<Action>>?

    @usableFromInline
    init() {}

    /// Links a run that is about to start its task (main actor).
    @inlinable
    func link(_ run: EffectTaskRun<Action>) {
        let node = UnretainedReference(run)
        lock.unsafeLock()
        run.next = head
        // Guaranteed: the old head is linked, so its task keeps it alive while the lock is held.
        head?.withObject { $0.previous = node }
        head = node
        lock.unsafeUnlock()
    }

    /// Unlinks a run whose task is ending (any thread; once per linked run).
    @inlinable
    func unlink(_ run: EffectTaskRun<Action>) {
        lock.unsafeLock()
        let previous = run.previous
        let next = run.next
        // Guaranteed: both neighbours are linked, so their tasks keep them alive while the lock is held.
        if let previous { previous.withObject { $0.next = next } } else { head = next }
        next?.withObject { $0.previous = previous }
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
            // Guaranteed: a linked run is alive while the lock is held.
            node.withObject { run in
                body(run)
                cursor = run.next
            }
        }
        lock.unsafeUnlock()
    }
}
