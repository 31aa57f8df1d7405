extension ChannelReconciler {
    // MARK: Comparing a desired set with memory

    /// How many positions of `sets`, concatenated, equal memory (which is in desired order) from
    /// the front, and then from the back. A channel whose keys are all `Int`s (or absent) is told
    /// by its identity's words alone; any other is compared by its keys when the words agree.
    /// No allocation.
    @inlinable
    func matchingEnds(_ sets: [Keep<Action>], total: Int) -> (prefix: Int, suffix: Int) {
        // Held in a local, and walked as a slice: each loop checks one bound per channel.
        let identities = memoryIdentity
        let remembered = identities.count
        var prefix = 0
        scan: for index in sets.indices {
            let set = sets[index]
            let count = min(set.count, remembered &- prefix)
            var offset = 0
            for identity in identities[prefix..<(prefix &+ count)] {
                guard set[offset].identity == identity else { break }
                if !identity.isExact, !hasRememberedKeys(set[offset], at: prefix &+ offset) { break }
                offset &+= 1
            }
            prefix &+= offset
            if offset < set.count { break scan }
        }
        var suffix = 0
        let limit = min(total, remembered) &- prefix
        back: for index in sets.indices.reversed() {
            let set = sets[index]
            let count = min(set.count, limit &- suffix)
            let end = remembered &- suffix
            var offset = 0
            var position = set.count
            for at in identities[(end &- count)..<end].indices.reversed() {
                position &-= 1
                guard set[position].identity == identities[at] else { break }
                if !identities[at].isExact, !hasRememberedKeys(set[position], at: at) { break }
                offset &+= 1
            }
            suffix &+= offset
            if offset < set.count || suffix >= limit { break back }
        }
        return (prefix, suffix)
    }

    /// Whether `channel` has the keys remembered at `at` (its identity's words already agree).
    /// Out of line: the comparison loops keep only what they stream through.
    @inlinable @inline(never)
    func hasRememberedKeys(_ channel: Channel<Action>, at: Int) -> Bool {
        channel.declaration.hasKeys(memoryKey[at], reset: memoryReset[at], broadcast: memoryBroadcast[at])
    }

    /// Whether `sets`, concatenated, are the desired set memory holds, compared by key (memory is
    /// not in desired order after partial reconciles).
    @inlinable
    mutating func matchesByKey(_ sets: [Keep<Action>]) -> Bool {
        beginMatch()
        for index in sets.indices {
            for position in sets[index].indices
            where !matchNext(sets[index][position].id, reset: sets[index][position].resetIdentity, broadcast: sets[index][position].broadcastIdentity)
            {
                return false
            }
        }
        return endMatch()
    }

    /// True when every desired entry matches memory and no remembered key is missing. No allocation.
    @inlinable
    mutating func isUnchanged(_ desired: [ReconcileEntry<Action>]) -> Bool {
        beginMatch()
        for index in desired.indices where !matchNext(desired[index].key, reset: desired[index].reset, broadcast: desired[index].broadcast) {
            return false
        }
        return endMatch()
    }

    /// Starts comparing a desired set with memory, one identity at a time (`matchNext`), in
    /// desired order; `endMatch` says whether it matched exactly: every key remembered with the
    /// same reset and broadcast keys, in the same order, and no remembered key missing. O(n) hash
    /// lookups, no allocation. A reordered set is not a match: memory must follow the container
    /// order, since the next reconcile closes leavers in that order.
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

    /// The memory position of `key` when it is remembered with these reset and broadcast keys.
    @inlinable
    func rememberedIndex(_ key: AnyHashableSendable, reset: AnyHashableSendable?, broadcast: AnyHashableSendable?) -> Int? {
        guard let index = memoryIndex[key], memoryReset[index] == reset, memoryBroadcast[index] == broadcast else { return nil }
        return index
    }

    // MARK: Comparing one part

    /// Whether the channels one part of the desired set wants (in container `orders`; empty:
    /// their positions in `segment`) are the ones it wanted (`previous`), unchanged, in the same
    /// order and all remembered for `segment`. No allocation.
    @inlinable
    mutating func patchMatches(
        _ segment: Int, previous: some RandomAccessCollection<AnyHashableSendable>, channels: Keep<Action>, orders: [UInt64]
    ) -> Bool {
        epoch &+= 1
        var distinct = 0
        for position in channels.indices {
            guard
                let index = rememberedIndex(
                    channels[position].id, reset: channels[position].resetIdentity, broadcast: channels[position].broadcastIdentity),
                memorySegment[index] == segment,
                memorySeq[index] == Self.order(of: position, segment: segment, orders: orders)
            else { return false }
            if memoryEpoch[index] != epoch {
                memoryEpoch[index] = epoch
                distinct += 1
            }
        }
        guard distinct == previous.count else { return false }
        for key in previous {
            guard let index = memoryIndex[key], memoryEpoch[index] == epoch else { return false }
        }
        return true
    }

    /// Whether `channels` (in container `orders`; empty: their positions) are exactly the channels
    /// memory holds for `segment`, unchanged and in the same order: no list of what the segment
    /// wanted before is needed. No allocation.
    @inlinable
    mutating func segmentMatches(_ segment: Int, channels: Keep<Action>, orders: [UInt64]) -> Bool {
        guard channels.count == (segment < segmentCounts.count ? segmentCounts[segment] : 0) else { return false }
        epoch &+= 1
        for position in channels.indices {
            guard
                let index = rememberedIndex(
                    channels[position].id, reset: channels[position].resetIdentity, broadcast: channels[position].broadcastIdentity),
                memorySegment[index] == segment,
                memorySeq[index] == Self.order(of: position, segment: segment, orders: orders), memoryEpoch[index] != epoch
            else { return false }
            memoryEpoch[index] = epoch
        }
        return true
    }

    /// The container order of the channel at `position` of a part of `segment`.
    @inlinable @inline(__always)
    static func order(of position: Int, segment: Int, orders: [UInt64]) -> UInt64 {
        orders.isEmpty ? containerOrder(segment: segment, ordinal: position, index: 0) : orders[position]
    }
}
