/// What the effect machine asks its host to do. The machine decides; the interpreter performs.
///
/// Every call is made synchronously from inside a machine operation: an interpreter must not call
/// back into the machine from these methods (completions are reported later, see
/// ``EffectMachine/complete(key:generation:using:)``).
@MainActor
@usableFromInline
internal protocol EffectInterpreter {
    associatedtype Payload

    /// Starts a one-shot run; its completion is reported later with `generation`. `nil` when the
    /// run completed during the call (nothing stays registered).
    func subscribe(_ payload: Payload, key: AnyHashableSendable, generation: UInt64) -> (any EffectCancellable)?
    /// Opens a channel (delivering its value on open when it says so); `nil` for a pipe-only payload.
    func open(_ payload: Payload, key: AnyHashableSendable, generation: UInt64) -> (token: SubscriptionToken, sink: @Sendable (any Sendable) -> Void)?
    /// Feeds the payload's value into a live channel's sink.
    func deliver(_ payload: Payload, to sink: @Sendable (any Sendable) -> Void)
    /// Starts a timer that calls ``EffectMachine/timerFired(key:generation:purpose:now:using:)`` at `deadline`.
    func startTimer(at deadline: Duration, key: AnyHashableSendable, generation: UInt64, purpose: EffectTimerPurpose) -> SubscriptionToken
}

/// Why a machine timer was started.
@usableFromInline
internal enum EffectTimerPurpose: Sendable, Equatable {
    /// A delayed or debounced one-shot start.
    case start
    /// A debounced delivery into a live channel.
    case deliver
    /// A settling channel re-creation.
    case settle
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
}

/// One desired channel, as reconcile compares it: identity, reset and broadcast keys, settle.
@usableFromInline
internal struct ReconcileEntry<Payload> {
    @usableFromInline var key: AnyHashableSendable
    @usableFromInline var reset: AnyHashableSendable?
    @usableFromInline var broadcast: AnyHashableSendable?
    @usableFromInline var settle: Duration?
    @usableFromInline var payload: Payload
    @usableFromInline var traits: ChannelTraits
    /// The supervision segment (one supervision unit of the behavior) that wants the channel.
    @usableFromInline var segment: Int
    /// The channel's place in container order (segment, element, index within the element),
    /// which orders leavers (cancelled in container order) even after single-element reconciles;
    /// `nil`: its desired position.
    @usableFromInline var order: UInt64?

    /// The identity as plain data (see `ChannelIdentity`).
    @inlinable var identity: ChannelIdentity { ChannelIdentity(id: key, reset: reset, broadcast: broadcast) }

    /// An entry. Always inlined: it is built once per desired channel.
    @inlinable @inline(__always)
    init(
        key: AnyHashableSendable, reset: AnyHashableSendable?, broadcast: AnyHashableSendable?, settle: Duration?,
        payload: Payload, traits: ChannelTraits, segment: Int = 0, order: UInt64? = nil
    ) {
        self.key = key
        self.reset = reset
        self.broadcast = broadcast
        self.settle = settle
        self.payload = payload
        self.traits = traits
        self.segment = segment
        self.order = order
    }
}

/// The pure core of the effect engine: the keyed registry of runs, timers and channels in flat
/// arrays, every scheduling policy (<doc:EffectsAndScheduling#Scheduling-policies>), channel opening
/// and delivery (<doc:EffectsAndScheduling#Channels-in-effects>), and reconcile
/// (<doc:SupervisionAndChannels#How-reconcile-decides>). Generation tags make a stale completion or
/// timer a no-op (<doc:EffectsAndScheduling#The-registry>), and every
/// token is cancelled exactly once, by the machine.
///
/// Value type, no tasks, no clock: time comes in as `now`, side effects go out through an
/// ``EffectInterpreter``. Tests drive it directly. Scheduling, starting, completing, the slot
/// bookkeeping and reconcile are inlinable, so a Store's phases 4 and 5 run them specialised for
/// its types: no generic-metadata lookups on the way to an effect's start or through a reconcile
/// (looked up at run time, they were about half of a one-row supervised dispatch).
@MainActor
@usableFromInline
internal struct EffectMachine<Payload> {
    @usableFromInline
    enum Run {
        case idle
        /// A subscription in progress (between the interpreter call and its result).
        case starting(UInt64)
        case oneShot(UInt64, any EffectCancellable)
        case waiting(UInt64, SubscriptionToken, Payload)
        case channel(UInt64, SubscriptionToken, @Sendable (any Sendable) -> Void, ChannelDelivery)

        @inlinable
        var generation: UInt64? {
            switch self {
            case .idle: return nil
            case .starting(let generation), .oneShot(let generation, _), .waiting(let generation, _, _), .channel(let generation, _, _, _):
                return generation
            }
        }
    }

    @usableFromInline
    struct PendingTimer {
        @usableFromInline var generation: UInt64
        @usableFromInline var token: SubscriptionToken
        @usableFromInline var payload: Payload
        @usableFromInline var traits: ChannelTraits

        @inlinable
        init(generation: UInt64, token: SubscriptionToken, payload: Payload, traits: ChannelTraits) {
            self.generation = generation
            self.token = token
            self.payload = payload
            self.traits = traits
        }
    }

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

    // Registry: one slot per live key, in flat arrays (usable from the inlinable scheduling path).
    @usableFromInline var slotIndex: [AnyHashableSendable: Int] = [:]
    @usableFromInline var slotKey: [AnyHashableSendable?] = []
    @usableFromInline var run: [Run] = []
    @usableFromInline var deliverTimer: [PendingTimer?] = []
    @usableFromInline var settleTimer: [PendingTimer?] = []
    @usableFromInline var stamp: [Stamp?] = []
    @usableFromInline var freeSlots: [Int] = []
    /// The slot ``slotFor(_:)`` returned last, checked before the dictionary (-1: none).
    @usableFromInline var lastSlot = -1
    @usableFromInline var generationCounter: UInt64 = 0
    @usableFromInline var anonymousCounter: UInt64 = 0

    // Reconcile memory: the previous desired set. Positions are unordered (a segment reconcile
    // swaps a leaver out); `memorySeq` keeps each channel's container order.
    @usableFromInline var memoryIndex: [AnyHashableSendable: Int] = [:]
    @usableFromInline var memoryKey: [AnyHashableSendable] = []
    /// Each remembered channel's identity as plain data (see `ChannelIdentity`).
    @usableFromInline var memoryIdentity: [ChannelIdentity] = []
    @usableFromInline var memoryReset: [AnyHashableSendable?] = []
    @usableFromInline var memoryBroadcast: [AnyHashableSendable?] = []
    @usableFromInline var memorySuppressed: [Bool] = []
    @usableFromInline var memoryEpoch: [UInt64] = []
    @usableFromInline var memorySeq: [UInt64] = []
    @usableFromInline var memorySegment: [Int] = []
    /// How many remembered channels each segment has (indexed by segment; missing: none).
    @usableFromInline var segmentCounts: [Int] = []
    @usableFromInline var nextSeq: UInt64 = 0
    @usableFromInline var epoch: UInt64 = 0
    /// Whether the last full reconcile saw two entries with the same key: segment reconciles are
    /// then unsound (one segment's leaver may be another's keeper) and are refused.
    @usableFromInline var lastFullHadDuplicates = false
    /// Whether memory lists the channels in the order of the last full desired set (no patch
    /// since): an unchanged set is then recognised by comparing position by position, no hashing.
    @usableFromInline var isInDesiredOrder = false
    @usableFromInline init() {}

    // MARK: Inspection

    /// Keys with a live channel, in slot order.
    var openChannelKeys: [AnyHashableSendable] {
        run.indices.compactMap { index in
            if case .channel = run[index] { return slotKey[index] }
            return nil
        }
    }

    /// Whether every registered run is a live channel and no timer is pending.
    var isQuiescent: Bool {
        for index in run.indices {
            switch run[index] {
            case .idle, .channel: break
            case .starting, .oneShot, .waiting: return false
            }
            if deliverTimer[index] != nil || settleTimer[index] != nil { return false }
        }
        return true
    }

    /// Whether a one-shot run is registered (timers and channels aside): something that may still
    /// send actions without the clock moving.
    var hasRunningWork: Bool {
        run.contains { run in
            switch run {
            case .starting, .oneShot: return true
            case .idle, .waiting, .channel: return false
            }
        }
    }

    /// The number of keys with a run, a timer, a channel or a throttle stamp.
    var liveKeyCount: Int { slotIndex.count }

    /// What a registered key still holds, for diagnostics.
    enum Holding {
        /// A one-shot run that started and has not completed.
        case running
        /// A one-shot run waiting on a timer (delay or debounce) before it starts.
        case waitingToStart(Payload)
        /// A live channel.
        case openChannel
        /// A value waiting on a debounce timer before it is delivered into a live channel (with the
        /// pacing the channel registered when it opened).
        case pendingDelivery(ChannelDelivery?)
        /// A channel re-creation waiting for its settle time.
        case settling
    }

    /// Everything still running, waiting or open, by key, in slot order (throttle windows aside).
    var holdings: [(key: AnyHashableSendable, holding: Holding)] {
        var result: [(key: AnyHashableSendable, holding: Holding)] = []
        for index in run.indices {
            guard let key = slotKey[index] else { continue }
            switch run[index] {
            case .idle: break
            case .starting, .oneShot: result.append((key, .running))
            case .waiting(_, _, let payload): result.append((key, .waitingToStart(payload)))
            case .channel: result.append((key, .openChannel))
            }
            if deliverTimer[index] != nil {
                var delivery: ChannelDelivery?
                if case .channel(_, _, _, let registered) = run[index] { delivery = registered }
                result.append((key, .pendingDelivery(delivery)))
            }
            if settleTimer[index] != nil { result.append((key, .settling)) }
        }
        return result
    }

    /// The number of keys in reconcile memory.
    @inlinable var reconciledCount: Int { memoryKey.count }

    // MARK: Scheduling (EffectsAndScheduling, "Scheduling policies")

    /// Schedules one component. `traits` is non-nil for a channel payload.
    @inlinable
    mutating func schedule<I: EffectInterpreter>(
        _ payload: Payload,
        scheduling: EffectScheduling,
        traits: ChannelTraits?,
        now: Duration,
        using interpreter: I
    ) where I.Payload == Payload {
        if scheduling.cancelsOnly {
            if let id = scheduling.id {
                cancel(key: id, using: interpreter)
                suppress(id)
            }
            return
        }
        let key = scheduling.id ?? nextAnonymousKey()
        if let traits {
            scheduleChannel(payload, traits: traits, key: key, now: now, using: interpreter)
            return
        }
        let slot = slotFor(key)
        if case .throttle(let interval)? = scheduling.coalesce {
            if isThrottled(slot, interval: interval, now: now) {
                freeIfEmpty(slot)
                return
            }
            stamp[slot] = Stamp(at: now, interval: interval)
        }
        if scheduling.exclusive || scheduling.coalesce != nil {
            replaceRun(slot, with: .idle)
        }
        // Saturating sums: a user's duration never traps, however large.
        // A non-positive delay or window counts as none: each is clamped at zero before the sum,
        // so a negative delay never shortens a debounce (nor a negative window a delay).
        var preWait = max(scheduling.delay ?? .zero, .zero)
        if case .debounce(let window)? = scheduling.coalesce { preWait = preWait.saturatingAdding(max(window, .zero)) }
        let generation = nextGeneration()
        if preWait > .zero {
            replaceRun(slot, with: .starting(generation))
            let timer = interpreter.startTimer(at: now.saturatingAdding(preWait), key: key, generation: generation, purpose: .start)
            run[slot] = .waiting(generation, timer, payload)
        } else {
            start(payload, slot: slot, key: key, generation: generation, using: interpreter)
        }
    }

    /// Starts a one-shot run under `key` at once (no delay, no coalescing, not a channel),
    /// replacing whatever runs there: what ``schedule(_:scheduling:traits:now:using:)`` does for
    /// such a component, without building a payload. This first half cancels what runs under
    /// `key` and returns its slot and the new run's generation; the caller starts the run, which
    /// cannot enter the machine, and stores it with ``setOneShot(_:generation:_:)``, so the slot
    /// is written once. In two halves, not one call taking a closure, so the caller moves what it
    /// starts the run with into it: a closure would capture, and so copy, it.
    @inlinable
    mutating func beginAtOnce(key: borrowing AnyHashableSendable) -> (slot: Int, generation: UInt64) {
        let slot = slotFor(key)
        cancelRun(at: slot)
        return (slot, nextGeneration())
    }

    /// Stores the one-shot run started in `slot` after ``beginAtOnce(key:)``.
    @inlinable
    mutating func setOneShot(_ slot: Int, generation: UInt64, _ token: any EffectCancellable) {
        run[slot] = .oneShot(generation, token)
    }

    @inlinable
    mutating func start<I: EffectInterpreter>(
        _ payload: Payload, slot: Int, key: AnyHashableSendable, generation: UInt64, using interpreter: I
    ) where I.Payload == Payload {
        replaceRun(slot, with: .starting(generation))
        if let token = interpreter.subscribe(payload, key: key, generation: generation) {
            run[slot] = .oneShot(generation, token)
        } else {
            run[slot] = .idle
            freeIfEmpty(slot)
        }
    }

    /// A timer fired. Stale timers (cancelled or superseded) do nothing.
    mutating func timerFired<I: EffectInterpreter>(
        key: AnyHashableSendable,
        generation: UInt64,
        purpose: EffectTimerPurpose,
        now: Duration,
        using interpreter: I
    ) where I.Payload == Payload {
        guard let slot = slotIndex[key] else { return }
        switch purpose {
        case .start:
            guard case .waiting(let current, _, let payload) = run[slot], current == generation else { return }
            // The timer's own token is released here, after it fired: cancelling it is a no-op.
            start(payload, slot: slot, key: key, generation: generation, using: interpreter)
        case .deliver:
            guard let pending = deliverTimer[slot], pending.generation == generation else { return }
            deliverTimer[slot] = nil
            if case .channel(_, _, let sink, _) = run[slot] {
                interpreter.deliver(pending.payload, to: sink)
            }
            freeIfEmpty(slot)
        case .settle:
            guard let pending = settleTimer[slot], pending.generation == generation else { return }
            settleTimer[slot] = nil
            scheduleChannel(pending.payload, traits: pending.traits, key: key, now: now, using: interpreter)
        }
    }

    /// A one-shot run or a channel completed. Only the run with this generation is removed (a stale
    /// completion does nothing);
    /// throttle stamps and reconcile memory stay.
    @inlinable
    mutating func complete<I: EffectInterpreter>(key: AnyHashableSendable, generation: UInt64, using interpreter: I) where I.Payload == Payload {
        guard let slot = slotIndex[key], run[slot].generation == generation else { return }
        switch run[slot] {
        case .oneShot, .channel:
            replaceRun(slot, with: .idle)
            freeIfEmpty(slot)
        case .idle, .starting, .waiting:
            return
        }
    }

    /// Cancels everything under `key`: the run or pending start, the channel and its pending
    /// delivery, a pending settle, and the throttle stamp. Reconcile memory is kept.
    @usableFromInline
    mutating func cancel<I: EffectInterpreter>(key: AnyHashableSendable, using interpreter: I) where I.Payload == Payload {
        guard let slot = slotIndex[key] else { return }
        replaceRun(slot, with: .idle)
        settleTimer[slot].map { $0.token.cancel() }
        settleTimer[slot] = nil
        stamp[slot] = nil
        freeIfEmpty(slot)
    }

    /// Cancels every key: teardown. Every token is cancelled exactly once.
    mutating func cancelAll<I: EffectInterpreter>(using interpreter: I) where I.Payload == Payload {
        for key in slotKey.compactMap({ $0 }) { cancel(key: key, using: interpreter) }
    }

    /// The throttle gate, with the prune done lazily for this key: a stamp at least
    /// as old as its own interval has lapsed; a live one drops the call only when it is also younger
    /// than the call's interval (so a zero or negative interval never throttles).
    @inlinable
    func isThrottled(_ slot: Int, interval: Duration, now: Duration) -> Bool {
        guard let last = stamp[slot] else { return false }
        let age = now - last.at
        return age < last.interval && age < interval
    }

    // MARK: Channels (opening and delivery)

    @inlinable
    mutating func scheduleChannel<I: EffectInterpreter>(
        _ payload: Payload, traits: ChannelTraits, key: AnyHashableSendable, now: Duration, using interpreter: I
    ) where I.Payload == Payload {
        let slot = slotFor(key)
        if case .channel(_, _, let sink, let delivery) = run[slot] {
            switch delivery {
            case .immediate:
                interpreter.deliver(payload, to: sink)
            case .throttle(let interval):
                if isThrottled(slot, interval: interval, now: now) { return }
                stamp[slot] = Stamp(at: now, interval: interval)
                interpreter.deliver(payload, to: sink)
            case .debounce(let window):
                deliverTimer[slot].map { $0.token.cancel() }
                guard window > .zero else {
                    // A non-positive window delivers at once, like a one-shot debounce.
                    deliverTimer[slot] = nil
                    interpreter.deliver(payload, to: sink)
                    return
                }
                let generation = nextGeneration()
                let token = interpreter.startTimer(at: now.saturatingAdding(window), key: key, generation: generation, purpose: .deliver)
                deliverTimer[slot] = PendingTimer(generation: generation, token: token, payload: payload, traits: traits)
            }
            return
        }
        guard !traits.isPipeOnly else {
            freeIfEmpty(slot)
            return
        }
        let generation = nextGeneration()
        replaceRun(slot, with: .starting(generation))
        guard let opened = interpreter.open(payload, key: key, generation: generation) else {
            run[slot] = .idle
            freeIfEmpty(slot)
            return
        }
        run[slot] = .channel(generation, opened.token, opened.sink, traits.delivery)
        if traits.deliversOnOpen, case .throttle(let interval) = traits.delivery {
            stamp[slot] = Stamp(at: now, interval: interval)
        }
    }

    // MARK: Reconcile (SupervisionAndChannels, "How reconcile decides")

    /// Brings the live channels in line with the desired set. An unchanged set does nothing and
    /// allocates nothing. Leavers are cancelled (in their previous order) before anything opens;
    /// a first appearance opens at once; a reset-key change recreates (after `settle`, if any); a
    /// broadcast change is delivered (or reopens a channel that is no longer live); a channel
    /// cancelled by id stays closed until it leaves the set and comes back.
    @inlinable
    mutating func reconcile<I: EffectInterpreter>(
        _ desired: [ReconcileEntry<Payload>],
        now: Duration,
        using interpreter: I
    ) where I.Payload == Payload {
        if isUnchanged(desired) { return }

        // Deduplicate: a later entry replaces an earlier one with the same key, at the first position.
        // Entries are read where they lie (an array subscript or a `for in` would copy whole
        // entries, retaining their keys and payload), and a set without duplicates, the usual
        // case, is used as it is.
        var position: [AnyHashableSendable: Int] = [:]
        position.reserveCapacity(desired.count)
        let hasDuplicates = desired.withUnsafeBufferPointer { entries in
            var duplicate = false
            for index in entries.indices where position.updateValue(index, forKey: entries[index].key) != nil {
                duplicate = true
                break
            }
            return duplicate
        }
        var unique: [ReconcileEntry<Payload>]
        if hasDuplicates {
            position.removeAll(keepingCapacity: true)
            unique = []
            unique.reserveCapacity(desired.count)
            for entry in desired {
                if let existing = position[entry.key] {
                    let order = unique[existing].order
                    unique[existing] = entry
                    unique[existing].order = order
                } else {
                    position[entry.key] = unique.count
                    unique.append(entry)
                }
            }
        } else {
            unique = desired
        }

        lastFullHadDuplicates = hasDuplicates

        // Leavers first, in their previous container order.
        var leavers: [Int] = []
        for index in memoryKey.indices where position[memoryKey[index]] == nil { leavers.append(index) }
        if leavers.count > 1 { leavers.sort { memorySeq[$0] < memorySeq[$1] } }
        for index in leavers { cancel(key: memoryKey[index], using: interpreter) }

        var newSuppressed: [Bool] = []
        newSuppressed.reserveCapacity(unique.count)
        unique.withUnsafeBufferPointer { entries in
            for index in entries.indices {
                let entry = entries.baseAddress! + index
                guard let old = memoryIndex[entry.pointee.key] else {
                    newSuppressed.append(false)
                    scheduleChannel(entry.pointee.payload, traits: entry.pointee.traits, key: entry.pointee.key, now: now, using: interpreter)
                    continue
                }
                let suppressed = memorySuppressed[old]
                newSuppressed.append(suppressed)
                // Compared here, where the keys are at hand: a channel whose keys did not change
                // costs no call to `apply`.
                if !suppressed, memoryReset[old] != entry.pointee.reset || memoryBroadcast[old] != entry.pointee.broadcast {
                    apply(entry, remembered: old, now: now, using: interpreter)
                }
            }
        }

        // Plain index loops over entries in place: nothing is copied out of an entry it does not need.
        memoryIndex = position
        // The memory is refilled in locals (moved out of `self`, so their storage is reused and
        // each append is a plain write, not an access to this struct's field).
        var keys = Self.takeEmptied(&memoryKey)
        var identities = Self.takeEmptied(&memoryIdentity)
        var resets = Self.takeEmptied(&memoryReset)
        var broadcasts = Self.takeEmptied(&memoryBroadcast)
        var seqs = Self.takeEmptied(&memorySeq)
        var segments = Self.takeEmptied(&memorySegment)
        var counts = segmentCounts
        segmentCounts = []
        for index in counts.indices { counts[index] = 0 }
        let firstSeq = nextSeq
        unique.withUnsafeBufferPointer { entries in
            for index in entries.indices {
                let entry = entries.baseAddress! + index
                keys.append(entry.pointee.key)
                identities.append(ChannelIdentity(id: entry.pointee.key, reset: entry.pointee.reset, broadcast: entry.pointee.broadcast))
                resets.append(entry.pointee.reset)
                broadcasts.append(entry.pointee.broadcast)
                seqs.append(entry.pointee.order ?? firstSeq &+ UInt64(index))
                let segment = entry.pointee.segment
                segments.append(segment)
                while counts.count <= segment { counts.append(0) }
                counts[segment] &+= 1
            }
        }
        memoryKey = keys
        memoryIdentity = identities
        memoryReset = resets
        memoryBroadcast = broadcasts
        memorySeq = seqs
        memorySegment = segments
        segmentCounts = counts
        nextSeq &+= UInt64(unique.count)
        memorySuppressed = newSuppressed
        memoryEpoch = Array(repeating: epoch, count: unique.count)
        isInDesiredOrder = true
    }

    /// A desired entry that is remembered (and not suppressed): a reset-key change recreates it
    /// (after `settle`), a broadcast change is delivered, or reopens a channel no longer live.
    @inlinable
    mutating func apply<I: EffectInterpreter>(
        _ entry: UnsafePointer<ReconcileEntry<Payload>>, remembered old: Int, now: Duration, using interpreter: I
    ) where I.Payload == Payload {
        if memoryReset[old] != entry.pointee.reset {
            cancel(key: entry.pointee.key, using: interpreter)
            openAfterSettle(entry.pointee, now: now, using: interpreter)
        } else if memoryBroadcast[old] != entry.pointee.broadcast {
            let slot = slotFor(entry.pointee.key)
            if settleTimer[slot] != nil {
                settleTimer[slot]!.payload = entry.pointee.payload
                settleTimer[slot]!.traits = entry.pointee.traits
            } else {
                scheduleChannel(entry.pointee.payload, traits: entry.pointee.traits, key: entry.pointee.key, now: now, using: interpreter)
            }
        }
    }

    // MARK: Partial reconcile (patches)

    /// True when the `previousCount` keys one part of the desired set wanted last time and the
    /// `count` identities read by index are the same channels with the same reset and broadcast
    /// keys and the same container `orders`, all remembered for `segment`. No allocation.
    @inlinable
    mutating func segmentMatches(
        segment: Int,
        previousCount: Int,
        previousKey: (Int) -> AnyHashableSendable,
        count: Int,
        order: (Int) -> UInt64,
        _ identity: (Int) -> (key: AnyHashableSendable, reset: AnyHashableSendable?, broadcast: AnyHashableSendable?)
    ) -> Bool {
        epoch &+= 1
        var distinct = 0
        for position in 0..<count {
            let (key, reset, broadcast) = identity(position)
            guard let index = rememberedIndex(key, reset: reset, broadcast: broadcast), memorySegment[index] == segment,
                memorySeq[index] == order(position)
            else { return false }
            if memoryEpoch[index] != epoch {
                memoryEpoch[index] = epoch
                distinct += 1
            }
        }
        guard distinct == previousCount else { return false }
        for position in 0..<previousCount {
            guard let index = memoryIndex[previousKey(position)], memoryEpoch[index] == epoch else { return false }
        }
        return true
    }

    /// The array's elements removed, its storage moved out (so `array` no longer shares it).
    @inlinable
    static func takeEmptied<Element>(_ array: inout [Element]) -> [Element] {
        var taken: [Element] = []
        swap(&taken, &array)
        taken.removeAll(keepingCapacity: true)
        return taken
    }

    /// Adds `delta` to `segment`'s count of remembered channels.
    @inlinable
    mutating func countSegment(_ segment: Int, by delta: Int) {
        while segmentCounts.count <= segment { segmentCounts.append(0) }
        segmentCounts[segment] &+= delta
    }

    /// True when the `count` identities read by index are exactly the channels remembered for
    /// `segment`, with the same reset and broadcast keys and the same container `order`: no
    /// list of what the segment wanted before is needed. No allocation.
    @inlinable
    mutating func wholeSegmentMatches(
        segment: Int,
        count: Int,
        order: (Int) -> UInt64,
        _ identity: (Int) -> (key: AnyHashableSendable, reset: AnyHashableSendable?, broadcast: AnyHashableSendable?)
    ) -> Bool {
        guard count == (segment < segmentCounts.count ? segmentCounts[segment] : 0) else { return false }
        epoch &+= 1
        for position in 0..<count {
            let (key, reset, broadcast) = identity(position)
            guard let index = rememberedIndex(key, reset: reset, broadcast: broadcast), memorySegment[index] == segment,
                memorySeq[index] == order(position), memoryEpoch[index] != epoch
            else { return false }
            memoryEpoch[index] = epoch
        }
        return true
    }

    /// Reconciles parts of the desired set — whole segments, or single collection elements —
    /// leaving every other remembered channel alone. Each patch gives the keys its part wanted
    /// before and the entries it wants now, with their container orders. Leavers of every patch
    /// are cancelled first, in their previous container order; then each patch's entries are
    /// opened, recreated or fed in order, exactly as a full reconcile would.
    ///
    /// Returns `false`, doing nothing, when that cannot be done soundly: the last full reconcile
    /// saw duplicate keys, a patch wants a key twice, a patch wants a key that another part
    /// holds, or a patch's previous keys are not remembered for its segment. The caller must then
    /// reconcile the full set.
    @inlinable
    mutating func reconcilePatches<I: EffectInterpreter>(
        _ patches: [(segment: Int, previous: [AnyHashableSendable], desired: [ReconcileEntry<Payload>])],
        now: Duration,
        using interpreter: I
    ) -> Bool where I.Payload == Payload {
        guard !lastFullHadDuplicates else { return false }
        // Mark every previous key (epoch), then every wanted key that is remembered (wanted).
        epoch &+= 2
        let previousMark = epoch &- 1
        let wantedMark = epoch
        for patch in patches {
            for key in patch.previous {
                guard let index = memoryIndex[key], memorySegment[index] == patch.segment, memoryEpoch[index] != previousMark
                else { return false }
                memoryEpoch[index] = previousMark
            }
        }
        var fresh: Set<AnyHashableSendable> = []
        for patch in patches {
            for entry in patch.desired {
                if let index = memoryIndex[entry.key] {
                    // Remembered: it must be this patch's own, and wanted once.
                    guard memoryEpoch[index] == previousMark, memorySegment[index] == patch.segment else { return false }
                    memoryEpoch[index] = wantedMark
                } else if !fresh.insert(entry.key).inserted {
                    return false
                }
            }
        }
        // Leavers: previous keys no patch wants any more, in their previous container order.
        var leavers: [Int] = []
        for patch in patches {
            for key in patch.previous {
                if let index = memoryIndex[key], memoryEpoch[index] == previousMark { leavers.append(index) }
            }
        }
        if leavers.count > 1 { leavers.sort { memorySeq[$0] < memorySeq[$1] } }
        let leaverKeys = leavers.map { memoryKey[$0] }
        for key in leaverKeys {
            cancel(key: key, using: interpreter)
            forget(key)
        }
        for patch in patches {
            for entry in patch.desired {
                guard let old = memoryIndex[entry.key] else {
                    scheduleChannel(entry.payload, traits: entry.traits, key: entry.key, now: now, using: interpreter)
                    remember(entry)
                    continue
                }
                if !memorySuppressed[old] { withUnsafePointer(to: entry) { apply($0, remembered: old, now: now, using: interpreter) } }
                memoryReset[old] = entry.reset
                memoryBroadcast[old] = entry.broadcast
                memoryIdentity[old] = entry.identity
                if let order = entry.order { memorySeq[old] = order }
            }
        }
        isInDesiredOrder = false
        return true
    }

    /// Reconciles a desired set that equals memory (in desired order) outside `span`: the
    /// channels remembered at `span` leave or are replaced by `desired`, in place, so memory stays
    /// in desired order. Leavers of the span are cancelled first, in container order; then each
    /// desired entry is opened, recreated or fed, exactly as a full reconcile would.
    ///
    /// Returns `false`, doing nothing, when that cannot be done soundly: memory is not in desired
    /// order, the last full set had duplicates, `desired` is not as long as `span`, or a desired
    /// key is remembered outside the span or wanted twice. The caller then reconciles in full.
    @inlinable
    mutating func reconcileSpan<I: EffectInterpreter>(
        _ span: Range<Int>, desired: [ReconcileEntry<Payload>], now: Duration, using interpreter: I
    ) -> Bool where I.Payload == Payload {
        guard isInDesiredOrder, !lastFullHadDuplicates, desired.count == span.count, span.upperBound <= memoryKey.count else { return false }
        epoch &+= 2
        let spanMark = epoch &- 1
        let wantedMark = epoch
        for index in span { memoryEpoch[index] = spanMark }
        for position in desired.indices {
            if let index = memoryIndex[desired[position].key] {
                guard memoryEpoch[index] == spanMark else { return false }
                memoryEpoch[index] = wantedMark
            } else {
                for other in desired.indices where other > position && desired[other].key == desired[position].key { return false }
            }
        }
        var leavers: [Int] = []
        for index in span where memoryEpoch[index] == spanMark { leavers.append(index) }
        if leavers.count > 1 { leavers.sort { memorySeq[$0] < memorySeq[$1] } }
        let leaverKeys = leavers.map { memoryKey[$0] }
        for key in leaverKeys { cancel(key: key, using: interpreter) }
        var suppressed: [Bool] = []
        suppressed.reserveCapacity(desired.count)
        for entry in desired {
            guard let old = memoryIndex[entry.key] else {
                suppressed.append(false)
                scheduleChannel(entry.payload, traits: entry.traits, key: entry.key, now: now, using: interpreter)
                continue
            }
            suppressed.append(memorySuppressed[old])
            if !memorySuppressed[old] { withUnsafePointer(to: entry) { apply($0, remembered: old, now: now, using: interpreter) } }
        }
        for key in leaverKeys { memoryIndex[key] = nil }
        for offset in desired.indices {
            let position = span.lowerBound + offset
            let entry = desired[offset]
            memoryIndex[entry.key] = position
            memoryKey[position] = entry.key
            memoryIdentity[position] = entry.identity
            memoryReset[position] = entry.reset
            memoryBroadcast[position] = entry.broadcast
            memorySuppressed[position] = suppressed[offset]
            memorySeq[position] = entry.order ?? nextSeq &+ UInt64(offset)
            countSegment(memorySegment[position], by: -1)
            memorySegment[position] = entry.segment
            countSegment(entry.segment, by: 1)
        }
        nextSeq &+= UInt64(desired.count)
        return true
    }

    /// Records new container orders for remembered keys (`count` of them, read by index): their
    /// elements moved while the desired set stayed the same. No allocation.
    @inlinable
    mutating func updateOrders(count: Int, _ keyAndOrder: (Int) -> (key: AnyHashableSendable, order: UInt64)) {
        for position in 0..<count {
            let (key, order) = keyAndOrder(position)
            if let index = memoryIndex[key] { memorySeq[index] = order }
        }
    }

    /// Adds a first-seen entry to reconcile memory, established after everything remembered.
    @inlinable
    mutating func remember(_ entry: ReconcileEntry<Payload>) {
        memoryIndex[entry.key] = memoryKey.count
        memoryKey.append(entry.key)
        memoryIdentity.append(entry.identity)
        memoryReset.append(entry.reset)
        memoryBroadcast.append(entry.broadcast)
        memorySuppressed.append(false)
        memoryEpoch.append(epoch)
        memorySeq.append(entry.order ?? nextSeq)
        nextSeq &+= 1
        memorySegment.append(entry.segment)
        countSegment(entry.segment, by: 1)
    }

    /// Removes a key from reconcile memory (swapping the last entry into its place).
    @inlinable
    mutating func forget(_ key: AnyHashableSendable) {
        guard let index = memoryIndex.removeValue(forKey: key) else { return }
        countSegment(memorySegment[index], by: -1)
        let last = memoryKey.count - 1
        if index != last {
            memoryIndex[memoryKey[last]] = index
            memoryKey.swapAt(index, last)
            memoryIdentity.swapAt(index, last)
            memoryReset.swapAt(index, last)
            memoryBroadcast.swapAt(index, last)
            memorySuppressed.swapAt(index, last)
            memoryEpoch.swapAt(index, last)
            memorySeq.swapAt(index, last)
            memorySegment.swapAt(index, last)
        }
        memoryKey.removeLast()
        memoryIdentity.removeLast()
        memoryReset.removeLast()
        memoryBroadcast.removeLast()
        memorySuppressed.removeLast()
        memoryEpoch.removeLast()
        memorySeq.removeLast()
        memorySegment.removeLast()
    }

    /// True when every desired entry matches memory and no remembered key is missing. No allocation.
    @inlinable
    mutating func isUnchanged(_ desired: [ReconcileEntry<Payload>]) -> Bool {
        beginMatch()
        // Fields read where the entries lie: an array subscript would copy a whole entry (keys
        // and payload retained) to read its key.
        let matched = desired.withUnsafeBufferPointer { entries in
            for index in entries.indices {
                let entry = entries.baseAddress! + index
                if !matchNext(entry.pointee.key, reset: entry.pointee.reset, broadcast: entry.pointee.broadcast) { return false }
            }
            return true
        }
        return matched && endMatch()
    }

    /// The memory position of `key` when it is remembered with these reset and broadcast keys.
    @inlinable
    func rememberedIndex(_ key: AnyHashableSendable, reset: AnyHashableSendable?, broadcast: AnyHashableSendable?) -> Int? {
        guard let index = memoryIndex[key], memoryReset[index] == reset, memoryBroadcast[index] == broadcast else { return nil }
        return index
    }

    /// Whether memory lists the channels in the order of the last full desired set (see
    /// `withMemoryInOrder`).
    @inlinable var memoryIsInDesiredOrder: Bool { isInDesiredOrder }

    /// Calls `body` with the remembered identities, keys, reset keys and broadcast values, in
    /// memory order, to compare a desired set position by position (valid when
    /// `memoryIsInDesiredOrder`). No copy.
    @inlinable
    func withMemoryInOrder<R>(
        _ body: (
            UnsafeBufferPointer<ChannelIdentity>, UnsafeBufferPointer<AnyHashableSendable>, UnsafeBufferPointer<AnyHashableSendable?>,
            UnsafeBufferPointer<AnyHashableSendable?>
        ) -> R
    ) -> R {
        memoryIdentity.withUnsafeBufferPointer { identities in
            memoryKey.withUnsafeBufferPointer { keys in
                memoryReset.withUnsafeBufferPointer { resets in
                    memoryBroadcast.withUnsafeBufferPointer { broadcasts in body(identities, keys, resets, broadcasts) }
                }
            }
        }
    }

    /// The state of a hashed comparison with memory (see `beginMatch`).
    @usableFromInline var matchDistinct = 0
    @usableFromInline var matchFailed = false

    /// Starts comparing a desired set with reconcile memory, one identity at a time (`matchNext`),
    /// in desired order; `endMatch` says whether it matched exactly: every key remembered with the
    /// same reset and broadcast keys, in the same order, and no remembered key missing. O(n) hash
    /// lookups, no allocation; lets the engine skip building entries at all. A reordered set is not
    /// a match: memory must follow the container order, since the next reconcile cancels leavers in
    /// that order (leavers close in container order).
    @inlinable
    mutating func beginMatch() {
        epoch &+= 1
        matchDistinct = 0
        matchFailed = false
    }

    /// The next desired identity; `false` once the set is known not to match.
    @inlinable
    mutating func matchNext(_ key: AnyHashableSendable, reset: AnyHashableSendable?, broadcast: AnyHashableSendable?) -> Bool {
        guard !matchFailed else { return false }
        guard let index = rememberedIndex(key, reset: reset, broadcast: broadcast) else {
            matchFailed = true
            return false
        }
        if memoryEpoch[index] != epoch {
            // The n-th distinct desired key must be the n-th remembered one.
            guard index == matchDistinct else {
                matchFailed = true
                return false
            }
            memoryEpoch[index] = epoch
            matchDistinct += 1
        }
        return true
    }

    /// Whether the identities given since `beginMatch` match memory exactly.
    @inlinable
    func endMatch() -> Bool {
        !matchFailed && matchDistinct == memoryKey.count
    }

    @inlinable
    mutating func openAfterSettle<I: EffectInterpreter>(
        _ entry: ReconcileEntry<Payload>, now: Duration, using interpreter: I
    ) where I.Payload == Payload {
        guard let settle = entry.settle, settle > .zero else {
            scheduleChannel(entry.payload, traits: entry.traits, key: entry.key, now: now, using: interpreter)
            return
        }
        let slot = slotFor(entry.key)
        settleTimer[slot].map { $0.token.cancel() }
        let generation = nextGeneration()
        let token = interpreter.startTimer(at: now.saturatingAdding(settle), key: entry.key, generation: generation, purpose: .settle)
        settleTimer[slot] = PendingTimer(generation: generation, token: token, payload: entry.payload, traits: entry.traits)
    }

    /// Marks a remembered supervised key as cancelled by id: it stays closed until it leaves the
    /// desired set and comes back.
    @usableFromInline
    mutating func suppress(_ key: AnyHashableSendable) {
        if let index = memoryIndex[key] { memorySuppressed[index] = true }
    }

    // MARK: Slots

    @inlinable
    mutating func nextGeneration() -> UInt64 {
        generationCounter &+= 1
        return generationCounter
    }

    @inlinable
    mutating func nextAnonymousKey() -> AnyHashableSendable {
        anonymousCounter &+= 1
        return AnyHashableSendable(AnonymousEffectKey(value: anonymousCounter))
    }

    @inlinable
    mutating func slotFor(_ key: AnyHashableSendable) -> Int {
        // The slot found last is checked first, its key compared in place: a search-style id
        // comes back with every query, and the comparison costs a fraction of the dictionary's
        // hashing and probing. A freed slot's key is nil, so a stale slot never matches.
        if lastSlot >= 0, lastSlot < slotKey.count, Self.key(at: lastSlot, in: slotKey, equals: key) { return lastSlot }
        if let slot = slotIndex[key] {
            lastSlot = slot
            return slot
        }
        let slot: Int
        if let free = freeSlots.popLast() {
            slot = free
            slotKey[slot] = key
        } else {
            slot = run.count
            slotKey.append(key)
            run.append(.idle)
            deliverTimer.append(nil)
            settleTimer.append(nil)
            stamp.append(nil)
        }
        slotIndex[key] = slot
        lastSlot = slot
        return slot
    }

    /// Whether the key at `slot` of `keys` is `key`, compared where both lie (no copy of either).
    /// Nonisolated: its closures, isolated to the main actor, each checked the executor.
    @inlinable
    nonisolated static func key(at slot: Int, in keys: borrowing [AnyHashableSendable?], equals key: borrowing AnyHashableSendable) -> Bool {
        keys.withUnsafeBufferPointer { keys in
            guard let stored = keys.baseAddress.map({ $0 + slot }) else { return false }
            if case .none = stored.pointee { return false }
            return UnsafeRawPointer(stored).withMemoryRebound(to: AnyHashableSendable.self, capacity: 1) { stored in
                withUnsafePointer(to: key) { AnyHashableSendable.equal(stored, $0) }
            }
        }
    }

    /// Replaces a slot's run, cancelling the old run's token (and a channel's pending delivery).
    @inlinable
    mutating func replaceRun(_ slot: Int, with newRun: Run) {
        // The old run is read where it lies, then overwritten: copied out, the whole run (whose
        // waiting payload holds a component) went through outlined generic copies.
        cancelRun(at: slot)
        run[slot] = newRun
    }

    /// Cancels a slot's run where it lies (and a channel's pending delivery), leaving it in place.
    @inlinable
    mutating func cancelRun(at slot: Int) {
        switch run[slot] {
        case .idle, .starting: break
        case .oneShot(_, let token): token.cancelRun()
        case .waiting(_, let token, _): token.cancel()
        case .channel(_, let token, _, _):
            deliverTimer[slot].map { $0.token.cancel() }
            deliverTimer[slot] = nil
            token.cancel()
        }
    }

    @inlinable
    mutating func freeIfEmpty(_ slot: Int) {
        guard case .idle = run[slot], deliverTimer[slot] == nil, settleTimer[slot] == nil, stamp[slot] == nil,
            let key = slotKey[slot]
        else { return }
        slotIndex[key] = nil
        slotKey[slot] = nil
        freeSlots.append(slot)
    }
}
