// Case key paths in the leading-dot builder: `.action(\.counter)` wherever `.action(prism)` is
// accepted. Each resolves its key path to the enum's prism (``Prismatic``) once, here, and builds
// the same lane the prism would: a lifted unit then costs what a hand-written prism costs.

extension Relay.Scope {
    /// A scope whose action lane re-indexes actions through a case key path (`\AppAction.counter`).
    @inlinable
    public static func action<G: Prismatic, L, S, E>(_ path: PrismKeyPath<G, L>) -> Relay.Scope<ActionLane, Relay.Identity<S>, Relay.Identity<E>>
    where ActionLane == Relay.ActionPrism<G, L> {
        .init(action: Relay.ActionPrism(Prism(path)), state: .init(), environment: .init())
    }

    /// A scope whose action lane addresses actions to one element of a collection through a case key
    /// path to an ``ElementAction`` case.
    @inlinable
    public static func action<G: Prismatic, ID, L, S, E>(_ path: PrismKeyPath<G, ElementAction<ID, L>>)
        -> Relay.Scope<ActionLane, Relay.Identity<S>, Relay.Identity<E>> where ActionLane == Relay.ActionElement<G, ID, L>
    {
        .init(action: Relay.ActionElement(Prism(path)), state: .init(), environment: .init())
    }

    /// A scope whose action lane broadcasts one inbound case to every element; elements' actions go
    /// out through the `into` case.
    @inlinable
    public static func action<G: Prismatic, ID, L, S, E>(broadcast inbound: PrismKeyPath<G, L>, into outbound: PrismKeyPath<G, ElementAction<ID, L>>)
        -> Relay.Scope<ActionLane, Relay.Identity<S>, Relay.Identity<E>> where ActionLane == Relay.ActionBroadcast<G, ID, L>
    {
        .action(broadcast: Prism(inbound), into: Prism(outbound))
    }

    /// Sets the action lane: it re-indexes actions through a case key path.
    @inlinable
    public func action<G: Prismatic, L>(_ path: PrismKeyPath<G, L>) -> Relay.Scope<Relay.ActionPrism<G, L>, StateLane, EnvironmentLane>
    where ActionLane == Relay.Identity<G> {
        .init(action: Relay.ActionPrism(Prism(path)), state: state, environment: environment)
    }

    /// Sets the action lane: it addresses actions to one element through a case key path to an ``ElementAction`` case.
    @inlinable
    public func action<G: Prismatic, ID, L>(_ path: PrismKeyPath<G, ElementAction<ID, L>>)
        -> Relay.Scope<Relay.ActionElement<G, ID, L>, StateLane, EnvironmentLane> where ActionLane == Relay.Identity<G>
    {
        .init(action: Relay.ActionElement(Prism(path)), state: state, environment: environment)
    }

    /// Sets the action lane: it broadcasts one inbound case to every element; elements' actions go out through the `into` case.
    @inlinable
    public func action<G: Prismatic, ID, L>(broadcast inbound: PrismKeyPath<G, L>, into outbound: PrismKeyPath<G, ElementAction<ID, L>>)
        -> Relay.Scope<Relay.ActionBroadcast<G, ID, L>, StateLane, EnvironmentLane> where ActionLane == Relay.Identity<G>
    {
        action(broadcast: Prism(inbound), into: Prism(outbound))
    }

}
