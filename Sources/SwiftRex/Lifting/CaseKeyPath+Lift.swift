// The case-key-path spellings of the lift hosts: `lift(action: \AppAction.counter, state: \.counter)`
// and `liftAction(\AppAction.counter)`. Each resolves the case key path to its prism once and goes
// through the same `Relay.Scope` lift as the prism spelling (one lifting core, `FocusLift`).

extension Reducer {
    /// Lifts action and state through a case key path and a writable key path.
    ///
    /// ```swift
    /// counterReducer.lift(action: \AppAction.counter, state: \AppState.counter)
    /// ```
    @inlinable
    public func lift<GlobalAction: Prismatic & Sendable, GlobalState: Sendable>(
        action: PrismKeyPath<GlobalAction, ActionType>, state: WritableKeyPath<GlobalState, StateType>
    ) -> Reducer<GlobalAction, GlobalState> {
        lift(.action(Prism(action)).state(state))
    }
}

extension Behavior {
    /// Lifts the action axis through a case key path (state and environment unchanged).
    @inlinable
    public func liftAction<GlobalAction: Prismatic & Sendable>(_ path: PrismKeyPath<GlobalAction, Action>) -> Behavior<
        GlobalAction, State, Environment
    > {
        liftAction(Prism(path))
    }

    /// Lifts the state axis through a key path to an optional (or an enum case's property): while
    /// the focus is absent nothing is mutated and nothing is supervised; effects still run, with a
    /// `nil` state. An enum case is mutated in place through its prism.
    @inlinable
    public func liftState<GlobalState: Sendable>(_ path: WritableKeyPath<GlobalState, State?>) -> Behavior<Action, GlobalState, Environment> {
        liftState(AffineTraversal(path))
    }

    /// Lifts action and state through a case key path and a writable key path (the environment passes through).
    @inlinable
    public func lift<GlobalAction: Prismatic & Sendable, GlobalState: Sendable>(
        action: PrismKeyPath<GlobalAction, Action>, state: WritableKeyPath<GlobalState, State>
    ) -> Behavior<GlobalAction, GlobalState, Environment> {
        lift(.action(Prism(action)).state(state))
    }

    /// Lifts all three axes: a case key path, a writable key path and an environment key path.
    ///
    /// ```swift
    /// searchBehavior.lift(action: \AppAction.search, state: \AppState.search, environment: \AppEnvironment.searchAPI)
    /// ```
    @inlinable
    public func lift<GlobalAction: Prismatic & Sendable, GlobalState: Sendable, GlobalEnvironment: Sendable>(
        action: PrismKeyPath<GlobalAction, Action>,
        state: WritableKeyPath<GlobalState, State>,
        environment: KeyPath<GlobalEnvironment, Environment> & Sendable
    ) -> Behavior<GlobalAction, GlobalState, GlobalEnvironment> {
        lift(.action(Prism(action)).state(state).environment(environment))
    }

    /// Lifts all three axes, the environment through a projection closure.
    @inlinable
    public func lift<GlobalAction: Prismatic & Sendable, GlobalState: Sendable, GlobalEnvironment: Sendable>(
        action: PrismKeyPath<GlobalAction, Action>,
        state: WritableKeyPath<GlobalState, State>,
        environment: @escaping @Sendable (GlobalEnvironment) -> Environment
    ) -> Behavior<GlobalAction, GlobalState, GlobalEnvironment> {
        lift(.action(Prism(action)).state(state).environment(environment))
    }
}

extension Middleware {
    /// Lifts the action axis through a case key path (state and environment unchanged).
    @inlinable
    public func liftAction<GlobalAction: Prismatic & Sendable>(_ path: PrismKeyPath<GlobalAction, Action>) -> Middleware<
        GlobalAction, State, Environment
    > {
        liftAction(Prism(path))
    }

    /// Lifts the state axis through a key path to an optional (or an enum case's property): while
    /// the focus is absent nothing is supervised; effects still run, with a `nil` state.
    @inlinable
    public func liftState<GlobalState: Sendable>(_ path: WritableKeyPath<GlobalState, State?>) -> Middleware<Action, GlobalState, Environment> {
        liftState(AffineTraversal(path))
    }

    /// Lifts action and state through a case key path and a writable key path (the environment passes through).
    @inlinable
    public func lift<GlobalAction: Prismatic & Sendable, GlobalState: Sendable>(
        action: PrismKeyPath<GlobalAction, Action>, state: WritableKeyPath<GlobalState, State>
    ) -> Middleware<GlobalAction, GlobalState, Environment> {
        lift(.action(Prism(action)).state(state))
    }

    /// Lifts all three axes: a case key path, a writable key path and an environment key path.
    @inlinable
    public func lift<GlobalAction: Prismatic & Sendable, GlobalState: Sendable, GlobalEnvironment: Sendable>(
        action: PrismKeyPath<GlobalAction, Action>,
        state: WritableKeyPath<GlobalState, State>,
        environment: KeyPath<GlobalEnvironment, Environment> & Sendable
    ) -> Middleware<GlobalAction, GlobalState, GlobalEnvironment> {
        lift(.action(Prism(action)).state(state).environment(environment))
    }

    /// Lifts all three axes, the environment through a projection closure.
    @inlinable
    public func lift<GlobalAction: Prismatic & Sendable, GlobalState: Sendable, GlobalEnvironment: Sendable>(
        action: PrismKeyPath<GlobalAction, Action>,
        state: WritableKeyPath<GlobalState, State>,
        environment: @escaping @Sendable (GlobalEnvironment) -> Environment
    ) -> Middleware<GlobalAction, GlobalState, GlobalEnvironment> {
        lift(.action(Prism(action)).state(state).environment(environment))
    }
}
