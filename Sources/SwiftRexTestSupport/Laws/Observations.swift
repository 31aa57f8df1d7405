import SwiftRex

/// The comparable identity of a ``SwiftRex/Channel``: what reconcile compares, in order.
public struct ChannelIdentity: Hashable, Sendable, CustomStringConvertible {
    /// The channel's id.
    public let id: AnyHashableSendable
    /// Its reset key (`nil` when permanent).
    public let resetIdentity: AnyHashableSendable?
    /// Its broadcast value (`nil` when it broadcasts nothing).
    public let broadcastIdentity: AnyHashableSendable?
    /// Its settle duration.
    public let settle: Duration?

    /// The identity of `channel`.
    public init<Action: Sendable>(_ channel: Channel<Action>) {
        id = channel.id
        resetIdentity = channel.resetIdentity
        broadcastIdentity = channel.broadcastIdentity
        settle = channel.settle
    }

    /// `id` (plus reset and broadcast keys when present).
    public var description: String {
        var text = "\(id)"
        if let resetIdentity { text += " reset: \(resetIdentity)" }
        if let broadcastIdentity { text += " broadcast: \(broadcastIdentity)" }
        return text
    }
}

/// The comparable parts of an effect component's channel payload.
public struct ChannelPayloadSummary: Equatable, Sendable {
    /// `String(describing:)` of the payload value (the value is type-erased).
    public let valueDescription: String
    /// The delivery pacing.
    public let delivery: ChannelDelivery
    /// Whether the value is delivered on open.
    public let deliversOnOpen: Bool
    /// Whether the payload only feeds a live channel (a broadcast).
    public let isPipeOnly: Bool

    /// The summary of `payload`.
    public init<Action: Sendable>(_ payload: Effect<Action>.Component.ChannelPayload) {
        valueDescription = String(describing: payload.value)
        delivery = payload.delivery
        deliversOnOpen = payload.deliversOnOpen
        isPipeOnly = payload.isPipeOnly
    }
}

/// What an effect looks like from outside: the actions its components emit when subscribed in order,
/// and each component's scheduling and channel payload.
public struct EffectObservation<Action: Sendable & Equatable>: Equatable, Sendable {
    /// The emitted actions, with their sources (``SwiftRex/Effect/emittedActions()``).
    public let actions: [DispatchedAction<Action>]
    /// Each component's scheduling, in order.
    public let schedulings: [EffectScheduling]
    /// Each component's channel payload summary (`nil` for a component without one), in order.
    public let channels: [ChannelPayloadSummary?]

    /// Observes `effect` (its components are subscribed once, then cancelled).
    public init(_ effect: Effect<Action>) {
        actions = effect.emittedActions()
        let components = effect.components
        schedulings = components.map(\.scheduling)
        channels = components.map { $0.channel.map(ChannelPayloadSummary.init) }
    }
}

/// What one action does to one state when run through a behavior with ``SwiftRex/Behavior/step(_:state:environment:file:function:line:)``.
public struct StepObservation<Action: Sendable & Equatable, State: Equatable>: Equatable {
    /// The state after the mutations.
    public let state: State
    /// Whether a mutation ran (`false` means the fold stayed `.unchanged`: the unchanged law).
    public let mutated: Bool
    /// The resolved effect.
    public let effect: EffectObservation<Action>

    /// Runs `action` on a copy of `state` through `behavior`.
    @MainActor
    public init<Environment>(_ behavior: Behavior<Action, State, Environment>, action: Action, state: State, environment: Environment) {
        var mutable = state
        let step = behavior.step(action, state: &mutable, environment: environment)
        self.state = mutable
        mutated = step.mutated
        effect = EffectObservation(step.effect)
    }
}

extension Supervision {
    /// The identities of the channels this supervision keeps for `environment`, in order.
    public func channelIdentities<Action: Sendable>(_ environment: Environment) -> [ChannelIdentity] where Output == Keep<Action> {
        runReader(environment).map(ChannelIdentity.init)
    }
}
