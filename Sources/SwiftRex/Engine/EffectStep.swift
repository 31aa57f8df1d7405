/// Why the effect machine asked for a timer.
@usableFromInline
internal enum EffectTimerPurpose: Int, Sendable, Hashable {
    /// A delayed or debounced one-shot start.
    case start
    /// A debounced delivery into a live channel.
    case deliver
    /// A settling channel re-creation.
    case settle
}

/// A timer the machine asked for: the registration it belongs to, why, and when it fires. The
/// generation alone tells a timer apart (the machine never gives two registrations the same one),
/// so a fire that comes too late, for a registration replaced or cancelled since, changes nothing.
/// Plain data: a timer costs its closure nothing to capture.
@usableFromInline
internal struct EffectTimer: Sendable, Hashable {
    /// The slot in the machine's registry of the key the timer runs under.
    @usableFromInline let slot: Int
    /// The registration the timer belongs to.
    @usableFromInline let generation: UInt64
    @usableFromInline let purpose: EffectTimerPurpose
    /// When the timer fires, in engine time.
    @usableFromInline let deadline: Duration

    @inlinable
    init(slot: Int, generation: UInt64, purpose: EffectTimerPurpose, deadline: Duration) {
        self.slot = slot
        self.generation = generation
        self.purpose = purpose
        self.deadline = deadline
    }
}

/// The channel side of a payload, as the machine needs it.
@usableFromInline
internal struct ChannelTraits: Sendable, Equatable {
    /// Only feeds a live channel; never opens one.
    @usableFromInline var isPipeOnly: Bool
    /// The pacing registered when the channel opens.
    @usableFromInline var delivery: ChannelDelivery
    /// Whether opening delivers the value (an opening under throttle counts as a delivery).
    @usableFromInline var deliversOnOpen: Bool

    @inlinable
    init(isPipeOnly: Bool, delivery: ChannelDelivery, deliversOnOpen: Bool) {
        self.isPipeOnly = isPipeOnly
        self.delivery = delivery
        self.deliversOnOpen = deliversOnOpen
    }

    /// The traits of a component's channel payload.
    @inlinable @inline(__always)
    init<Action: Sendable>(_ payload: Effect<Action>.Component.ChannelPayload) {
        self.init(isPipeOnly: payload.isPipeOnly, delivery: payload.delivery, deliversOnOpen: payload.deliversOnOpen)
    }
}

/// The tokens one machine event took out of the registry, to cancel in this order. At most three:
/// a run or channel, and a wake (of a timer queue left empty, or one an earlier wake replaces).
@usableFromInline
internal struct EffectCancellations {
    @usableFromInline var first: (any EffectCancellable)?
    @usableFromInline var second: (any EffectCancellable)?
    @usableFromInline var third: (any EffectCancellable)?

    @inlinable
    init() {}

    /// Adds `token` (nothing for `nil`) after the ones already taken.
    @inlinable
    mutating func append(_ token: (any EffectCancellable)?) {
        guard let token else { return }
        if case .none = first {
            first = token
        } else if case .none = second {
            second = token
        } else if case .none = third {
            third = token
        } else {
            preconditionFailure("Internal inconsistency: one event cancelled more than three tokens")
        }
    }

    /// Whether there is nothing to cancel.
    @inlinable var isEmpty: Bool {
        if case .none = first { return true }
        return false
    }
}

/// What one machine event asks the engine to do: cancel the tokens it took out of the registry,
/// in order, then at most one thing more. An enum, so the engine takes the payload out of the step
/// it performs without copying it.
@usableFromInline
internal enum EffectStep<Payload> {
    /// Cancel; nothing more.
    case cancel(EffectCancellations)
    /// Cancel, then start a one-shot run of the payload under `key`; report it with
    /// ``EffectMachine/subscribed(slot:generation:run:)``.
    case subscribe(EffectCancellations, Payload, key: AnyHashableSendable, slot: Int, generation: UInt64)
    /// Cancel, then open the payload's channel under `key`; report it with
    /// ``EffectMachine/opened(slot:generation:channel:traits:now:)``.
    case open(EffectCancellations, Payload, key: AnyHashableSendable, slot: Int, generation: UInt64, traits: ChannelTraits)
    /// Cancel, then feed the payload's value into a live channel's sink.
    case deliver(EffectCancellations, Payload, to: @Sendable (any Sendable) -> Void)
    /// Cancel, then arm the machine's wake (its one clock timer) at `deadline`; report its token
    /// with ``EffectMachine/wakeArmed(_:)``, and hand the wake back with ``EffectMachine/wakeFired()``.
    case arm(EffectCancellations, deadline: Duration)

    /// Nothing to do.
    @inlinable static var none: EffectStep { .cancel(EffectCancellations()) }
}

/// The knobs of an ``EffectScheduling`` the machine reads besides its id: plain values, read out
/// of a component in place.
@usableFromInline
internal struct ScheduleTiming: Sendable {
    @usableFromInline let delay: Duration?
    @usableFromInline let coalesce: EffectScheduling.Coalesce?
    @usableFromInline let cancelsOnly: Bool

    @inlinable @inline(__always)
    init(_ scheduling: borrowing EffectScheduling) {
        cancelsOnly = scheduling.isCancelSentinel
        delay = scheduling.delay
        coalesce = scheduling.coalesce
    }

    /// Whether the component never reads the clock (no delay, no coalescing).
    @inlinable var isTimeless: Bool {
        if case .some = delay { return false }
        if case .some = coalesce { return false }
        return true
    }
}
