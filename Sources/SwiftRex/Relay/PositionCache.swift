import Synchronization

/// A copy of a container, held by a position cache only to pin the container's storage: never
/// read, so it may be released on any thread (a Store's state is `Sendable`, and so is the
/// container it holds). Not nested in the generic cache: its metadata is then static.
@usableFromInline
internal struct Witness: @unchecked Sendable {
    @usableFromInline let pinned: Any
    @inlinable init(_ pinned: Any) { self.pinned = pinned }
}

/// A thread-safe id → position cache, rebuilt only when a lookup finds it stale (a structural
/// change); the first occurrence of a duplicated id wins.
///
/// Every Store built from one behavior shares the lift and so this cache: it keeps up to four
/// tables, each keyed by the storage it was built from (the address of an array's first
/// element), so Stores that alternate each keep O(1) routing instead of rebuilding one shared
/// table. A container with no such address uses one table. Spare tables no lookup chose since
/// the last build are dropped.
///
/// A table may hold a *witness*: a copy of the array it was built from, which pins that storage
/// (copy-on-write), so while a container lies there its ids are the table's and an id the table
/// lacks is absent without a scan. The lane's own element writes release the witness first (to
/// stay in place) and restore it when the id is unchanged. A second miss on the same storage
/// builds a witnessed table. Inlinable, so lookups run specialised for the id type.
@usableFromInline
internal final class PositionCache<ID: Hashable & Sendable>: Sendable {
    /// Tables kept besides the current one.
    @usableFromInline static var spareTables: Int { 3 }
    /// Storages remembered as missed once.
    @usableFromInline static var missHints: Int { 4 }
    /// ``witnessed`` when two or more tables have a witness (never a storage address: those are
    /// aligned).
    @usableFromInline static var severalWitnesses: UInt { 1 }

    /// A table other than the current one, kept for the container in `storage`.
    @usableFromInline
    internal struct Table {
        @usableFromInline var byID: [ID: Int]
        @usableFromInline var storage: UInt?
        @usableFromInline var witness: Witness?
        @usableFromInline var generation: UInt64
        @usableFromInline var lastUse: UInt64

        @inlinable
        init(byID: [ID: Int], storage: UInt?, witness: Witness?, generation: UInt64, lastUse: UInt64) {
            self.byID = byID
            self.storage = storage
            self.witness = witness
            self.generation = generation
            self.lastUse = lastUse
        }
    }

    @usableFromInline
    internal struct Positions {
        // The current table, stored inline: a routed action reads only `byID` and the memo.
        @usableFromInline var byID: [ID: Int]
        /// The last id found and its position: where an element is looked up twice (a reaction's
        /// pre-mutation read, then its mutation), the second lookup skips the table.
        @usableFromInline var lastID: ID?
        @usableFromInline var lastPosition: Int
        /// The first element's address in the storage `byID` was built from (compared, never
        /// dereferenced), or `nil` when the container has no such address.
        @usableFromInline var storage: UInt?
        /// A copy of the array `byID` was built from, held so `storage` cannot change in place.
        @usableFromInline var witness: Witness?
        /// `storage` while `witness` is held, else `nil` (read instead of `witness`: a check of
        /// the optional witness goes through its type's value witness table).
        @usableFromInline var witnessStorage: UInt?
        /// Unique per table built: a witness released for an element write is restored only over
        /// the table it was taken from.
        @usableFromInline var generation: UInt64
        /// The ``epoch`` at which this table was built or last made current from the spares.
        @usableFromInline var lastUse: UInt64
        /// The other tables, most recently chosen first.
        @usableFromInline var spares: [Table]
        /// Storages whose last scan found nothing, most recent first (a hint: a second miss there
        /// builds a witnessed table).
        @usableFromInline var missed: [UInt]
        /// Counts tables built and spares made current.
        @usableFromInline var epoch: UInt64
        /// The ``epoch`` of the last table built.
        @usableFromInline var lastBuild: UInt64
        @usableFromInline var generations: UInt64
        /// Ids read by scans and rebuilds since the cache was made (tests).
        @usableFromInline var idsRead: Int
        /// Offsets a patch sorts (ids removed, ids inserted), kept between patches.
        @usableFromInline var removedOffsets: [Int]
        @usableFromInline var insertedOffsets: [Int]

        @inlinable
        init() {
            byID = [:]
            lastID = nil
            lastPosition = 0
            storage = nil
            witness = nil
            witnessStorage = nil
            generation = 0
            lastUse = 0
            spares = []
            missed = []
            epoch = 0
            lastBuild = 0
            generations = 0
            idsRead = 0
            removedOffsets = []
            insertedOffsets = []
        }

        /// Makes the table built from `storage` current, when there is one; returns whether there
        /// was. A spare made current is marked used. The current table needs no mark: it was
        /// built last, or chosen since the last build, so it is never dropped as unused.
        @inlinable @inline(__always)
        mutating func choose(_ storage: UInt?) -> Bool {
            self.storage == storage || chooseSpare(storage)
        }

        /// ``choose(_:)`` when the current table was built from other storage.
        @inlinable @inline(never)
        mutating func chooseSpare(_ storage: UInt?) -> Bool {
            guard storage != nil, let index = spares.firstIndex(where: { $0.storage == storage }) else { return false }
            epoch &+= 1
            var chosen = spares.remove(at: index)
            swap(&byID, &chosen.byID)
            swap(&self.storage, &chosen.storage)
            swap(&witness, &chosen.witness)
            swap(&generation, &chosen.generation)
            swap(&lastUse, &chosen.lastUse)
            spares.insert(chosen, at: 0)
            witnessStorage = witness == nil ? nil : self.storage
            lastID = nil
            lastUse = epoch
            return true
        }

        /// Installs a table built from `storage`: it replaces the current table when that was
        /// built from the same storage (or is empty), else the current table becomes a spare.
        /// Returns the witnesses dropped, to be released after the lock.
        @inlinable
        mutating func install(_ fresh: [ID: Int], storage: UInt?, witness: Witness?) -> [Witness] {
            var dropped: [Witness] = []
            if self.storage != storage, !byID.isEmpty || witnessStorage != nil {
                spares.insert(Table(byID: byID, storage: self.storage, witness: self.witness.take(), generation: generation, lastUse: lastUse), at: 0)
                // Spares no lookup chose since the last build belong to no container in use.
                let lastBuild = self.lastBuild
                spares.removeAll { spare in
                    guard spare.lastUse < lastBuild else { return false }
                    if let witness = spare.witness { dropped.append(witness) }
                    return true
                }
                while spares.count > PositionCache.spareTables {
                    if let witness = spares.removeLast().witness { dropped.append(witness) }
                }
            } else if let replaced = self.witness.take() {
                dropped.append(replaced)
            }
            if let storage {
                // A spare of the same storage (two threads raced to build it) is superseded.
                spares.removeAll { spare in
                    guard spare.storage == storage else { return false }
                    if let witness = spare.witness { dropped.append(witness) }
                    return true
                }
            }
            byID = fresh
            self.storage = storage
            self.witness = witness
            witnessStorage = witness == nil ? nil : storage
            generations &+= 1
            generation = generations
            epoch &+= 1
            lastUse = epoch
            lastBuild = epoch
            if let storage { missed.removeAll { $0 == storage } }
            return dropped
        }

        /// Remembers a scan of `storage` that found nothing; returns whether the last one there
        /// found nothing too.
        @inlinable
        mutating func noteMiss(_ storage: UInt) -> Bool {
            if missed.contains(storage) { return true }
            missed.insert(storage, at: 0)
            if missed.count > PositionCache.missHints { missed.removeLast() }
            return false
        }

        /// What ``witnessed`` says of these tables.
        @inlinable
        var witnessState: UInt {
            var found: UInt = witnessStorage ?? 0
            for spare in spares where spare.witness != nil {
                if found != 0 { return PositionCache.severalWitnesses }
                found = spare.storage ?? 0
            }
            return found
        }
    }

    @usableFromInline let positions = Mutex(Positions())
    /// Which storages witnesses pin (written under the lock, read without it): `0` when none,
    /// the storage when one table has a witness, ``severalWitnesses`` when more do. A write to a
    /// container in storage no witness pins skips the lock. A stale read costs only an in-place
    /// write (copy-on-write).
    @usableFromInline let witnessed = Atomic<UInt>(0)

    @usableFromInline init() {}

    /// Ids read by scans and rebuilds since the cache was made.
    @usableFromInline var idsRead: Int { positions.withLock { $0.idsRead } }

    /// Tables held (tests).
    @usableFromInline var tableCount: Int { positions.withLock { ($0.byID.isEmpty && $0.witnessStorage == nil ? 0 : 1) + $0.spares.count } }

    /// The position the current table holds for `id` (zero or more), else `-1 - w`, where `w` is
    /// the storage the table's witness pins (`0` when it has none, or when the address does not
    /// fit a positive `Int`): one lock, no read of the container. The caller validates a position
    /// against the container; an id the table lacks is absent at once when the container lies in
    /// the witnessed storage (the table was built from these very ids), and anything else is
    /// answered by ``locate(_:count:storage:witness:idAt:ids:)``, out of line, so that the
    /// routed-action path (a table hit) reads nothing about witnesses or storage.
    @inlinable @inline(__always)
    func tabled(_ id: ID) -> Int {
        // One word out of the lock, not an optional or a pair: the hit on the last id then returns
        // without setting up a frame, and the miss carries the witness for free.
        positions.withLock { positions -> Int in
            if positions.lastID == id { return positions.lastPosition }
            guard let position = positions.byID[id] else {
                let witnessed = Int(bitPattern: positions.witnessStorage ?? 0)
                return witnessed > 0 ? -1 &- witnessed : -1
            }
            positions.lastID = id
            positions.lastPosition = position
            return position
        }
    }

    /// The position of an id the current table could not place.
    ///
    /// `storage` is the address of the container's first element when the container is an array
    /// whose storage a copy of `container` (the witness, taken only when a table is built for it)
    /// pins, else `nil`. The table built from `storage` is made current and read, with its
    /// witness, under one lock: a position it holds is checked against the container (a stale
    /// table is rebuilt); an id it lacks is absent at once when the witness lies in `storage`
    /// (the table was built from these very ids); otherwise it is looked for with a plain scan of
    /// the ids, and only when the scan finds it (the container changed) is the table rebuilt. A
    /// miss is a late action for a removed element: out of line, off the hit path.
    @inlinable @inline(never)
    func locate<Container>(
        _ id: ID, count: Int, storage: UInt?, witness container: borrowing Container,
        idAt: (Int) -> ID, ids: () -> [ID]
    ) -> Int? {
        guard count > 0 else { return nil }
        // The current table first, read as a routed action reads it (the usual case: one Store).
        var (tabled, witnessStorage, current) = positions.withLock { ($0.byID[id], $0.witnessStorage, $0.storage) }
        if current != storage { (tabled, witnessStorage) = chosen(id, storage: storage) }
        // A witness lies in the current table's storage: this container's only if it was chosen.
        let exact = storage != nil && witnessStorage == storage
        if let tabled {
            if tabled < count, idAt(tabled) == id {
                positions.withLock { positions in
                    positions.lastID = id
                    positions.lastPosition = tabled
                }
                return tabled
            }
            return rebuild(finding: id, count: count, ids: ids(), scanned: 0, storage: storage)
        }
        if exact { return nil }
        var offset = 0
        while offset < count {
            if idAt(offset) == id { return rebuild(finding: id, count: count, ids: ids(), scanned: offset &+ 1, storage: storage) }
            offset &+= 1
        }
        let secondMiss = positions.withLock { positions -> Bool in
            positions.idsRead &+= count
            guard let storage else { return false }
            return positions.noteMiss(storage)
        }
        if secondMiss, let storage {
            _ = rebuild(finding: id, count: count, ids: ids(), scanned: 0, storage: storage, witness: Witness(copy container))
        }
        return nil
    }

    /// The position the table built from `storage` holds for `id`, and its witness's storage,
    /// once that table is made current; the current table's when there is none.
    @inlinable @inline(never)
    func chosen(_ id: ID, storage: UInt?) -> (Int?, UInt?) {
        positions.withLock { positions in
            _ = positions.choose(storage)
            return (positions.byID[id], positions.witnessStorage)
        }
    }

    /// Rebuilds the table of the container in `storage` from its ids (first occurrence wins;
    /// duplicates reported), witnessed by `witness` (a copy of the array, lying in `storage`)
    /// when given.
    @inlinable
    func rebuild(finding id: ID, count: Int, ids all: [ID], scanned: Int, storage: UInt?, witness: Witness? = nil) -> Int? {
        var fresh: [ID: Int] = [:]
        fresh.reserveCapacity(count)
        // One probe per id: walked from the end, each id's last write is its first offset. An id
        // already present hands back the offset of its next occurrence, which is not a first one.
        var laterOffsets: [Int] = []
        for offset in all.indices.reversed() {
            if let later = fresh.updateValue(offset, forKey: all[offset]) { laterOffsets.append(later) }
        }
        // In the order a forward walk meets them.
        let duplicates = laterOffsets.sorted().map { all[$0] }
        let found = fresh[id]
        // Dropped witnesses (possibly the last owners of old arrays) are released after the lock.
        let dropped = positions.withLock { positions -> [Witness] in
            positions.idsRead &+= scanned &+ all.count
            let dropped = positions.install(fresh, storage: storage, witness: witness)
            positions.lastID = found == nil ? nil : id
            positions.lastPosition = found ?? 0
            witnessed.store(positions.witnessState, ordering: .relaxed)
            return dropped
        }
        _ = consume dropped
        if !duplicates.isEmpty { reportDuplicates(duplicates.prefix(10).map { "\($0)" }) }
        return found
    }

    /// Brings the current table up to date with a write it did not see: `edits` (in order) led
    /// from the container of `count` elements that lay in `old`, which the table describes, to
    /// the one now in `new`. Removed ids leave, the others' positions shift, inserted ids come:
    /// one pass over the table, no id hashed but the edited ones, where a lookup would otherwise
    /// rebuild the table. The
    /// table then describes `new`, without a witness (the old one pinned the old storage), so an
    /// id it lacks is looked for before it is called absent, and every position it gives is read
    /// back, as any table's is. Nothing happens when the current table is not `old`'s.
    @inlinable
    func patch(from old: UInt?, to new: UInt?, count: Int, edits: ArraySlice<ArrayEdit<ID>>) {
        guard let old, let new else { return }
        let (witness, spares) = positions.withLock { positions -> (Witness?, [Witness]) in
            guard positions.storage == old else { return (nil, []) }
            // Apart from the rare spares, so a patch allocates nothing.
            let witness = positions.witness.take()
            var dropped: [Witness] = []
            positions.witnessStorage = nil
            if new != old {
                // A spare left from an earlier container in that storage no longer describes it.
                positions.spares.removeAll { spare in
                    guard spare.storage == new else { return false }
                    if let witness = spare.witness { dropped.append(witness) }
                    return true
                }
            }
            // An id inserted twice: the next lookup rebuilds the table, and reports it.
            if !Self.apply(
                edits, to: &positions.byID, count: count, removed: &positions.removedOffsets, inserted: &positions.insertedOffsets)
            {
                positions.byID.removeAll()
            }
            positions.storage = new
            positions.lastID = nil
            positions.generations &+= 1
            positions.generation = positions.generations
            witnessed.store(positions.witnessState, ordering: .relaxed)
            return (witness, dropped)
        }
        // Released after the lock: a witness may hold the last copy of the old array.
        _ = consume witness
        _ = consume spares
    }

    /// `table` (of a container of `count` elements) with `edits` applied: see
    /// ``patch(from:to:count:edits:)``; `removed` and `inserted` are scratch space. An id removed
    /// that the table lacks (it was stale) only leaves the positions as they were. Returns
    /// `false`, the table half-patched, when an id inserted is already there: the container then
    /// holds it twice.
    @inlinable
    static func apply(
        _ edits: ArraySlice<ArrayEdit<ID>>, to table: inout [ID: Int], count: Int, removed: inout [Int], inserted: inout [Int]
    ) -> Bool {
        removed.removeAll(keepingCapacity: true)
        inserted.removeAll(keepingCapacity: true)
        for edit in edits {
            switch edit {
            case .modified: continue
            case .removed(let id): if let offset = table.removeValue(forKey: id) { removed.append(offset) }
            case .inserted(_, let at, _, _): inserted.append(at)
            }
        }
        guard !removed.isEmpty || !inserted.isEmpty else { return true }
        removed.sort()
        inserted.sort()
        // Appends alone move no one.
        let shifts = !removed.isEmpty || inserted[0] < count
        var index = shifts ? table.values.startIndex : table.values.endIndex
        while index != table.values.endIndex {
            // Its offset among the elements left, then among the final ones: each insertion at or
            // before where it would lie pushes it one further.
            let old = table.values[index]
            var offset = old &- Self.count(below: old, in: removed)
            var pushed = 0
            while pushed < inserted.count, inserted[pushed] <= offset &+ pushed { pushed &+= 1 }
            offset &+= pushed
            if offset != old { table.values[index] = offset }
            table.values.formIndex(after: &index)
        }
        for edit in edits {
            guard case .inserted(let id, let at, _, _) = edit else { continue }
            guard table.updateValue(at, forKey: id) == nil else { return false }
        }
        return true
    }

    /// How many elements of `sorted` are below `value`.
    @inlinable
    static func count(below value: Int, in sorted: [Int]) -> Int {
        var low = 0
        var high = sorted.count
        while low < high {
            let middle = (low &+ high) / 2
            if sorted[middle] < value { low = middle &+ 1 } else { high = middle }
        }
        return low
    }

    /// Releases the witness pinning `storage`, if any, before the lane writes the container in
    /// place there (witnesses of other storages do not share it). Returns the generation of the
    /// table it was taken from (the write may restore it), else `nil`.
    @inlinable
    func releaseWitness(storage: UInt?) -> UInt64? {
        guard let storage else { return nil }
        let state = witnessed.load(ordering: .relaxed)
        guard state == storage || state == Self.severalWitnesses else { return nil }
        let (released, generation) = positions.withLock { positions -> (Witness?, UInt64?) in
            var taken: (Witness?, UInt64?) = (nil, nil)
            if positions.witnessStorage == storage {
                positions.witnessStorage = nil
                taken = (positions.witness.take(), positions.generation)
            } else if let index = positions.spares.firstIndex(where: { $0.storage == storage && $0.witness != nil }) {
                taken = (positions.spares[index].witness.take(), positions.spares[index].generation)
            }
            witnessed.store(positions.witnessState, ordering: .relaxed)
            return taken
        }
        // Released here, before the caller writes: the container's storage is unique again.
        _ = consume released
        return generation
    }

    /// Restores a witness released by ``releaseWitness(storage:)`` after a write that left every
    /// id in place and the container in `storage`, unless that table was replaced meanwhile.
    @inlinable
    func restoreWitness(_ pinned: Any, storage: UInt, generation: UInt64) {
        let witness = Witness(pinned)
        positions.withLock { positions in
            if positions.storage == storage, positions.generation == generation {
                guard positions.witnessStorage == nil else { return }
                positions.witness = witness
                positions.witnessStorage = storage
            } else if let index = positions.spares.firstIndex(where: { $0.storage == storage && $0.generation == generation }) {
                guard positions.spares[index].witness == nil else { return }
                positions.spares[index].witness = witness
            } else {
                return
            }
            witnessed.store(positions.witnessState, ordering: .relaxed)
        }
    }

    /// Reports the ids a rebuild found more than once.
    @usableFromInline
    func reportDuplicates(_ ids: [String]) {
        reportDiagnostic(
            StoreDiagnostic(
                kind: .duplicateID,
                message:
                    "Duplicate ids in an identified collection: \(ids.joined(separator: ", ")). Actions addressed to a duplicated id reach its first occurrence only.",
                source: nil, cause: "ids \(ids.joined(separator: ", "))"
            ))
    }
}
