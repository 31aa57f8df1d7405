import Synchronization

/// A state lane over a keyed container: locates one element by id in O(1) amortised, mutates it
/// in place, and walks every element once in a stable order.
public protocol KeyedState: Sendable {
    /// The app's state type.
    associatedtype GlobalState
    /// The element identifier.
    associatedtype ID: Hashable & Sendable
    /// The element (the feature's state).
    associatedtype Element

    /// The element with `id`, or `nil` when absent. O(1) amortised.
    func element(_ id: ID, in state: GlobalState) -> Element?
    /// Mutates the element with `id` in place; returns whether it was present. O(1) amortised.
    func modifyElement(_ id: ID, in state: inout GlobalState, _ body: (inout Element) -> Void) -> Bool
    /// Whether the container holds no element. O(1).
    func isEmpty(in state: GlobalState) -> Bool
    /// Calls `body` for every element, in container order (dictionaries: ascending keys). O(n).
    func forEachElement(in state: GlobalState, _ body: (ID, Element) -> Void)
    /// Mutates every element in place, in container order, walking storage once. O(n).
    func modifyEach(in state: inout GlobalState, _ body: (ID, inout Element) -> Void)
    /// Applies `run(action, &element)` to every element in place, in container order, without
    /// reading ids: the broadcast reducer's loop, one call per element. O(n).
    func modifyEach<Action>(in state: inout GlobalState, applying run: (Action, inout Element) -> Void, with action: Action)

    // Reads made before any mutation. Each takes the app's state `inout` for its address only and
    // writes nothing: the library's lanes reach a container stored at a fixed offset where it
    // lies, so a large app state is never copied to answer them. The defaults call the by-value
    // forms above (which copy the state).

    /// Whether the element with `id` is present, reading no element. O(1) amortised.
    func containsElement(_ id: ID, in state: inout GlobalState) -> Bool
    /// `body` applied to the element with `id`, or `nil` when it is absent. O(1) amortised.
    func inspectElement<Result>(_ id: ID, in state: inout GlobalState, _ body: (Element) -> Result) -> Result?
    /// Whether the container holds no element. O(1).
    func isEmpty(inPlace state: inout GlobalState) -> Bool
    /// Calls `body` for every element, in container order. O(n).
    func forEachElement(inPlace state: inout GlobalState, _ body: (ID, Element) -> Void)
}

extension KeyedState {
    /// `element(id, in: state) != nil`.
    @inlinable
    public func containsElement(_ id: ID, in state: inout GlobalState) -> Bool {
        element(id, in: state) != nil
    }

    /// `element(id, in: state).map(body)`.
    @inlinable
    public func inspectElement<Result>(_ id: ID, in state: inout GlobalState, _ body: (Element) -> Result) -> Result? {
        element(id, in: state).map(body)
    }

    /// `isEmpty(in: state)`.
    @inlinable
    public func isEmpty(inPlace state: inout GlobalState) -> Bool {
        isEmpty(in: state)
    }

    /// `forEachElement(in: state, body)`.
    @inlinable
    public func forEachElement(inPlace state: inout GlobalState, _ body: (ID, Element) -> Void) {
        forEachElement(in: state, body)
    }
}

extension KeyedState {
    /// Applies `run(action, &element)` to every element through ``modifyEach(in:_:)``.
    @inlinable
    public func modifyEach<Action>(in state: inout GlobalState, applying run: (Action, inout Element) -> Void, with action: Action) {
        modifyEach(in: &state) { _, element in run(action, &element) }
    }
}

/// A copy of a container, held by a position cache only to pin the container's storage: never
/// read, so it may be released on any thread (a Store's state is `Sendable`, and so is the
/// container it holds). Not nested in the generic cache: its metadata is then static.
@usableFromInline
internal struct Witness: @unchecked Sendable {
    @usableFromInline let pinned: Any
    @inlinable init(_ pinned: Any) { self.pinned = pinned }
}

/// A thread-safe id → position cache, rebuilt only when a lookup finds it stale (a structural
/// change). Duplicate ids are reported once per rebuild; the first occurrence wins.
///
/// The cache lives in a lift, so every Store built from the same behavior shares it (two windows,
/// an app store and a test store, previews). It therefore keeps up to four tables, each keyed by
/// the storage it was built from (the address of an array's first element): an id the current
/// table cannot place is looked up, out of line, in the table built from the container's own
/// storage, which then becomes current. Stores alternating their actions thus each keep O(1)
/// routing and O(1) absence, instead of rebuilding one shared table on every alternation. A
/// container without such an address (not an `Array` or `ContiguousArray`, or empty) uses one
/// table for all. Memory is bounded: when a table is built, spare tables no lookup chose since
/// the previous build are dropped (a container that moved to new storage leaves its old table
/// behind), and beyond three spares the least recently chosen is dropped, with its witness.
///
/// An id a table lacks is absent in O(1) when the table has a *witness*: a copy of the array
/// (`Array` or `ContiguousArray`) the table was built from. Holding the copy shares that array's
/// storage, so nothing can write the storage in place (copy-on-write): while a container still
/// lies in the witnessed storage, its ids are the table's ids. Any other write moves the container
/// to fresh storage, the addresses differ, and absence is checked by scanning again. The lane's
/// own element writes release the witness of the container's storage first (so they stay in
/// place) and restore it when the element's id is unchanged; witnesses of other storages are
/// left alone. Without a witness an absent id costs one scan of the ids; a second miss on the same
/// storage builds a witnessed table, so the scans a witness saves pay for the one copy it may
/// cause. A table hit reads nothing about witnesses (a miss reads the current table's witness
/// storage in the same lock, and compares it out of line); an element write reads one word,
/// ``witnessed``, before writing.
///
/// Inlinable, so lookups run specialised for the element id type: unspecialised, every lookup
/// looked up generic type metadata at run time (thousands of instructions per routed action).
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
        /// The last id found and its position: a routed action looks its element up twice (in
        /// the pre-mutation test, then to mutate), and the second lookup then skips the table.
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

    @usableFromInline
    func reportDuplicates(_ ids: [String]) {
        reportDiagnostic(
            StoreDiagnostic(
                kind: .duplicateID,
                message:
                    "Duplicate ids in an identified collection: \(ids.joined(separator: ", ")). Actions addressed to a duplicated id reach its first occurrence only.",
                source: nil
            ))
    }
}

extension Relay {
    /// Elements of an array-like container located by an id key path (e.g. `Identifiable.id`),
    /// in O(1) amortised through a position cache rebuilt only on structural change.
    public struct IdentifiedElements<GlobalState, Container, ID>: KeyedState
    where Container: MutableCollection & RandomAccessCollection, Container.Index == Int, ID: Hashable & Sendable {
        /// The container.
        public let container: Lens<GlobalState, Container>
        /// Reads an element's id.
        public let identify: @Sendable (Container.Element) -> ID
        /// Reads the id of the element a pointer addresses, where it lies.
        @usableFromInline let identifyInPlace: @Sendable (UnsafePointer<Container.Element>) -> ID
        @usableFromInline let cache = PositionCache<ID>()

        /// Ids this lane's position cache has read by scanning or rebuilding, since the lane was
        /// made: how tests tell an O(1) lookup from a pass over the container.
        @_spi(Testing) public var positionCacheIDsRead: Int { cache.idsRead }

        /// Tables this lane's position cache holds (one per container storage in use, at most
        /// four): how tests tell that Stores sharing the lane keep their own tables, and no more.
        @_spi(Testing) public var positionCacheTables: Int { cache.tableCount }

        /// A lane over a container lens and an id function.
        @inlinable
        public init(container: Lens<GlobalState, Container>, id identify: @escaping @Sendable (Container.Element) -> ID) {
            self.container = container
            self.identify = identify
            identifyInPlace = { identify($0.pointee) }
        }

        /// A lane over a container lens whose ids are also read where the elements lie
        /// (`inPlace`), so a large element is never copied to find it.
        @inlinable
        init(
            container: Lens<GlobalState, Container>,
            id identify: @escaping @Sendable (Container.Element) -> ID,
            inPlace: @escaping @Sendable (UnsafePointer<Container.Element>) -> ID
        ) {
            self.container = container
            self.identify = identify
            identifyInPlace = inPlace
        }

        /// Whether the container is an array whose storage a copy pins (copy-on-write), so that
        /// the position cache may prove an id absent without scanning (see `PositionCache`).
        @inlinable
        static var containerPinsStorage: Bool {
            guard Container.self == [Container.Element].self || Container.self == ContiguousArray<Container.Element>.self else { return false }
            #if _runtime(_ObjC)
            // An array bridged lazily from Objective-C may lend a temporary copy of its elements,
            // whose address says nothing about the array.
            return Container.self == ContiguousArray<Container.Element>.self || !_isBridgedVerbatimToObjectiveC(Container.Element.self)
            #else
            return true
            #endif
        }

        /// The address of the first element when the container's storage can be pinned, else `nil`.
        @inlinable
        static func storage(of buffer: UnsafeBufferPointer<Container.Element>) -> UInt? {
            containerPinsStorage && !buffer.isEmpty ? UInt(bitPattern: buffer.baseAddress) : nil
        }

        /// The position of `id` in `elements`: a table hit read back where the element lies.
        @inlinable
        func position(_ id: ID, in elements: Container) -> Int? {
            let tabled = cache.tabled(id)
            guard tabled >= 0 else { return untabled(id, in: elements, witnessed: UInt(bitPattern: -1 &- tabled)) }
            if tabled < elements.count, idAt(tabled, in: elements) == id { return tabled }
            return relocated(id, in: elements)
        }

        /// ``located(_:in:)`` for an id the current table lacks, unless the container lies in
        /// `witnessed`, the storage the table's witness pins (`0`: none): the id is then absent.
        @inlinable @inline(never)
        func untabled(_ id: ID, in elements: Container, witnessed: UInt) -> Int? {
            if witnessed != 0, let storage = elements.withContiguousStorageIfAvailable({ Self.storage(of: $0) }), storage == witnessed { return nil }
            return located(id, in: elements)
        }

        /// ``located(_:in:)`` for an id the current table places elsewhere. A call site of its
        /// own: sharing one with the id the table lacks cost the routed-action path two moves.
        @inlinable @inline(never)
        func relocated(_ id: ID, in elements: Container) -> Int? {
            located(id, in: elements)
        }

        /// The id of the element at `offset`, read where it lies: a large element is not copied
        /// to read its id (an array's subscript getter returns a copy).
        @inlinable
        func idAt(_ offset: Int, in elements: Container) -> ID {
            let identifyInPlace = self.identifyInPlace
            return elements.withContiguousStorageIfAvailable { identifyInPlace($0.baseAddress! + offset) }
                ?? identify(elements[elements.startIndex + offset])
        }

        /// The position of an id the cache's current table cannot place: a late action for a
        /// removed element, an element added or moved since the table was built, or a container
        /// of another Store sharing the lane (its own table is then chosen by storage). Out of
        /// line: the routed-action path stays small. Ids are read where the elements lie, as in
        /// ``idAt(_:in:)``.
        @inlinable @inline(never)
        func located(_ id: ID, in elements: Container) -> Int? {
            let identify = self.identify
            let identifyInPlace = self.identifyInPlace
            if let found = elements.withContiguousStorageIfAvailable({ buffer in
                cache.locate(
                    id,
                    count: buffer.count,
                    storage: Self.storage(of: buffer),
                    witness: elements,
                    idAt: { identifyInPlace(buffer.baseAddress! + $0) },
                    ids: { (0..<buffer.count).map { identifyInPlace(buffer.baseAddress! + $0) } }
                )
            }) {
                return found
            }
            return cache.locate(
                id,
                count: elements.count,
                storage: nil,
                witness: elements,
                idAt: { identify(elements[elements.startIndex + $0]) },
                ids: { elements.map(identify) }
            )
        }

        /// The element with `id`.
        @inlinable
        public func element(_ id: ID, in state: GlobalState) -> Container.Element? {
            let elements = container.get(state)
            return position(id, in: elements).map { elements[elements.startIndex + $0] }
        }

        /// Mutates the element with `id` in place.
        @inlinable
        public func modifyElement(_ id: ID, in state: inout GlobalState, _ body: (inout Container.Element) -> Void) -> Bool {
            var found = false
            container.modify(&state) { elements in
                guard let offset = position(id, in: elements) else { return }
                found = true
                // A witness is only ever taken of a container whose storage can be pinned.
                if cache.witnessed.load(ordering: .relaxed) != 0 {
                    write(id, at: offset, in: &elements, body)
                } else {
                    body(&elements[elements.startIndex + offset])
                }
            }
            return found
        }

        /// Writes the element at `offset` while the cache may hold a witness: the witness of the
        /// container's storage, if any, is released, so the element is written in place, and
        /// restored when the write left the element's id and the storage as they were. Out of
        /// line: the routed-action path stays small.
        @inlinable @inline(never)
        func write(_ id: ID, at offset: Int, in elements: inout Container, _ body: (inout Container.Element) -> Void) {
            let storage = elements.withContiguousStorageIfAvailable { Self.storage(of: $0) } ?? nil
            let generation = cache.releaseWitness(storage: storage)
            body(&elements[elements.startIndex + offset])
            guard let generation, let storage else { return }
            let kept = elements.withContiguousStorageIfAvailable { buffer -> Bool in
                identifyInPlace(buffer.baseAddress! + offset) == id && Self.storage(of: buffer) == storage
            }
            if kept == true { cache.restoreWitness(elements, storage: storage, generation: generation) }
        }

        /// Releases the witness of the container's storage, if any, before every element is
        /// written in place. Read in its own access, before the loop's: inside the loop's access,
        /// reading the storage kept the compiler from hoisting the uniqueness check out of the
        /// loop (one `isUniquelyReferenced` call per element, +50 % on a broadcast).
        @inlinable
        func releaseWitness(in state: inout GlobalState) {
            guard cache.witnessed.load(ordering: .relaxed) != 0 else { return }
            let storage = container.inspect(&state) { elements in
                elements.withContiguousStorageIfAvailable { Self.storage(of: $0) } ?? nil
            }
            _ = cache.releaseWitness(storage: storage)
        }

        /// Whether the container is empty.
        @inlinable
        public func isEmpty(in state: GlobalState) -> Bool { container.get(state).isEmpty }

        /// Every element in container order.
        @inlinable
        public func forEachElement(in state: GlobalState, _ body: (ID, Container.Element) -> Void) {
            for element in container.get(state) { body(identify(element), element) }
        }

        /// Applies `run(action, &element)` to every element in place: a plain index loop.
        @inlinable
        public func modifyEach<Action>(in state: inout GlobalState, applying run: (Action, inout Container.Element) -> Void, with action: Action) {
            releaseWitness(in: &state)
            container.modify(&state) { elements in
                var index = elements.startIndex
                while index < elements.endIndex {
                    run(action, &elements[index])
                    index += 1
                }
            }
        }

        /// Mutates every element in place.
        @inlinable
        public func modifyEach(in state: inout GlobalState, _ body: (ID, inout Container.Element) -> Void) {
            let identify = self.identify
            releaseWitness(in: &state)
            container.modify(&state) { elements in
                var index = elements.startIndex
                while index < elements.endIndex {
                    body(identify(elements[index]), &elements[index])
                    index += 1
                }
            }
        }

        /// Whether an element has `id`, reading the container where it lies.
        @inlinable
        public func containsElement(_ id: ID, in state: inout GlobalState) -> Bool {
            container.inspect(&state) { position(id, in: $0) != nil }
        }

        /// `body` applied to the element with `id`, reading the container where it lies.
        @inlinable
        public func inspectElement<Result>(_ id: ID, in state: inout GlobalState, _ body: (Container.Element) -> Result) -> Result? {
            container.inspect(&state) { elements in
                guard let offset = position(id, in: elements) else { return nil }
                return elements.withContiguousStorageIfAvailable { body($0[offset]) } ?? body(elements[elements.startIndex + offset])
            }
        }

        /// Whether the container is empty, read where it lies.
        @inlinable
        public func isEmpty(inPlace state: inout GlobalState) -> Bool {
            container.inspect(&state) { $0.isEmpty }
        }

        /// Every element in container order, read where the container lies.
        @inlinable
        public func forEachElement(inPlace state: inout GlobalState, _ body: (ID, Container.Element) -> Void) {
            let identify = self.identify
            container.inspect(&state) { elements in
                for element in elements { body(identify(element), element) }
            }
        }
    }

    /// Elements located by position: the id is the index (inserting or removing shifts the ids
    /// of every later element).
    public struct IndexedElements<GlobalState, Container>: KeyedState
    where Container: MutableCollection & RandomAccessCollection, Container.Index == Int {
        /// The container.
        public let container: Lens<GlobalState, Container>

        /// A lane over a container lens.
        @inlinable public init(container: Lens<GlobalState, Container>) { self.container = container }

        /// The element at `index`, or `nil` when out of bounds.
        @inlinable
        public func element(_ index: Int, in state: GlobalState) -> Container.Element? {
            let elements = container.get(state)
            return elements.indices.contains(index) ? elements[index] : nil
        }

        /// Mutates the element at `index` in place.
        @inlinable
        public func modifyElement(_ index: Int, in state: inout GlobalState, _ body: (inout Container.Element) -> Void) -> Bool {
            var found = false
            container.modify(&state) { elements in
                guard elements.indices.contains(index) else { return }
                found = true
                body(&elements[index])
            }
            return found
        }

        /// Whether the container is empty.
        @inlinable
        public func isEmpty(in state: GlobalState) -> Bool { container.get(state).isEmpty }

        /// Every element in order.
        @inlinable
        public func forEachElement(in state: GlobalState, _ body: (Int, Container.Element) -> Void) {
            let elements = container.get(state)
            for index in elements.indices { body(index, elements[index]) }
        }

        /// Mutates every element in place.
        @inlinable
        public func modifyEach(in state: inout GlobalState, _ body: (Int, inout Container.Element) -> Void) {
            container.modify(&state) { elements in
                var index = elements.startIndex
                while index < elements.endIndex {
                    body(index, &elements[index])
                    index += 1
                }
            }
        }

        /// Whether `index` is in bounds, reading the container where it lies.
        @inlinable
        public func containsElement(_ index: Int, in state: inout GlobalState) -> Bool {
            container.inspect(&state) { $0.indices.contains(index) }
        }

        /// `body` applied to the element at `index`, reading the container where it lies.
        @inlinable
        public func inspectElement<Result>(_ index: Int, in state: inout GlobalState, _ body: (Container.Element) -> Result) -> Result? {
            container.inspect(&state) { elements in elements.indices.contains(index) ? body(elements[index]) : nil }
        }

        /// Whether the container is empty, read where it lies.
        @inlinable
        public func isEmpty(inPlace state: inout GlobalState) -> Bool {
            container.inspect(&state) { $0.isEmpty }
        }

        /// Every element in order, read where the container lies.
        @inlinable
        public func forEachElement(inPlace state: inout GlobalState, _ body: (Int, Container.Element) -> Void) {
            container.inspect(&state) { elements in
                for index in elements.indices { body(index, elements[index]) }
            }
        }
    }

    /// Values of a dictionary located by key in O(1), mutated in place; enumerated in ascending
    /// key order so fan-out and reconcile are deterministic.
    public struct DictionaryElements<GlobalState, Key, Value>: KeyedState where Key: Hashable & Comparable & Sendable {
        /// The dictionary.
        public let container: Lens<GlobalState, [Key: Value]>

        /// A lane over a dictionary lens.
        @inlinable public init(container: Lens<GlobalState, [Key: Value]>) { self.container = container }

        /// The value for `key`.
        @inlinable
        public func element(_ key: Key, in state: GlobalState) -> Value? { container.get(state)[key] }

        /// Mutates the value for `key` in place (no copy out and back).
        @inlinable
        public func modifyElement(_ key: Key, in state: inout GlobalState, _ body: (inout Value) -> Void) -> Bool {
            var found = false
            container.modify(&state) { dictionary in
                guard dictionary[key] != nil else { return }
                found = true
                body(&dictionary[key]!)
            }
            return found
        }

        /// Whether the dictionary is empty.
        @inlinable
        public func isEmpty(in state: GlobalState) -> Bool { container.get(state).isEmpty }

        /// Every value, in ascending key order.
        @inlinable
        public func forEachElement(in state: GlobalState, _ body: (Key, Value) -> Void) {
            let dictionary = container.get(state)
            for key in dictionary.keys.sorted() { body(key, dictionary[key]!) }
        }

        /// Mutates every value in place, in ascending key order.
        @inlinable
        public func modifyEach(in state: inout GlobalState, _ body: (Key, inout Value) -> Void) {
            container.modify(&state) { dictionary in
                for key in dictionary.keys.sorted() { body(key, &dictionary[key]!) }
            }
        }

        /// Whether `key` is present, reading the dictionary where it lies.
        @inlinable
        public func containsElement(_ key: Key, in state: inout GlobalState) -> Bool {
            container.inspect(&state) { $0.index(forKey: key) != nil }
        }

        /// `body` applied to the value for `key`, reading the dictionary where it lies.
        @inlinable
        public func inspectElement<Result>(_ key: Key, in state: inout GlobalState, _ body: (Value) -> Result) -> Result? {
            container.inspect(&state) { dictionary in dictionary[key].map(body) }
        }

        /// Whether the dictionary is empty, read where it lies.
        @inlinable
        public func isEmpty(inPlace state: inout GlobalState) -> Bool {
            container.inspect(&state) { $0.isEmpty }
        }

        /// Every value in ascending key order, read where the dictionary lies.
        @inlinable
        public func forEachElement(inPlace state: inout GlobalState, _ body: (Key, Value) -> Void) {
            container.inspect(&state) { dictionary in
                for key in dictionary.keys.sorted() { body(key, dictionary[key]!) }
            }
        }
    }
}

extension Relay.IdentifiedElements: PlacesFocus {
    @inlinable var focusPlacement: FocusPlacement { .within(container.inlineRange) }
}

extension Relay.IndexedElements: PlacesFocus {
    @inlinable var focusPlacement: FocusPlacement { .within(container.inlineRange) }
}

extension Relay.DictionaryElements: PlacesFocus {
    @inlinable var focusPlacement: FocusPlacement { .within(container.inlineRange) }
}
