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
    /// - Complexity: O(1) amortised per state read.
    @inlinable
    public func projection<ID: Hashable & Sendable, LocalAction: Sendable, SL: KeyedState>(
        _ scope: Relay.Scope<Relay.ActionElement<Action, ID, LocalAction>, SL, Relay.Identity<Void>>,
        element id: ID
    ) -> StoreProjection<LocalAction, SL.Element?> where SL.GlobalState == State, SL.ID == ID {
        let store = self
        let lane = scope.state
        let review = scope.action.review
        return StoreProjection(
            route: trackingRoute(of: self).map { MappedRoute(parent: $0, scope: ScopeToken()) { lane.element(id, in: $0) } },
            state: { lane.element(id, in: store.state) },
            dispatch: { local, source in store.dispatch(review(id, local), source: source) },
            observe: { willChange, didChange in store.observe(willChange: willChange, didChange: didChange) }
        )
    }
}
