import Observation

/// The subject of the registrar's key paths: one per tracked entry, told apart by an `Int` index,
/// which the registrar hashes and compares cheaply each time it looks a key path up.
internal final class SliceSubject: Observable, Sendable {
    subscript(slice index: Int) -> Void { () }
}

/// One read a `withObservationTracking` client may depend on: the registrar's key path for it and
/// whether it was read since it last fired. This base class is the entry of a value that cannot be
/// compared: every change that may mutate the state notifies it.
///
/// Entries are not generic over the state, so the tracker's collections of them are concrete
/// types and cost no generic metadata look-up at each read or change.
@MainActor
@usableFromInline
internal class TrackedSlice {
    let key: SliceKey
    let keyPath: KeyPath<SliceSubject, Void>
    /// The regions whose writes may change the value (see ``ObserverRegions``).
    var interest = ObserverRegions.all
    /// Read since it last fired: compared (and fired) after the next change.
    var isArmed = true

    init(key: SliceKey, keyPath: KeyPath<SliceSubject, Void>) {
        self.key = key
        self.keyPath = keyPath
    }

    /// Arms the entry for a read of `value` (an entry that compares remembers it).
    func arm<Read>(with value: Read) { isArmed = true }

    /// Whether the value changed since it was read; if so the entry disarms, forgetting the value
    /// (so it keeps no copy-on-write storage of the state alive).
    func fires() -> Bool {
        isArmed = false
        return true
    }
}

/// The entry of an `Equatable` value: it fires only when the value read differs from the last one.
@MainActor
internal final class EquatableTrackedSlice<Value: Equatable>: TrackedSlice {
    /// Reads the value from the store's current state.
    let read: @MainActor () -> Value
    var last: Value?

    init(key: SliceKey, keyPath: KeyPath<SliceSubject, Void>, read: @escaping @MainActor () -> Value, value: Value) {
        self.read = read
        last = value
        super.init(key: key, keyPath: keyPath)
    }

    override func arm<Read>(with value: Read) {
        isArmed = true
        // A read of the same key reads the same type: the cast is a type check, not a conversion.
        if let value = value as? Value { last = value }
    }

    override func fires() -> Bool {
        if let last, last == read() { return false }
        isArmed = false
        last = nil
        return true
    }
}

/// The reads of a store that `withObservationTracking` clients depend on, and the registrar that
/// tells them of a change. Its entries read their store's state themselves.
///
/// `withObservationTracking` is one-shot: an entry that fired stays, disarmed, until the next
/// change, so a client that tracks again at once (as SwiftUI does) reuses it; one still disarmed at
/// the next change is dropped. Entries whose value never changes stay; past ``entryLimit`` every
/// entry fires and all are dropped (clients still alive track again).
@MainActor
@usableFromInline
internal final class SliceTracker {
    /// The most entries kept before all fire and are dropped.
    static var entryLimit: Int { 4_096 }

    let registrar = ObservationRegistrar()
    private let subject = SliceSubject()
    private(set) var entries: [SliceKey: TrackedSlice] = [:]
    /// The store's observer that calls ``stateDidChange()``, while there are entries.
    var subscription: (id: UInt64, flag: CancellationFlag)?
    /// Reused between changes: the entries that fired, the keys dropped.
    private var fired: [TrackedSlice] = []
    private var stale: [SliceKey] = []
    /// The index of the next entry's key path.
    private var nextSlice = 0
    /// The regions whose writes may change what `key` reads.
    private let interest: (SliceKey) -> UInt64

    init(interest: @escaping (SliceKey) -> UInt64) {
        self.interest = interest
    }

    /// Records a read of `value` under `key`, and tells the registrar (so the client tracking this
    /// read, if any, depends on it). A first read makes its entry's `read` of the store's state,
    /// so a read that finds its entry allocates nothing.
    func access<Value: Equatable>(_ key: SliceKey, value: Value, read: () -> @MainActor () -> Value) {
        if let entry = entries[key] {
            entry.arm(with: value)
            registrar.access(subject, keyPath: entry.keyPath)
        } else {
            add(EquatableTrackedSlice(key: key, keyPath: nextKeyPath(), read: read(), value: value))
        }
    }

    /// Records a read of a value that cannot be compared under `key`.
    func access(_ key: SliceKey) {
        if let entry = entries[key] {
            entry.isArmed = true
            registrar.access(subject, keyPath: entry.keyPath)
        } else {
            add(TrackedSlice(key: key, keyPath: nextKeyPath()))
        }
    }

    /// A key path no entry has had: a dropped entry's clients were all told, so a new entry for
    /// the same key needs none of them.
    private func nextKeyPath() -> KeyPath<SliceSubject, Void> {
        defer { nextSlice &+= 1 }
        return \SliceSubject.[slice: nextSlice]
    }

    private func add(_ entry: TrackedSlice) {
        if entries.count >= Self.entryLimit { fireAll() }
        entry.interest = interest(entry.key)
        entries[entry.key] = entry
        registrar.access(subject, keyPath: entry.keyPath)
    }

    /// After a change that wrote `regions`: fires the armed entries whose value changed (an entry
    /// no write reached is not read again), drops those still disarmed since the last change.
    /// Clients may read (and arm entries) while being told.
    func stateDidChange(writing regions: UInt64) {
        // Takes the buffer of the last change: one made while clients are told takes an empty one.
        var firing: [TrackedSlice] = []
        swap(&firing, &fired)
        for entry in entries.values {
            if !entry.isArmed {
                stale.append(entry.key)
            } else if entry.interest & regions != 0, entry.fires() {
                firing.append(entry)
            }
        }
        if !stale.isEmpty {
            for key in stale { entries[key] = nil }
            stale.removeAll(keepingCapacity: true)
        }
        for entry in firing { notify(entry.keyPath) }
        firing.removeAll(keepingCapacity: true)
        swap(&firing, &fired)
    }

    /// Fires every entry and drops them all.
    private func fireAll() {
        let all = entries
        entries = [:]
        for entry in all.values { notify(entry.keyPath) }
    }

    private func notify(_ keyPath: KeyPath<SliceSubject, Void>) {
        registrar.willSet(subject, keyPath: keyPath)
        registrar.didSet(subject, keyPath: keyPath)
    }
}
