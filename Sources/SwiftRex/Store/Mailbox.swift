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

/// The single mailbox of actions sent by effects and channels
/// (<doc:DispatchPipeline#One-action-at-a-time>): callable from any thread, FIFO in posting order
/// (so FIFO per emitter), drained once per main-actor turn by one long-lived drain task — not one
/// `Task` per action or per burst.
///
/// The drain task parks on a continuation when the mailbox is empty; the first post after that
/// resumes it (one hop onto the main actor for the whole burst, no allocation), and every entry
/// that arrived before a drain starts is processed by that drain. Buffers are swapped, never
/// reallocated, in steady state. Once closed (the Store is gone) posts are dropped.
@usableFromInline
internal final class Mailbox<Action: Sendable>: Sendable {
    @usableFromInline
    enum Drainer {
        /// No drain task yet: the first post starts it.
        case notStarted
        /// The drain task is enqueued or draining: posts only append.
        case scheduled
        /// The drain task waits for the next post.
        case parked(UnsafeContinuation<Bool, Never>)
    }

    @usableFromInline
    struct Contents: ~Copyable {
        @usableFromInline var entries: [MailboxEntry<Action>] = []
        @usableFromInline var drainer = Drainer.notStarted
        @usableFromInline var isClosed = false

        @inlinable init() {}
    }

    /// What a post must do once the lock is released.
    @usableFromInline
    enum Wake {
        case nothing
        case resume(UnsafeContinuation<Bool, Never>)
        case start
    }

    @usableFromInline let contents = Mutex(Contents())
    /// Starts the drain task (called at most once, by the first post, with this mailbox).
    @usableFromInline let startDrainer: @Sendable (Mailbox) -> Void

    /// A mailbox whose first post calls `startDrainer`, which must start a main-actor task that
    /// drains, then loops on ``nextTurn()``.
    @inlinable
    init(startDrainer: @escaping @Sendable (Mailbox) -> Void) {
        self.startDrainer = startDrainer
    }

    /// Posts one entry from any thread; wakes the drain task when it is parked.
    @inlinable
    func post(_ entry: MailboxEntry<Action>) {
        let wake = contents.withLock { contents -> Wake in
            guard !contents.isClosed else { return .nothing }
            contents.entries.append(entry)
            switch contents.drainer {
            case .scheduled:
                return .nothing
            case .parked(let continuation):
                contents.drainer = .scheduled
                return .resume(continuation)
            case .notStarted:
                contents.drainer = .scheduled
                return .start
            }
        }
        switch wake {
        case .nothing: break
        case .resume(let continuation): continuation.resume(returning: true)
        case .start: startDrainer(self)
        }
    }

    /// Called by the drain task after each drain: returns on a later main-actor turn, `true` to
    /// drain again, `false` once the mailbox is closed. When entries are already waiting it only
    /// yields the turn (other main-actor work runs first); otherwise it parks until a post.
    /// Main-actor isolated, so parking and resuming never hop through the global executor.
    @usableFromInline
    @MainActor
    func nextTurn() async -> Bool {
        await withUnsafeContinuation { (continuation: UnsafeContinuation<Bool, Never>) in
            let resumeWith = contents.withLock { contents -> Bool? in
                if contents.isClosed { return false }
                if !contents.entries.isEmpty { return true }
                contents.drainer = .parked(continuation)
                return nil
            }
            if let resumeWith { continuation.resume(returning: resumeWith) }
        }
    }

    /// Swaps the waiting entries into `buffer` (which must be empty).
    @inlinable
    func take(into buffer: inout [MailboxEntry<Action>]) {
        contents.withLock { contents in
            swap(&contents.entries, &buffer)
        }
    }

    /// Drops everything waiting and every later post, and ends the drain task.
    @usableFromInline
    func close() {
        let parked = contents.withLock { contents -> UnsafeContinuation<Bool, Never>? in
            contents.isClosed = true
            contents.entries.removeAll()
            if case .parked(let continuation) = contents.drainer {
                contents.drainer = .scheduled
                return continuation
            }
            return nil
        }
        parked?.resume(returning: false)
    }

    /// The number of entries waiting.
    @inlinable
    var count: Int { contents.withLock { $0.entries.count } }
}

/// How effect code reaches a Store's mailbox: closures built by inlinable code of the Store, so
/// they are specialised for its action type. The effect engine and effect runs are generic code
/// compiled once, unspecialised; posting through these closures spares them a generic-metadata
/// lookup for every action they send.
@usableFromInline
internal struct MailboxPosting<Action: Sendable>: Sendable {
    /// Posts an action with its source and causal depth.
    @usableFromInline let action: @Sendable (Action, ActionSource, Int) -> Void
    /// Posts an already stamped action with its causal depth.
    @usableFromInline let letter: @Sendable (DispatchedAction<Action>, Int) -> Void
    /// Posts an effect run that ended.
    @usableFromInline let finished: @Sendable (EffectRun) -> Void

    /// Posting into `mailbox`.
    @inlinable
    init(_ mailbox: Mailbox<Action>) {
        action = { action, source, depth in
            mailbox.post(.letter(Letter(action: DispatchedAction(action, dispatcher: source), depth: depth)))
        }
        letter = { letter, depth in mailbox.post(.letter(Letter(action: letter, depth: depth))) }
        finished = { run in mailbox.post(.finished(run)) }
    }
}
