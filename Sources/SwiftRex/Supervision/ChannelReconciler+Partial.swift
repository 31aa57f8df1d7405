/// One part of the desired set reconciled alone: what one segment (or one element of a collection
/// segment) wants now, and the keys it wanted before.
@usableFromInline
internal struct SegmentPatch<Action: Sendable> {
    @usableFromInline let segment: Int
    @usableFromInline let previous: [AnyHashableSendable]
    @usableFromInline let channels: Keep<Action>
    /// The container order of each channel.
    @usableFromInline let orders: [UInt64]
    /// What the patch covers.
    @usableFromInline let kind: Kind

    @inlinable
    init(segment: Int, previous: [AnyHashableSendable], channels: Keep<Action>, orders: [UInt64], kind: Kind) {
        self.segment = segment
        self.previous = previous
        self.channels = channels
        self.orders = orders
        self.kind = kind
    }

    /// What a patch covers.
    @usableFromInline
    enum Kind {
        /// The whole segment.
        case whole
        /// The element the action addressed.
        case addressed
        /// One element its container's journal says was edited.
        case edited
    }
}

extension ChannelReconciler {
    // MARK: A span of positions

    /// Decides a desired set that equals memory (in desired order) outside `span`: the channels
    /// remembered at `span` leave or are replaced by `desired`, in place, so memory stays in
    /// desired order. Leavers of the span close first, in container order; then each desired
    /// entry is decided as a full reconcile would.
    ///
    /// Returns `false`, deciding nothing, when that cannot be done soundly: memory is not in
    /// desired order, the last full set had duplicates, `desired` is not as long as `span`, or a
    /// desired key is remembered outside the span or wanted twice. The caller then decides in full.
    @inlinable
    mutating func planSpan(_ span: Range<Int>, desired: [ReconcileEntry<Action>]) -> Bool {
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
        for key in leaverKeys { operations.append(.close(key)) }
        // The flags are read before memory is rewritten: a desired key may sit elsewhere in the span.
        var suppressed = Self.takeEmptied(&flagBuffer)
        planEach(desired, suppressed: &suppressed)
        for key in leaverKeys { memoryIndex[key] = nil }
        for offset in desired.indices {
            let position = span.lowerBound + offset
            memoryIndex[desired[offset].key] = position
            memoryKey[position] = desired[offset].key
            memoryIdentity[position] = desired[offset].identity
            memoryReset[position] = desired[offset].reset
            memoryBroadcast[position] = desired[offset].broadcast
            memorySuppressed[position] = suppressed[offset]
            memorySeq[position] = desired[offset].order ?? nextSeq &+ UInt64(offset)
            countSegment(memorySegment[position], by: -1)
            memorySegment[position] = desired[offset].segment
            countSegment(desired[offset].segment, by: 1)
        }
        nextSeq &+= UInt64(desired.count)
        flagBuffer = suppressed
        return true
    }

    // MARK: Patches (segments and single elements)

    /// Reconciles parts of the desired set alone (see ``planPatches(_:)``), leaving every other
    /// channel alone; the engine performs what was decided. Returns `false`, doing nothing, when
    /// that cannot be done soundly: the caller then reconciles the full set.
    @inlinable @MainActor
    mutating func reconcilePatches(_ patches: [SegmentPatch<Action>], depth: Int, on engine: EffectEngine<Action>) -> Bool {
        suppress(engine.takeCancelledIDs())
        guard planPatches(patches) else { return false }
        perform(on: engine, depth: depth)
        return true
    }

    /// Decides parts of the desired set (whole segments, or single collection elements), leaving
    /// every other remembered channel alone. Each patch gives the keys its part wanted before and
    /// the channels it wants now, with their container orders. Leavers of every patch close first,
    /// in their previous container order; then each patch's entries are decided in order, as a
    /// full reconcile would.
    ///
    /// Returns `false`, deciding nothing, when that cannot be done soundly: the last full
    /// reconcile saw duplicate keys, a patch wants a key twice, a patch wants a key that another
    /// part holds, or a patch's previous keys are not remembered for its segment.
    @inlinable
    mutating func planPatches(_ patches: [SegmentPatch<Action>]) -> Bool {
        guard !lastFullHadDuplicates else { return false }
        var entries = takeEntryBuffer()
        defer {
            entries.removeAll(keepingCapacity: true)
            entryBuffer = entries
        }
        var ends: [Int] = []
        ends.reserveCapacity(patches.count)
        for patch in patches {
            Self.appendEntries(patch.channels, 0..<patch.channels.count, segment: patch.segment, orders: patch.orders, to: &entries)
            ends.append(entries.count)
        }
        guard patchesAreSound(patches, entries, ends) else { return false }
        // Leavers: previous keys no patch wants any more, in their previous container order.
        var leavers: [Int] = []
        for patch in patches {
            for key in patch.previous {
                if let index = memoryIndex[key], memoryEpoch[index] == epoch &- 1 { leavers.append(index) }
            }
        }
        if leavers.count > 1 { leavers.sort { memorySeq[$0] < memorySeq[$1] } }
        let leaverKeys = leavers.map { memoryKey[$0] }
        for key in leaverKeys {
            operations.append(.close(key))
            forget(key)
        }
        for index in entries.indices {
            guard let old = memoryIndex[entries[index].key] else {
                operations.append(.open(entries[index].request))
                remember(entries[index])
                continue
            }
            if !memorySuppressed[old] { planChange(entries, index, remembered: old) }
            memoryReset[old] = entries[index].reset
            memoryBroadcast[old] = entries[index].broadcast
            memoryIdentity[old] = entries[index].identity
            if let order = entries[index].order { memorySeq[old] = order }
        }
        isInDesiredOrder = false
        return true
    }

    /// Marks every previous key of the patches (`epoch - 1`), then every wanted key that is
    /// remembered (`epoch`); `false` when a patch's previous key is not its segment's, a wanted key
    /// is remembered for another part, or a key is wanted twice. `ends[p]` ends patch `p`'s entries.
    @inlinable
    mutating func patchesAreSound(_ patches: [SegmentPatch<Action>], _ entries: [ReconcileEntry<Action>], _ ends: [Int]) -> Bool {
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
        var start = 0
        for (patch, end) in zip(patches, ends) {
            for index in start..<end {
                if let remembered = memoryIndex[entries[index].key] {
                    // Remembered: it must be this patch's own, and wanted once.
                    guard memoryEpoch[remembered] == previousMark, memorySegment[remembered] == patch.segment else { return false }
                    memoryEpoch[remembered] = wantedMark
                } else if !fresh.insert(entries[index].key).inserted {
                    return false
                }
            }
            start = end
        }
        return true
    }

    /// Adds a first-seen entry to memory, established after everything remembered.
    @inlinable
    mutating func remember(_ entry: ReconcileEntry<Action>) {
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

    /// Removes a key from memory (swapping the last entry into its place).
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

    /// Adds `delta` to `segment`'s count of remembered channels.
    @inlinable
    mutating func countSegment(_ segment: Int, by delta: Int) {
        while segmentCounts.count <= segment { segmentCounts.append(0) }
        segmentCounts[segment] &+= delta
    }

    /// Records new container orders for the channels of `set`: their elements moved while the
    /// desired set stayed the same.
    @inlinable
    mutating func updateOrders(_ set: Keep<Action>, orders: [UInt64]) {
        guard orders.count == set.count else { return }
        for position in set.indices {
            if let index = memoryIndex[set[position].id] { memorySeq[index] = orders[position] }
        }
    }
}
