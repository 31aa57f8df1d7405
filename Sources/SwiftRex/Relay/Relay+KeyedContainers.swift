// More ways to name a collection lane's container and its ids: a `Lens` container (for a `let`
// or composed container, `AppState.lens.rows`) and an id closure (`id: { $0.slug }`). They build
// the same keyed lanes as the key-path forms.

extension Relay.Scope {
    /// A scope whose state lane locates elements of an `Identifiable` array reached through a lens, in O(1) amortised.
    @inlinable
    public static func state<G, C, A, E>(_ container: Lens<G, C>) -> Relay.Scope<Relay.Identity<A>, StateLane, Relay.Identity<E>>
    where
        C: MutableCollection & RandomAccessCollection & Sendable, C.Index == Int, C.Element: Identifiable, C.Element.ID: Sendable,
        StateLane == Relay.IdentifiedElements<G, C, C.Element.ID>
    {
        .init(
            action: .init(),
            state: Relay.IdentifiedElements(container: container, id: { $0.id }, inPlace: { LentPart.borrow($0) { $0.id } }, keying: .identifiable),
            environment: .init())
    }

    /// A scope whose state lane locates elements of an array reached through a lens by a custom id key path.
    @inlinable
    public static func state<G, C, ID, A, E>(_ container: Lens<G, C>, id: KeyPath<C.Element, ID> & Sendable)
        -> Relay.Scope<Relay.Identity<A>, StateLane, Relay.Identity<E>>
    where
        C: MutableCollection & RandomAccessCollection & Sendable, C.Index == Int, ID: Hashable & Sendable,
        StateLane == Relay.IdentifiedElements<G, C, ID>
    {
        .init(
            action: .init(),
            state: Relay.IdentifiedElements(container: container, id: { $0[keyPath: id] }, keying: .keyPath(ElementKeyPath(id))),
            environment: .init())
    }

    /// A scope whose state lane locates elements of an array by an id closure (`id: { $0.slug }`).
    @inlinable
    public static func state<G, C, ID, A, E>(_ keyPath: WritableKeyPath<G, C>, id: @escaping @Sendable (C.Element) -> ID)
        -> Relay.Scope<Relay.Identity<A>, StateLane, Relay.Identity<E>>
    where
        C: MutableCollection & RandomAccessCollection & Sendable, C.Index == Int, ID: Hashable & Sendable,
        StateLane == Relay.IdentifiedElements<G, C, ID>
    {
        .init(action: .init(), state: Relay.IdentifiedElements(container: Lens(keyPath), id: id), environment: .init())
    }

    /// A scope whose state lane locates elements of an array reached through a lens by an id closure.
    @inlinable
    public static func state<G, C, ID, A, E>(_ container: Lens<G, C>, id: @escaping @Sendable (C.Element) -> ID)
        -> Relay.Scope<Relay.Identity<A>, StateLane, Relay.Identity<E>>
    where
        C: MutableCollection & RandomAccessCollection & Sendable, C.Index == Int, ID: Hashable & Sendable,
        StateLane == Relay.IdentifiedElements<G, C, ID>
    {
        .init(action: .init(), state: Relay.IdentifiedElements(container: container, id: id), environment: .init())
    }

    /// A scope whose state lane locates elements by position in a container reached through a lens.
    @inlinable
    public static func state<G, C, A, E>(indexed container: Lens<G, C>) -> Relay.Scope<Relay.Identity<A>, StateLane, Relay.Identity<E>>
    where C: MutableCollection & RandomAccessCollection & Sendable, C.Index == Int, StateLane == Relay.IndexedElements<G, C> {
        .init(action: .init(), state: Relay.IndexedElements(container: container), environment: .init())
    }

    /// A scope whose state lane locates values of a dictionary reached through a lens, by key.
    @inlinable
    public static func state<G, K, V, A, E>(dictionary container: Lens<G, [K: V]>) -> Relay.Scope<Relay.Identity<A>, StateLane, Relay.Identity<E>>
    where K: Hashable & Comparable & Sendable, StateLane == Relay.DictionaryElements<G, K, V> {
        .init(action: .init(), state: Relay.DictionaryElements(container: container), environment: .init())
    }

    /// Sets the state lane: it locates elements of an `Identifiable` array reached through a lens, in O(1) amortised.
    @inlinable
    public func state<G, C>(_ container: Lens<G, C>) -> Relay.Scope<ActionLane, Relay.IdentifiedElements<G, C, C.Element.ID>, EnvironmentLane>
    where
        StateLane == Relay.Identity<G>, C: MutableCollection & RandomAccessCollection & Sendable, C.Index == Int, C.Element: Identifiable,
        C.Element.ID: Sendable
    {
        .init(
            action: action,
            state: Relay.IdentifiedElements(container: container, id: { $0.id }, inPlace: { LentPart.borrow($0) { $0.id } }, keying: .identifiable),
            environment: environment
        )
    }

    /// Sets the state lane: it locates elements of an array reached through a lens by a custom id key path.
    @inlinable
    public func state<G, C, ID>(_ container: Lens<G, C>, id: KeyPath<C.Element, ID> & Sendable)
        -> Relay.Scope<ActionLane, Relay.IdentifiedElements<G, C, ID>, EnvironmentLane>
    where StateLane == Relay.Identity<G>, C: MutableCollection & RandomAccessCollection & Sendable, C.Index == Int, ID: Hashable & Sendable {
        .init(
            action: action, state: Relay.IdentifiedElements(container: container, id: { $0[keyPath: id] }, keying: .keyPath(ElementKeyPath(id))),
            environment: environment)
    }

    /// Sets the state lane: it locates elements of an array by an id closure (`id: { $0.slug }`).
    @inlinable
    public func state<G, C, ID>(_ keyPath: WritableKeyPath<G, C>, id: @escaping @Sendable (C.Element) -> ID)
        -> Relay.Scope<ActionLane, Relay.IdentifiedElements<G, C, ID>, EnvironmentLane>
    where StateLane == Relay.Identity<G>, C: MutableCollection & RandomAccessCollection & Sendable, C.Index == Int, ID: Hashable & Sendable {
        .init(action: action, state: Relay.IdentifiedElements(container: Lens(keyPath), id: id), environment: environment)
    }

    /// Sets the state lane: it locates elements of an array reached through a lens by an id closure.
    @inlinable
    public func state<G, C, ID>(_ container: Lens<G, C>, id: @escaping @Sendable (C.Element) -> ID)
        -> Relay.Scope<ActionLane, Relay.IdentifiedElements<G, C, ID>, EnvironmentLane>
    where StateLane == Relay.Identity<G>, C: MutableCollection & RandomAccessCollection & Sendable, C.Index == Int, ID: Hashable & Sendable {
        .init(action: action, state: Relay.IdentifiedElements(container: container, id: id), environment: environment)
    }

    /// Sets the state lane: it locates elements by position in a container reached through a lens.
    @inlinable
    public func state<G, C>(indexed container: Lens<G, C>) -> Relay.Scope<ActionLane, Relay.IndexedElements<G, C>, EnvironmentLane>
    where StateLane == Relay.Identity<G>, C: MutableCollection & RandomAccessCollection & Sendable, C.Index == Int {
        .init(action: action, state: Relay.IndexedElements(container: container), environment: environment)
    }

    /// Sets the state lane: it locates values of a dictionary reached through a lens, by key.
    @inlinable
    public func state<G, K, V>(dictionary container: Lens<G, [K: V]>) -> Relay.Scope<ActionLane, Relay.DictionaryElements<G, K, V>, EnvironmentLane>
    where StateLane == Relay.Identity<G>, K: Hashable & Comparable & Sendable {
        .init(action: action, state: Relay.DictionaryElements(container: container), environment: environment)
    }
}
