import Synchronization

/// The Store's observers: an ordered array (subscription order, <doc:DispatchPipeline#Observers>)
/// with tombstones, so a cancellation takes effect at once, also in the middle of a notification,
/// and observers added during a notification miss it.
///
/// A notification reaches each observer through an unowned reference, so calling its callback
/// retains nothing; an observer removed during a notification therefore stays in the list (its
/// flag already set) until no notification is running.
@usableFromInline
internal struct ObserverList {
    /// One observer's callbacks and cancellation flag.
    @usableFromInline
    final class Observer {
        @usableFromInline let willChange: (@MainActor () -> Void)?
        @usableFromInline let didChange: (@MainActor () -> Void)?
        /// Set by the token from any thread; checked before every call, so cancelling is immediate.
        @usableFromInline let cancellation: CancellationFlag

        init(willChange: (@MainActor () -> Void)?, didChange: (@MainActor () -> Void)?, cancellation: CancellationFlag) {
            self.willChange = willChange
            self.didChange = didChange
            self.cancellation = cancellation
        }
    }

    @usableFromInline
    struct Entry {
        @usableFromInline let id: UInt64
        /// Owns the observer.
        @usableFromInline let observer: Observer
        /// The same observer, unowned, for notifications.
        @usableFromInline let reference: UnretainedReference<Observer>
        /// The regions whose writes `didChange` hears of (see ``ObserverRegions``), kept beside the
        /// reference so that skipping an observer reads nothing else.
        @usableFromInline let interest: UInt64

        init(id: UInt64, observer: Observer, interest: UInt64) {
            self.id = id
            self.observer = observer
            reference = UnretainedReference(observer)
            self.interest = interest
        }
    }

    /// Every observer but those of one element, in subscription order.
    @usableFromInline var entries: [Entry] = []
    /// The observers of one element, grouped by the container they watch (see ``ElementAddress``).
    @usableFromInline var groups: [ElementObserverGroup] = []
    /// The containers of element observers and of the units that write one element, each once.
    var containers: [ElementContainer] = []
    @usableFromInline var notifying = 0
    @usableFromInline var hasTombstones = false
    /// How many observers, in ``entries`` and in ``groups``, have a `willChange` / `didChange`
    /// (so an empty side skips its loop).
    @usableFromInline var willChangeCount = 0
    @usableFromInline var didChangeCount = 0
    /// How many of those are in ``groups``.
    var elementWillChangeCount = 0
    var elementDidChangeCount = 0
    var nextID: UInt64 = 0

    @usableFromInline
    init() {}

    /// Whether there is no observer at all: one stored flag, read on every dispatch.
    @usableFromInline private(set) var isEmpty = true
    /// How many observers ``groups`` holds.
    private(set) var elementCount = 0

    /// Adds an observer whose `didChange` hears of the dispatches that write a region in `interest`
    /// (its `willChange`, called before anything is written, hears of every mutating dispatch).
    mutating func add(
        willChange: (@MainActor () -> Void)?, didChange: (@MainActor () -> Void)?, interest: UInt64 = ObserverRegions.all
    ) -> (id: UInt64, flag: CancellationFlag) {
        let entry = makeEntry(willChange: willChange, didChange: didChange, interest: interest)
        entries.append(entry)
        isEmpty = false
        return (entry.id, entry.observer.cancellation)
    }

    /// A new observer's entry, counted.
    mutating func makeEntry(willChange: (@MainActor () -> Void)?, didChange: (@MainActor () -> Void)?, interest: UInt64) -> Entry {
        nextID &+= 1
        let observer = Observer(willChange: willChange, didChange: didChange, cancellation: CancellationFlag())
        if willChange != nil { willChangeCount += 1 }
        if didChange != nil { didChangeCount += 1 }
        return Entry(id: nextID, observer: observer, interest: interest)
    }

    /// Removes the observer whose token was cancelled (its flag is set). During a notification it
    /// stays, skipped, until the notification ends: it may be the one being called.
    mutating func remove(id: UInt64) {
        guard let index = entries.firstIndex(where: { $0.id == id }) else { return }
        if notifying > 0 {
            hasTombstones = true
            return
        }
        let observer = entries.remove(at: index).observer
        if observer.willChange != nil { willChangeCount -= 1 }
        if observer.didChange != nil { didChangeCount -= 1 }
        updateIsEmpty()
    }

    /// Counts an element observer in or out (`change`: +1 or -1).
    mutating func countElement(_ change: Int) {
        elementCount += change
        updateIsEmpty()
    }

    private mutating func updateIsEmpty() {
        isEmpty = entries.isEmpty && elementCount == 0
    }

    mutating func compact() {
        guard hasTombstones, notifying == 0 else { return }
        entries.removeAll { $0.observer.cancellation.isCancelled }
        willChangeCount = entries.count { $0.observer.willChange != nil } + elementWillChangeCount
        didChangeCount = entries.count { $0.observer.didChange != nil } + elementDidChangeCount
        hasTombstones = false
        updateIsEmpty()
    }

    /// The number of live observers.
    var count: Int {
        entries.count { !$0.observer.cancellation.isCancelled } + groups.reduce(0) { $0 + $1.entries.count { !$0.observer.cancellation.isCancelled } }
    }
}

/// A flag set once, from any thread, read on the main actor.
@usableFromInline
internal final class CancellationFlag: Sendable {
    @usableFromInline let value = Atomic<Bool>(false)

    @usableFromInline
    init() {}

    /// Whether the flag was set.
    @inlinable
    var isCancelled: Bool { value.load(ordering: .acquiring) }

    /// Sets the flag.
    @inlinable
    func cancel() { value.store(true, ordering: .releasing) }
}
