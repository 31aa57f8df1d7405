// One of the library's files with unsafe code: the segments' and the plan's scratch fields skip the
// runtime's exclusivity checks, since only the main actor touches them, inside a Store's phase 5,
// which never nests. Exercised under TSan and ASan by the supervision tests.

/// A Store's phase 5: the behavior's supervision units as reconcile segments, with the per-store
/// trackers of collection lifts.
///
/// Each segment knows the part of the state it reads (`StateFootprint`). The Store gives every
/// mutating unit a bit mask of the segments its writes can reach, worked out once at
/// initialisation; a dispatch ORs the masks of the units that mutated, and phase 5 looks only at
/// those segments. A segment outside the mask is neither evaluated nor reconciled. Inside it, a
/// collection lift's segment re-evaluates only the element an action addressed when everything
/// that mutated was scoped to that element; any other segment is evaluated whole and reconciled
/// as one patch. Whatever cannot be done soundly in part falls back to the full reconcile.
///
/// The reconcile path (this plan's, the engine's and the machine's) is inlinable, so a Store runs
/// it specialised for its types: unspecialised, it looks up generic type metadata at run time on
/// every dispatch. The collection trackers stay behind a protocol; their per-element work is
/// specialised closures.
@MainActor
@usableFromInline
internal final class SupervisionPlan<State: Sendable, Action: Sendable, Environment: Sendable> {
    /// One supervision unit and its buffers. A class: its buffers are mutated in place, not
    /// through the accessors of an array of segments. Its mutable fields, like the plan's, are
    /// not checked for exclusivity at run time.
    @MainActor
    @usableFromInline
    final class Segment {
        /// Its place in the plan.
        @usableFromInline let index: Int
        /// Evaluates a plain segment, reading the state where it lies.
        @usableFromInline let read: @MainActor @Sendable (inout State) -> Supervision<Action, Environment>
        @usableFromInline let tracker: (any ElementSupervisionTracking<State, Action, Environment>)?
        /// The part of the state the segment reads.
        @usableFromInline let reads: StateFootprint
        /// The channels a plain segment wanted at the last reconcile (`nil` before the first): the
        /// array its supervision built, held, not copied. A collection segment's keys live in its
        /// tracker's memo.
        @exclusivity(unchecked) @usableFromInline var reconciled: Keep<Action>?
        /// The channels of the last evaluation (a plain segment's array as its supervision built
        /// it: never copied).
        @exclusivity(unchecked) @usableFromInline var channels: Keep<Action> = []
        /// A collection segment's container orders of `channels` (a plain segment's are positions).
        @exclusivity(unchecked) @usableFromInline var orders: [UInt64] = []

        init(_ unit: SupervisionUnit<State, Action, Environment>, index: Int) {
            self.index = index
            read = unit.read
            tracker = unit.keyed?.makeTracker()
            reads = unit.footprint.touches
        }
    }

    /// The mask bit of "this mutation may have removed collection elements that own effects".
    @usableFromInline static var removalBit: UInt64 { 1 << 63 }
    /// Segments from this index on share one bit.
    @inlinable static var sharedBitIndex: Int { 62 }

    @usableFromInline let segments: [Segment]
    /// The segment of each lift token that appears once (a token lifted twice is ambiguous).
    @usableFromInline let segmentOfToken: SegmentsByToken
    // The mutable state below is not checked for exclusivity at run time: only the main actor
    // touches it, inside a Store's phase 5, which never nests (a dispatch made meanwhile is queued).

    /// Reused buffers handed to the engine (emptied after each use, so that the segments'
    /// buffers stay uniquely referenced).
    @exclusivity(unchecked) @usableFromInline var sets: [Keep<Action>] = []
    @exclusivity(unchecked) @usableFromInline var orderSets: [[UInt64]] = []
    @exclusivity(unchecked) @usableFromInline var patchKeys: [AnyHashableSendable] = []
    /// The collection segments patched from their containers' journals in this reconcile.
    @exclusivity(unchecked) @usableFromInline var editedSegments: [Int] = []
    @exclusivity(unchecked) @usableFromInline var patches: [SegmentPatch<Action>] = []
    /// A reused buffer of the channels the addressed element wants (emptied after each use).
    @exclusivity(unchecked) @usableFromInline var addressedChannels: Keep<Action> = []
    /// A reused buffer of the elements a container's journal says changed.
    @exclusivity(unchecked) @usableFromInline var changes: [ElementChange<Action>] = []
    /// Whether the trackers' memos and the segments' keys describe the engine's memory.
    @exclusivity(unchecked) @usableFromInline var isCommitted = false
    /// Whether phase 5 may skip segments and reconcile in part (on, but in a test's reference
    /// mode, where every mutation reconciles the full desired set: the reference the partial
    /// paths must agree with).
    @usableFromInline let allowsPartial: Bool
    /// The channels reconciled last, and what each reconcile decides.
    @usableFromInline var reconciler = ChannelReconciler<Action>()
    /// What phase 5 did so far (counted in code specialised for the Store's types).
    @exclusivity(unchecked) @usableFromInline var counts = SupervisionCounts()
    /// What phase 5 did so far, for tests.
    var statistics: SupervisionStatistics { counts.statistics }

    @usableFromInline
    init(units: [SupervisionUnit<State, Action, Environment>], allowsPartial: Bool) {
        self.allowsPartial = allowsPartial
        let segments = units.indices.map { Segment(units[$0], index: $0) }
        self.segments = segments
        allSegments = units.indices.reduce(0) { $0 | Self.bit($1) }
        journaledSegments = segments.indices.reduce(0) { $0 | (segments[$1].tracker?.hasJournal == true ? Self.bit($1) : 0) }
        segmentOfToken = SegmentsByToken(units.map { $0.keyed?.token })
    }

    /// The mask bit of segment `index`.
    @inlinable
    static func bit(_ index: Int) -> UInt64 {
        1 << UInt64(min(index, sharedBitIndex))
    }

    /// The mask of every segment.
    @usableFromInline let allSegments: UInt64
    /// The mask of the collection segments whose container keeps an edit journal, or whose plain
    /// array the Store watches (an armed watch): worth patching even when every segment is affected.
    @usableFromInline private(set) var journaledSegments: UInt64

    /// The segments a mutation of `footprint` can change, as a bit mask.
    @usableFromInline
    func mask(writing footprint: StateFootprint) -> UInt64 {
        var mask: UInt64 = 0
        for index in segments.indices where segments[index].reads.overlaps(footprint) { mask |= Self.bit(index) }
        return mask
    }

    /// Whether a mutation reaching `mask` needs phase 5: some supervision reads what it wrote (or
    /// the partial paths are off).
    @inlinable
    func reaches(_ mask: UInt64) -> Bool {
        mask & ~Self.removalBit != 0 || !allowsPartial
    }

    /// The watches over the plain arrays a unit that writes `mask` with `scope` may change: every
    /// watched segment it reaches but the one whose addressed element is all it writes. A unit
    /// that may write anything (an app-level unit) can have its writes compared (`bracketing`);
    /// one scoped to elements (a broadcast, another lift's element) cannot (`elementScoped`).
    @usableFromInline
    func watches(reaching mask: UInt64, scope: MutationScope) -> (
        bracketing: [any ContainerWatching<State>], elementScoped: [any ContainerWatching<State>]
    ) {
        var addressed: Int?
        if let token = scope.addressedToken { addressed = segmentOfToken[token] }
        var watches: (bracketing: [any ContainerWatching<State>], elementScoped: [any ContainerWatching<State>]) = ([], [])
        for index in segments.indices where mask & Self.bit(index) != 0 && index != addressed {
            guard let watch = segments[index].tracker?.containerWatch else { continue }
            if scope == .anything { watches.bracketing.append(watch) } else { watches.elementScoped.append(watch) }
        }
        return watches
    }

    /// Arms every watch but those in `unarmed`: called once the Store's program brackets each
    /// unit that may write their arrays.
    @usableFromInline
    func armWatches(except unarmed: Set<ObjectIdentifier>) {
        for segment in segments {
            guard let watch = segment.tracker?.containerWatch, !unarmed.contains(ObjectIdentifier(watch)) else { continue }
            watch.arm()
            journaledSegments |= Self.bit(segment.index)
        }
    }

    /// Whether a collection lift supervises here: the segments a catch-all mutation makes expensive.
    @usableFromInline
    var hasCollectionSegment: Bool { segments.contains { $0.tracker != nil } }

    /// Reconciles after a mutation of `scope` caused by `action`, looking only at the segments in
    /// `mask`: the addressed element alone when that is sound, a patch per affected segment
    /// otherwise, and the full desired set when every segment is affected or a patch cannot be
    /// applied soundly. The state is `inout` for its address only (it is read where it lies,
    /// never copied onto the stack, never written).
    @inlinable
    func reconcile(
        after scope: MutationScope, mask: UInt64, action: Action, state: inout State, environment: Environment, engine: EffectEngine<Action>,
        depth: Int
    ) {
        guard allowsPartial else {
            reconcileAll(state: &state, environment: environment, engine: engine, depth: depth)
            return
        }
        let segmentMask = mask & ~Self.removalBit
        guard segmentMask != 0 else { return }
        var addressed: Int?
        if let token = scope.addressedToken { addressed = segmentOfToken[token] }
        if isCommitted, addressed != nil || segmentMask != allSegments || segmentMask & journaledSegments != 0,
            reconcilePatches(
                mask: segmentMask, addressed: addressed, action: action, state: &state, environment: environment, engine: engine, depth: depth)
        {
            return
        }
        reconcileAll(state: &state, environment: environment, engine: engine, depth: depth)
    }

    /// Evaluates every segment and reconciles the full set; remembers it when it changed. The
    /// state is `inout` for its address only.
    @inlinable
    func reconcileAll(state: inout State, environment: Environment, engine: EffectEngine<Action>, depth: Int) {
        counts.fullReconciles &+= 1
        for segment in segments { evaluate(segment, state: &state, environment: environment) }
        for segment in segments {
            sets.append(segment.channels)
            orderSets.append(segment.orders)
        }
        let changed = reconciler.reconcile(sets, orders: orderSets, depth: depth, on: engine)
        sets.removeAll(keepingCapacity: true)
        orderSets.removeAll(keepingCapacity: true)
        // Remember what was evaluated: everything after a change, else only what went stale
        // (channel-less elements that moved keep the set but change the ordinals).
        for segment in segments {
            if let tracker = segment.tracker {
                if changed || !isCommitted || !tracker.pendingMatchesMemo {
                    if !changed { reconciler.updateOrders(segment.channels, orders: segment.orders) }
                    tracker.commitAll()
                } else {
                    tracker.keepMemo()
                }
            } else if changed || !isCommitted || segment.reconciled == nil {
                segment.reconciled = segment.channels
            }
        }
        isCommitted = true
        releaseEvaluatedChannels()
    }

    /// Empties the collection segments' buffers after a reconcile used them (keeping their
    /// storage): the engine holds what it runs, and a channel of an element removed later, by a
    /// patch, must not stay alive in a buffer until the next whole evaluation.
    @inlinable
    func releaseEvaluatedChannels() {
        for segment in segments where segment.tracker != nil && !segment.channels.isEmpty {
            segment.channels.removeAll(keepingCapacity: true)
            segment.orders.removeAll(keepingCapacity: true)
        }
    }

    /// Evaluates one segment into its buffers.
    @inlinable
    func evaluate(_ segment: Segment, state: inout State, environment: Environment) {
        counts.segmentEvaluations &+= 1
        if let tracker = segment.tracker {
            segment.channels.removeAll(keepingCapacity: true)
            segment.orders.removeAll(keepingCapacity: true)
            tracker.evaluateAll(&state, environment, into: &segment.channels)
            tracker.appendOrders(segment: segment.index, into: &segment.orders)
        } else {
            segment.channels = segment.read(&state).runReader(environment)
        }
    }

    @inlinable
    static func keys(of channels: Keep<Action>) -> [AnyHashableSendable] {
        var keys: [AnyHashableSendable] = []
        keys.reserveCapacity(channels.count)
        // Read in place (no copy of each channel): `index < buffer.count`, in the buffer's call.
        channels.withUnsafeBufferPointer { buffer in
            for index in 0..<buffer.count { keys.append(buffer[index].id) }
        }
        return keys
    }

    /// Reconciles the segments in `mask` as patches: for the collection segment `addressed`
    /// (whose lift every mutation was addressed through), the addressed element; for any other,
    /// the whole segment. `false`, having changed nothing, when that cannot be done soundly.
    @inlinable
    func reconcilePatches(
        mask: UInt64, addressed: Int?, action: Action, state: inout State, environment: Environment, engine: EffectEngine<Action>, depth: Int
    ) -> Bool {
        // Over 80 lines: one loop over three kinds of segment sharing the patch buffers; split, it ran slower.
        // Emptied only when they hold something: emptying an empty array still walks the
        // generic range-replacement path.
        if !patches.isEmpty { patches.removeAll(keepingCapacity: true) }
        if !editedSegments.isEmpty { editedSegments.removeAll(keepingCapacity: true) }
        var evaluatedWhole = false
        defer {
            if !patches.isEmpty { patches.removeAll(keepingCapacity: true) }
            if !editedSegments.isEmpty { editedSegments.removeAll(keepingCapacity: true) }
            if evaluatedWhole { releaseEvaluatedChannels() }
        }
        for index in segments.indices where mask & Self.bit(index) != 0 {
            let segment = segments[index]
            // A journaled container recorded the addressed element's edit too: its journal path
            // below covers it and keeps the memo in step with the journal.
            if index == addressed, let tracker = segment.tracker, !tracker.hasJournal {
                // Emptied after use: unless a patch holds them, the buffer is reused as it is.
                defer { addressedChannels.removeAll(keepingCapacity: true) }
                let previous: ElementKeys
                let ordinal: Int
                switch evaluateAddressed(
                    tracker, mask: mask, segment: index, action: action, state: &state, environment: environment, engine: engine, depth: depth)
                {
                case .unknown: return false
                case .unchanged, .fed: return true
                case .lifted(let keys, let at): (previous, ordinal) = (keys, at)
                }
                let elementOrders = elementOrders(segment: index, ordinal: ordinal, count: addressedChannels.count)
                if reconciler.patchMatches(index, previous: previous, channels: addressedChannels, orders: elementOrders) { continue }
                patches.append(
                    SegmentPatch(segment: index, previous: Array(previous), channels: addressedChannels, orders: elementOrders, kind: .addressed))
                continue
            }
            changes.removeAll(keepingCapacity: true)
            if let tracker = segment.tracker, tracker.evaluateEdits(&state, environment, action: action, into: &changes) {
                // The container's journal names the elements that came, went or changed: only
                // those are evaluated and patched, in container order.
                counts.elementEvaluations &+= changes.count
                editedSegments.append(index)
                if changes.count > 1 { changes.sort { $0.ordinal < $1.ordinal } }
                for change in changes {
                    let elementOrders = elementOrders(segment: index, ordinal: change.ordinal, count: change.channels.count)
                    if reconciler.patchMatches(index, previous: change.previous, channels: change.channels, orders: elementOrders) { continue }
                    patches.append(
                        SegmentPatch(
                            segment: index, previous: Array(change.previous), channels: change.channels, orders: elementOrders, kind: .edited))
                }
                changes.removeAll(keepingCapacity: true)
                continue
            }
            evaluate(segment, state: &state, environment: environment)
            evaluatedWhole = true
            if let tracker = segment.tracker {
                if reconciler.segmentMatches(index, channels: segment.channels, orders: segment.orders) {
                    // The same channels; channel-less elements may still have moved.
                    if tracker.pendingMatchesMemo { tracker.keepMemo() } else { tracker.commitAll() }
                    continue
                }
                patchKeys.removeAll(keepingCapacity: true)
                tracker.appendRememberedKeys(into: &patchKeys)
                patches.append(SegmentPatch(segment: index, previous: patchKeys, channels: segment.channels, orders: segment.orders, kind: .whole))
            } else {
                guard let reconciled = segment.reconciled else { return false }
                if reconciler.segmentMatches(index, channels: segment.channels, orders: []) { continue }
                patches.append(
                    SegmentPatch(segment: index, previous: Self.keys(of: reconciled), channels: segment.channels, orders: [], kind: .whole))
            }
        }
        if patches.isEmpty {
            for index in editedSegments { segments[index].tracker?.commitEdits() }
            counts.unchangedPartials &+= 1
            return true
        }
        guard reconciler.reconcilePatches(patches, depth: depth, on: engine) else {
            // Nothing was applied: forget what the trackers evaluated.
            for index in segments.indices where mask & Self.bit(index) != 0 { segments[index].tracker?.clearPending() }
            counts.refusedPatches &+= 1
            return false
        }
        counts.patchedReconciles &+= 1
        commitPatches()
        return true
    }

    /// Evaluates the addressed element of segment `segment` into `addressedChannels`. When that
    /// segment is the only one affected, its element is fed in place first (see
    /// `ElementSupervisionTracking.feedAddressed`): `.unchanged` or `.fed` then settle the
    /// reconcile. `.lifted` leaves the element's channels in `addressedChannels` for a patch.
    @inlinable
    func evaluateAddressed(
        _ tracker: any ElementSupervisionTracking<State, Action, Environment>, mask: UInt64, segment: Int, action: Action, state: inout State,
        environment: Environment, engine: EffectEngine<Action>, depth: Int
    ) -> AddressedFeed {
        guard mask == Self.bit(segment), segment < Self.sharedBitIndex else {
            guard let (previous, ordinal) = tracker.evaluateAddressed(action, &state, environment, into: &addressedChannels) else { return .unknown }
            counts.elementEvaluations &+= 1
            return .lifted(previous: previous, ordinal: ordinal)
        }
        let target = ElementFeedTarget(segment: segment, depth: depth, engine: engine)
        let feed = tracker.feedAddressed(action, &state, environment, target: target, reconciler: &reconciler, into: &addressedChannels)
        switch feed {
        case .unknown: return feed
        case .unchanged: counts.unchangedPartials &+= 1
        case .fed: counts.patchedReconciles &+= 1
        case .lifted: break
        }
        counts.elementEvaluations &+= 1
        return feed
    }

    /// The container order of an element's `count` channels.
    @inlinable
    @inline(__always)
    func elementOrders(segment: Int, ordinal: Int, count: Int) -> [UInt64] {
        var orders: [UInt64] = []
        orders.reserveCapacity(count)
        for position in 0..<count { orders.append(containerOrder(segment: segment, ordinal: ordinal, index: position)) }
        return orders
    }

    /// Records in the trackers (or the segments) what the applied patches reconciled.
    @inlinable
    @inline(__always)
    func commitPatches() {
        for index in editedSegments { segments[index].tracker?.commitEdits() }
        for patch in patches {
            let segment = segments[patch.segment]
            switch patch.kind {
            case .addressed: segment.tracker?.commitAddressed(ElementKeys(patch.channels))
            case .edited: break
            case .whole:
                if let tracker = segment.tracker { tracker.commitAll() } else { segment.reconciled = patch.channels }
            }
        }
    }
}

/// What phase 5 did since a Store was created: how often it evaluated and reconciled what.
@_spi(Testing)
public struct SupervisionStatistics: Sendable, Equatable {
    /// Reconciles of the full desired set.
    public var fullReconciles = 0
    /// Dispatches whose affected segments were reconciled as patches.
    public var patchedReconciles = 0
    /// Dispatches whose affected segments turned out to want the same channels.
    public var unchangedPartials = 0
    /// Patches the engine refused (then reconciled in full).
    public var refusedPatches = 0
    /// Whole evaluations of one segment (a supervision unit; a collection lift's: every element).
    public var segmentEvaluations = 0
    /// Evaluations of one collection element alone.
    public var elementEvaluations = 0

    /// No reconcile yet.
    public init() {}
}

/// The counters behind ``SupervisionStatistics``, kept where inlinable code can count.
@usableFromInline
internal struct SupervisionCounts {
    @usableFromInline var fullReconciles = 0
    @usableFromInline var patchedReconciles = 0
    @usableFromInline var unchangedPartials = 0
    @usableFromInline var refusedPatches = 0
    @usableFromInline var segmentEvaluations = 0
    @usableFromInline var elementEvaluations = 0

    @usableFromInline init() {}

    /// The counters as the testing interface reports them.
    var statistics: SupervisionStatistics {
        var statistics = SupervisionStatistics()
        statistics.fullReconciles = fullReconciles
        statistics.patchedReconciles = patchedReconciles
        statistics.unchangedPartials = unchangedPartials
        statistics.refusedPatches = refusedPatches
        statistics.segmentEvaluations = segmentEvaluations
        statistics.elementEvaluations = elementEvaluations
        return statistics
    }
}
