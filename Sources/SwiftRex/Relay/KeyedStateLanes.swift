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
/// An id the table lacks is absent in O(1) when the table has a *witness*: a copy of the array
/// (`Array` or `ContiguousArray`) the table was built from. Holding the copy shares that array's
/// storage, so nothing can write the storage in place (copy-on-write): while the container still
/// lies in the witnessed storage, its ids are the table's ids. Any other write moves the container
/// to fresh storage, the addresses differ, and absence is checked by scanning again. The lane's
/// own element writes release the witness first (so they stay in place) and restore it when the
/// element's id is unchanged. Without a witness (other containers, or an array whose storage
/// changed) an absent id costs one scan of the ids; a second miss on the same storage builds a
/// witnessed table, so the scans a witness saves pay for the one copy it may cause. A witness of
/// storage the container has left (it keeps an old array alive) is dropped by the next miss or
/// element write through the lane. A table hit reads nothing about witnesses (only misses, out of
/// line, do); an element write reads one flag, ``witnessed``, before writing.
///
/// Inlinable, so lookups run specialised for the element id type: unspecialised, every lookup
/// looked up generic type metadata at run time (thousands of instructions per routed action).
@usableFromInline
internal final class PositionCache<ID: Hashable & Sendable>: Sendable {
    @usableFromInline
    internal struct Positions {
        @usableFromInline var byID: [ID: Int]
        /// The last id found and its position: a routed action looks its element up twice (in
        /// the pre-mutation test, then to mutate), and the second lookup then skips the table.
        @usableFromInline var lastID: ID?
        @usableFromInline var lastPosition: Int
        /// A copy of the array `byID` was built from, held so its storage cannot change in place.
        @usableFromInline var witness: Witness?
        /// The first element's address in the witness's storage (compared, never dereferenced).
        @usableFromInline var witnessStorage: UInt?
        /// Bumped whenever `byID` is replaced: a witness released for an element write is restored
        /// only over the table it was taken from.
        @usableFromInline var generation: UInt64
        /// The storage of the last scan that found nothing (a hint: a second miss there builds a
        /// witnessed table).
        @usableFromInline var missedStorage: UInt?
        /// Ids read by scans and rebuilds since the cache was made (tests).
        @usableFromInline var idsRead: Int

        /// Takes the witness out (released by the caller, after the lock).
        @inlinable
        mutating func dropWitness() -> Witness? {
            witnessStorage = nil
            return witness.take()
        }

        @inlinable
        init() {
            byID = [:]
            lastID = nil
            lastPosition = 0
            witness = nil
            witnessStorage = nil
            generation = 0
            missedStorage = nil
            idsRead = 0
        }
    }

    @usableFromInline let positions = Mutex(Positions())
    /// Whether the table may have a witness (written under the lock, read without it): a write
    /// finding none skips the lock. A stale read costs only an in-place write (copy-on-write).
    @usableFromInline let witnessed = Atomic<Bool>(false)

    @usableFromInline init() {}

    /// Ids read by scans and rebuilds since the cache was made.
    @usableFromInline var idsRead: Int { positions.withLock { $0.idsRead } }

    /// The position the table holds for `id`, or `nil` when it holds none: one lock, no read of
    /// the container. The caller validates the position against the container (a stale table is
    /// rebuilt, out of line) and answers an id the table lacks with
    /// ``untabled(_:count:storage:witness:idAt:rebuild:)``, out of line too, so that the
    /// routed-action path (a table hit) reads nothing about witnesses.
    @inlinable @inline(__always)
    func tabled(_ id: ID) -> Int? {
        // A (found, position) pair, not an optional, out of the lock: the hit on the last id then
        // returns without setting up a frame.
        let cached = positions.withLock { positions -> (known: Bool, position: Int) in
            if positions.lastID == id { return (true, positions.lastPosition) }
            guard let position = positions.byID[id] else { return (false, 0) }
            positions.lastID = id
            positions.lastPosition = position
            return (true, position)
        }
        return cached.known ? cached.position : nil
    }

    /// The position of an id ``tabled(_:)`` found no position for.
    ///
    /// `storage` is the address of the container's first element when the container is an array
    /// whose storage a copy of `container` (the witness, taken only when a table is built for it)
    /// pins, else `nil` (absence is then always scanned for). The table is read again with its
    /// witness, under one lock: an id it still lacks is absent at once when the witness lies in
    /// `storage` (the table was built from these very ids); otherwise it is looked for with a plain
    /// scan of the ids, and only when the scan finds it (the container changed) is the table
    /// rebuilt. A miss is a late action for a removed element: out of line, off the hit path.
    @inlinable @inline(never)
    func untabled<Container>(
        _ id: ID, count: Int, storage: UInt?, witness container: borrowing Container,
        idAt: (Int) -> ID, rebuild ids: () -> [ID]
    ) -> Int? {
        let (tabled, witnessStorage) = positions.withLock { ($0.byID[id], $0.witnessStorage) }
        if let tabled {
            // Tabled since the first look (another thread rebuilt the table).
            if tabled < count, idAt(tabled) == id { return tabled }
            return rebuild(finding: id, count: count, ids: ids(), scanned: 0)
        }
        if let storage, witnessStorage == storage { return nil }
        var offset = 0
        while offset < count {
            if idAt(offset) == id { return rebuild(finding: id, count: count, ids: ids(), scanned: offset &+ 1) }
            offset &+= 1
        }
        let (secondMiss, stale) = positions.withLock { positions -> (Bool, Witness?) in
            positions.idsRead &+= count
            // A witness of storage the container has left only keeps an old array alive.
            var stale: Witness?
            if positions.witness != nil {
                stale = positions.dropWitness()
                witnessed.store(false, ordering: .relaxed)
            }
            guard let storage else { return (false, stale) }
            if positions.missedStorage == storage { return (true, stale) }
            positions.missedStorage = storage
            return (false, stale)
        }
        // Released after the lock (it may be the last owner of an old array).
        _ = consume stale
        if secondMiss, let storage { _ = rebuild(finding: id, count: count, ids: ids(), scanned: 0, witness: Witness(copy container), at: storage) }
        return nil
    }

    /// Rebuilds the table from the container's ids (first occurrence wins; duplicates reported),
    /// witnessed by `witness` (a copy of the array, lying in `storage`) when given.
    @inlinable
    func rebuild(finding id: ID, count: Int, ids all: [ID], scanned: Int, witness: Witness? = nil, at storage: UInt? = nil) -> Int? {
        var fresh: [ID: Int] = [:]
        fresh.reserveCapacity(count)
        var duplicates: [ID] = []
        for offset in all.indices {
            let elementID = all[offset]
            if fresh[elementID] == nil { fresh[elementID] = offset } else { duplicates.append(elementID) }
        }
        let found = fresh[id]
        // The replaced witness (possibly the last owner of an old array) is released after the lock.
        let replaced = positions.withLock { positions -> Witness? in
            positions.byID = fresh
            positions.lastID = found == nil ? nil : id
            positions.lastPosition = found ?? 0
            positions.generation &+= 1
            positions.idsRead &+= scanned &+ all.count
            let replaced = positions.witness.take()
            positions.witness = witness
            positions.witnessStorage = witness == nil ? nil : storage
            witnessed.store(witness != nil, ordering: .relaxed)
            positions.missedStorage = nil
            return replaced
        }
        _ = consume replaced
        if !duplicates.isEmpty { reportDuplicates(duplicates.prefix(10).map { "\($0)" }) }
        return found
    }

    /// Releases the witness before the lane writes the container in place. Returns the table's
    /// generation when the witness lay in `storage` (the write may restore it), else `nil`.
    @inlinable
    func releaseWitness(storage: UInt?) -> UInt64? {
        guard witnessed.load(ordering: .relaxed) else { return nil }
        let (released, generation) = positions.withLock { positions -> (Witness?, UInt64?) in
            guard positions.witness != nil else { return (nil, nil) }
            let matched = storage != nil && positions.witnessStorage == storage
            witnessed.store(false, ordering: .relaxed)
            return (positions.dropWitness(), matched ? positions.generation : nil)
        }
        // Released here, before the caller writes: the container's storage is unique again.
        _ = consume released
        return generation
    }

    /// Restores a witness released by ``releaseWitness(storage:)`` after a write that left every
    /// id in place, unless the table was replaced meanwhile.
    @inlinable
    func restoreWitness(_ pinned: Any, storage: UInt, generation: UInt64) {
        let witness = Witness(pinned)
        positions.withLock { positions in
            guard positions.generation == generation, positions.witness == nil else { return }
            positions.witness = witness
            positions.witnessStorage = storage
            witnessed.store(true, ordering: .relaxed)
        }
    }

    @usableFromInline
    func reportDuplicates(_ ids: [String]) {
        reportDiagnostic(StoreDiagnostic(
            kind: .duplicateID,
            message: "Duplicate ids in an identified collection: \(ids.joined(separator: ", ")). Actions addressed to a duplicated id reach its first occurrence only.",
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
            guard let tabled = cache.tabled(id) else { return untabled(id, in: elements) }
            if tabled < elements.count, idAt(tabled, in: elements) == id { return tabled }
            return rebuilt(id, in: elements)
        }

        /// The id of the element at `offset`, read where it lies: a large element is not copied
        /// to read its id (an array's subscript getter returns a copy).
        @inlinable
        func idAt(_ offset: Int, in elements: Container) -> ID {
            let identifyInPlace = self.identifyInPlace
            return elements.withContiguousStorageIfAvailable { identifyInPlace($0.baseAddress! + offset) }
                ?? identify(elements[elements.startIndex + offset])
        }

        /// The position of `id` once the cache's table, found stale (the container changed
        /// structurally), is rebuilt. Out of line: the routed-action path stays small.
        @inlinable @inline(never)
        func rebuilt(_ id: ID, in elements: Container) -> Int? {
            let identifyInPlace = self.identifyInPlace
            let ids = elements.withContiguousStorageIfAvailable { buffer in
                (0..<buffer.count).map { identifyInPlace(buffer.baseAddress! + $0) }
            } ?? elements.map(identify)
            return cache.rebuild(finding: id, count: ids.count, ids: ids, scanned: 0)
        }

        /// The position of an id the cache's table lacks (a late action for a removed element, or
        /// an element added since the table was built). Out of line: the routed-action path stays
        /// small. Ids are read where the elements lie, as in ``idAt(_:in:)``.
        @inlinable @inline(never)
        func untabled(_ id: ID, in elements: Container) -> Int? {
            let identify = self.identify
            let identifyInPlace = self.identifyInPlace
            if let found = elements.withContiguousStorageIfAvailable({ buffer in
                cache.untabled(
                    id,
                    count: buffer.count,
                    storage: Self.storage(of: buffer),
                    witness: elements,
                    idAt: { identifyInPlace(buffer.baseAddress! + $0) },
                    rebuild: { (0..<buffer.count).map { identifyInPlace(buffer.baseAddress! + $0) } }
                )
            }) {
                return found
            }
            return cache.untabled(
                id,
                count: elements.count,
                storage: nil,
                witness: elements,
                idAt: { identify(elements[elements.startIndex + $0]) },
                rebuild: { elements.map(identify) }
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
                if cache.witnessed.load(ordering: .relaxed) {
                    write(id, at: offset, in: &elements, body)
                } else {
                    body(&elements[elements.startIndex + offset])
                }
            }
            return found
        }

        /// Writes the element at `offset` while the cache may hold a witness (which shares the
        /// storage): released, the element is written in place; restored when the write left the
        /// element's id as it was. Out of line: the routed-action path stays small.
        @inlinable @inline(never)
        func write(_ id: ID, at offset: Int, in elements: inout Container, _ body: (inout Container.Element) -> Void) {
            let generation = cache.releaseWitness(storage: elements.withContiguousStorageIfAvailable { Self.storage(of: $0) } ?? nil)
            body(&elements[elements.startIndex + offset])
            guard let generation else { return }
            let kept = elements.withContiguousStorageIfAvailable { buffer -> UInt? in
                identifyInPlace(buffer.baseAddress! + offset) == id ? Self.storage(of: buffer) : nil
            }
            if let kept, let storage = kept { cache.restoreWitness(elements, storage: storage, generation: generation) }
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
            _ = cache.releaseWitness(storage: nil)
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
            _ = cache.releaseWitness(storage: nil)
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
