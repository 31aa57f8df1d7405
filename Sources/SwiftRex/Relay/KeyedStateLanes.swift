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

/// A thread-safe id → position cache, rebuilt only when a lookup finds it stale (a structural
/// change). Duplicate ids are reported once per rebuild; the first occurrence wins.
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

        @inlinable
        init(byID: [ID: Int] = [:], lastID: ID? = nil, lastPosition: Int = 0) {
            self.byID = byID
            self.lastID = lastID
            self.lastPosition = lastPosition
        }
    }

    @usableFromInline let positions = Mutex(Positions())

    @usableFromInline init() {}

    /// The position of `id`, validated with `idAt`; rebuilt from `ids` when stale.
    ///
    /// An id the table does not hold is looked for with a plain scan of the ids first: only when
    /// the scan finds it (the container changed) is the table rebuilt. An absent id (a late action
    /// for a removed element) thus costs one pass over the ids, not a rebuild of the table: a
    /// plain array cannot tell cheaper whether an element was replaced in place.
    @inlinable
    func position(of id: ID, count: Int, idAt: (Int) -> ID, rebuild ids: () -> [ID]) -> Int? {
        let cached = positions.withLock { positions -> (known: Bool, position: Int) in
            if positions.lastID == id { return (true, positions.lastPosition) }
            guard let position = positions.byID[id] else { return (false, 0) }
            positions.lastID = id
            positions.lastPosition = position
            return (true, position)
        }
        if cached.known {
            if cached.position < count, idAt(cached.position) == id { return cached.position }
            return rebuild(finding: id, count: count, ids: ids())
        }
        var offset = 0
        while offset < count {
            if idAt(offset) == id { return rebuild(finding: id, count: count, ids: ids()) }
            offset &+= 1
        }
        return nil
    }

    /// Rebuilds the table from the container's ids (first occurrence wins; duplicates reported).
    @inlinable
    func rebuild(finding id: ID, count: Int, ids all: [ID]) -> Int? {
        var fresh: [ID: Int] = [:]
        fresh.reserveCapacity(count)
        var duplicates: [ID] = []
        for offset in all.indices {
            let elementID = all[offset]
            if fresh[elementID] == nil { fresh[elementID] = offset } else { duplicates.append(elementID) }
        }
        let found = fresh[id]
        positions.withLock { $0 = Positions(byID: fresh, lastID: found == nil ? nil : id, lastPosition: found ?? 0) }
        if !duplicates.isEmpty { reportDuplicates(duplicates.prefix(10).map { "\($0)" }) }
        return found
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

        @inlinable
        func position(_ id: ID, in elements: Container) -> Int? {
            let identify = self.identify
            let identifyInPlace = self.identifyInPlace
            // Ids are read from the elements where they lie: a large element is not copied to
            // read its id (an array's subscript getter returns a copy).
            if let found = elements.withContiguousStorageIfAvailable({ buffer in
                cache.position(
                    of: id,
                    count: buffer.count,
                    idAt: { identifyInPlace(buffer.baseAddress! + $0) },
                    rebuild: { (0..<buffer.count).map { identifyInPlace(buffer.baseAddress! + $0) } }
                )
            }) {
                return found
            }
            return cache.position(
                of: id,
                count: elements.count,
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
                body(&elements[elements.startIndex + offset])
            }
            return found
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
