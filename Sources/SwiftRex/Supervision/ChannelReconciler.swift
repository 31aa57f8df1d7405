/// One desired channel as reconcile compares it: its identity, reset and broadcast keys, settle,
/// the component that opens it, and where it sits.
@usableFromInline
internal struct ReconcileEntry<Action: Sendable> {
    @usableFromInline var key: AnyHashableSendable
    @usableFromInline var reset: AnyHashableSendable?
    @usableFromInline var broadcast: AnyHashableSendable?
    @usableFromInline var settle: Duration?
    @usableFromInline var component: Effect<Action>.Component
    @usableFromInline var traits: ChannelTraits
    /// The supervision segment (one supervision unit of the behavior) that wants the channel.
    @usableFromInline var segment: Int
    /// The channel's place in container order (segment, element, index within the element),
    /// which orders leavers (closed in container order) even after single-element reconciles;
    /// `nil`: its desired position.
    @usableFromInline var order: UInt64?

    /// An entry. Always inlined: it is built once per desired channel.
    @inlinable @inline(__always)
    init(
        key: AnyHashableSendable, reset: AnyHashableSendable?, broadcast: AnyHashableSendable?, settle: Duration?,
        component: Effect<Action>.Component, traits: ChannelTraits, segment: Int = 0, order: UInt64? = nil
    ) {
        self.key = key
        self.reset = reset
        self.broadcast = broadcast
        self.settle = settle
        self.component = component
        self.traits = traits
        self.segment = segment
        self.order = order
    }

    /// The identity as plain data (see `ChannelIdentity`).
    @inlinable var identity: ChannelIdentity { ChannelIdentity(id: key, reset: reset, broadcast: broadcast) }

    /// What the engine needs to open, re-create or feed the channel.
    @inlinable var request: ChannelRequest<Action> { ChannelRequest(key: key, component: component, traits: traits, settle: settle) }
}

/// Supervision's reconcile (<doc:SupervisionAndChannels#How-reconcile-decides>): remembers the
/// desired set of the last reconcile and, given the next one, decides what happens to each
/// channel: leavers close (in their previous container order) before anything opens, a first
/// appearance opens at once, a reset-key change re-creates (after its settle time), a broadcast
/// change is delivered, and a channel cancelled by id stays closed until it leaves the set and
/// comes back. An unchanged set decides nothing and allocates nothing.
///
/// A value: it decides, into ``operations``, and the engine performs
/// (``reconcile(_:orders:depth:on:)`` hands them over). Parts of the set (a segment, a collection
/// element) are reconciled alone when that is sound (see `ChannelReconciler+Partial.swift`).
@usableFromInline
internal struct ChannelReconciler<Action: Sendable> {
    // Memory: the previous desired set. Positions are unordered (a partial reconcile swaps a
    // leaver out); `memorySeq` keeps each channel's container order.
    @usableFromInline var memoryIndex: [AnyHashableSendable: Int] = [:]
    @usableFromInline var memoryKey: [AnyHashableSendable] = []
    /// Each remembered channel's identity as plain data (see `ChannelIdentity`).
    @usableFromInline var memoryIdentity: [ChannelIdentity] = []
    @usableFromInline var memoryReset: [AnyHashableSendable?] = []
    @usableFromInline var memoryBroadcast: [AnyHashableSendable?] = []
    /// Whether the channel was cancelled by id: it stays closed until it leaves the set.
    @usableFromInline var memorySuppressed: [Bool] = []
    @usableFromInline var memoryEpoch: [UInt64] = []
    @usableFromInline var memorySeq: [UInt64] = []
    @usableFromInline var memorySegment: [Int] = []
    /// How many remembered channels each segment has (indexed by segment; missing: none).
    @usableFromInline var segmentCounts: [Int] = []
    @usableFromInline var nextSeq: UInt64 = 0
    @usableFromInline var epoch: UInt64 = 0
    /// Whether the last full reconcile saw two entries with the same key: partial reconciles are
    /// then unsound (one part's leaver may be another's keeper) and are refused.
    @usableFromInline var lastFullHadDuplicates = false
    /// Whether memory lists the channels in the order of the last full desired set (no partial
    /// reconcile since): an unchanged set is then recognised position by position, no hashing.
    @usableFromInline var isInDesiredOrder = false
    /// The state of a hashed comparison with memory (see `beginMatch`).
    @usableFromInline var matchDistinct = 0
    @usableFromInline var matchFailed = false

    /// What the last decision asks the engine to do, in order.
    @usableFromInline var operations: [ChannelOperation<Action>] = []
    // Reused buffers: the entries of a changed set, and the suppressed flags of a span.
    @usableFromInline var entryBuffer: [ReconcileEntry<Action>] = []
    @usableFromInline var flagBuffer: [Bool] = []

    @inlinable
    init() {}

    /// The number of channels remembered.
    @inlinable var reconciledCount: Int { memoryKey.count }

    /// Reconciles the supervised channels (phase 5): `sets[s]` holds the channels segment `s` (one
    /// supervision unit) wants, `orders[s]` their container orders (empty: their positions); the
    /// engine performs what was decided, the channels' actions carrying `depth`. Returns whether
    /// the set differed from the last one.
    @inlinable @MainActor
    mutating func reconcile(_ sets: [Keep<Action>], orders: [[UInt64]], depth: Int, on engine: EffectEngine<Action>) -> Bool {
        suppress(engine.takeCancelledIDs())
        let changed = plan(sets, orders: orders)
        perform(on: engine, depth: depth)
        return changed
    }

    /// Hands the decided operations to the engine.
    @inlinable @MainActor
    mutating func perform(on engine: EffectEngine<Action>, depth: Int) {
        guard !operations.isEmpty else { return }
        engine.perform(operations, depth: depth)
        operations.removeAll(keepingCapacity: true)
    }

    /// Marks the remembered channels among `ids` as cancelled by id.
    @inlinable
    mutating func suppress(_ ids: some Collection<AnyHashableSendable>) {
        // Most reconciles follow no cancel: an empty set is not walked.
        guard !ids.isEmpty else { return }
        for id in ids {
            if let index = memoryIndex[id] { memorySuppressed[index] = true }
        }
    }

    /// Decides, into ``operations``, what brings the channels in line with `sets` (see
    /// ``reconcile(_:orders:depth:on:)``), and remembers them. An unchanged set is recognised from
    /// the channels' identities alone: nothing is built and nothing allocated. A set that differs
    /// from memory in one short run of positions (a channel changed, one left and another came in
    /// its place) is decided as that run alone.
    @inlinable
    mutating func plan(_ sets: [Keep<Action>], orders: [[UInt64]]) -> Bool {
        var total = 0
        for index in sets.indices { total += sets[index].count }
        if isInDesiredOrder {
            let (prefix, suffix) = matchingEnds(sets, total: total)
            if prefix == total, total == reconciledCount { return false }
            let span = prefix..<(total - suffix)
            if span.count == reconciledCount - prefix - suffix, span.count <= max(8, total / 4) {
                var entries = takeEntryBuffer()
                var start = 0
                for segment in sets.indices {
                    let end = start + sets[segment].count
                    let lower = max(start, span.lowerBound)
                    let upper = min(end, span.upperBound)
                    if lower < upper {
                        Self.appendEntries(sets[segment], (lower - start)..<(upper - start), segment: segment, orders: orders[segment], to: &entries)
                    }
                    start = end
                }
                let done = planSpan(span, desired: entries)
                entries.removeAll(keepingCapacity: true)
                entryBuffer = entries
                if done { return true }
            }
        } else if matchesByKey(sets) {
            return false
        }
        var entries = takeEntryBuffer()
        for segment in sets.indices {
            Self.appendEntries(sets[segment], 0..<sets[segment].count, segment: segment, orders: orders[segment], to: &entries)
        }
        planFull(entries)
        entries.removeAll(keepingCapacity: true)
        entryBuffer = entries
        return true
    }

    /// The reused entry buffer, moved out of `self` (so appending to it copies nothing).
    @inlinable
    mutating func takeEntryBuffer() -> [ReconcileEntry<Action>] {
        var entries: [ReconcileEntry<Action>] = []
        swap(&entries, &entryBuffer)
        entries.removeAll(keepingCapacity: true)
        return entries
    }

    /// The entries of `channels[range]`, channels of `segment`; `orders` holds the container
    /// orders of all of `channels` (empty: their positions in the segment).
    @inlinable
    static func appendEntries(
        _ channels: Keep<Action>, _ range: Range<Int>, segment: Int, orders: [UInt64], to entries: inout [ReconcileEntry<Action>]
    ) {
        for index in range {
            guard let payload = channels[index].component.channel else { continue }
            entries.append(
                ReconcileEntry(
                    key: channels[index].id,
                    reset: channels[index].resetIdentity,
                    broadcast: channels[index].broadcastIdentity,
                    settle: channels[index].settle,
                    component: channels[index].component,
                    traits: ChannelTraits(payload),
                    segment: segment,
                    order: orders.isEmpty ? containerOrder(segment: segment, ordinal: index, index: 0) : orders[index]
                ))
        }
    }

    /// Decides the full desired set: leavers first (in their previous container order), then each
    /// entry in order. A later entry replaces an earlier one with the same key, at the first
    /// position.
    @inlinable
    mutating func planFull(_ desired: [ReconcileEntry<Action>]) {
        if isUnchanged(desired) { return }
        var position: [AnyHashableSendable: Int] = [:]
        position.reserveCapacity(desired.count)
        var hasDuplicates = false
        for index in desired.indices where position.updateValue(index, forKey: desired[index].key) != nil {
            hasDuplicates = true
            break
        }
        let unique = hasDuplicates ? Self.deduplicated(desired, position: &position) : desired
        lastFullHadDuplicates = hasDuplicates

        var leavers: [Int] = []
        for index in memoryKey.indices where position[memoryKey[index]] == nil { leavers.append(index) }
        if leavers.count > 1 { leavers.sort { memorySeq[$0] < memorySeq[$1] } }
        for index in leavers { operations.append(.close(memoryKey[index])) }

        var suppressed: [Bool] = []
        suppressed.reserveCapacity(unique.count)
        planEach(unique, suppressed: &suppressed)
        memoryIndex = position
        rememberInOrder(unique, suppressed: suppressed)
    }

    /// `desired` without duplicate keys: a later entry replaces an earlier one at the first
    /// position (keeping that position's container order). Refills `position`.
    @inlinable
    static func deduplicated(_ desired: [ReconcileEntry<Action>], position: inout [AnyHashableSendable: Int]) -> [ReconcileEntry<Action>] {
        position.removeAll(keepingCapacity: true)
        var unique: [ReconcileEntry<Action>] = []
        unique.reserveCapacity(desired.count)
        for index in desired.indices {
            if let existing = position[desired[index].key] {
                let order = unique[existing].order
                unique[existing] = desired[index]
                unique[existing].order = order
            } else {
                position[desired[index].key] = unique.count
                unique.append(desired[index])
            }
        }
        return unique
    }

    /// Decides each entry in order, against memory as it was: a first appearance opens; a
    /// remembered one not cancelled by id is re-created or fed when its keys changed. Appends
    /// each entry's cancelled-by-id flag to `suppressed`.
    @inlinable
    mutating func planEach(_ entries: [ReconcileEntry<Action>], suppressed: inout [Bool]) {
        for index in entries.indices {
            guard let old = memoryIndex[entries[index].key] else {
                suppressed.append(false)
                operations.append(.open(entries[index].request))
                continue
            }
            suppressed.append(memorySuppressed[old])
            if !memorySuppressed[old] { planChange(entries, index, remembered: old) }
        }
    }

    /// A desired entry that is remembered (and not suppressed): a reset-key change re-creates it
    /// (after its settle time), a broadcast change is delivered.
    @inlinable
    mutating func planChange(_ entries: [ReconcileEntry<Action>], _ index: Int, remembered old: Int) {
        if memoryReset[old] != entries[index].reset {
            operations.append(.recreate(entries[index].request))
        } else if memoryBroadcast[old] != entries[index].broadcast {
            operations.append(.redeliver(entries[index].request))
        }
    }

    /// Refills memory with `unique`, in its order. The arrays are refilled in locals moved out of
    /// `self`, so their storage is reused and each append is a plain write.
    @inlinable
    mutating func rememberInOrder(_ unique: [ReconcileEntry<Action>], suppressed: [Bool]) {
        var keys = Self.takeEmptied(&memoryKey)
        var identities = Self.takeEmptied(&memoryIdentity)
        var resets = Self.takeEmptied(&memoryReset)
        var broadcasts = Self.takeEmptied(&memoryBroadcast)
        var seqs = Self.takeEmptied(&memorySeq)
        var segments = Self.takeEmptied(&memorySegment)
        var counts = Self.takeEmptied(&segmentCounts)
        let firstSeq = nextSeq
        for index in unique.indices {
            keys.append(unique[index].key)
            identities.append(unique[index].identity)
            resets.append(unique[index].reset)
            broadcasts.append(unique[index].broadcast)
            seqs.append(unique[index].order ?? firstSeq &+ UInt64(index))
            let segment = unique[index].segment
            segments.append(segment)
            while counts.count <= segment { counts.append(0) }
            counts[segment] &+= 1
        }
        memoryKey = keys
        memoryIdentity = identities
        memoryReset = resets
        memoryBroadcast = broadcasts
        memorySeq = seqs
        memorySegment = segments
        segmentCounts = counts
        nextSeq &+= UInt64(unique.count)
        memorySuppressed = suppressed
        memoryEpoch = Array(repeating: epoch, count: unique.count)
        isInDesiredOrder = true
    }

    /// The array's elements removed, its storage moved out (so `array` no longer shares it).
    @inlinable
    static func takeEmptied<Element>(_ array: inout [Element]) -> [Element] {
        var taken: [Element] = []
        swap(&taken, &array)
        taken.removeAll(keepingCapacity: true)
        return taken
    }
}
