// One of the library's files with unsafe code: an element's presence check hands the child state's
// address to its parent's check for the duration of that call only. Exercised under TSan and ASan
// by the tests that remove elements with running effects.

import Synchronization

// Element scoping of effects and channels: what a collection lift stamps on an element's ids,
// and which element owns an effect.

extension Effect {
    /// Stamps every component id with the element and the lift site (anonymous components are
    /// unchanged; every other knob is kept).
    @inlinable
    public func scopedToElement(_ element: some Hashable & Sendable, site: LiftSite) -> Effect {
        switch storage {
        case .immediate: return self // an anonymous component has no id to stamp
        case .keyedTask(let work, let key, let exclusive):
            return Effect(Self.keyedComponent(work, key: key, exclusive: exclusive).scopedToElement(element, site: site))
        case .single(let component): return Effect(component.scopedToElement(element, site: site))
        case .many(let components): return Effect(components: components.map { $0.scopedToElement(element, site: site) })
        }
    }
}

extension Effect.Component {
    /// This component with its id stamped with the element and the lift site.
    @inlinable
    public func scopedToElement(_ element: some Hashable & Sendable, site: LiftSite) -> Effect.Component {
        guard let id = scheduling.id else { return self }
        var scheduling = self.scheduling
        scheduling.id = AnyHashableSendable(ElementEffectID(site: site, element: element, inner: id))
        return Effect.Component(work: work, scheduling: scheduling, channel: channel, owner: owner)
    }
}

extension Channel {
    /// This channel's actions transformed and its id (and its component's id) stamped with the
    /// element and the lift site: `mapAction` then `scopedToElement`, building one channel where
    /// the two build two (a collection's supervision does this for every channel of every element).
    /// `remembered`, the id this element's channel had at the last reconcile, is reused when it is
    /// the same id: memory and the engine then find the very key they hold.
    @inlinable
    internal func liftedToElement<NewAction: Sendable>(
        _ element: some Hashable & Sendable, site: LiftSite, reusing remembered: AnyHashableSendable? = nil,
        _ transform: @escaping @Sendable (Action) -> NewAction
    ) -> Channel<NewAction> {
        let scopedID = ElementEffectID.key(site: site, element: element, inner: id, reusing: remembered)
        var scheduling = component.scheduling
        scheduling.id = scopedID
        return Channel<NewAction>(
            id: scopedID,
            resetIdentity: resetIdentity,
            broadcastIdentity: broadcastIdentity,
            settle: settle,
            component: component.map(transform, scheduling: scheduling, owner: nil)
        )
    }

    /// `liftedToElement` re-embedding with `embed(element, action)`: the opener is rewrapped by
    /// one closure that captures the element, where a transform closure and the rewrapped opener
    /// would be two allocations on every evaluation of the element. Always inlined: a collection
    /// lift calls it from two closures, and left out of line it looks up type metadata per call.
    @inlinable @inline(__always)
    internal func liftedToElement<ID: Hashable & Sendable, NewAction: Sendable>(
        _ element: ID, site: LiftSite, reusing remembered: AnyHashableSendable?, embedding embed: @escaping @Sendable (ID, Action) -> NewAction
    ) -> Channel<NewAction> {
        // A supervised channel's component: no work of its own, a payload. Anything else is mapped whole.
        guard case .cancelOnly = component.work, let payload = component.channel else {
            return liftedToElement(element, site: site, reusing: remembered) { embed(element, $0) }
        }
        let scopedID = ElementEffectID.key(site: site, element: element, inner: id, reusing: remembered)
        var scheduling = component.scheduling
        scheduling.id = scopedID
        var start: Effect<NewAction>.Component.ChannelPayload.Start?
        if let inner = payload.start {
            start = { first, send, complete in
                inner(first, { action in send(action.map { embed(element, $0) }) }, complete)
            }
        }
        let lifted = Effect<NewAction>.Component.ChannelPayload(
            value: payload.value, start: start, delivery: payload.delivery, deliversOnOpen: payload.deliversOnOpen)
        return Channel<NewAction>(
            id: scopedID,
            resetIdentity: resetIdentity,
            broadcastIdentity: broadcastIdentity,
            settle: settle,
            component: Effect<NewAction>.Component(work: .cancelOnly, scheduling: scheduling, channel: lifted, owner: nil)
        )
    }

    /// This channel with its id (and its component's id) stamped with the element and the lift site.
    @inlinable
    public func scopedToElement(_ element: some Hashable & Sendable, site: LiftSite) -> Channel {
        let scopedID = AnyHashableSendable(ElementEffectID(site: site, element: element, inner: id))
        var scheduling = component.scheduling
        scheduling.id = scopedID
        return Channel(
            id: scopedID,
            resetIdentity: resetIdentity,
            broadcastIdentity: broadcastIdentity,
            settle: settle,
            component: Effect.Component(work: component.work, scheduling: scheduling, channel: component.channel)
        )
    }
}

extension EffectOwner {
    /// This owner seen from a parent state: present when `focus` finds the child state and the
    /// owner is present in it.
    @inlinable
    func reaimed<Parent, Child>(from _: Parent.Type, through focus: @escaping @Sendable (Parent) -> Child?) -> EffectOwner {
        let isPresent = self.isPresent
        return EffectOwner(key: key) { state in
            guard let child = state.read(as: Parent.self, focus) else { return nil }
            guard let child else { return false }
            return LentState.lend(child, isPresent)
        }
    }
}

/// The owner key of one element of one collection lift.
@usableFromInline
internal struct ElementOwnerKey: Hashable, Sendable {
    @usableFromInline let lift: LiftToken
    @usableFromInline let element: AnyHashableSendable

    @inlinable
    init(lift: LiftToken, element: AnyHashableSendable) {
        self.lift = lift
        self.element = element
    }
}

/// A fresh id for an id-less effect of a collection element, so the Store can find it again to
/// cancel it when the element leaves.
@usableFromInline
internal struct OwnedEffectSerial: Hashable, Sendable {
    @usableFromInline let value: UInt64

    private static let counter = Atomic<UInt64>(0)

    @usableFromInline
    static func next() -> OwnedEffectSerial {
        OwnedEffectSerial(value: counter.add(1, ordering: .relaxed).newValue)
    }

    @usableFromInline
    init(value: UInt64) { self.value = value }
}

extension Effect {
    /// Whether any component belongs to a collection element.
    @inlinable
    var hasOwnedComponents: Bool {
        switch storage {
        case .immediate, .keyedTask: return false
        case .single(let component): return component.owner != nil
        case .many(let components): return components.contains { $0.owner != nil }
        }
    }

    /// Every component with `transform` applied to it.
    @inlinable
    func mapComponents(_ transform: (Component) -> Component) -> Effect {
        switch storage {
        case .immediate(let work): return Effect(transform(Component(work: work, scheduling: .immediately)))
        case .keyedTask(let work, let key, let exclusive): return Effect(transform(Self.keyedComponent(work, key: key, exclusive: exclusive)))
        case .single(let component): return Effect(transform(component))
        case .many(let components): return Effect(components: components.map(transform))
        }
    }

    /// Re-aims every owned component's owner at a parent state (a focus lift's).
    @inlinable
    func reaimingOwners<Parent, Child>(from parent: Parent.Type, through focus: @escaping @Sendable (Parent) -> Child?) -> Effect {
        guard hasOwnedComponents else { return self }
        return mapComponents { component in
            guard let owner = component.owner else { return component }
            return component.withOwner(owner.reaimed(from: parent, through: focus))
        }
    }

    /// Marks every component as belonging to `element` of a collection lift whose state type is
    /// `Parent` and whose element accessor is `element`: an id-less component gets a fresh id under
    /// the element, an owned one (from a nested lift) is re-aimed through the element.
    @inlinable
    func owned<Parent, Element, ID: Hashable & Sendable>(
        by id: ID, lift token: LiftToken, site: LiftSite, in _: Parent.Type,
        element: @escaping @Sendable (ID, Parent) -> Element?
    ) -> Effect {
        guard !isEmpty else { return self }
        let ownerKey = AnyHashableSendable(ElementOwnerKey(lift: token, element: AnyHashableSendable(id)))
        let own = EffectOwner(key: ownerKey) { state in
            state.read(as: Parent.self) { element(id, $0) != nil }
        }
        return mapComponents { component in
            if let inner = component.owner {
                return component.withOwner(inner.reaimed(from: Parent.self) { element(id, $0) })
            }
            guard component.channel == nil else { return component }
            var scheduling = component.scheduling
            if scheduling.id == nil {
                // Plain immediate actions need no registration: they are already on their way.
                if component.immediateActions != nil, scheduling.coalesce == nil, scheduling.delay.map({ $0 <= .zero }) ?? true {
                    return component
                }
                scheduling.id = AnyHashableSendable(ElementEffectID(site: site, element: id, inner: OwnedEffectSerial.next()))
            }
            return Effect.Component(work: component.work, scheduling: scheduling, channel: nil, owner: own)
        }
    }
}

extension Effect.Component {
    /// This component with another owner.
    @inlinable
    func withOwner(_ owner: EffectOwner) -> Effect.Component {
        Effect.Component(work: work, scheduling: scheduling, channel: channel, owner: owner)
    }
}
