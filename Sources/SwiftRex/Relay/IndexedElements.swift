extension Relay {
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
}

extension Relay.IndexedElements: PlacesFocus, LocatesElements {
    @inlinable var focusPlacement: FocusPlacement { .within(container.inlineRange) }

    @inlinable var elementContainer: ElementContainer? {
        container.inlineRange.map { ElementContainer(range: $0, identity: ElementIdentity(Container.self, keying: .position)) }
    }
}
