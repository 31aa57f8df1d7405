import Synchronization

/// The Store's observers: an ordered array (subscription order, <doc:DispatchPipeline#Observers>)
/// with tombstones, so a cancellation takes effect at once, also in the middle of a notification,
/// and observers added during a notification miss it.
@usableFromInline
internal struct ObserverList {
    @usableFromInline
    struct Entry {
        @usableFromInline let id: UInt64
        @usableFromInline var willChange: (@MainActor () -> Void)?
        @usableFromInline var didChange: (@MainActor () -> Void)?
        /// Set by the token from any thread; checked before every call, so cancelling is immediate.
        @usableFromInline let cancellation: CancellationFlag
    }

    @usableFromInline var entries: [Entry] = []
    @usableFromInline var notifying = 0
    @usableFromInline var hasTombstones = false
    /// How many entries have a `willChange` / `didChange` (so an empty side skips its loop).
    @usableFromInline var willChangeCount = 0
    @usableFromInline var didChangeCount = 0
    var nextID: UInt64 = 0

    @usableFromInline
    init() {}

    /// Whether there is no observer at all.
    @inlinable
    var isEmpty: Bool { entries.isEmpty }

    mutating func add(willChange: (@MainActor () -> Void)?, didChange: (@MainActor () -> Void)?) -> (id: UInt64, flag: CancellationFlag) {
        nextID &+= 1
        let flag = CancellationFlag()
        entries.append(Entry(id: nextID, willChange: willChange, didChange: didChange, cancellation: flag))
        if willChange != nil { willChangeCount += 1 }
        if didChange != nil { didChangeCount += 1 }
        return (nextID, flag)
    }

    mutating func remove(id: UInt64) {
        guard let index = entries.firstIndex(where: { $0.id == id }) else { return }
        if entries[index].willChange != nil { willChangeCount -= 1 }
        if entries[index].didChange != nil { didChangeCount -= 1 }
        if notifying > 0 {
            entries[index].willChange = nil
            entries[index].didChange = nil
            hasTombstones = true
        } else {
            entries.remove(at: index)
        }
    }

    mutating func compact() {
        guard hasTombstones, notifying == 0 else { return }
        entries.removeAll { $0.cancellation.isCancelled || ($0.willChange == nil && $0.didChange == nil) }
        willChangeCount = entries.count { $0.willChange != nil }
        didChangeCount = entries.count { $0.didChange != nil }
        hasTombstones = false
    }

    /// The number of live observers.
    var count: Int { entries.count { !$0.cancellation.isCancelled && ($0.willChange != nil || $0.didChange != nil) } }
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
