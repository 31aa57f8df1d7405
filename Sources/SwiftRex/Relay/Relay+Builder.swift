// The leading-dot builder of `Relay.Scope`. Each lane constructor is a static entry — the other lanes stay `Identity` —
// and an instance refiner available only while its lane is still `Identity`, so each axis is set
// at most once, in any order. An `Identity` lane's type is pinned by the lane that replaces it or
// by the host's constraints.
//
// Type-checking: each static entry declares the lane it builds as the scope's own
// (`where ActionLane == …`), so the scope type a host expects binds the lane, and the global type
// behind a leading-dot key path, as soon as the entry is chosen; and the prism and closure entries
// of `action` are disfavoured, so a case key path settles on its own entry without the others
// being tried through the rest of the chain. Both keep a `.action(\.x).state(\.y)` chain cheap to
// type-check.

extension Relay.Scope {
    /// A scope whose action lane re-indexes actions through a prism (extract inbound, embed outbound).
    @_disfavoredOverload
    @inlinable
    public static func action<G, L, S, E>(_ prism: Prism<G, L>) -> Relay.Scope<ActionLane, Relay.Identity<S>, Relay.Identity<E>>
    where ActionLane == Relay.ActionPrism<G, L> {
        .init(action: Relay.ActionPrism(prism), state: .init(), environment: .init())
    }

    /// A scope whose action lane re-indexes actions through a preview and a review closure.
    @_disfavoredOverload
    @inlinable
    public static func action<G, L, S, E>(preview: @escaping @Sendable (G) -> L?, review: @escaping @Sendable (L) -> G)
        -> Relay.Scope<ActionLane, Relay.Identity<S>, Relay.Identity<E>> where ActionLane == Relay.ActionPrism<G, L>
    {
        .init(action: Relay.ActionPrism(Prism(preview: preview, review: review)), state: .init(), environment: .init())
    }

    /// A scope whose action lane extracts actions with a preview closure (a trigger).
    @_disfavoredOverload
    @inlinable
    public static func action<G, L, S, E>(preview: @escaping @Sendable (G) -> L?) -> Relay.Scope<ActionLane, Relay.Identity<S>, Relay.Identity<E>>
    where ActionLane == Relay.ActionExtract<G, L> {
        .init(action: Relay.ActionExtract(preview), state: .init(), environment: .init())
    }

    /// A scope whose action lane embeds actions with a trailing review closure (a dispatch target).
    @_disfavoredOverload
    @inlinable
    public static func action<G, L, S, E>(_ review: @escaping @Sendable (L) -> G) -> Relay.Scope<ActionLane, Relay.Identity<S>, Relay.Identity<E>>
    where ActionLane == Relay.ActionEmbed<G, L> {
        .init(action: Relay.ActionEmbed(review), state: .init(), environment: .init())
    }

    /// A scope whose action lane is `lane`: any type that extracts and embeds actions, such as the
    /// lanes `@Prisms` generates (`AppAction.lane.counter`). A lift through it is specialised for
    /// the lane's type: its extract is called directly, where a prism's is a closure.
    @_disfavoredOverload
    @inlinable
    public static func action<S, E>(_ lane: ActionLane) -> Relay.Scope<ActionLane, Relay.Identity<S>, Relay.Identity<E>>
    where ActionLane: ExtractsAction & EmbedsAction {
        .init(action: lane, state: .init(), environment: .init())
    }

    /// A scope whose action lane addresses actions to one element of a collection through an `ElementAction` prism.
    @_disfavoredOverload
    @inlinable
    public static func action<G, ID, L, S, E>(_ prism: Prism<G, ElementAction<ID, L>>)
        -> Relay.Scope<ActionLane, Relay.Identity<S>, Relay.Identity<E>> where ActionLane == Relay.ActionElement<G, ID, L>
    {
        .init(action: Relay.ActionElement(prism), state: .init(), environment: .init())
    }

    /// A scope whose action lane addresses actions to one element of a collection through two
    /// closures: `element` extracts the element's id and action, `embed` addresses an element's action.
    @_disfavoredOverload
    @inlinable
    public static func action<G, ID, L, S, E>(
        element preview: @escaping @Sendable (G) -> ElementAction<ID, L>?, embed: @escaping @Sendable (ID, L) -> G
    ) -> Relay.Scope<ActionLane, Relay.Identity<S>, Relay.Identity<E>> where ActionLane == Relay.ActionElement<G, ID, L> {
        .init(action: Relay.ActionElement(preview: preview, review: embed), state: .init(), environment: .init())
    }

    /// A scope whose action lane broadcasts one inbound action to every element; elements' actions go out through `into`.
    @_disfavoredOverload
    @inlinable
    public static func action<G, ID, L, S, E>(broadcast inbound: Prism<G, L>, into outbound: Prism<G, ElementAction<ID, L>>)
        -> Relay.Scope<ActionLane, Relay.Identity<S>, Relay.Identity<E>> where ActionLane == Relay.ActionBroadcast<G, ID, L>
    {
        .init(
            action: Relay.ActionBroadcast(preview: inbound.preview, review: { outbound.review(ElementAction($0, action: $1)) }), state: .init(),
            environment: .init())
    }

    /// A scope whose action lane broadcasts one inbound action (a preview) to every element; elements' actions go out through `embed`.
    @_disfavoredOverload
    @inlinable
    public static func action<G, ID, L, S, E>(broadcast preview: @escaping @Sendable (G) -> L?, embed: @escaping @Sendable (ID, L) -> G)
        -> Relay.Scope<ActionLane, Relay.Identity<S>, Relay.Identity<E>> where ActionLane == Relay.ActionBroadcast<G, ID, L>
    {
        .init(action: Relay.ActionBroadcast(preview: preview, review: embed), state: .init(), environment: .init())
    }

    /// A scope whose state lane focuses a total slice through a writable key path (in place).
    @inlinable
    public static func state<G, L, A, E>(_ keyPath: WritableKeyPath<G, L>) -> Relay.Scope<Relay.Identity<A>, StateLane, Relay.Identity<E>>
    where StateLane == Relay.StateLens<G, L> {
        .init(action: .init(), state: Relay.StateLens(Lens(keyPath)), environment: .init())
    }

    /// A scope whose state lane focuses an optional slice through a writable key path (in place; skipped while `nil`).
    @inlinable
    public static func state<G, L, A, E>(_ keyPath: WritableKeyPath<G, L?>) -> Relay.Scope<Relay.Identity<A>, StateLane, Relay.Identity<E>>
    where StateLane == Relay.StateAffine<G, L> {
        .init(action: .init(), state: Relay.StateAffine(AffineTraversal(keyPath)), environment: .init())
    }

    /// A scope whose state lane focuses a total slice through a lens.
    @inlinable
    public static func state<G, L, A, E>(_ lens: Lens<G, L>) -> Relay.Scope<Relay.Identity<A>, StateLane, Relay.Identity<E>>
    where StateLane == Relay.StateLens<G, L> {
        .init(action: .init(), state: Relay.StateLens(lens), environment: .init())
    }

    /// A scope whose state lane focuses a slice that may be absent through an affine traversal.
    @inlinable
    public static func state<G, L, A, E>(_ traversal: AffineTraversal<G, L>) -> Relay.Scope<Relay.Identity<A>, StateLane, Relay.Identity<E>>
    where StateLane == Relay.StateAffine<G, L> {
        .init(action: .init(), state: Relay.StateAffine(traversal), environment: .init())
    }

    /// A scope whose state lane focuses one case of an enum state through a prism (in place; skipped in other cases).
    @inlinable
    public static func state<G, L, A, E>(_ prism: Prism<G, L>) -> Relay.Scope<Relay.Identity<A>, StateLane, Relay.Identity<E>>
    where StateLane == Relay.StateAffine<G, L> {
        .init(action: .init(), state: Relay.StateAffine(prism.affine), environment: .init())
    }

    /// A scope whose state lane focuses a slice through getter and setter closures (copies the slice out and back).
    @inlinable
    public static func state<G, L, A, E>(get: @escaping @Sendable (G) -> L, set: @escaping @Sendable (inout G, L) -> Void)
        -> Relay.Scope<Relay.Identity<A>, StateLane, Relay.Identity<E>> where StateLane == Relay.StateLens<G, L>
    {
        .init(action: .init(), state: Relay.StateLens(Lens(get: get, set: set)), environment: .init())
    }

    /// A scope whose state lane locates elements of an array of `Identifiable` values by id, in O(1) amortised.
    @inlinable
    public static func state<G, C, A, E>(_ keyPath: WritableKeyPath<G, C>) -> Relay.Scope<Relay.Identity<A>, StateLane, Relay.Identity<E>>
    where
        C: MutableCollection & RandomAccessCollection & Sendable, C.Index == Int, C.Element: Identifiable, C.Element.ID: Sendable,
        StateLane == Relay.IdentifiedElements<G, C, C.Element.ID>
    {
        .init(
            action: .init(),
            state: Relay.IdentifiedElements(
                container: Lens(keyPath), id: { $0.id }, inPlace: { LentPart.borrow($0) { $0.id } }, keying: .identifiable),
            environment: .init())
    }

    /// A scope whose state lane locates elements of an ``IdentifiedArray`` by id, in O(1) (absent ids included).
    @inlinable
    public static func state<G, Element, A, E>(_ keyPath: WritableKeyPath<G, IdentifiedArray<Element>>)
        -> Relay.Scope<Relay.Identity<A>, StateLane, Relay.Identity<E>>
    where Element: Identifiable, Element.ID: Sendable, StateLane == Relay.IdentifiedArrayElements<G, Element> {
        .init(action: .init(), state: Relay.IdentifiedArrayElements(container: Lens(keyPath)), environment: .init())
    }

    /// A scope whose state lane locates elements of an ``IdentifiedArray`` reached through a lens by id, in O(1).
    @inlinable
    public static func state<G, Element, A, E>(_ lens: Lens<G, IdentifiedArray<Element>>)
        -> Relay.Scope<Relay.Identity<A>, StateLane, Relay.Identity<E>>
    where Element: Identifiable, Element.ID: Sendable, StateLane == Relay.IdentifiedArrayElements<G, Element> {
        .init(action: .init(), state: Relay.IdentifiedArrayElements(container: lens), environment: .init())
    }

    /// A scope whose state lane locates elements of an array by a custom id key path, in O(1) amortised.
    @inlinable
    public static func state<G, C, ID, A, E>(_ keyPath: WritableKeyPath<G, C>, id: KeyPath<C.Element, ID> & Sendable)
        -> Relay.Scope<Relay.Identity<A>, StateLane, Relay.Identity<E>>
    where
        C: MutableCollection & RandomAccessCollection & Sendable, C.Index == Int, ID: Hashable & Sendable,
        StateLane == Relay.IdentifiedElements<G, C, ID>
    {
        .init(
            action: .init(),
            state: Relay.IdentifiedElements(container: Lens(keyPath), id: { $0[keyPath: id] }, keying: .keyPath(ElementKeyPath(id))),
            environment: .init())
    }

    /// A scope whose state lane locates elements by position (the id is the index).
    @inlinable
    public static func state<G, C, A, E>(indexed keyPath: WritableKeyPath<G, C>) -> Relay.Scope<Relay.Identity<A>, StateLane, Relay.Identity<E>>
    where C: MutableCollection & RandomAccessCollection & Sendable, C.Index == Int, StateLane == Relay.IndexedElements<G, C> {
        .init(action: .init(), state: Relay.IndexedElements(container: Lens(keyPath)), environment: .init())
    }

    /// A scope whose state lane locates values of a dictionary by key (O(1), in place; ascending key order when enumerated).
    @inlinable
    public static func state<G, K, V, A, E>(dictionary keyPath: WritableKeyPath<G, [K: V]>)
        -> Relay.Scope<Relay.Identity<A>, StateLane, Relay.Identity<E>>
    where K: Hashable & Comparable & Sendable, StateLane == Relay.DictionaryElements<G, K, V> {
        .init(action: .init(), state: Relay.DictionaryElements(container: Lens(keyPath)), environment: .init())
    }

    /// A scope whose environment lane narrows the environment through a key path.
    @inlinable
    public static func environment<G, L, A, S>(_ keyPath: KeyPath<G, L> & Sendable)
        -> Relay.Scope<Relay.Identity<A>, Relay.Identity<S>, EnvironmentLane> where EnvironmentLane == Relay.EnvironmentNarrow<G, L>
    {
        .init(action: .init(), state: .init(), environment: Relay.EnvironmentNarrow { $0[keyPath: keyPath] })
    }

    /// A scope whose environment lane narrows the environment through a projection closure.
    @_disfavoredOverload
    @inlinable
    public static func environment<G, L, A, S>(_ project: @escaping @Sendable (G) -> L)
        -> Relay.Scope<Relay.Identity<A>, Relay.Identity<S>, EnvironmentLane> where EnvironmentLane == Relay.EnvironmentNarrow<G, L>
    {
        .init(action: .init(), state: .init(), environment: Relay.EnvironmentNarrow(project))
    }

    /// The all-pass-through scope.
    @inlinable
    public static func identity<A, S, E>() -> Relay.Scope<Relay.Identity<A>, Relay.Identity<S>, Relay.Identity<E>> {
        .init(action: .init(), state: .init(), environment: .init())
    }
}

extension Relay.Scope {
    /// Sets the action lane: it re-indexes actions through a prism (extract inbound, embed outbound).
    @inlinable
    public func action<G, L>(_ prism: Prism<G, L>) -> Relay.Scope<Relay.ActionPrism<G, L>, StateLane, EnvironmentLane>
    where ActionLane == Relay.Identity<G> {
        .init(action: Relay.ActionPrism(prism), state: state, environment: environment)
    }

    /// Sets the action lane to `lane`: any type that extracts and embeds actions, such as the lanes
    /// `@Prisms` generates (`AppAction.lane.counter`); a lift through it is specialised for it.
    @inlinable
    public func action<Lane: ExtractsAction & EmbedsAction>(_ lane: Lane) -> Relay.Scope<Lane, StateLane, EnvironmentLane>
    where ActionLane == Relay.Identity<Lane.GlobalAction> {
        .init(action: lane, state: state, environment: environment)
    }

    /// Sets the action lane: it re-indexes actions through a preview and a review closure.
    @inlinable
    public func action<G, L>(preview: @escaping @Sendable (G) -> L?, review: @escaping @Sendable (L) -> G)
        -> Relay.Scope<Relay.ActionPrism<G, L>, StateLane, EnvironmentLane> where ActionLane == Relay.Identity<G>
    {
        .init(action: Relay.ActionPrism(Prism(preview: preview, review: review)), state: state, environment: environment)
    }

    /// Sets the action lane: it extracts actions with a preview closure (a trigger).
    @inlinable
    public func action<G, L>(preview: @escaping @Sendable (G) -> L?) -> Relay.Scope<Relay.ActionExtract<G, L>, StateLane, EnvironmentLane>
    where ActionLane == Relay.Identity<G> {
        .init(action: Relay.ActionExtract(preview), state: state, environment: environment)
    }

    /// Sets the action lane: it embeds actions with a trailing review closure (a dispatch target).
    @inlinable
    public func action<G, L>(_ review: @escaping @Sendable (L) -> G) -> Relay.Scope<Relay.ActionEmbed<G, L>, StateLane, EnvironmentLane>
    where ActionLane == Relay.Identity<G> {
        .init(action: Relay.ActionEmbed(review), state: state, environment: environment)
    }

    /// Sets the action lane: it addresses actions to one element of a collection through an `ElementAction` prism.
    @inlinable
    public func action<G, ID, L>(_ prism: Prism<G, ElementAction<ID, L>>) -> Relay.Scope<Relay.ActionElement<G, ID, L>, StateLane, EnvironmentLane>
    where ActionLane == Relay.Identity<G> {
        .init(action: Relay.ActionElement(prism), state: state, environment: environment)
    }

    /// Sets the action lane: it addresses actions to one element of a collection through two
    /// closures: `element` extracts the element's id and action, `embed` addresses an element's action.
    @inlinable
    public func action<G, ID, L>(
        element preview: @escaping @Sendable (G) -> ElementAction<ID, L>?, embed: @escaping @Sendable (ID, L) -> G
    ) -> Relay.Scope<Relay.ActionElement<G, ID, L>, StateLane, EnvironmentLane> where ActionLane == Relay.Identity<G> {
        .init(action: Relay.ActionElement(preview: preview, review: embed), state: state, environment: environment)
    }

    /// Sets the action lane: it broadcasts one inbound action to every element; elements' actions go out through `into`.
    @inlinable
    public func action<G, ID, L>(broadcast inbound: Prism<G, L>, into outbound: Prism<G, ElementAction<ID, L>>)
        -> Relay.Scope<Relay.ActionBroadcast<G, ID, L>, StateLane, EnvironmentLane> where ActionLane == Relay.Identity<G>
    {
        .init(
            action: Relay.ActionBroadcast(preview: inbound.preview, review: { outbound.review(ElementAction($0, action: $1)) }), state: state,
            environment: environment)
    }

    /// Sets the action lane: it broadcasts one inbound action (a preview) to every element; elements' actions go out through `embed`.
    @inlinable
    public func action<G, ID, L>(broadcast preview: @escaping @Sendable (G) -> L?, embed: @escaping @Sendable (ID, L) -> G)
        -> Relay.Scope<Relay.ActionBroadcast<G, ID, L>, StateLane, EnvironmentLane> where ActionLane == Relay.Identity<G>
    {
        .init(action: Relay.ActionBroadcast(preview: preview, review: embed), state: state, environment: environment)
    }

    /// Sets the state lane: it focuses a total slice through a writable key path (in place).
    @inlinable
    public func state<G, L>(_ keyPath: WritableKeyPath<G, L>) -> Relay.Scope<ActionLane, Relay.StateLens<G, L>, EnvironmentLane>
    where StateLane == Relay.Identity<G> {
        .init(action: action, state: Relay.StateLens(Lens(keyPath)), environment: environment)
    }

    /// Sets the state lane: it focuses an optional slice through a writable key path (in place; skipped while `nil`).
    @inlinable
    public func state<G, L>(_ keyPath: WritableKeyPath<G, L?>) -> Relay.Scope<ActionLane, Relay.StateAffine<G, L>, EnvironmentLane>
    where StateLane == Relay.Identity<G> {
        .init(action: action, state: Relay.StateAffine(AffineTraversal(keyPath)), environment: environment)
    }

    /// Sets the state lane: it focuses a total slice through a lens.
    @inlinable
    public func state<G, L>(_ lens: Lens<G, L>) -> Relay.Scope<ActionLane, Relay.StateLens<G, L>, EnvironmentLane>
    where StateLane == Relay.Identity<G> {
        .init(action: action, state: Relay.StateLens(lens), environment: environment)
    }

    /// Sets the state lane: it focuses a slice that may be absent through an affine traversal.
    @inlinable
    public func state<G, L>(_ traversal: AffineTraversal<G, L>) -> Relay.Scope<ActionLane, Relay.StateAffine<G, L>, EnvironmentLane>
    where StateLane == Relay.Identity<G> {
        .init(action: action, state: Relay.StateAffine(traversal), environment: environment)
    }

    /// Sets the state lane: it focuses one case of an enum state through a prism (in place; skipped in other cases).
    @inlinable
    public func state<G, L>(_ prism: Prism<G, L>) -> Relay.Scope<ActionLane, Relay.StateAffine<G, L>, EnvironmentLane>
    where StateLane == Relay.Identity<G> {
        .init(action: action, state: Relay.StateAffine(prism.affine), environment: environment)
    }

    /// Sets the state lane: it focuses a slice through getter and setter closures (copies the slice out and back).
    @inlinable
    public func state<G, L>(get: @escaping @Sendable (G) -> L, set: @escaping @Sendable (inout G, L) -> Void)
        -> Relay.Scope<ActionLane, Relay.StateLens<G, L>, EnvironmentLane> where StateLane == Relay.Identity<G>
    {
        .init(action: action, state: Relay.StateLens(Lens(get: get, set: set)), environment: environment)
    }

    /// Sets the state lane: it locates elements of an array of `Identifiable` values by id, in O(1) amortised.
    @inlinable
    public func state<G, C>(_ keyPath: WritableKeyPath<G, C>)
        -> Relay.Scope<ActionLane, Relay.IdentifiedElements<G, C, C.Element.ID>, EnvironmentLane>
    where
        StateLane == Relay.Identity<G>, C: MutableCollection & RandomAccessCollection & Sendable, C.Index == Int, C.Element: Identifiable,
        C.Element.ID: Sendable
    {
        .init(
            action: action,
            state: Relay.IdentifiedElements(
                container: Lens(keyPath), id: { $0.id }, inPlace: { LentPart.borrow($0) { $0.id } }, keying: .identifiable),
            environment: environment)
    }

    /// Sets the state lane: it locates elements of an ``IdentifiedArray`` by id, in O(1) (absent ids included).
    @inlinable
    public func state<G, Element>(_ keyPath: WritableKeyPath<G, IdentifiedArray<Element>>)
        -> Relay.Scope<ActionLane, Relay.IdentifiedArrayElements<G, Element>, EnvironmentLane>
    where StateLane == Relay.Identity<G>, Element: Identifiable, Element.ID: Sendable {
        .init(action: action, state: Relay.IdentifiedArrayElements(container: Lens(keyPath)), environment: environment)
    }

    /// Sets the state lane: it locates elements of an ``IdentifiedArray`` reached through a lens by id, in O(1).
    @inlinable
    public func state<G, Element>(_ lens: Lens<G, IdentifiedArray<Element>>)
        -> Relay.Scope<ActionLane, Relay.IdentifiedArrayElements<G, Element>, EnvironmentLane>
    where StateLane == Relay.Identity<G>, Element: Identifiable, Element.ID: Sendable {
        .init(action: action, state: Relay.IdentifiedArrayElements(container: lens), environment: environment)
    }

    /// Sets the state lane: it locates elements of an array by a custom id key path, in O(1) amortised.
    @inlinable
    public func state<G, C, ID>(_ keyPath: WritableKeyPath<G, C>, id: KeyPath<C.Element, ID> & Sendable)
        -> Relay.Scope<ActionLane, Relay.IdentifiedElements<G, C, ID>, EnvironmentLane>
    where StateLane == Relay.Identity<G>, C: MutableCollection & RandomAccessCollection & Sendable, C.Index == Int, ID: Hashable & Sendable {
        .init(
            action: action,
            state: Relay.IdentifiedElements(container: Lens(keyPath), id: { $0[keyPath: id] }, keying: .keyPath(ElementKeyPath(id))),
            environment: environment)
    }

    /// Sets the state lane: it locates elements by position (the id is the index).
    @inlinable
    public func state<G, C>(indexed keyPath: WritableKeyPath<G, C>) -> Relay.Scope<ActionLane, Relay.IndexedElements<G, C>, EnvironmentLane>
    where StateLane == Relay.Identity<G>, C: MutableCollection & RandomAccessCollection & Sendable, C.Index == Int {
        .init(action: action, state: Relay.IndexedElements(container: Lens(keyPath)), environment: environment)
    }

    /// Sets the state lane: it locates values of a dictionary by key (O(1), in place; ascending key order when enumerated).
    @inlinable
    public func state<G, K, V>(dictionary keyPath: WritableKeyPath<G, [K: V]>)
        -> Relay.Scope<ActionLane, Relay.DictionaryElements<G, K, V>, EnvironmentLane>
    where StateLane == Relay.Identity<G>, K: Hashable & Comparable & Sendable {
        .init(action: action, state: Relay.DictionaryElements(container: Lens(keyPath)), environment: environment)
    }

    /// Sets the environment lane: it narrows the environment through a key path.
    @inlinable
    public func environment<G, L>(_ keyPath: KeyPath<G, L> & Sendable) -> Relay.Scope<ActionLane, StateLane, Relay.EnvironmentNarrow<G, L>>
    where EnvironmentLane == Relay.Identity<G> {
        .init(action: action, state: state, environment: Relay.EnvironmentNarrow { $0[keyPath: keyPath] })
    }

    /// Sets the environment lane: it narrows the environment through a projection closure.
    @_disfavoredOverload
    @inlinable
    public func environment<G, L>(_ project: @escaping @Sendable (G) -> L) -> Relay.Scope<ActionLane, StateLane, Relay.EnvironmentNarrow<G, L>>
    where EnvironmentLane == Relay.Identity<G> {
        .init(action: action, state: state, environment: Relay.EnvironmentNarrow(project))
    }

}
