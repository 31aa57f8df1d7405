extension ElementSupervisionTracker {
    /// A tracker over one collection lift's container, reached through the lift's closures, with
    /// `channels` the channels one element wants (re-embedded into the app's actions), given the
    /// keys it wanted last when they are known (reused when unchanged); `local` the channels one
    /// element wants in its own actions, and `lift` one of them lifted (given the key it had) under
    /// the lift `site`. `watch` tells a plain array's edits (unused with a journal), `elementAt` reads the element
    /// at an offset its edits name. Inlined where the lift is made, so the per-element work below is
    /// specialised for the app's types.
    @MainActor @inlinable
    static func make<LS, LE, LA: Sendable>(
        withElement: @escaping @Sendable (ID, GS, (LS) -> Void) -> Bool,
        forEachElement: @escaping @Sendable (GS, (ID, LS) -> Void) -> Void,
        forEachSlotted: (@Sendable (GS, (ID, Int, LS) -> Void) -> Void)?,
        journal: LaneJournal<GS, ID>?,
        watch: ContainerWatch<GS, ID>?,
        elementAt: (@Sendable (Int, GS, (LS) -> Void) -> Bool)?,
        addressedID: @escaping @Sendable (GA) -> ID?,
        narrow: @escaping @Sendable (GE) -> LE,
        site: LiftSite,
        local: @escaping @MainActor (LS, LE) -> Keep<LA>,
        lift: @escaping (ID, Channel<LA>, AnyHashableSendable?) -> Channel<GA>,
        channels: @escaping @MainActor (ID, LS, LE, ElementKeys, inout Keep<GA>) -> Void
    ) -> ElementSupervisionTracker {
        let evaluateOne: EvaluateOne = { id, state, environment, remembered, keep in
            withElement(id, state) { channels(id, $0, narrow(environment), remembered, &keep) }
        }
        let evaluateAddressed: EvaluateAddressed = { action, state, environment, memo, addressed, keep in
            guard let id = addressedID(action), let remembered = memo[id] else { return nil }
            addressed = id
            _ = withElement(id, state) { channels(id, $0, narrow(environment), remembered.keys, &keep) }
            return remembered
        }
        let evaluateAt: EvaluateAt = { id, offset, state, environment, remembered, keep in
            guard let elementAt else { return false }
            return elementAt(offset, state) { channels(id, $0, narrow(environment), remembered, &keep) }
        }
        let edits = Self.editEvaluations(journal: journal, evaluateOne: evaluateOne, evaluateAt: evaluateAt, evaluateAddressed: evaluateAddressed)
        return ElementSupervisionTracker(
            journal: journal, watch: journal == nil ? watch : nil,
            evaluateAddressed: evaluateAddressed,
            feedAddressed: Self.addressedFeed(
                withElement: withElement, addressedID: addressedID, narrow: narrow, site: site, local: local, lift: lift),
            commitAddressed: { memo, addressed, keys in
                guard let id = addressed else { return }
                memo[id]?.keys = keys
            },
            evaluateAll: { state, environment, keep, ids, keys, ordinals in
                let local = narrow(environment)
                @MainActor func record(_ id: ID, _ ordinal: Int, _ slice: LS) {
                    let start = keep.count
                    channels(id, slice, local, .none, &keep)
                    ordinals.append(ordinal)
                    ids.append(id)
                    keys.append(ElementKeys(keep, start..<keep.count))
                }
                // A journaled container's slots are stable across edits; a plain one's positions
                // are the ordinals.
                if let forEachSlotted {
                    forEachSlotted(state) { id, slot, slice in record(id, slot, slice) }
                } else {
                    forEachElement(state) { id, slice in record(id, ids.count, slice) }
                }
            },
            buildMemo: Self.buildMemo, updateMemoKeys: Self.updateMemoKeys, memoMatches: Self.memoMatches,
            evaluateJournaled: edits.journaled, evaluateWatched: edits.watched,
            rememberEdits: Self.rememberEdits, clearLists: Self.emptyPending,
            sameIDs: Self.sameIDs, rememberedKeys: Self.rememberedKeys
        )
    }

    /// Feeds the element an action addresses in place (see `FeedAddressed`): the element's own
    /// channels, lifted only when the feed cannot decide.
    @MainActor @inlinable
    static func addressedFeed<LS, LE, LA: Sendable>(
        withElement: @escaping @Sendable (ID, GS, (LS) -> Void) -> Bool, addressedID: @escaping @Sendable (GA) -> ID?,
        narrow: @escaping @Sendable (GE) -> LE, site: LiftSite, local: @escaping @MainActor (LS, LE) -> Keep<LA>,
        lift: @escaping (ID, Channel<LA>, AnyHashableSendable?) -> Channel<GA>
    ) -> FeedAddressed {
        { action, state, environment, memo, addressed, reconciler, target, keep in
            guard let id = addressedID(action), let slot = memo.index(forKey: id) else { return .unknown }
            addressed = id
            // A gone element wants no channels. (An `if`: a closure here, inheriting the main
            // actor, would check the executor at run time.)
            var wanted: Keep<LA> = []
            _ = withElement(id, state) { wanted = local($0, narrow(environment)) }
            let feed = memo.values[slot].read { previous, ordinal in
                reconciler.feedElement(
                    wanted, previous: previous, ordinal: ordinal, target: target,
                    // The remembered keys were made for this element.
                    isKey: { position, key in ElementEffectID.isKey(key, site: site, inner: wanted[position].id) },
                    lift: { position, key in lift(id, wanted[position], key) })
            }
            switch feed {
            case .unchanged: return .unchanged
            case .fed: return .fed
            case .other:
                let remembered = memo.values[slot]
                for position in wanted.indices {
                    keep.append(lift(id, wanted[position], position < remembered.keys.count ? remembered.keys[position] : nil))
                }
                return .lifted(previous: remembered.keys, ordinal: remembered.ordinal)
            }
        }
    }

    /// The tracker's two edit evaluations over its element evaluations: a journal's (when the
    /// container keeps one) and a plain array's.
    @MainActor @inlinable
    static func editEvaluations(
        journal: LaneJournal<GS, ID>?, evaluateOne: @escaping EvaluateOne, evaluateAt: @escaping EvaluateAt,
        evaluateAddressed: @escaping EvaluateAddressed
    ) -> (journaled: EvaluateJournaled?, watched: EvaluateWatched) {
        var journaled: EvaluateJournaled?
        if let journal {
            journaled = { state, environment, synced, memo, lists, changes in
                Self.journaledEdits(
                    journal, evaluate: evaluateOne, state: state, environment: environment, since: synced, memo: &memo, lists: &lists,
                    changes: &changes)
            }
        }
        return (
            journaled,
            { edits, action, state, environment, ordinals, memo, lists, changes in
                Self.watchedEdits(
                    edits, action: action, evaluateAt: evaluateAt, evaluateAddressed: evaluateAddressed, state: state, environment: environment,
                    ordinals: ordinals, memo: &memo, lists: &lists, changes: &changes)
            }
        )
    }
}
