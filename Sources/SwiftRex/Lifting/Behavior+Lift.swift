// The lift hosts of `Behavior`. The logic lives in `FocusLift` and `ElementLift`, shared with the
// other hosts; these are the typed entry points (the `Behavior` and `Middleware` files are the same
// text).

extension Behavior {
    /// Lifts this behavior into the app's types through a ``Relay/Scope``: the action lane re-indexes
    /// actions (a miss skips every unit: `.unchanged`, no effect), the state lane focuses the slice
    /// in place (an absent affine focus mutates nothing), the environment lane narrows the world.
    /// Supervised channels re-embed their actions; a slice that disappears cancels its channels.
    ///
    /// ```swift
    /// room.lift(.action(AppAction.prism.room).state(\.room).environment(\.roomEnv))
    /// ```
    @inlinable
    public func lift<AL: ExtractsAction & EmbedsAction, SL: WritesState, EL: NarrowsEnvironment>(
        _ scope: Relay.Scope<AL, SL, EL>
    ) -> Behavior<AL.GlobalAction, SL.GlobalState, EL.GlobalEnvironment>
    where AL.LocalAction == Action, SL.LocalState == State, EL.LocalEnvironment == Environment {
        Behavior<AL.GlobalAction, SL.GlobalState, EL.GlobalEnvironment>(
            units: FocusLift(action: scope.action, state: scope.state, environment: scope.environment).lift(units)
        )
    }

    /// Lifts the action axis through a prism (state and environment unchanged).
    @inlinable
    public func liftAction<GlobalAction: Sendable>(_ prism: Prism<GlobalAction, Action>) -> Behavior<GlobalAction, State, Environment> {
        lift(.action(prism))
    }

    /// Lifts the state axis through a writable key path (in place).
    @inlinable
    public func liftState<GlobalState: Sendable>(_ keyPath: WritableKeyPath<GlobalState, State>) -> Behavior<Action, GlobalState, Environment> {
        lift(.state(keyPath))
    }

    /// Lifts the state axis through a lens.
    @inlinable
    public func liftState<GlobalState: Sendable>(_ lens: Lens<GlobalState, State>) -> Behavior<Action, GlobalState, Environment> {
        lift(.state(lens))
    }

    /// Lifts the state axis through an affine traversal: while the focus is absent nothing is
    /// mutated (`.unchanged`) and nothing is supervised; effects still run, with a `nil` state.
    @inlinable
    public func liftState<GlobalState: Sendable>(_ traversal: AffineTraversal<GlobalState, State>) -> Behavior<Action, GlobalState, Environment> {
        lift(.state(traversal))
    }

    /// Lifts the state axis to one case of an enum state (in place; other cases mutate nothing).
    @inlinable
    public func liftState<GlobalState: Sendable>(_ prism: Prism<GlobalState, State>) -> Behavior<Action, GlobalState, Environment> {
        lift(.state(prism))
    }

    /// Lifts the environment axis through a projection.
    @inlinable
    public func liftEnvironment<GlobalEnvironment: Sendable>(_ project: @escaping @Sendable (GlobalEnvironment) -> Environment) -> Behavior<
        Action, State, GlobalEnvironment
    > {
        lift(.environment(project))
    }

    /// Lifts the environment axis through a key path.
    @inlinable
    public func liftEnvironment<GlobalEnvironment: Sendable>(_ keyPath: KeyPath<GlobalEnvironment, Environment> & Sendable) -> Behavior<
        Action, State, GlobalEnvironment
    > {
        lift(.environment(keyPath))
    }

    /// Lifts action and state (the environment passes through).
    @available(*, deprecated, message: "Use the scope: lift(.action(prism).state(…).environment(…)).")
    @inlinable
    public func lift<GlobalAction: Sendable, GlobalState: Sendable>(
        action: Prism<GlobalAction, Action>, state: WritableKeyPath<GlobalState, State>
    ) -> Behavior<GlobalAction, GlobalState, Environment> {
        lift(.action(action).state(state))
    }

    /// Lifts action and state through a lens (the environment passes through).
    @available(*, deprecated, message: "Use the scope: lift(.action(prism).state(…).environment(…)).")
    @inlinable
    public func lift<GlobalAction: Sendable, GlobalState: Sendable>(
        action: Prism<GlobalAction, Action>, state: Lens<GlobalState, State>
    ) -> Behavior<GlobalAction, GlobalState, Environment> {
        lift(.action(action).state(state))
    }

    /// Lifts all three axes.
    @available(*, deprecated, message: "Use the scope: lift(.action(prism).state(…).environment(…)).")
    @inlinable
    public func lift<GlobalAction: Sendable, GlobalState: Sendable, GlobalEnvironment: Sendable>(
        action: Prism<GlobalAction, Action>,
        state: WritableKeyPath<GlobalState, State>,
        environment: KeyPath<GlobalEnvironment, Environment> & Sendable
    ) -> Behavior<GlobalAction, GlobalState, GlobalEnvironment> {
        lift(.action(action).state(state).environment(environment))
    }

    /// Lifts all three axes, the environment through a projection closure.
    @available(*, deprecated, message: "Use the scope: lift(.action(prism).state(…).environment(…)).")
    @inlinable
    public func lift<GlobalAction: Sendable, GlobalState: Sendable, GlobalEnvironment: Sendable>(
        action: Prism<GlobalAction, Action>,
        state: WritableKeyPath<GlobalState, State>,
        environment: @escaping @Sendable (GlobalEnvironment) -> Environment
    ) -> Behavior<GlobalAction, GlobalState, GlobalEnvironment> {
        lift(.action(action).state(state).environment(environment))
    }

    /// The 0-or-1 host: runs on the unwrapped value while the focus is present, and is a complete
    /// no-op while it is absent — never asked to mutate, produce or supervise.
    ///
    /// ```swift
    /// day.liftOptional(.state(\AppState.currentDay))   // currentDay: Day.State?
    /// ```
    @inlinable
    public func liftOptional<SL: WritesState>(
        _ scope: Relay.Scope<Relay.Identity<Action>, SL, Relay.Identity<Environment>>
    ) -> Behavior<Action, SL.GlobalState, Environment> where SL.LocalState == State {
        Behavior<Action, SL.GlobalState, Environment>(
            units: FocusLift(action: scope.action, state: scope.state, environment: scope.environment, isStrict: true).lift(units)
        )
    }

    /// The 0-or-1 host through a key path to an optional: `liftOptional(.state(keyPath))`.
    @inlinable
    public func liftOptional<GlobalState: Sendable>(_ keyPath: WritableKeyPath<GlobalState, State?>) -> Behavior<Action, GlobalState, Environment> {
        liftOptional(.state(keyPath))
    }

    /// Routes an addressed action (an ``ElementAction``) to one element of a collection, located
    /// in O(1) amortised by the state lane. The element's effects and channels are stamped with
    /// its id and this lift's site; its actions are addressed back to it. An action for an absent
    /// element is dropped and reported through ``StoreHooks``.
    ///
    /// ```swift
    /// row.liftCollection(.action(AppAction.prism.row).state(\.rows).environment(\.rowEnv))
    /// ```
    @inlinable
    public func liftCollection<GlobalAction: Sendable, ID: Hashable & Sendable, SL: KeyedState, EL: NarrowsEnvironment>(
        _ scope: Relay.Scope<Relay.ActionElement<GlobalAction, ID, Action>, SL, EL>,
        site: LiftSite? = nil,
        file: String = #fileID, line: UInt = #line, column: UInt = #column
    ) -> Behavior<GlobalAction, SL.GlobalState, EL.GlobalEnvironment>
    where SL.Element == State, SL.ID == ID, SL.GlobalState: Sendable, EL.LocalEnvironment == Environment, EL.GlobalEnvironment: Sendable {
        let preview = scope.action.preview
        let lift = ElementLift<Action, State, Environment, GlobalAction, SL.GlobalState, EL.GlobalEnvironment, ID>(
            addressed: preview,
            broadcast: nil,
            embed: scope.action.review,
            state: scope.state, environment: scope.environment,
            site: site ?? LiftSite(file: file, line: line, column: column),
            actionCase: scope.action.extractedCase
        )
        return Behavior<GlobalAction, SL.GlobalState, EL.GlobalEnvironment>(units: lift.lift(units))
    }

    /// Broadcasts one action to every present element, walking storage once, in place. Element
    /// effects and channels are stamped per element and lift site, as in ``liftCollection(_:site:file:line:column:)``.
    ///
    /// ```swift
    /// row.liftEach(.action(broadcast: AppAction.prism.tickAll, into: AppAction.prism.row).state(\.rows))
    /// ```
    @inlinable
    public func liftEach<GlobalAction: Sendable, ID: Hashable & Sendable, SL: KeyedState, EL: NarrowsEnvironment>(
        _ scope: Relay.Scope<Relay.ActionBroadcast<GlobalAction, ID, Action>, SL, EL>,
        site: LiftSite? = nil,
        file: String = #fileID, line: UInt = #line, column: UInt = #column
    ) -> Behavior<GlobalAction, SL.GlobalState, EL.GlobalEnvironment>
    where SL.Element == State, SL.ID == ID, SL.GlobalState: Sendable, EL.LocalEnvironment == Environment, EL.GlobalEnvironment: Sendable {
        let lift = ElementLift<Action, State, Environment, GlobalAction, SL.GlobalState, EL.GlobalEnvironment, ID>(
            addressed: nil,
            broadcast: scope.action.preview,
            embed: scope.action.review,
            state: scope.state, environment: scope.environment,
            site: site ?? LiftSite(file: file, line: line, column: column)
        )
        return Behavior<GlobalAction, SL.GlobalState, EL.GlobalEnvironment>(units: lift.lift(units))
    }
}

extension Behavior where Environment == Void {
    /// Lifts a feature with no environment into any environment (the global one is ignored).
    @inlinable
    public func liftEnvironment<GlobalEnvironment: Sendable>() -> Behavior<Action, State, GlobalEnvironment> {
        lift(.environment { (_: GlobalEnvironment) in () })
    }
}
