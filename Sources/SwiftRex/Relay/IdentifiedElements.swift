// One of the library's files with unsafe code: ids are read from elements where they lie, through
// a pointer valid only for the call, and a buffer's address is compared, never followed, to tell
// whether an array's storage changed. A watched array's rows are compared where they lie, within
// both counts, the copy pinning the old buffer. Tested under TSan and ASan (collection lift tests).

import Synchronization

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
        /// How ``identify`` reads ids, when the library knows (`nil`: a closure it cannot compare).
        @usableFromInline let keying: ElementKeying?

        /// Ids this lane's position cache has read by scanning or rebuilding, since the lane was
        /// made: how tests tell an O(1) lookup from a pass over the container.
        @_spi(Testing) public var positionCacheIDsRead: Int { cache.idsRead }

        /// Tables this lane's position cache holds (one per container storage in use, at most
        /// four): how tests tell that Stores sharing the lane keep their own tables, and no more.
        @_spi(Testing) public var positionCacheTables: Int { cache.tableCount }

        /// A lane over a container lens and an id function.
        @inlinable
        public init(container: Lens<GlobalState, Container>, id identify: @escaping @Sendable (Container.Element) -> ID) {
            self.init(container: container, id: identify, keying: nil)
        }

        /// A lane over a container lens and an id function that reads ids as `keying` says.
        @inlinable
        init(container: Lens<GlobalState, Container>, id identify: @escaping @Sendable (Container.Element) -> ID, keying: ElementKeying?) {
            self.container = container
            self.identify = identify
            identifyInPlace = { LentPart.borrow($0, identify) }
            self.keying = keying
        }

        /// A lane over a container lens whose ids are also read where the elements lie
        /// (`inPlace`), so a large element is never copied to find it.
        @inlinable
        init(
            container: Lens<GlobalState, Container>,
            id identify: @escaping @Sendable (Container.Element) -> ID,
            inPlace: @escaping @Sendable (UnsafePointer<Container.Element>) -> ID,
            keying: ElementKeying?
        ) {
            self.container = container
            self.identify = identify
            identifyInPlace = inPlace
            self.keying = keying
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
            if witnessed != 0, let storage = Self.storageAddress(of: elements), storage == witnessed { return nil }
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
                ?? Self.copyingElement(at: offset, of: elements, identify)
        }

        /// `body` applied to the element at `offset`, borrowed where it lies when the container
        /// has contiguous storage.
        @inlinable
        static func withElement<Result>(at offset: Int, of elements: Container, _ body: (Container.Element) -> Result) -> Result {
            elements.withContiguousStorageIfAvailable { LentPart.borrow($0.baseAddress! + offset, body) }
                ?? copyingElement(at: offset, of: elements, body)
        }

        /// `body` applied to a copy of the element at `offset`, for a container without contiguous
        /// storage. Out of line: a frame that holds room for the copy holds it even when it never
        /// runs, so a large element would widen every caller's stack.
        @inlinable @inline(never)
        static func copyingElement<Result>(at offset: Int, of elements: Container, _ body: (Container.Element) -> Result) -> Result {
            body(elements[elements.startIndex + offset])
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
                writeElement(id, at: offset, in: &elements, body)
            }
            return found
        }

        /// Mutates the element with `id` at `location`, its offset as ``locateElement(_:in:)``
        /// found it: the write reads the element's id back there, with no table lookup, and looks
        /// it up again only when the container moved it since.
        @inlinable
        public func modifyElement(_ id: ID, at location: Int, in state: inout GlobalState, _ body: (inout Container.Element) -> Void) -> Bool {
            var found = false
            container.modify(&state) { elements in
                let placed = UInt(bitPattern: location) < UInt(bitPattern: elements.count) && idAt(location, in: elements) == id
                guard let offset = placed ? location : relocated(id, in: elements) else { return }
                found = true
                writeElement(id, at: offset, in: &elements, body)
            }
            return found
        }

        /// Writes the element with `id` at `offset` in place.
        @inlinable
        func writeElement(_ id: ID, at offset: Int, in elements: inout Container, _ body: (inout Container.Element) -> Void) {
            // A witness is only ever taken of a container whose storage can be pinned.
            if cache.witnessed.load(ordering: .relaxed) != 0 {
                write(id, at: offset, in: &elements, body)
            } else {
                body(&elements[elements.startIndex + offset])
            }
        }

        /// Writes the element at `offset` while the cache may hold a witness: the witness of the
        /// container's storage, if any, is released, so the element is written in place, and
        /// restored when the write left the element's id and the storage as they were. Out of
        /// line: the routed-action path stays small.
        @inlinable @inline(never)
        func write(_ id: ID, at offset: Int, in elements: inout Container, _ body: (inout Container.Element) -> Void) {
            let storage = Self.storageAddress(of: elements)
            let generation = cache.releaseWitness(storage: storage)
            body(&elements[elements.startIndex + offset])
            guard let generation, let storage else { return }
            let kept = elements.withContiguousStorageIfAvailable { buffer -> Bool in
                identifyInPlace(buffer.baseAddress! + offset) == id && Self.storage(of: buffer) == storage
            }
            if kept == true { cache.restoreWitness(elements, storage: storage, generation: generation) }
        }

        /// Releases the witness of the container's storage, if any, before every element is
        /// written in place. Read in its own access, before the loop's, so the compiler can hoist
        /// the loop's uniqueness check out of the loop.
        @inlinable
        func releaseWitness(in state: inout GlobalState) {
            guard cache.witnessed.load(ordering: .relaxed) != 0 else { return }
            let storage = container.inspect(&state) { Self.storageAddress(of: $0) }
            _ = cache.releaseWitness(storage: storage)
        }

        /// Whether the container is empty.
        @inlinable
        public func isEmpty(in state: GlobalState) -> Bool { container.get(state).isEmpty }

        /// Every element in container order.
        @inlinable
        public func forEachElement(in state: GlobalState, _ body: (ID, Container.Element) -> Void) {
            let elements = container.get(state)
            for offset in 0..<elements.count {
                Self.withElement(at: offset, of: elements) { body(identify($0), $0) }
            }
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
                    body(Self.withElement(at: index - elements.startIndex, of: elements, identify), &elements[index])
                    index += 1
                }
            }
        }

        /// Whether an element has `id`, reading the container where it lies.
        @inlinable
        public func containsElement(_ id: ID, in state: inout GlobalState) -> Bool {
            locateElement(id, in: &state) != nil
        }

        /// The offset of the element with `id`, reading the container where it lies.
        @inlinable
        public func locateElement(_ id: ID, in state: inout GlobalState) -> Int? {
            container.inspect(&state) { position(id, in: $0) }
        }

        /// `body` applied to the element with `id`, reading the container where it lies.
        @inlinable
        public func inspectElement<Result>(_ id: ID, in state: inout GlobalState, _ body: (Container.Element) -> Result) -> Result? {
            inspectElement(id, in: &state, locating: body)?.result
        }

        /// `body` applied to the element with `id`, with its offset, reading the container where
        /// it lies.
        @inlinable
        public func inspectElement<Result>(_ id: ID, in state: inout GlobalState, locating body: (Container.Element) -> Result)
            -> (result: Result, location: Int)?
        {
            container.inspect(&state) { elements in
                guard let offset = position(id, in: elements) else { return nil }
                return (Self.withElement(at: offset, of: elements, body), offset)
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
                for offset in 0..<elements.count {
                    Self.withElement(at: offset, of: elements) { body(identify($0), $0) }
                }
            }
        }
    }
}

extension Relay.IdentifiedElements: PlacesFocus, LocatesElements {
    @inlinable var focusPlacement: FocusPlacement { .within(container.inlineRange) }

    @inlinable var elementContainer: ElementContainer? {
        guard let range = container.inlineRange, let keying else { return nil }
        return ElementContainer(range: range, identity: ElementIdentity(Container.self, keying: keying))
    }
}

extension Relay.IdentifiedElements {
    /// Appends the edits from `before` to `after` (at most `ContainerWatch.limit`); `false` when
    /// there are more, or either lacks contiguous storage.
    @inlinable
    func edits(
        from before: Container, to after: Container, equal: ((UnsafePointer<Container.Element>, UnsafePointer<Container.Element>) -> Bool)?,
        into edits: inout [ArrayEdit<ID>]
    ) -> Bool {
        let identify = identifyInPlace
        let told = before.withContiguousStorageIfAvailable { old in
            after.withContiguousStorageIfAvailable { new in
                Self.diff(old, new, identify: identify, equal: equal, limit: edits.count + ContainerWatch<GlobalState, ID>.limit, into: &edits)
            }
        }
        return told == true
    }

    /// A copy of an `Array` container in storage of its own whose bytes equal the original's:
    /// each element is copied (retaining what it references), then the original's bytes are
    /// copied over the copies, which sets the same references again and the padding a copy
    /// leaves unwritten. A write to the original then happens in place, and an element it left
    /// alone keeps bytes equal to its copy's. Plain-data elements and other containers are
    /// returned as they are: their write copies them, bytes and all.
    @inlinable
    static func exactCopy(of elements: Container) -> Container {
        guard !_isPOD(Container.Element.self), Container.self == [Container.Element].self,
            let copy = elements.withContiguousStorageIfAvailable({ source in
                [Container.Element](unsafeUninitializedCapacity: source.count) { buffer, count in
                    if let from = source.baseAddress, let to = buffer.baseAddress {
                        to.initialize(from: from, count: source.count)
                        UnsafeMutableRawPointer(to).copyMemory(from: from, byteCount: source.count * MemoryLayout<Container.Element>.stride)
                    }
                    count = source.count
                }
            }),
            let exact = copy as? Container
        else { return elements }
        return exact
    }

    /// `==` over elements where they lie, when the element type is `Equatable`: it tells an
    /// element whose bytes differ only in padding (a copy of the array need not copy those) from
    /// one that changed.
    @inlinable
    static var elementEquality: ((UnsafePointer<Container.Element>, UnsafePointer<Container.Element>) -> Bool)? {
        guard let equatable = Container.Element.self as? any Equatable.Type else { return nil }
        return equatable.equality(as: Container.Element.self)
    }

    /// The edits from `old` to `new`: elements are aligned in order, by their bytes first (an
    /// element whose bytes are unchanged is unchanged: the copy pins whatever it references), then
    /// by id, looking one element ahead on either side for a removal or an insertion. Under one
    /// id, an element whose bytes differ is modified unless `equal` says otherwise. A moved
    /// element shows as removed and inserted under one id (the tracker then evaluates everything).
    @inlinable
    static func diff(
        _ old: UnsafeBufferPointer<Container.Element>, _ new: UnsafeBufferPointer<Container.Element>,
        identify: (UnsafePointer<Container.Element>) -> ID, equal: ((UnsafePointer<Container.Element>, UnsafePointer<Container.Element>) -> Bool)?,
        limit: Int, into edits: inout [ArrayEdit<ID>]
    ) -> Bool {
        if old.baseAddress == new.baseAddress, old.count == new.count { return true }
        var i = 0
        var j = 0
        // The old offset of the last element found unchanged or modified (its id is read only
        // when an insertion needs it), and where the insertions not yet closed by one begin.
        var previous = -1
        var openInsertions = edits.count
        func survivor(at offset: Int) {
            if openInsertions < edits.count {
                let id = identify(old.baseAddress! + offset)
                for index in openInsertions..<edits.count {
                    if case .inserted(let inserted, let offset, let after, nil) = edits[index] {
                        edits[index] = .inserted(inserted, at: offset, after: after, before: id)
                    }
                }
            }
            openInsertions = edits.count
        }
        func insert(_ id: ID, at offset: Int) {
            edits.append(.inserted(id, at: offset, after: previous < 0 ? nil : identify(old.baseAddress! + previous), before: nil))
        }
        while i < old.count, j < new.count {
            let same = leadingEqualElements(old.baseAddress! + i, new.baseAddress! + j, count: min(old.count - i, new.count - j))
            if same > 0 {
                survivor(at: i)
                previous = i + same - 1
                i += same
                j += same
                continue
            }
            let oldID = identify(old.baseAddress! + i)
            let newID = identify(new.baseAddress! + j)
            if oldID == newID {
                survivor(at: i)
                if equal?(old.baseAddress! + i, new.baseAddress! + j) != true { edits.append(.modified(oldID, at: j)) }
                openInsertions = edits.count
                previous = i
                i += 1
                j += 1
            } else if i + 1 < old.count, identify(old.baseAddress! + i + 1) == newID {
                edits.append(.removed(oldID))
                i += 1
            } else if j + 1 < new.count, identify(new.baseAddress! + j + 1) == oldID {
                insert(newID, at: j)
                j += 1
            } else {
                edits.append(.removed(oldID))
                insert(newID, at: j)
                i += 1
                j += 1
            }
            if edits.count > limit { return false }
        }
        while i < old.count {
            edits.append(.removed(identify(old.baseAddress! + i)))
            i += 1
            if edits.count > limit { return false }
        }
        while j < new.count {
            insert(identify(new.baseAddress! + j), at: j)
            j += 1
            if edits.count > limit { return false }
        }
        return true
    }

    /// How many elements from `old` and `new` on have equal bytes, up to `count`. Padding bytes
    /// count too: a copy that left them different makes an unchanged element look modified,
    /// which is evaluated again, never missed.
    @inlinable
    static func leadingEqualElements(_ old: UnsafePointer<Container.Element>, _ new: UnsafePointer<Container.Element>, count: Int) -> Int {
        let size = MemoryLayout<Container.Element>.size
        guard size > 0 else { return count }
        var offset = 0
        while offset < count, equalBytes(UnsafeRawPointer(old + offset), UnsafeRawPointer(new + offset), size) { offset += 1 }
        return offset
    }

    /// Whether `size` bytes at `lhs` and at `rhs` are equal, read a word at a time.
    @inlinable
    static func equalBytes(_ lhs: UnsafeRawPointer, _ rhs: UnsafeRawPointer, _ size: Int) -> Bool {
        var offset = 0
        while offset &+ 8 <= size {
            if lhs.loadUnaligned(fromByteOffset: offset, as: UInt64.self) != rhs.loadUnaligned(fromByteOffset: offset, as: UInt64.self) {
                return false
            }
            offset &+= 8
        }
        while offset < size {
            if lhs.load(fromByteOffset: offset, as: UInt8.self) != rhs.load(fromByteOffset: offset, as: UInt8.self) { return false }
            offset &+= 1
        }
        return true
    }
}

extension Equatable {
    /// `==` over two values of this type where they lie, typed as `Element` (which is `Self`).
    @usableFromInline
    static func equality<Element>(as element: Element.Type) -> (UnsafePointer<Element>, UnsafePointer<Element>) -> Bool {
        { lhs, rhs in
            // Both values are borrowed where they lie: a `pointee` read here, unspecialised,
            // would copy each onto the stack.
            LentPart.borrow(UnsafeRawPointer(lhs).assumingMemoryBound(to: Self.self)) { lhs in
                LentPart.borrow(UnsafeRawPointer(rhs).assumingMemoryBound(to: Self.self)) { lhs == $0 }
            }
        }
    }
}
