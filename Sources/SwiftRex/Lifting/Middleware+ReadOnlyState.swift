// A middleware only reads state, so its state axis can be lifted by any getter:
// `liftState { (global: AppState) in global.search }`, or `.state { $0.search }` inside a scope.
// It goes through the one lifting core like every other lift, with a lane that reads and never
// writes; only middleware hosts accept it.

extension Relay {
    /// A state lane that only reads, built from a getter: `.state { (global: AppState) in
    /// global.search }`. Only ``Middleware`` lifts accept it (a middleware never writes); a host
    /// that mutates needs a writable lane (a key path, a lens, an affine traversal).
    public struct StateReader<GlobalState, LocalState>: Sendable {
        /// The getter.
        public let get: @Sendable (GlobalState) -> LocalState

        /// A lane from a getter.
        @inlinable public init(_ get: @escaping @Sendable (GlobalState) -> LocalState) { self.get = get }
    }

    /// The lifting core's view of a ``StateReader``: a lane whose writes never happen (a
    /// middleware's units never mutate).
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

extension Relay.Scope {
    /// A scope whose state lane reads through `get` (for ``Middleware`` lifts), the other axes
    /// unchanged: `.state { (global: AppState) in global.search }`.
    @inlinable
    public static func state<G, L, A, E>(read get: @escaping @Sendable (G) -> L) -> Relay.Scope<Relay.Identity<A>, StateLane, Relay.Identity<E>>
    where StateLane == Relay.StateReader<G, L> {
        .init(action: .init(), state: Relay.StateReader(get), environment: .init())
    }

    /// Sets the state lane: it reads through `get` (for ``Middleware`` lifts).
    ///
    /// ```swift
    /// searchMiddleware.lift(.action(\.search).state { (global: AppState) in global.search })
    /// ```
    @inlinable
    public func state<G, L>(read get: @escaping @Sendable (G) -> L) -> Relay.Scope<ActionLane, Relay.StateReader<G, L>, EnvironmentLane>
    where StateLane == Relay.Identity<G> {
        .init(action: action, state: Relay.StateReader(get), environment: environment)
    }
}

extension Middleware {
    /// Lifts this middleware through a scope whose state lane only reads (`.state { … }`): the
    /// action lane re-indexes actions, the getter hands each unit its part of the app's state, the
    /// environment lane narrows the world.
    ///
    /// ```swift
    /// let lifted = searchMiddleware.lift(.action(\.search).state { (global: AppState) in global.search })
    /// ```
    @inlinable
    public func lift<AL: ExtractsAction & EmbedsAction, GlobalState: Sendable, EL: NarrowsEnvironment>(
        _ scope: Relay.Scope<AL, Relay.StateReader<GlobalState, State>, EL>
    ) -> Middleware<AL.GlobalAction, GlobalState, EL.GlobalEnvironment>
    where AL.LocalAction == Action, EL.LocalEnvironment == Environment {
        viaBehavior { $0.lift(Relay.Scope(action: scope.action, state: Relay.ReadOnlyState(scope.state.get), environment: scope.environment)) }
    }

    /// Lifts the state axis through a getter: the middleware reads the part of the app's state it
    /// returns (a middleware never writes, so no setter is needed).
    ///
    /// ```swift
    /// let lifted = searchMiddleware.liftState { (global: AppState) in global.search }
    /// ```
    @inlinable
    public func liftState<GlobalState: Sendable>(_ get: @escaping @Sendable (GlobalState) -> State) -> Middleware<Action, GlobalState, Environment> {
        lift(Relay.Scope(action: Relay.Identity<Action>(), state: Relay.StateReader(get), environment: Relay.Identity<Environment>()))
    }
}
