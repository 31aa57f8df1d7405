extension StoreType {
    /// A projection narrowing the action through a case key path (dispatch embeds through its case)
    /// and the state through a key path.
    ///
    /// ```swift
    /// let counter = store.projection(action: \AppAction.counter, state: \AppState.counter)
    /// ```
    ///
    /// - Complexity: O(1) per state read (a key-path read).
    @inlinable
    public func projection<LocalAction: Sendable, LocalState>(
        action: PrismKeyPath<Action, LocalAction>,
        state: KeyPath<State, LocalState>
    ) -> StoreProjection<LocalAction, LocalState> where Action: Prismatic {
        projection(action: Prism(action), state: state)
    }
}
