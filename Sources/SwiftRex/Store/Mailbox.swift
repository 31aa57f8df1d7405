// One of the library's files with unsafe code: the mailbox's fields are guarded by a bare lock
// (`_MutexHandle`) and skip the runtime's exclusivity checks, and its buffer (MoveBuffer) manages
// its own memory, each use with its invariant. Exercised under TSan and ASan by MailboxBufferTests,
// MailboxDrainTests and EffectConcurrencyTests.

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

/// A FIFO in memory it owns: elements are moved in and moved out, never copied, and a drained
/// buffer is emptied without visiting its slots. (An `Array` would need a marker written into
/// every slot a drain moves out of, then destroy every marker through the element type's generic
/// value witness, on every action.) Its storage is kept when it empties, so buffers swapped
/// between the mailbox and the Store, or refilled every turn, stop allocating. The mailbox's
/// entries and the Store's synchronous queue live in one.
@usableFromInline
internal struct MoveBuffer<Element: Sendable>: ~Copyable, @unchecked Sendable {
    // `@unchecked`: a buffer is only reached under the mailbox's lock or on the main actor.
    @usableFromInline var base: UnsafeMutablePointer<Element>?
    /// Elements before `head` were moved out; `head..<end` are live.
    @usableFromInline var head = 0
    @usableFromInline var end = 0
    @usableFromInline var capacity = 0

    @inlinable init() {}

    @inlinable
    deinit {
        guard let base else { return }
        (base + head).deinitialize(count: end - head)
        base.deallocate()
    }

    /// The number of live elements.
    @inlinable var count: Int { end - head }

    /// Appends `element`, moving it in.
    @inlinable
    mutating func append(_ element: consuming Element) {
        if end == capacity { grow() }
        (base.unsafelyUnwrapped + end).initialize(to: element)
        end &+= 1
    }

    /// Moves the live elements to the front of a larger allocation.
    @usableFromInline
    mutating func grow() {
        let newCapacity = Swift.max(16, count * 2)
        let newBase = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        if let base {
            newBase.moveInitialize(from: base + head, count: end - head)
            base.deallocate()
        }
        base = newBase
        end -= head
        head = 0
        capacity = newCapacity
    }

    /// Whether no element is live.
    @inlinable var isEmpty: Bool { head == end }

    /// Moves the first live element out, or returns `nil` when there is none (the storage is then
    /// reused from its start).
    @inlinable
    mutating func popFirst() -> Element? {
        guard head < end else {
            head = 0
            end = 0
            return nil
        }
        return removeFirst()
    }

    /// Moves the first live element out; there must be one. No optional is made, tested and
    /// destroyed around it, as `popFirst()` makes.
    @inlinable
    mutating func removeFirst() -> Element {
        let element = (base.unsafelyUnwrapped + head).move()
        head &+= 1
        return element
    }

    /// Destroys every live element, keeping the storage.
    @inlinable
    mutating func removeAll() {
        // Usually empty (a drained buffer): no call into the runtime's generic array destroy.
        if head < end, let base { (base + head).deinitialize(count: end - head) }
        head = 0
        end = 0
    }

    /// Exchanges contents (elements and storage) with `other`.
    @inlinable
    mutating func exchange(with other: inout MoveBuffer) {
        let (base, head, end, capacity) = (self.base, self.head, self.end, self.capacity)
        (self.base, self.head, self.end, self.capacity) = (other.base, other.head, other.end, other.capacity)
        (other.base, other.head, other.end, other.capacity) = (base, head, end, capacity)
    }

    /// This buffer's contents, leaving it empty without storage.
    @inlinable
    mutating func take() -> MoveBuffer {
        var taken = MoveBuffer()
        exchange(with: &taken)
        return taken
    }
}
