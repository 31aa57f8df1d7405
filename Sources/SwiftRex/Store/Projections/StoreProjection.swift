/// A stateless view of another store narrowed to a local action and state: what a feature's view
/// receives instead of the whole `Store`.
///
/// It holds three closures and no state of its own:
/// - ``state`` maps the underlying state on **every** read (no caching);
/// - ``dispatch(_:source:)`` maps the local action to the underlying one and forwards the **same** source;
/// - ``observe(willChange:didChange:)`` forwards to the underlying store, so it fires on every
///   underlying mutation even when the projected slice did not change (wrap it in a
///   ``StoreBuffer`` to deduplicate).
///
/// `StoreType` requires `AnyObject`, so this is a lightweight `final class` rather than a struct.
/// It retains the store it projects. Reads through ``observed`` are tracked by the Store it
/// projects (<doc:ObservationTracking>).
///
/// ```swift
/// let counter = store.projection(action: AppAction.counter, state: \.counter)
/// counter.dispatch(.increment)
/// ```
@MainActor
public final class StoreProjection<Action: Sendable, State>: StoreType {
    @usableFromInline let readState: @MainActor () -> State
    @usableFromInline let forward: @MainActor (Action, ActionSource) -> Void
    @usableFromInline let subscribe:
        @MainActor (
            (@MainActor () -> Void)?,
            (@MainActor () -> Void)?
        ) -> SubscriptionToken
    /// Where reads through ``observed`` are tracked; `nil` for a projection made from closures.
    @usableFromInline let route: (any TrackingRoute<State>)?

    /// A projection from its three closures: how to read the state, how to dispatch (keeping the
    /// source) and how to observe.
    @inlinable
    public init(
        state: @escaping @MainActor () -> State,
        dispatch: @escaping @MainActor (Action, ActionSource) -> Void,
        observe:
            @escaping @MainActor (
                _ willChange: (@MainActor () -> Void)?,
                _ didChange: (@MainActor () -> Void)?
            ) -> SubscriptionToken
    ) {
        route = nil
        readState = state
        forward = dispatch
        subscribe = observe
    }

    /// A projection whose reads through ``observed`` go to `route`.
    @inlinable
    init(
        route: (any TrackingRoute<State>)?,
        state: @escaping @MainActor () -> State,
        dispatch: @escaping @MainActor (Action, ActionSource) -> Void,
        observe: @escaping @MainActor ((@MainActor () -> Void)?, (@MainActor () -> Void)?) -> SubscriptionToken
    ) {
        self.route = route
        readState = state
        forward = dispatch
        subscribe = observe
    }

    /// The projected state, computed from the underlying store at every read.
    ///
    /// - Complexity: the cost of the mapping (O(1) for key paths and closures, O(n) for a
    ///   collection element located by a linear scan).
    @inlinable
    public var state: State { readState() }

    /// Maps `action` to the underlying store's action and dispatches it with the same `source`.
    @inlinable
    public func dispatch(_ action: Action, source: ActionSource) {
        forward(action, source)
    }

    /// Observes the underlying store: called around every underlying state change.
    @inlinable
    public func observe(willChange: (@MainActor () -> Void)?, didChange: (@MainActor () -> Void)?) -> SubscriptionToken {
        subscribe(willChange, didChange)
    }
}

extension StoreType {
    /// A projection narrowing this store through an action embedding and a state mapping.
    ///
    /// - Complexity: each read of the projected state costs one call of `state`.
    @inlinable
    public func projection<LocalAction: Sendable, LocalState>(
        action: @escaping (LocalAction) -> Action,
        state: @escaping (State) -> LocalState
    ) -> StoreProjection<LocalAction, LocalState> {
        projection(action: action, state: state, scope: ScopeToken())
    }

    /// A projection narrowing the action through a prism (dispatch uses its `review`) and the state
    /// through a key path.
    ///
    /// - Complexity: O(1) per state read (a key-path read).
    @inlinable
    public func projection<LocalAction: Sendable, LocalState>(
        action: Prism<Action, LocalAction>,
        state: KeyPath<State, LocalState>
    ) -> StoreProjection<LocalAction, LocalState> {
        let review = action.review
        return projection(action: { review($0) }, state: { $0[keyPath: state] }, scope: state)
    }

    /// A projection onto the element identified by `id` in an `Identifiable` collection: its state
    /// is the element, or `nil` while no element has that id; actions are addressed to the element
    /// as ``ElementAction``s embedded by `review`.
    ///
    /// - Complexity: O(n) per state read (a linear scan for the first element with `id`).
    @inlinable
    public func projection<ID: Hashable, LocalAction: Sendable, C: Collection>(
        element id: ID,
        action review: @escaping (ElementAction<ID, LocalAction>) -> Action,
        collection: KeyPath<State, C>
    ) -> StoreProjection<LocalAction, C.Element?> where C.Element: Identifiable, C.Element.ID == ID {
        projection(
            action: { review(ElementAction(id, action: $0)) },
            state: { $0[keyPath: collection].first { $0.id == id } },
            scope: ["element", collection, \C.Element.id, AnyHashable(id)] as [AnyHashable]
        )
    }

    /// A projection onto the element whose `identifier` equals `id`: its state is the element, or
    /// `nil` while no element has that id; actions are embedded by `review` as ``ElementAction``s.
    ///
    /// - Complexity: O(n) per state read (a linear scan for the first element with `id`).
    @inlinable
    public func projection<ID: Hashable, LocalAction: Sendable, C: Collection>(
        element id: ID,
        action review: @escaping (ElementAction<ID, LocalAction>) -> Action,
        collection: KeyPath<State, C>,
        identifier: KeyPath<C.Element, ID>
    ) -> StoreProjection<LocalAction, C.Element?> {
        projection(
            action: { review(ElementAction(id, action: $0)) },
            state: { $0[keyPath: collection].first { $0[keyPath: identifier] == id } },
            scope: ["element", collection, identifier, AnyHashable(id)] as [AnyHashable]
        )
    }

    /// A projection onto the element for which `identifier` returns `id` (an id the element does
    /// not store, or one computed from several fields): its state is the element, or `nil` while
    /// no element has that id; actions are embedded by `review` as ``ElementAction``s.
    ///
    /// - Complexity: O(n) per state read (a linear scan for the first element with `id`).
    @inlinable
    public func projection<ID: Hashable, LocalAction: Sendable, C: Collection>(
        element id: ID,
        action review: @escaping (ElementAction<ID, LocalAction>) -> Action,
        collection: KeyPath<State, C>,
        identifier: @escaping (C.Element) -> ID
    ) -> StoreProjection<LocalAction, C.Element?> {
        projection(
            action: { review(ElementAction(id, action: $0)) },
            state: { $0[keyPath: collection].first { identifier($0) == id } }
        )
    }

    /// A projection onto the value stored under `key` in a dictionary: its state is the value, or
    /// `nil` while the key is absent; actions are embedded by `review` as ``ElementAction``s.
    ///
    /// - Complexity: O(1) amortised per state read (a hashed lookup).
    @inlinable
    public func projection<Key: Hashable, Value, LocalAction: Sendable>(
        key: Key,
        action review: @escaping (ElementAction<Key, LocalAction>) -> Action,
        dictionary: KeyPath<State, [Key: Value]>
    ) -> StoreProjection<LocalAction, Value?> {
        projection(
            action: { review(ElementAction(key, action: $0)) },
            state: { $0[keyPath: dictionary][key] },
            scope: ["dictionary", dictionary, AnyHashable(key)] as [AnyHashable]
        )
    }

    /// Turns a store of an optional state into an optional store, evaluated **now**: `nil` while the
    /// state is `nil`; otherwise a projection whose state is the live value, or — once the live value
    /// becomes `nil` — the value captured by this call (not the last live value seen). Actions pass
    /// through unchanged.
    ///
    /// Call it on every render: the fallback keeps a child view steady during the frame in which its
    /// value disappears.
    ///
    /// - Complexity: O(1).
    @inlinable
    public func transpose<Wrapped>() -> StoreProjection<Action, Wrapped>? where State == Wrapped? {
        guard let captured = state else { return nil }
        let store = self
        return StoreProjection(
            route: trackingRoute(of: self).map { MappedRoute(parent: $0, scope: ScopeToken()) { $0 ?? captured } },
            state: { store.state ?? captured },
            dispatch: { action, source in store.dispatch(action, source: source) },
            observe: { willChange, didChange in store.observe(willChange: willChange, didChange: didChange) }
        )
    }
}
