/// A supervised channel the engine opens, re-creates or feeds: its key, the component that opens
/// or feeds it, and how long its re-creation waits for the reset key to settle.
@usableFromInline
internal struct ChannelRequest<Action: Sendable> {
    @usableFromInline let key: AnyHashableSendable
    @usableFromInline let component: Effect<Action>.Component
    /// The channel side of the component.
    @usableFromInline let traits: ChannelTraits
    @usableFromInline let settle: Duration?

    @inlinable
    init(key: AnyHashableSendable, component: Effect<Action>.Component, traits: ChannelTraits, settle: Duration?) {
        self.key = key
        self.component = component
        self.traits = traits
        self.settle = settle
    }
}

/// What supervision decided for one channel; the engine performs it
/// (<doc:SupervisionAndChannels#How-reconcile-decides>).
@usableFromInline
internal enum ChannelOperation<Action: Sendable> {
    /// The channel left the desired set: close it (its pending delivery and settle too).
    case close(AnyHashableSendable)
    /// A first appearance: open it at once (or feed the channel already live under its key).
    case open(ChannelRequest<Action>)
    /// Its reset key changed: close it and open it again, after its settle time.
    case recreate(ChannelRequest<Action>)
    /// Its broadcast value changed: deliver it (reopening a channel no longer live), or swap the
    /// payload of a re-creation still settling.
    case redeliver(ChannelRequest<Action>)
}
