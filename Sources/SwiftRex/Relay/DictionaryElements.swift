extension Relay {
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

extension Relay.DictionaryElements: PlacesFocus, LocatesElements {
    @inlinable var focusPlacement: FocusPlacement { .within(container.inlineRange) }

    @inlinable var elementContainer: ElementContainer? {
        container.inlineRange.map { ElementContainer(range: $0, identity: ElementIdentity([Key: Value].self, keying: .dictionaryKey)) }
    }
}
