extension StoreType {
    /// A projection whose action embedding and state mapping depend on an environment: both readers
    /// are run **once**, here, with `environment`; the projection then behaves as
    /// `projection(action:state:)` with the two functions they return.
    ///
    /// ```swift
    /// let profile = store.projection(
    ///     environment: world,
    ///     action: Reader { world in { AppAction.profile(.init(user: world.userID, $0)) } },
    ///     state: Reader { world in { $0.profiles[world.userID] } }
    /// )
    /// ```
    ///
    /// - Complexity: each read of the projected state costs one call of the state reader's function.
    @inlinable
    public func projection<Environment, LocalAction: Sendable, LocalState>(
        environment: Environment,
        action: Reader<Environment, (LocalAction) -> Action>,
        state: Reader<Environment, (State) -> LocalState>
    ) -> StoreProjection<LocalAction, LocalState> {
        let embed = action.runReader(environment)
        let read = state.runReader(environment)
        return projection(action: { embed($0) }, state: { read($0) })
    }
}
