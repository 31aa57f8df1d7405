// Element projections through the same `Relay.Scope` lanes the collection lifts use: the state is
// located by the keyed lane in O(1) amortised, actions are addressed to the element.

extension StoreType {
    /// A projection onto one element of a keyed collection, located through the scope's state lane
    /// (by id, custom key, position or dictionary key) in O(1) amortised; its state is `nil` while
    /// the element is absent. Actions are addressed to the element through the scope's action lane.
    ///
    /// ```swift
    /// let row = store.projection(.action(AppAction.prism.row).state(\.rows), element: rowID)
    /// row.dispatch(.toggle)          // dispatches .row(ElementAction(rowID, action: .toggle))
    /// ```
    ///
    /// Its observers are called after the dispatches that may change the element: when all a
    /// dispatch changed is one element of this container, written by a collection lift that
    /// locates elements as this scope does, only that element's observers are called
    /// (<doc:DispatchPipeline#Slice-observers>).
    ///
    /// - Complexity: O(1) amortised per state read.
    @inlinable
    public func projection<ID: Hashable & Sendable, LocalAction: Sendable, SL: KeyedState>(
        _ scope: Relay.Scope<Relay.ActionElement<Action, ID, LocalAction>, SL, Relay.Identity<Void>>,
        element id: ID
    ) -> StoreProjection<LocalAction, SL.Element?> where SL.GlobalState == State, SL.ID == ID {
        let store = self
        let lane = scope.state
        let review = scope.action.review
        let storeRoute = trackingRoute(of: self)
        let container = elementContainer(of: lane)
        return StoreProjection(
            route: storeRoute.map { MappedRoute(parent: $0, scope: ScopeToken()) { lane.element(id, in: $0) } },
            state: { lane.element(id, in: store.state) },
            dispatch: { local, source in store.dispatch(review(id, local), source: source) },
            observe: { willChange, didChange in
                // Its observers watch the one element, where the lane locates its container.
                guard let storeRoute, let container else { return store.observe(willChange: willChange, didChange: didChange) }
                return storeRoute.observe(element: AnyHashableSendable(id), of: container, willChange: willChange, didChange: didChange)
            }
        )
    }
}
