import Synchronization

/// One action waiting in the mailbox, with its causal depth.
@usableFromInline
internal struct Letter<Action: Sendable>: Sendable {
    @usableFromInline var action: DispatchedAction<Action>
    @usableFromInline var depth: Int

    @inlinable
    init(action: DispatchedAction<Action>, depth: Int) {
        self.action = action
        self.depth = depth
    }
}

/// What the mailbox carries: an action an effect or a channel sent, or an effect run that ended
/// (posted after its last action, so the engine forgets the run after processing what it sent).
@usableFromInline
internal enum MailboxEntry<Action: Sendable>: Sendable {
    case letter(Letter<Action>)
    case finished(EffectRun)
}

/// The mailbox's entries, in a FIFO buffer they are moved into and out of (see ``MoveBuffer``).
@usableFromInline
internal typealias MailboxBuffer<Action: Sendable> = MoveBuffer<MailboxEntry<Action>>

/// The single mailbox of actions sent by effects and channels
/// (<doc:DispatchPipeline#One-action-at-a-time>): callable from any thread, FIFO in posting order
/// (so FIFO per emitter), drained once per main-actor turn — one drain task per burst, not one per
/// action.
///
/// The first post into an idle mailbox schedules one main-actor drain (`Task { @MainActor … }`,
/// enqueued on the main actor directly from any thread: one hop); later posts only append until
/// that drain takes everything that arrived before it started. A parked drain task resumed
/// through a continuation would allocate nothing, but resuming a continuation onto the main actor
/// takes two hops here (the global executor, then the main actor), slower than a fresh task's one,
/// so a fresh task per burst it is. A job on the main dispatch queue (`DispatchQueue.main.async`
/// with `MainActor.assumeIsolated`) hops faster still, with one allocation fewer, but runs outside
/// any task: the drain would lose the task-local values of the code that posted (a test's
/// diagnostic override, Swift Testing's attribution of an issue to its test), which the effects it
/// starts inherit today. Buffers are swapped, never reallocated, in steady state. Once closed (the
/// Store is gone) posts are dropped.
///
/// The contents are guarded by a lock taken and released around each operation, not by a
/// `Mutex`: `Mutex.withLock` takes a closure, which cannot consume the entry it appends, so a
/// post had to wrap the entry in an `Optional` and destroy the emptied optional afterwards,
/// through generic value witnesses on every post.
@usableFromInline
internal final class Mailbox<Action: Sendable>: @unchecked Sendable {
    // `@unchecked`: `entries`, `drainScheduled` and `isClosed` are only touched while `lock` is held.
    @usableFromInline let lock = _MutexHandle()
    @exclusivity(unchecked) @usableFromInline var entries = MailboxBuffer<Action>()
    @exclusivity(unchecked) @usableFromInline var drainScheduled = false
    @exclusivity(unchecked) @usableFromInline var isClosed = false
    /// Schedules one drain on a later main-actor turn (called once per burst).
    @usableFromInline let scheduleDrain: @Sendable () -> Void

    /// A mailbox that calls `scheduleDrain` whenever it goes from idle to pending.
    @inlinable
    init(scheduleDrain: @escaping @Sendable () -> Void) {
        self.scheduleDrain = scheduleDrain
    }

    /// Posts one entry from any thread; the first post of a burst schedules the drain.
    @inlinable
    @inline(__always)
    func post(_ entry: consuming MailboxEntry<Action>) {
        lock.unsafeLock()
        guard !isClosed else {
            lock.unsafeUnlock()
            return
        }
        // Moved into the buffer, not copied (a copy of an entry retains what its action holds).
        entries.append(entry)
        let schedule = !drainScheduled
        drainScheduled = true
        lock.unsafeUnlock()
        if schedule { scheduleDrain() }
    }

    /// Swaps the waiting entries into `buffer` (which must be empty); later posts schedule a new
    /// drain.
    @inlinable
    func take(into buffer: inout MailboxBuffer<Action>) {
        lock.unsafeLock()
        entries.exchange(with: &buffer)
        drainScheduled = false
        lock.unsafeUnlock()
    }

    /// Drops everything waiting and every later post.
    @usableFromInline
    func close() {
        lock.unsafeLock()
        isClosed = true
        entries.removeAll()
        lock.unsafeUnlock()
    }

    /// The number of entries waiting.
    @inlinable
    var count: Int {
        lock.unsafeLock()
        let count = entries.count
        lock.unsafeUnlock()
        return count
    }
}

extension EffectOutlet {
    /// An outlet into `mailbox`. Inlinable: the closures are specialised for the Store's action
    /// type, so the engine and its runs, compiled once, post without a generic-metadata lookup.
    @inlinable
    convenience init(_ mailbox: Mailbox<Action>) {
        self.init(
            action: { action, source, depth in
                mailbox.post(.letter(Letter(action: DispatchedAction(action, dispatcher: source), depth: depth)))
            },
            letter: { letter, depth in mailbox.post(.letter(Letter(action: letter, depth: depth))) },
            finished: { run in mailbox.post(.finished(run)) }
        )
    }
}
