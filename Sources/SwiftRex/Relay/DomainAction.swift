// An app's action can name the state and environment it is dispatched against. A scope whose
// action lane starts from such an action then knows its global state and environment, so `.state(\.rows)` and `.environment(\.rowEnv)`
// find their roots with nothing else naming the app's types:
//
//     let lifted = room.lift(.action(AppAction.prism.room).state(\.room).environment(\.roomEnv))
//
// Each entry below is the `DomainAction` twin of a builder entry: it pins the scope's state and
// environment lanes to the domain's. Where the host wants other types, the general entry is used.

/// An action type that names the state and environment of the app it belongs to, so that lifts
/// whose action lane starts from it infer the roots of their state and environment key paths.
///
/// ```swift
/// extension AppAction: DomainAction {
///     typealias DomainState = AppState
///     typealias DomainEnvironment = AppEnvironment
/// }
/// ```
public protocol DomainAction {
    /// The app's state.
    associatedtype DomainState
    /// The app's environment (`Void` when it has none).
    associatedtype DomainEnvironment = Void
}

extension Relay.Scope {
    /// A scope whose action lane re-indexes actions through a prism, its state and
    /// environment lanes at the action's domain (``DomainAction``).
    @inlinable
    public static func action<G: DomainAction, L>(_ prism: Prism<G, L>)
        -> Relay.Scope<ActionLane, Relay.Identity<G.DomainState>, Relay.Identity<G.DomainEnvironment>> where ActionLane == Relay.ActionPrism<G, L>
    {
        .init(action: Relay.ActionPrism(prism), state: .init(), environment: .init())
    }

    /// A scope whose action lane addresses one element through an `ElementAction` prism, its
    /// state and environment lanes at the action's domain (``DomainAction``).
    @inlinable
    public static func action<G: DomainAction, ID, L>(_ prism: Prism<G, ElementAction<ID, L>>)
        -> Relay.Scope<ActionLane, Relay.Identity<G.DomainState>, Relay.Identity<G.DomainEnvironment>>
    where ActionLane == Relay.ActionElement<G, ID, L> {
        .init(action: Relay.ActionElement(prism), state: .init(), environment: .init())
    }

    /// A scope whose action lane re-indexes actions through a case key path, its state and
    /// environment lanes at the action's domain (``DomainAction``).
    @inlinable
    public static func action<G: Prismatic & DomainAction, L>(_ path: PrismKeyPath<G, L>)
        -> Relay.Scope<ActionLane, Relay.Identity<G.DomainState>, Relay.Identity<G.DomainEnvironment>> where ActionLane == Relay.ActionPrism<G, L>
    {
        .init(action: Relay.ActionPrism(Prism(path)), state: .init(), environment: .init())
    }

    /// A scope whose action lane addresses one element through a case key path to an
    /// ``ElementAction`` case, its state and environment lanes at the action's domain
    /// (``DomainAction``).
    @inlinable
    public static func action<G: Prismatic & DomainAction, ID, L>(_ path: PrismKeyPath<G, ElementAction<ID, L>>)
        -> Relay.Scope<ActionLane, Relay.Identity<G.DomainState>, Relay.Identity<G.DomainEnvironment>>
    where ActionLane == Relay.ActionElement<G, ID, L> {
        .init(action: Relay.ActionElement(Prism(path)), state: .init(), environment: .init())
    }

    /// A scope whose action lane broadcasts one inbound action to every element (elements'
    /// actions go out through `into`), its state and environment lanes at the action's domain
    /// (``DomainAction``).
    @inlinable
    public static func action<G: DomainAction, ID, L>(broadcast inbound: Prism<G, L>, into outbound: Prism<G, ElementAction<ID, L>>)
        -> Relay.Scope<ActionLane, Relay.Identity<G.DomainState>, Relay.Identity<G.DomainEnvironment>>
    where ActionLane == Relay.ActionBroadcast<G, ID, L> {
        .init(action: broadcastLane(inbound, outbound), state: .init(), environment: .init())
    }

    /// A scope whose action lane broadcasts one inbound case to every element (elements' actions
    /// go out through the `into` case), its state and environment lanes at the action's domain
    /// (``DomainAction``).
    @inlinable
    public static func action<G: Prismatic & DomainAction, ID, L>(
        broadcast inbound: PrismKeyPath<G, L>, into outbound: PrismKeyPath<G, ElementAction<ID, L>>
    ) -> Relay.Scope<ActionLane, Relay.Identity<G.DomainState>, Relay.Identity<G.DomainEnvironment>>
    where ActionLane == Relay.ActionBroadcast<G, ID, L> {
        .action(broadcast: Prism(inbound), into: Prism(outbound))
    }

    /// The broadcast lane of `inbound` and `outbound` (generic over any action, so the review
    /// closure captures no conformance).
    @inlinable
    internal static func broadcastLane<G, ID, L>(_ inbound: Prism<G, L>, _ outbound: Prism<G, ElementAction<ID, L>>)
        -> Relay.ActionBroadcast<G, ID, L>
    {
        Relay.ActionBroadcast(preview: inbound.preview, review: { outbound.review(ElementAction($0, action: $1)) })
    }
}
