extension Relay {
    /// Elements of an ``IdentifiedArray`` located by id: one hash lookup, present or absent, with
    /// no cache to rebuild; mutated in place through the container's journaled writes, so the
    /// Store's supervision can learn what an action changed.
    ///
    /// Selected by `.state(\AppState.rows)` when `rows` is an `IdentifiedArray`.
    public struct IdentifiedArrayElements<GlobalState, Element>: KeyedState where Element: Identifiable, Element.ID: Sendable {
        /// The element identifier.
        public typealias ID = Element.ID

        /// The container.
        public let container: Lens<GlobalState, IdentifiedArray<Element>>

        /// A lane over a container lens.
        @inlinable
        public init(container: Lens<GlobalState, IdentifiedArray<Element>>) {
            self.container = container
        }

        /// The element with `id`, or `nil`. O(1), absent ids included.
        @inlinable
        public func element(_ id: Element.ID, in state: GlobalState) -> Element? {
            container.get(state)[id: id]
        }

        /// Mutates the element with `id` in place (journaled as `.modified(id)`); returns whether it
        /// was present. O(1).
        @inlinable
        public func modifyElement(_ id: Element.ID, in state: inout GlobalState, _ body: (inout Element) -> Void) -> Bool {
            var found = false
            container.modify(&state) { elements in found = elements.modifyElement(id: id, body) }
            return found
        }

        /// Whether the container is empty. O(1).
        @inlinable
        public func isEmpty(in state: GlobalState) -> Bool { container.get(state).isEmpty }

        /// Every element, in container order. O(n).
        @inlinable
        public func forEachElement(in state: GlobalState, _ body: (Element.ID, Element) -> Void) {
            for element in container.get(state) { body(element.id, element) }
        }

        /// Mutates every element in place, in container order. O(n).
        @inlinable
        public func modifyEach(in state: inout GlobalState, _ body: (Element.ID, inout Element) -> Void) {
            container.modify(&state) { elements in elements.updateEachWithID(body) }
        }

        /// Applies `run(action, &element)` to every element in place, without reading ids. O(n).
        @inlinable
        public func modifyEach<Action>(in state: inout GlobalState, applying run: (Action, inout Element) -> Void, with action: Action) {
            container.modify(&state) { elements in elements.updateEach { run(action, &$0) } }
        }

        /// Mutates the element with `id` at `location`, its slot as ``locateElement(_:in:)`` found
        /// it (journaled as `.modified(id)`): no hash lookup when the slot still holds `id`, else
        /// looked up again. Returns whether it was present. O(1).
        @inlinable
        public func modifyElement(_ id: Element.ID, at location: Int, in state: inout GlobalState, _ body: (inout Element) -> Void) -> Bool {
            var found = false
            container.modify(&state) { elements in found = elements.modifyElement(id: id, slot: location, body) }
            return found
        }

        /// Whether an element has `id`: one hash lookup, reading the container where it lies. O(1).
        @inlinable
        public func containsElement(_ id: Element.ID, in state: inout GlobalState) -> Bool {
            container.inspect(&state) { $0.slotByID[id] != nil }
        }

        /// The slot of the element with `id`: one hash lookup, reading the container where it
        /// lies. O(1).
        @inlinable
        public func locateElement(_ id: Element.ID, in state: inout GlobalState) -> Int? {
            container.inspect(&state) { $0.slotByID[id] }
        }

        /// `body` applied to the element with `id`, reading the container where it lies. O(1).
        @inlinable
        public func inspectElement<Result>(_ id: Element.ID, in state: inout GlobalState, _ body: (Element) -> Result) -> Result? {
            container.inspect(&state) { elements in elements[id: id].map(body) }
        }

        /// `body` applied to the element with `id`, with its slot, reading the container where it
        /// lies: one hash lookup. O(1).
        @inlinable
        public func inspectElement<Result>(_ id: Element.ID, in state: inout GlobalState, locating body: (Element) -> Result)
            -> (result: Result, location: Int)?
        {
            container.inspect(&state) { elements in
                guard let slot = elements.slotByID[id], let element = elements.slots[slot] else { return nil }
                return (body(element), slot)
            }
        }

        /// Whether the container is empty, read where it lies. O(1).
        @inlinable
        public func isEmpty(inPlace state: inout GlobalState) -> Bool {
            container.inspect(&state) { $0.isEmpty }
        }

        /// Every element in container order, read where the container lies. O(n).
        @inlinable
        public func forEachElement(inPlace state: inout GlobalState, _ body: (Element.ID, Element) -> Void) {
            container.inspect(&state) { elements in
                for element in elements { body(element.id, element) }
            }
        }
    }
}

extension Relay.IdentifiedArrayElements: PlacesFocus, LocatesElements {
    @inlinable var focusPlacement: FocusPlacement { .within(container.inlineRange) }

    @inlinable var elementContainer: ElementContainer? {
        container.inlineRange.map { ElementContainer(range: $0, identity: ElementIdentity(IdentifiedArray<Element>.self, keying: .identifiable)) }
    }
}

extension Relay.IdentifiedArrayElements: JournaledKeyedState {
    /// The container's content version.
    @inlinable func contentVersion(in state: GlobalState) -> UInt64 { container.get(state).contentVersion }

    /// The container's edits since `version` (see `IdentifiedArray.forEachEdit(since:_:)`).
    @inlinable func forEachEdit(in state: GlobalState, since version: UInt64, _ body: (ContainerEdit<Element.ID>) -> Void) -> Bool {
        container.get(state).forEachEdit(since: version, body)
    }

    /// The slot of the element with `id`.
    @inlinable func slot(of id: Element.ID, in state: GlobalState) -> Int? { container.get(state).slot(of: id) }

    /// Every element with its id and slot, in container order.
    @inlinable func forEachElementWithSlot(in state: GlobalState, _ body: (Element.ID, Int, Element) -> Void) {
        let elements = container.get(state)
        var slot = elements.head
        while slot < elements.slots.count {
            if let element = elements.slots[slot] { body(element.id, slot, element) }
            slot &+= 1
        }
    }
}
