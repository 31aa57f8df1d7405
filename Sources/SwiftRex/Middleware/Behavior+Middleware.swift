extension Behavior {
    /// Pairs a reducer (run first) with a middleware.
    @inlinable
    public init(reducer: Reducer<Action, State>, middleware: Middleware<Action, State, Environment>) {
        self.init(units: reducer.units.map { .reducer($0) } + middleware.units)
    }
}
