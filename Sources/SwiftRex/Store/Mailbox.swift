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

/// The single mailbox of actions sent by effects and channels
/// (<doc:DispatchPipeline#One-action-at-a-time>): callable from any thread, FIFO in posting order
/// (so FIFO per emitter), drained once per main-actor turn by one scheduled drain — not one `Task`
/// per action. Buffers are swapped, never reallocated, in steady state.
@usableFromInline
internal final class Mailbox<Action: Sendable>: Sendable {
    @usableFromInline
    struct Contents: ~Copyable {
        @usableFromInline var letters: [Letter<Action>] = []
        @usableFromInline var drainScheduled = false

        @inlinable init() {}
    }

    @usableFromInline let contents = Mutex(Contents())
    @usableFromInline let scheduleDrain: @Sendable () -> Void

    /// A mailbox that calls `scheduleDrain` once whenever it goes from empty to non-empty.
    @inlinable
    init(scheduleDrain: @escaping @Sendable () -> Void) {
        self.scheduleDrain = scheduleDrain
    }

    /// Posts one action from any thread; a needed drain is scheduled with `scheduleDrain` (a hop).
    @inlinable
    func post(_ letter: Letter<Action>) {
        if enqueue(letter) { scheduleDrain() }
    }

    /// Appends one action; returns whether the caller must schedule a drain (the mailbox went
    /// from idle to pending). Main-actor callers schedule it themselves, without a thread hop.
    @inlinable
    func enqueue(_ letter: Letter<Action>) -> Bool {
        contents.withLock { contents -> Bool in
            contents.letters.append(letter)
            guard !contents.drainScheduled else { return false }
            contents.drainScheduled = true
            return true
        }
    }

    /// Swaps the waiting letters into `buffer` (which must be empty); later posts schedule a new drain.
    @inlinable
    func take(into buffer: inout [Letter<Action>]) {
        contents.withLock { contents in
            swap(&contents.letters, &buffer)
            contents.drainScheduled = false
        }
    }

    /// The number of letters waiting.
    @inlinable
    var count: Int { contents.withLock { $0.letters.count } }
}
