import Synchronization

/// One edit of an identified container, as its edit journal records it.
///
/// The supervision engine replays these to reconcile only the elements that came, went or
/// changed. `reordered` says that slot numbers (``IdentifiedArray/slot(of:)``) changed: the
/// engine must re-read the order of every element it keeps.
@usableFromInline
internal enum ContainerEdit<ID> {
    /// An element with this id came (it was absent before the edit).
    case inserted(ID)
    /// The element with this id left.
    case removed(ID)
    /// The element with this id may have a new value (same id, same slot).
    case modified(ID)
    /// Slots were renumbered or elements moved relative to each other.
    case reordered
}

extension ContainerEdit: Sendable where ID: Sendable {}
extension ContainerEdit: Equatable where ID: Equatable {}

/// One journal record: the content version before and after one edit.
@usableFromInline
internal typealias EditRecord<ID> = (before: UInt64, after: UInt64, edit: ContainerEdit<ID>)

/// The process-wide source of content versions. One counter for every container, so a version
/// names one content state even across copies that diverge (each mutation of each copy draws its
/// own). Version 0 is never drawn: it names the empty content of a container never mutated.
@usableFromInline
internal let contentVersionCounter = Atomic<UInt64>(0)

/// A fresh content version: one relaxed atomic increment (ordering is irrelevant, only uniqueness
/// matters). 2⁶⁴ draws do not happen, so the counter never wraps in practice.
@inlinable
internal func nextContentVersion() -> UInt64 {
    contentVersionCounter.wrappingAdd(1, ordering: .relaxed).newValue
}

/// A ring of the last ``capacity`` edits of a container and its current content version.
///
/// A plain value held inside the container, copied on write with it: copies that diverge keep
/// their shared history and add their own records. The ring storage is allocated once, at the
/// first record (64 records); later records overwrite the oldest in place.
@usableFromInline
internal struct EditJournal<ID> {
    /// How many records the ring keeps.
    @inlinable static var capacity: Int { 64 }

    /// The current content version: the `after` of the newest record, when there is one.
    @usableFromInline var version: UInt64
    /// The ring, in write order until it wraps (then `newest + 1` is the oldest).
    @usableFromInline var records: ContiguousArray<EditRecord<ID>>
    /// The position of the newest record in `records` (meaningless while empty).
    @usableFromInline var newest: Int

    /// A journal with no record at `version`.
    @inlinable
    init(version: UInt64) {
        self.version = version
        self.records = []
        self.newest = 0
    }

    /// Records `edit` under a fresh content version. O(1); allocates only the first time (or to
    /// un-share a ring copied with its container).
    @inlinable
    mutating func record(_ edit: ContainerEdit<ID>) {
        let after = nextContentVersion()
        let record: EditRecord<ID> = (before: version, after: after, edit: edit)
        version = after
        let count = records.count
        if count < Self.capacity {
            if count == 0 { records.reserveCapacity(Self.capacity) }
            records.append(record)
            newest = count
        } else {
            newest = newest == Self.capacity &- 1 ? 0 : newest &+ 1
            records[newest] = record
        }
    }

    /// Forgets the history and moves to a fresh version: any earlier version is then unknown,
    /// exactly as if the ring had overflowed. For edits too many to be worth recording.
    @inlinable
    mutating func reset() {
        version = nextContentVersion()
        records.removeAll(keepingCapacity: true)
        newest = 0
    }

    /// Calls `body` with every edit since `version`, oldest first; `false` (and no call) when the
    /// ring does not hold a chain from `version` to the current version. O(capacity); no allocation.
    @inlinable
    func forEachEdit(since version: UInt64, _ body: (ContainerEdit<ID>) -> Void) -> Bool {
        if version == self.version { return true }
        let count = records.count
        var position = newest
        var steps = 0
        // Versions are never reused and each record starts where the previous one ended, so at
        // most one record starts at `version`: find it walking back from the newest.
        while steps < count {
            if records[position].before == version { break }
            position = position == 0 ? count &- 1 : position &- 1
            steps &+= 1
        }
        guard steps < count else { return false }
        while true {
            body(records[position].edit)
            if position == newest { return true }
            position = position &+ 1 == count ? 0 : position &+ 1
        }
    }
}

extension EditJournal: Sendable where ID: Sendable {}
