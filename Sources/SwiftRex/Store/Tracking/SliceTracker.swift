import Observation

/// One read a `withObservationTracking` client may depend on: the registrar's key path for it and
/// whether it was read since it last fired. This base class is the entry of a value that cannot be
/// compared: every change that may mutate the state notifies it.
@MainActor
@usableFromInline
internal class TrackedSlice<Subject: AnyObject, State> {
    let key: SliceKey
    let keyPath: KeyPath<Subject, Void>
    /// Read since it last fired: compared (and fired) after the next change.
    var isArmed = true

    init(key: SliceKey, keyPath: KeyPath<Subject, Void>) {
        self.key = key
        self.keyPath = keyPath
    }

    /// Whether the value changed since it was read; remembers the new value when it compares.
    func changed(in state: State) -> Bool { true }

    /// Forgets the value (so the entry keeps no copy-on-write storage of the state alive).
    func disarm() { isArmed = false }
}

/// The entry of an `Equatable` value: it fires only when the value read differs from the last one.
@MainActor
internal final class EquatableTrackedSlice<Subject: AnyObject, State, Value: Equatable>: TrackedSlice<Subject, State> {
    let read: (State) -> Value
    var last: Value?

    init(key: SliceKey, keyPath: KeyPath<Subject, Void>, read: @escaping (State) -> Value, value: Value) {
        self.read = read
        last = value
        super.init(key: key, keyPath: keyPath)
    }

    override func changed(in state: State) -> Bool {
        let value = read(state)
        guard value != last else { return false }
        last = value
        return true
    }

    override func disarm() {
        isArmed = false
        last = nil
    }
}

/// The reads of a store that `withObservationTracking` clients depend on, and the registrar that
/// tells them of a change.
///
/// `withObservationTracking` is one-shot: an entry that fired stays, disarmed, until the next
/// change, so a client that tracks again at once (as SwiftUI does) reuses it; one still disarmed at
/// the next change is dropped. Entries whose value never changes stay; past ``entryLimit`` every
/// entry fires and all are dropped (clients still alive track again).
@MainActor
@usableFromInline
internal final class SliceTracker<Subject: AnyObject & Observable, State> {
    /// The most entries kept before all fire and are dropped.
    static var entryLimit: Int { 4_096 }

    let registrar = ObservationRegistrar()
    private(set) var entries: [SliceKey: TrackedSlice<Subject, State>] = [:]
    /// The store's observer that calls ``stateDidChange(_:subject:)``, while there are entries.
    var subscription: (id: UInt64, flag: CancellationFlag)?
    /// Reused between changes: the entries that fired, the keys dropped.
    private var fired: [TrackedSlice<Subject, State>] = []
    private var stale: [SliceKey] = []

    init() {}

    /// Records that `subject` read `value` under `key`, and tells the registrar (so the client
    /// tracking this read, if any, depends on it). `keyPath` makes the registrar's key path of a
    /// first read.
    func access<Value: Equatable>(
        _ key: SliceKey, value: Value, read: @escaping (State) -> Value, subject: Subject, keyPath: (SliceKey) -> KeyPath<Subject, Void>
    ) {
        if let entry = entries[key] {
            entry.isArmed = true
            (entry as? EquatableTrackedSlice<Subject, State, Value>)?.last = value
            registrar.access(subject, keyPath: entry.keyPath)
        } else {
            add(EquatableTrackedSlice(key: key, keyPath: keyPath(key), read: read, value: value), subject: subject)
        }
    }

    /// Records that `subject` read a value that cannot be compared under `key`.
    func access(_ key: SliceKey, subject: Subject, keyPath: (SliceKey) -> KeyPath<Subject, Void>) {
        if let entry = entries[key] {
            entry.isArmed = true
            registrar.access(subject, keyPath: entry.keyPath)
        } else {
            add(TrackedSlice(key: key, keyPath: keyPath(key)), subject: subject)
        }
    }

    private func add(_ entry: TrackedSlice<Subject, State>, subject: Subject) {
        if entries.count >= Self.entryLimit { fireAll(subject) }
        entries[entry.key] = entry
        registrar.access(subject, keyPath: entry.keyPath)
    }

    /// After a change: fires the armed entries whose value changed, drops those still disarmed
    /// since the last change. Clients may read (and arm entries) while being told.
    func stateDidChange(_ state: State, subject: Subject) {
        for entry in entries.values {
            if !entry.isArmed {
                stale.append(entry.key)
            } else if entry.changed(in: state) {
                entry.disarm()
                fired.append(entry)
            }
        }
        for key in stale { entries[key] = nil }
        stale.removeAll(keepingCapacity: true)
        var firing: [TrackedSlice<Subject, State>] = []
        swap(&firing, &fired)
        for entry in firing { notify(subject, entry.keyPath) }
        firing.removeAll(keepingCapacity: true)
        swap(&firing, &fired)
    }

    /// Fires every entry and drops them all.
    private func fireAll(_ subject: Subject) {
        let all = entries
        entries = [:]
        for entry in all.values { notify(subject, entry.keyPath) }
    }

    private func notify(_ subject: Subject, _ keyPath: KeyPath<Subject, Void>) {
        registrar.willSet(subject, keyPath: keyPath)
        registrar.didSet(subject, keyPath: keyPath)
    }
}
