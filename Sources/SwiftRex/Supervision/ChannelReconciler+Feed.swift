// One collection element fed in place: the addressed element's own channels, compared with what
// memory holds for it, and a changed broadcast value delivered, with no patch built and nothing
// lifted into the store's actions unless a channel must be opened.

/// What feeding one element in place found (see `ChannelReconciler.feedElement`).
@usableFromInline
internal enum ElementFeed {
    /// The element wants the same channels, unchanged: nothing to do.
    case unchanged
    /// Only broadcast values changed: delivered and remembered.
    case fed
    /// Something else changed: nothing was decided.
    case other
}

/// Where an element's feed goes: its supervision segment, the causal depth of what it delivers,
/// and the engine that delivers it.
@usableFromInline
internal struct ElementFeedTarget<Action: Sendable> {
    @usableFromInline let segment: Int
    @usableFromInline let depth: Int
    @usableFromInline let engine: EffectEngine<Action>

    @inlinable
    init(segment: Int, depth: Int, engine: EffectEngine<Action>) {
        self.segment = segment
        self.depth = depth
        self.engine = engine
    }
}

/// What a tracker's feed of the addressed element did (see
/// `ElementSupervisionTracking.feedAddressed`).
@usableFromInline
internal enum AddressedFeed {
    /// The action addresses no element the lift knew: nothing was evaluated.
    case unknown
    /// The element wants the same channels, unchanged.
    case unchanged
    /// Only broadcast values changed: delivered and remembered.
    case fed
    /// Not fed: the element's channels, lifted, are in the caller's buffer; the keys it wanted
    /// and its ordinal.
    case lifted(previous: ElementKeys, ordinal: Int)
}

extension ChannelReconciler {
    /// Feeds one collection element's channels in place when they are the ones it wanted
    /// (`previous`): the same keys in the same order, remembered for the target's segment at the
    /// element's `ordinal` with the same reset keys. A changed broadcast value is then delivered
    /// (unless the channel was cancelled by id) and remembered, as a patch would decide, with no
    /// patch built. `.other`, having decided nothing, when anything else changed (a channel came,
    /// went, moved or is re-created) or a patch would be refused (the last full set had
    /// duplicates): the caller then reconciles a patch.
    ///
    /// `channels` are the element's own, not lifted into the store's actions: `isKey(position,
    /// key)` says whether `key` is channel `position`'s key in the store, and `lift(position,
    /// key)` lifts it, called only for a channel that must be opened (it is not live).
    @inlinable @MainActor
    mutating func feedElement<Local: Sendable>(
        _ channels: Keep<Local>, previous: ElementKeys, ordinal: Int, target: ElementFeedTarget<Action>,
        isKey: (Int, AnyHashableSendable) -> Bool, lift: (Int, AnyHashableSendable) -> Channel<Action>
    ) -> ElementFeed {
        guard channels.count == previous.count else { return .other }
        epoch &+= 1
        var changed = false
        // The memory position of the first channel, found once (most elements have one channel).
        var first = 0
        for position in channels.indices {
            // The same key at the same place, then looked up once.
            let key = previous[position]
            guard isKey(position, key),
                let index = memoryIndex[key], memorySegment[index] == target.segment, memoryEpoch[index] != epoch,
                memoryReset[index] == channels[position].resetIdentity,
                memorySeq[index] == containerOrder(segment: target.segment, ordinal: ordinal, index: position)
            else { return .other }
            memoryEpoch[index] = epoch
            if position == 0 { first = index }
            if memoryBroadcast[index] != channels[position].broadcastIdentity { changed = true }
        }
        guard changed else { return .unchanged }
        guard !lastFullHadDuplicates else { return .other }
        // The engine records cancellations already: the reconcile that filled memory asked.
        if target.engine.hasCancelledIDs { suppress(target.engine.takeCancelledIDs()) }
        // Most elements have one channel: it is fed directly, with no operation built.
        if channels.count == 1 {
            feedLone(channels, key: previous[0], remembered: first, target: target, lift: lift)
            return .fed
        }
        for position in channels.indices {
            let key = previous[position]
            guard let index = position == 0 ? first : memoryIndex[key],
                memoryBroadcast[index] != channels[position].broadcastIdentity,
                // A channel always carries its payload.
                let payload = channels[position].component.channel
            else { continue }
            memoryBroadcast[index] = channels[position].broadcastIdentity
            // The same id and reset key: only the broadcast value changed.
            memoryIdentity[index].setBroadcast(channels[position].broadcastIdentity)
            guard !memorySuppressed[index] else { continue }
            let lifted = lift(position, key)
            operations.append(
                .redeliver(ChannelRequest(key: key, component: lifted.component, traits: ChannelTraits(payload), settle: lifted.settle)))
        }
        perform(on: target.engine, depth: target.depth)
        return .fed
    }

    /// `feedElement` for an element's channels already lifted into the store's actions: `.lifted`
    /// (they stay where they are) when it cannot decide.
    @inlinable @MainActor
    mutating func feedLifted(_ channels: Keep<Action>, previous: ElementKeys, ordinal: Int, target: ElementFeedTarget<Action>) -> AddressedFeed {
        let feed = feedElement(
            channels, previous: previous, ordinal: ordinal, target: target, isKey: { position, key in channels[position].id == key },
            lift: { position, _ in channels[position] })
        switch feed {
        case .unchanged: return .unchanged
        case .fed: return .fed
        case .other: return .lifted(previous: previous, ordinal: ordinal)
        }
    }

    /// Delivers and remembers the changed broadcast value of an element's one channel
    /// (`channels[0]`, under `key`, remembered at `index`): straight into the live channel, or
    /// lifted and redelivered when the engine must open it (or pace the delivery). Out of line:
    /// inlined, it grows every store's dispatch path that reaches `feedElement`.
    @inlinable @inline(never) @MainActor
    mutating func feedLone<Local: Sendable>(
        _ channels: Keep<Local>, key: AnyHashableSendable, remembered index: Int, target: ElementFeedTarget<Action>,
        lift: (Int, AnyHashableSendable) -> Channel<Action>
    ) {
        // Read in place: the declaration is shared, not copied.
        let declaration = channels[0].declaration
        guard let payload = declaration.component.channel else { return }
        memoryBroadcast[index] = declaration.broadcastIdentity
        // The same id and reset key: only the broadcast value changed.
        memoryIdentity[index].setBroadcast(declaration.broadcastIdentity)
        guard !memorySuppressed[index] else { return }
        if target.engine.deliverIfLive(payload.value, key: key) { return }
        let lifted = lift(0, key)
        target.engine.redeliver(key: key, component: lifted.component, traits: ChannelTraits(payload), depth: target.depth)
    }
}
