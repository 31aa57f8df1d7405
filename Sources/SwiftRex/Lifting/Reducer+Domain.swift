// A reducer has no environment, so its hosts take scopes whose environment lane is `Void`. A
// scope built from a ``DomainAction`` carries the domain's environment instead; these hosts take
// it and ignore it, so `reducer.liftCollection(.action(AppAction.prism.row).state(\.rows))`
// type-checks in an app whose actions name an environment.

extension Reducer {
    /// `lift(_:)` for a scope at an action's domain: its environment lane is ignored.
    @_disfavoredOverload
    @inlinable
    public func lift<AL: ExtractsAction, SL: WritesState>(
        _ scope: Relay.Scope<AL, SL, Relay.Identity<AL.GlobalAction.DomainEnvironment>>
    ) -> Reducer<AL.GlobalAction, SL.GlobalState> where AL.GlobalAction: DomainAction, AL.LocalAction == ActionType, SL.LocalState == StateType {
        lift(Relay.Scope(action: scope.action, state: scope.state, environment: Relay.Identity<Void>()))
    }

    /// `liftCollection(_:site:)` for a scope at an action's domain: its
    /// environment lane is ignored.
    @_disfavoredOverload
    @inlinable
    public func liftCollection<GlobalAction: DomainAction & Sendable, ID: Hashable & Sendable, SL: KeyedState>(
        _ scope: Relay.Scope<Relay.ActionElement<GlobalAction, ID, ActionType>, SL, Relay.Identity<GlobalAction.DomainEnvironment>>,
        site: LiftSite? = nil,
        file: String = #fileID, line: UInt = #line, column: UInt = #column
    ) -> Reducer<GlobalAction, SL.GlobalState> where SL.Element == StateType, SL.ID == ID, SL.GlobalState: Sendable {
        liftCollection(
            Relay.Scope(action: scope.action, state: scope.state, environment: Relay.Identity<Void>()), site: site, file: file, line: line,
            column: column)
    }

    /// `liftEach(_:site:)` for a scope at an action's domain: its environment
    /// lane is ignored.
    @_disfavoredOverload
    @inlinable
    public func liftEach<GlobalAction: DomainAction & Sendable, ID: Hashable & Sendable, SL: KeyedState>(
        _ scope: Relay.Scope<Relay.ActionBroadcast<GlobalAction, ID, ActionType>, SL, Relay.Identity<GlobalAction.DomainEnvironment>>,
        site: LiftSite? = nil,
        file: String = #fileID, line: UInt = #line, column: UInt = #column
    ) -> Reducer<GlobalAction, SL.GlobalState> where SL.Element == StateType, SL.ID == ID, SL.GlobalState: Sendable {
        liftEach(
            Relay.Scope(action: scope.action, state: scope.state, environment: Relay.Identity<Void>()), site: site, file: file, line: line,
            column: column)
    }
}
