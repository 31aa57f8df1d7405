// A middleware only reads state, so its state axis can be lifted by any getter:
// `liftState { (global: AppState) in global.search }`. It goes through the one lifting core like
// every other lift, with a lane that reads and never writes.

extension Relay {
    /// A state lane that only reads: the state lane of a middleware lifted by a getter. It never
    /// writes (a middleware's units never mutate), so it is not offered to hosts that do.
    @usableFromInline
    internal struct ReadOnlyState<GlobalState, LocalState>: WritesState {
        @usableFromInline let get: @Sendable (GlobalState) -> LocalState

        @inlinable init(_ get: @escaping @Sendable (GlobalState) -> LocalState) { self.get = get }

        @inlinable var isTotal: Bool { true }
        @inlinable func preview(_ state: GlobalState) -> LocalState? { get(state) }
        /// Never called: the lane only serves middleware lifts, whose units never mutate.
        @inlinable func tryModify(_ state: inout GlobalState, _ body: (inout LocalState) -> Void) -> Bool { false }
    }
}

extension Middleware {
    /// Lifts the state axis through a getter: the middleware reads the part of the app's state it
    /// returns (a middleware never writes, so no setter is needed).
    ///
    /// ```swift
    /// let lifted = searchMiddleware.liftState { (global: AppState) in global.search }
    /// ```
    @inlinable
    public func liftState<GlobalState: Sendable>(_ get: @escaping @Sendable (GlobalState) -> State) -> Middleware<Action, GlobalState, Environment> {
        viaBehavior { behavior in
            behavior.lift(Relay.Scope(action: Relay.Identity<Action>(), state: Relay.ReadOnlyState(get), environment: Relay.Identity<Environment>()))
        }
    }
}
