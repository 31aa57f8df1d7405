/// The pure core of the effect engine: the keyed registry of runs, timers and live channels, every
/// scheduling policy (<doc:EffectsAndScheduling#Scheduling-policies>) and channel opening and
/// delivery (<doc:EffectsAndScheduling#Channels-in-effects>).
///
/// A value type with no tasks, no clock and no callbacks: each event (a schedule, a fired timer, a
/// completion, a cancel) is a mutating method that returns what to do (an ``EffectStep``: tokens
/// to cancel, then at most one run to start, channel to open, value to deliver or wake to arm),
/// and the engine reports what it started (``subscribed(slot:generation:run:)``,
/// ``opened(slot:generation:channel:traits:now:)``, ``wakeArmed(_:)``). Time comes in as `now`.
/// Timers wait in one ``TimerQueue`` behind one clock timer (the wake) for the earliest deadline;
/// the engine hands each due timer back (``takeDueTimer(now:)``, ``timerFired(_:now:)``).
/// Generation tags make a stale completion or timer a no-op
/// (<doc:EffectsAndScheduling#The-registry>), and every token the machine took leaves it once, in
/// a step. Inlinable, so a Store runs it specialised for its types.
@usableFromInline
internal struct EffectMachine<Payload> {
    @usableFromInline typealias Step = EffectStep<Payload>

    /// What runs under one key.
    @usableFromInline
    enum Run {
        case idle
        /// A run or channel the engine is starting (between a step and its report).
        case starting(UInt64)
        case oneShot(UInt64, any EffectCancellable)
        /// A start waiting on its timer: the payload is the slot's `waiting`, the timer in `timers`.
        case waiting(UInt64)
        /// An open channel: its sink and delivery are the slot's `sinks` entry.
        case channel(UInt64, SubscriptionToken)

        @inlinable
        var generation: UInt64? {
            switch self {
            case .idle: return nil
            case .starting(let generation), .oneShot(let generation, _), .waiting(let generation), .channel(let generation, _):
                return generation
            }
        }
    }

    /// What a delivery or settle timer carries when it fires.
    @usableFromInline
    struct PendingTimer {
        @usableFromInline var generation: UInt64
        @usableFromInline var payload: Payload
        /// The channel side of a settling re-creation; `nil` for a delivery.
        @usableFromInline var traits: ChannelTraits?

        @inlinable
        init(generation: UInt64, payload: Payload, traits: ChannelTraits?) {
            self.generation = generation
            self.payload = payload
            self.traits = traits
        }
    }

    /// A throttle window: when it opened and how long it lasts.
    @usableFromInline
    struct Stamp {
        @usableFromInline var at: Duration
        @usableFromInline var interval: Duration

        @inlinable
        init(at: Duration, interval: Duration) {
            self.at = at
            self.interval = interval
        }
    }

    /// Where an open channel's values go, and how they are paced.
    @usableFromInline
    struct ChannelSink {
        @usableFromInline let deliver: @Sendable (any Sendable) -> Void
        @usableFromInline let delivery: ChannelDelivery

        @inlinable
        init(deliver: @escaping @Sendable (any Sendable) -> Void, delivery: ChannelDelivery) {
            self.deliver = deliver
            self.delivery = delivery
        }
    }

    // The registry: one slot per live key, in flat arrays.
    @usableFromInline var slotIndex: [AnyHashableSendable: Int] = [:]
    @usableFromInline var slotKey: [AnyHashableSendable?] = []
    @usableFromInline var run: [Run] = []
    /// The payload of a start waiting on its timer.
    @usableFromInline var waiting: [Payload?] = []
    @usableFromInline var deliverTimer: [PendingTimer?] = []
    @usableFromInline var settleTimer: [PendingTimer?] = []
    /// Every pending timer, and the one clock timer armed for the earliest.
    @usableFromInline var timers = TimerQueue()
    @usableFromInline var stamp: [Stamp?] = []
    /// The sink and delivery of the slot's open channel (set exactly while its run is
    /// `.channel`): kept apart so a delivery reads them without copying the run.
    @usableFromInline var sinks: [ChannelSink?] = []
    @usableFromInline var freeSlots: [Int] = []
    /// The slot ``slotFor(_:)`` returned last, checked before the dictionary (-1: none).
    @usableFromInline var lastSlot = -1
    @usableFromInline var generationCounter: UInt64 = 0
    @usableFromInline var anonymousCounter: UInt64 = 0

    @inlinable
    init() {}

    // MARK: Scheduling (EffectsAndScheduling, "Scheduling policies")

    /// Schedules one component: a cancel sentinel cancels its id; a channel payload (`traits`
    /// non-nil) opens or feeds a channel; anything else starts a one-shot run, at once or after
    /// its delay or debounce window, unless a throttle window drops it.
    @inlinable
    mutating func schedule(_ payload: consuming Payload, scheduling: borrowing EffectScheduling, traits: ChannelTraits?, now: Duration) -> Step {
        schedule(payload, key: scheduling.id, timing: ScheduleTiming(scheduling), traits: traits, now: now)
    }

    /// ``schedule(_:scheduling:traits:now:)`` with the scheduling taken apart: its id, moved in,
    /// and its other knobs, plain values. The engine takes them out of its copy of the scheduling
    /// on its last use: borrowed here, the scheduling was copied again (its id through the
    /// runtime's generic witnesses) to read the id out of it. Always inlined: called apart, the
    /// payload was copied into its frame, and again before it was stored.
    @inlinable @inline(__always)
    mutating func schedule(
        _ payload: consuming Payload, key id: consuming AnyHashableSendable?, timing: ScheduleTiming, traits: ChannelTraits?, now: Duration
    ) -> Step {
        let key: AnyHashableSendable
        switch consume id {
        case .some(let given):
            key = given
        case .none:
            if timing.cancelsOnly { return .none }
            key = nextAnonymousKey()
        }
        if timing.cancelsOnly { return .cancel(cancel(key: key)) }
        if let traits { return scheduleChannel(payload, traits: traits, key: key, now: now) }
        let slot = slotFor(key)
        if case .throttle(let interval)? = timing.coalesce {
            if isThrottled(slot, interval: interval, now: now) {
                freeIfEmpty(slot)
                return .none
            }
            stamp[slot] = Stamp(at: now, interval: interval)
        }
        // Whatever runs under the key is replaced. Saturating sums: a user's duration never traps.
        // A non-positive delay or window counts as none: each is clamped at zero before the sum,
        // so a negative delay never shortens a debounce (nor a negative window a delay).
        // (Compared through `attoseconds`, inline: `Duration`'s comparisons are calls.)
        var preWait = Duration.zero
        if let delay = timing.delay, delay.attoseconds > 0 { preWait = delay }
        if case .debounce(let window)? = timing.coalesce, window.attoseconds > 0 { preWait = preWait.saturatingAdding(window) }
        let waits = preWait.attoseconds > 0
        var cancels = EffectCancellations()
        // A start that waits replaces a waiting one in place: its timer is rescheduled, not
        // cancelled and queued again.
        let restarts = waits && isWaiting(slot)
        if !restarts { stopRun(slot, into: &cancels) }
        let generation = nextGeneration()
        guard waits else {
            run[slot] = .starting(generation)
            return .subscribe(cancels, payload, key: key, slot: slot, generation: generation)
        }
        run[slot] = .waiting(generation)
        if restarts {
            // A waiting slot holds its payload: it is replaced where it lies (assigning the
            // optional went through the runtime's generic enum witnesses first).
            waiting[slot]! = consume payload
        } else {
            waiting[slot] = consume payload
        }
        return queue(
            EffectTimer(slot: slot, generation: generation, purpose: .start, deadline: now.saturatingAdding(preWait)), cancelling: consume cancels)
    }

    /// The first half of starting a one-shot run under `key` at once (no delay, no coalescing, not
    /// a channel), replacing whatever runs there: what ``schedule(_:scheduling:traits:now:)``
    /// decides for such a component, without a payload. The engine cancels `cancels`, starts the
    /// run and reports it with ``subscribed(slot:generation:run:)``.
    @inlinable
    mutating func startAtOnce(key: AnyHashableSendable) -> (slot: Int, generation: UInt64, cancels: EffectCancellations) {
        let slot = slotFor(key)
        var cancels = EffectCancellations()
        stopRun(slot, into: &cancels)
        let generation = nextGeneration()
        run[slot] = .starting(generation)
        return (slot, generation, cancels)
    }

    /// Opens or feeds the channel under `key`: a live channel gets the value, paced by the
    /// delivery it registered when it opened; otherwise the channel opens (replacing a one-shot
    /// run under the key), unless the payload only feeds a live channel. `cancels` are tokens
    /// the caller took already.
    @inlinable
    mutating func scheduleChannel(
        _ payload: consuming Payload, traits: ChannelTraits, key: AnyHashableSendable, now: Duration,
        cancelling cancels: consuming EffectCancellations = EffectCancellations()
    ) -> Step {
        let slot = slotFor(key)
        if let live = sinks[slot] {
            let sink = live.deliver
            switch live.delivery {
            case .immediate:
                return .deliver(cancels, payload, to: sink)
            case .throttle(let interval):
                if isThrottled(slot, interval: interval, now: now) { return .cancel(cancels) }
                stamp[slot] = Stamp(at: now, interval: interval)
                return .deliver(cancels, payload, to: sink)
            case .debounce(let window):
                // A non-positive window delivers at once, like a one-shot debounce.
                guard window > .zero else {
                    deliverTimer[slot] = nil
                    dropTimer(slot, .deliver, into: &cancels)
                    return .deliver(cancels, payload, to: sink)
                }
                // A pending delivery is replaced in place.
                let generation = nextGeneration()
                deliverTimer[slot] = PendingTimer(generation: generation, payload: payload, traits: nil)
                let timer = EffectTimer(slot: slot, generation: generation, purpose: .deliver, deadline: now.saturatingAdding(window))
                return queue(timer, cancelling: consume cancels)
            }
        }
        guard !traits.isPipeOnly else {
            freeIfEmpty(slot)
            return .cancel(cancels)
        }
        stopRun(slot, into: &cancels)
        let generation = nextGeneration()
        run[slot] = .starting(generation)
        return .open(cancels, payload, key: key, slot: slot, generation: generation, traits: traits)
    }

    /// Opens the channel under `key` again after a reset-key change (the engine cancelled what ran
    /// there first): after `settle` when it is positive, else at once. A settle already pending
    /// is replaced.
    @inlinable
    mutating func openAfterSettle(
        _ payload: consuming Payload, traits: ChannelTraits, key: AnyHashableSendable, settle: Duration?, now: Duration
    ) -> Step {
        guard let settle, settle > .zero else { return scheduleChannel(payload, traits: traits, key: key, now: now) }
        let slot = slotFor(key)
        // A settle already pending is replaced in place.
        let generation = nextGeneration()
        settleTimer[slot] = PendingTimer(generation: generation, payload: payload, traits: traits)
        let timer = EffectTimer(slot: slot, generation: generation, purpose: .settle, deadline: now.saturatingAdding(settle))
        return queue(timer, cancelling: EffectCancellations())
    }

    /// Delivers a changed broadcast value into the channel under `key` (opening it when it is no
    /// longer live); while a re-creation settles, the payload it will open with is swapped instead.
    @inlinable
    mutating func redeliver(_ payload: consuming Payload, traits: ChannelTraits, key: AnyHashableSendable, now: Duration) -> Step {
        let slot = slotFor(key)
        if Self.isPending(&settleTimer[slot]) {
            settleTimer[slot]?.payload = payload
            settleTimer[slot]?.traits = traits
            return .none
        }
        return scheduleChannel(payload, traits: traits, key: key, now: now)
    }

    /// The sink of the live channel under `key` when a changed broadcast value would go straight
    /// into it (a channel with immediate delivery and no settle pending): such a redelivery needs
    /// the value only, not the payload that would open the channel. `nil` otherwise.
    /// Mutating only to read the slot's entries in place (copied out, a pending payload would be
    /// copied whole).
    @inlinable
    mutating func immediateSink(for key: AnyHashableSendable) -> (@Sendable (any Sendable) -> Void)? {
        guard let slot = slotIndex[key], !Self.isPending(&settleTimer[slot]), let live = sinks[slot], case .immediate = live.delivery
        else { return nil }
        return live.deliver
    }

    /// Whether a timer is pending, read in place: one field is read through the optional where
    /// it lies (matching the optional's case copied the whole timer, payload included).
    @inlinable @inline(__always)
    static func isPending(_ timer: inout PendingTimer?) -> Bool {
        timer?.generation != nil
    }

    /// The throttle gate, with the prune done lazily for this key: a stamp at least as old as its
    /// own interval has lapsed; a live one drops the call only when it is also younger than the
    /// call's interval (so a zero or negative interval never throttles).
    @inlinable
    func isThrottled(_ slot: Int, interval: Duration, now: Duration) -> Bool {
        guard let last = stamp[slot] else { return false }
        let age = now - last.at
        return age < last.interval && age < interval
    }

    // MARK: Events from the engine's runs and timers

    /// A timer fired (taken out of the queue by ``takeDueTimer(now:)``, or still in it). A stale
    /// timer (its registration replaced, cancelled or freed) does nothing.
    @inlinable
    mutating func timerFired(_ timer: EffectTimer, now: Duration) -> Step {
        let slot = timer.slot
        var cancels = EffectCancellations()
        switch timer.purpose {
        case .start:
            guard case .waiting(let generation) = run[slot], generation == timer.generation, let payload = waiting[slot].take(),
                let key = slotKey[slot]
            else { return .none }
            run[slot] = .starting(generation)
            dropTimer(slot, .start, into: &cancels)
            return .subscribe(cancels, payload, key: key, slot: slot, generation: generation)
        case .deliver:
            guard deliverTimer[slot]?.generation == timer.generation, let pending = deliverTimer[slot].take() else { return .none }
            dropTimer(slot, .deliver, into: &cancels)
            guard let sink = sinks[slot]?.deliver else {
                freeIfEmpty(slot)
                return .cancel(cancels)
            }
            return .deliver(cancels, pending.payload, to: sink)
        case .settle:
            guard settleTimer[slot]?.generation == timer.generation, let pending = settleTimer[slot].take(), let traits = pending.traits,
                let key = slotKey[slot]
            else { return .none }
            dropTimer(slot, .settle, into: &cancels)
            return scheduleChannel(pending.payload, traits: traits, key: key, now: now, cancelling: consume cancels)
        }
    }

    /// A one-shot run or a channel completed: only the run with this generation is removed (a
    /// stale completion does nothing), and its token is released. Throttle stamps stay.
    @inlinable
    mutating func complete(key: AnyHashableSendable, generation: UInt64) -> EffectCancellations {
        var cancels = EffectCancellations()
        guard let slot = slotIndex[key], run[slot].generation == generation else { return cancels }
        switch run[slot] {
        case .oneShot, .channel:
            stopRun(slot, into: &cancels)
            freeIfEmpty(slot)
        case .idle, .starting, .waiting:
            break
        }
        return cancels
    }

    /// Cancels everything under `key`: the run or pending start, the channel and its pending
    /// delivery, a pending settle, and the throttle stamp.
    @inlinable
    mutating func cancel(key: AnyHashableSendable) -> EffectCancellations {
        var cancels = EffectCancellations()
        guard let slot = slotIndex[key] else { return cancels }
        stopRun(slot, into: &cancels)
        dropTimer(slot, .settle, into: &cancels)
        settleTimer[slot] = nil
        stamp[slot] = nil
        freeIfEmpty(slot)
        return cancels
    }

    /// Every registered key, for teardown (cancelling each cancels every token exactly once).
    var registeredKeys: [AnyHashableSendable] { slotKey.compactMap { $0 } }

    // MARK: Reports from the engine

    /// The engine started the run of a `.subscribe` step (`nil`: it completed while starting).
    @inlinable @inline(__always)
    mutating func subscribed(slot: Int, generation: UInt64, run token: (any EffectCancellable)?) {
        guard case .starting(let current) = run[slot], current == generation else {
            preconditionFailure("Internal inconsistency: subscribed(generation \(generation)) while \(run[slot])")
        }
        if let token {
            run[slot] = .oneShot(generation, token)
        } else {
            run[slot] = .idle
            freeIfEmpty(slot)
        }
    }

    /// The engine opened the channel of an `.open` step (`nil`: it did not open, or completed while
    /// opening). An opening under throttle that delivers its value counts as a delivery.
    @inlinable
    mutating func opened(
        slot: Int, generation: UInt64, channel: (token: SubscriptionToken, sink: @Sendable (any Sendable) -> Void)?, traits: ChannelTraits,
        now: Duration
    ) {
        guard case .starting(let current) = run[slot], current == generation else {
            preconditionFailure("Internal inconsistency: opened(generation \(generation)) while \(run[slot])")
        }
        guard let channel else {
            run[slot] = .idle
            freeIfEmpty(slot)
            return
        }
        run[slot] = .channel(generation, channel.token)
        sinks[slot] = ChannelSink(deliver: channel.sink, delivery: traits.delivery)
        if traits.deliversOnOpen, case .throttle(let interval) = traits.delivery {
            stamp[slot] = Stamp(at: now, interval: interval)
        }
    }

    // MARK: Timers

    /// Queues `timer` (replacing in place the one pending for its slot and purpose), then cancels
    /// `cancels`, and arms the wake when the timer is due before the armed one.
    @inlinable
    mutating func queue(_ timer: EffectTimer, cancelling cancels: consuming EffectCancellations) -> Step {
        // Consumed: a borrowed set was copied here, and the caller's three optional tokens were
        // destroyed through the runtime's generic witnesses.
        guard timers.schedule(timer) else { return .cancel(cancels) }
        cancels.append(timers.takeWakeToken())
        return .arm(cancels, deadline: timer.deadline)
    }

    /// Removes the timer pending for `slot` and `purpose`, if any (with the wake, when it was the last).
    @inlinable
    mutating func dropTimer(_ slot: Int, _ purpose: EffectTimerPurpose, into cancels: inout EffectCancellations) {
        cancels.append(timers.remove(slot: slot, purpose: purpose))
    }

    /// The engine armed the wake of an `.arm` step.
    @inlinable
    mutating func wakeArmed(_ token: SubscriptionToken) {
        timers.wakeArmed(token)
    }

    /// The wake fired: the engine takes the due timers out one at a time with
    /// ``takeDueTimer(now:)``, performing each one's ``timerFired(_:now:)``, then asks ``rearm()``.
    @inlinable
    mutating func wakeFired() {
        timers.wakeFired()
    }

    /// The earliest pending timer, taken out of the queue, when it is due at `now`.
    @inlinable
    mutating func takeDueTimer(now: Duration) -> EffectTimer? {
        timers.popDue(now: now)
    }

    /// Arms the wake for the earliest pending timer, unless one is armed at or before it.
    @inlinable
    mutating func rearm() -> Step {
        guard let deadline = timers.rearm() else { return .none }
        var cancels = EffectCancellations()
        cancels.append(timers.takeWakeToken())
        return .arm(cancels, deadline: deadline)
    }
}
