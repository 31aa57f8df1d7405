extension Reducer {
    /// This reducer as a behavior with no environment (`Void`): what `asBehavior()` gives where no
    /// context names an environment (`let counter = counterReducer.asBehavior()`). Where one does,
    /// the generic ``asBehavior(_:)`` takes it.
    @_disfavoredOverload
    @inlinable
    public func asBehavior() -> Behavior<ActionType, StateType, Void> {
        Behavior(units: units.map { .reducer($0) })
    }
}
