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
@MainActor
@usableFromInline
internal final class SupervisionPlan<State: Sendable, Action: Sendable, Environment: Sendable> {
    private struct Segment {
        let supervise: @MainActor @Sendable (State) -> Supervision<Action, Environment>
        let tracker: (any ElementSupervisionTracking<State, Action, Environment>)?
        /// The part of the state the segment reads.
        let reads: StateFootprint
        /// The lift site of a collection segment, for diagnostics.
        let token: LiftToken?
        /// A plain segment's keys at the last reconcile (`nil` before the first). A collection
        /// segment's keys live in its tracker's memo.
        var previous: [AnyHashableSendable]?
    }

    /// The mask bit of "this mutation may have removed collection elements that own effects".
    @usableFromInline static var removalBit: UInt64 { 1 << 63 }
    /// Segments from this index on share one bit.
    private static var sharedBitIndex: Int { 62 }

    private var segments: [Segment]
    /// The segment of each lift token that appears once (a token lifted twice is ambiguous).
    private let segmentOfToken: [LiftToken: Int]
    /// Reused buffers.
    private var keep: Keep<Action> = []
    private var ends: [Int] = []
    private var orders: [UInt64] = []
    private var patchKeys: [AnyHashableSendable] = []
    private var patches: [SegmentPatch<Action>] = []
    /// Whether the trackers' memos and the segments' keys describe the engine's memory.
    private var isCommitted = false
    /// Whether phase 5 may skip segments and reconcile in part (a test switch; on by default).
    /// Off, every mutation reconciles the full desired set: the reference the partial paths
    /// must agree with.
    var allowsPartial = true
    /// What phase 5 did so far, for tests.
    private(set) var statistics = SupervisionStatistics()

    @usableFromInline
    init(units: [SupervisionUnit<State, Action, Environment>]) {
        segments = units.map {
            Segment(supervise: $0.supervise, tracker: $0.keyed?.makeTracker(), reads: $0.footprint.touches, token: $0.keyed?.token, previous: nil)
        }
        var counts: [LiftToken: Int] = [:]
        var positions: [LiftToken: Int] = [:]
        for (index, unit) in units.enumerated() {
            guard let token = unit.keyed?.token else { continue }
            counts[token, default: 0] += 1
            positions[token] = index
        }
        segmentOfToken = positions.filter { counts[$0.key] == 1 }
    }

    /// The mask bit of segment `index`.
    private static func bit(_ index: Int) -> UInt64 {
        1 << UInt64(min(index, sharedBitIndex))
    }

    /// The segments a mutation of `footprint` can change, as a bit mask.
    @usableFromInline
    func mask(writing footprint: StateFootprint) -> UInt64 {
        var mask: UInt64 = 0
        for index in segments.indices where segments[index].reads.overlaps(footprint) { mask |= Self.bit(index) }
        return mask
    }

    /// Whether a collection lift supervises here: the segments a catch-all mutation makes expensive.
    @usableFromInline
    var hasCollectionSegment: Bool { segments.contains { $0.tracker != nil } }

    /// Reconciles after a mutation of `scope` caused by `action`, looking only at the segments in
    /// `mask`: the addressed element alone when that is sound, a patch per affected segment
    /// otherwise, and the full desired set when a patch cannot be applied soundly.
    func reconcile(after scope: MutationScope, mask: UInt64, action: Action, state: State, environment: Environment, engine: EffectEngine<Action>, depth: Int) {
        guard allowsPartial else {
            reconcileAll(state: state, environment: environment, engine: engine, depth: depth)
            return
        }
        guard mask & ~Self.removalBit != 0 else { return }
        if isCommitted,
           reconcilePatches(scope: scope, mask: mask, action: action, state: state, environment: environment, engine: engine, depth: depth) {
            return
        }
        reconcileAll(state: state, environment: environment, engine: engine, depth: depth)
    }

    /// Evaluates every segment and reconciles the full set; remembers it when it changed.
    func reconcileAll(state: State, environment: Environment, engine: EffectEngine<Action>, depth: Int) {
        statistics.fullReconciles &+= 1
        if segments.count == 1, segments[0].tracker == nil {
            // One plain supervision: its channels go to the engine as they are (copying them
            // into the shared buffer would copy every channel on every reconcile).
            let channels = segments[0].supervise(state).runReader(environment)
            statistics.segmentEvaluations &+= 1
            if engine.reconcile(channels, depth: depth) || !isCommitted {
                segments[0].previous = keys(of: channels, 0..<channels.count)
                isCommitted = true
            }
            return
        }
        keep.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
        orders.removeAll(keepingCapacity: true)
        for index in segments.indices {
            evaluateSegment(index, state: state, environment: environment)
            ends.append(keep.count)
        }
        let changed = engine.reconcile(keep, segmentEnds: ends, orders: orders, depth: depth)
        // Remember what was evaluated: everything after a change, else only the segments whose
        // memory went stale (an element reconciled alone, or channel-less elements that moved).
        var start = 0
        for index in segments.indices {
            if let tracker = segments[index].tracker {
                if changed || !isCommitted || !tracker.pendingMatchesMemo {
                    if !changed { engine.updateOrders(keep, start..<ends[index], orders: orders) }
                    tracker.commitAll()
                } else {
                    tracker.clearPending()
                }
            } else if changed || !isCommitted || segments[index].previous == nil {
                segments[index].previous = keys(of: keep, start..<ends[index])
            }
            start = ends[index]
        }
        isCommitted = true
        keep.removeAll(keepingCapacity: true)
    }

    /// Appends segment `index`'s channels to `keep` and their container orders to `orders`.
    private func evaluateSegment(_ index: Int, state: State, environment: Environment) {
        statistics.segmentEvaluations &+= 1
        if let tracker = segments[index].tracker {
            tracker.evaluateAll(state, environment, into: &keep)
            tracker.appendOrders(segment: index, into: &orders)
        } else {
            let start = keep.count
            keep.append(contentsOf: segments[index].supervise(state).runReader(environment))
            for position in 0..<(keep.count - start) {
                orders.append(containerOrder(segment: index, ordinal: position, index: 0))
            }
        }
    }

    private func keys(of channels: Keep<Action>, _ range: Range<Int>) -> [AnyHashableSendable] {
        var keys: [AnyHashableSendable] = []
        keys.reserveCapacity(range.count)
        for position in range { keys.append(channels[position].id) }
        return keys
    }

    /// Reconciles the segments in `mask` as patches: for a collection segment whose lift every
    /// mutation was addressed through, the addressed element; for any other, the whole segment.
    /// `false`, having changed nothing, when that cannot be done soundly.
    private func reconcilePatches(
        scope: MutationScope, mask: UInt64, action: Action, state: State, environment: Environment, engine: EffectEngine<Action>, depth: Int
    ) -> Bool {
        let addressed = scope.addressedToken.flatMap { segmentOfToken[$0] }
        patches.removeAll(keepingCapacity: true)
        keep.removeAll(keepingCapacity: true)
        orders.removeAll(keepingCapacity: true)
        defer {
            patches.removeAll(keepingCapacity: true)
            keep.removeAll(keepingCapacity: true)
            orders.removeAll(keepingCapacity: true)
        }
        for index in segments.indices where mask & Self.bit(index) != 0 {
            if index == addressed, let tracker = segments[index].tracker {
                guard let (previous, channels, ordinal) = tracker.evaluateAddressed(action, state, environment) else { return false }
                statistics.elementEvaluations &+= 1
                var elementOrders: [UInt64] = []
                elementOrders.reserveCapacity(channels.count)
                for position in channels.indices { elementOrders.append(containerOrder(segment: index, ordinal: ordinal, index: position)) }
                if engine.patchMatches(index, previous: previous, channels: channels[...], orders: elementOrders) { continue }
                patches.append(SegmentPatch(segment: index, previous: Array(previous), channels: channels, orders: elementOrders, element: true))
                continue
            }
            let start = keep.count
            let orderStart = orders.count
            evaluateSegment(index, state: state, environment: environment)
            let channels = keep[start...]
            let segmentOrders = Array(orders[orderStart...])
            if let tracker = segments[index].tracker {
                patchKeys.removeAll(keepingCapacity: true)
                tracker.appendRememberedKeys(into: &patchKeys)
                if engine.patchMatches(index, previous: patchKeys, channels: channels, orders: segmentOrders) {
                    // The same channels; channel-less elements may still have moved.
                    if tracker.pendingMatchesMemo { tracker.clearPending() } else { tracker.commitAll() }
                    continue
                }
                patches.append(SegmentPatch(segment: index, previous: patchKeys, channels: Array(channels), orders: segmentOrders, element: false))
            } else {
                guard let previous = segments[index].previous else { return false }
                if engine.patchMatches(index, previous: previous, channels: channels, orders: segmentOrders) { continue }
                patches.append(SegmentPatch(segment: index, previous: previous, channels: Array(channels), orders: segmentOrders, element: false))
            }
        }
        if patches.isEmpty {
            statistics.unchangedPartials &+= 1
            return true
        }
        guard engine.reconcilePatches(patches, depth: depth) else {
            // Nothing was applied: forget what the trackers evaluated.
            for patch in patches where !patch.element { segments[patch.segment].tracker?.clearPending() }
            statistics.refusedPatches &+= 1
            return false
        }
        statistics.patchedReconciles &+= 1
        for patch in patches {
            if let tracker = segments[patch.segment].tracker {
                if patch.element {
                    tracker.commitAddressed(ElementKeys(patch.channels))
                } else {
                    tracker.commitAll()
                }
            } else {
                segments[patch.segment].previous = keys(of: patch.channels, 0..<patch.channels.count)
            }
        }
        return true
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

/// One part of the desired set reconciled alone: what one segment (or one element of a collection
/// segment) wants now, and the keys it wanted before.
@usableFromInline
internal struct SegmentPatch<Action: Sendable> {
    let segment: Int
    let previous: [AnyHashableSendable]
    let channels: Keep<Action>
    /// The container order of each channel.
    let orders: [UInt64]
    /// Whether the patch is one collection element's (else the whole segment).
    let element: Bool
}
