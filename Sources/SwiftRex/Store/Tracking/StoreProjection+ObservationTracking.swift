extension StoreProjection {
    /// The projected state, read so that `withObservationTracking` tracks each member read on its
    /// own, through the Store it projects (<doc:ObservationTracking>).
    ///
    /// ```swift
    /// let row = store.projection(element: rowID, action: AppAction.row, collection: \.rows)
    /// let title = row.observed[\.?.title]
    /// ```
    public var observed: ObservedState<State> {
        if let route { return ObservedState(.tracked(route)) }
        return ObservedState(.untracked(readState))
    }
}

extension StoreType {
    /// A projection through `state` whose tracked reads are scoped by `scope`: equal scopes must
    /// mean equal mappings, since reads with equal scopes share one tracked entry.
    @inlinable
    func projection<LocalAction: Sendable, LocalState>(
        action: @escaping (LocalAction) -> Action,
        state: @escaping (State) -> LocalState,
        scope: some Hashable
    ) -> StoreProjection<LocalAction, LocalState> {
        let store = self
        let route = trackingRoute(of: self).map { MappedRoute(parent: $0, scope: AnyHashable(scope), map: state) }
        return StoreProjection(
            route: route,
            state: { state(store.state) },
            dispatch: { local, source in store.dispatch(action(local), source: source) },
            observe: { willChange, didChange in
                // Its observers watch the projected slice (the whole of it, when the scope is a key path).
                guard let route else { return store.observe(willChange: willChange, didChange: didChange) }
                return route.observe(slice: \LocalState.self, willChange: willChange, didChange: didChange)
            }
        )
    }
}
