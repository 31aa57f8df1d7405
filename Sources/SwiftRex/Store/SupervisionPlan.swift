/// A Store's phase 5: the behavior's supervision units as reconcile segments, with the per-store
/// trackers of collection lifts, so that an action that changed one element reconciles only that
/// element (<doc:SupervisionAndChannels#Reconcile-cost>) and everything else reconciles the full
/// desired set.
@MainActor
@usableFromInline
internal final class SupervisionPlan<State: Sendable, Action: Sendable, Environment: Sendable> {
    private struct Segment {
        let supervise: @MainActor @Sendable (State) -> Supervision<Action, Environment>
        let tracker: (any ElementSupervisionTracking<State, Action, Environment>)?
        /// The keys the segment wanted at the last full reconcile; stale (`nil`) once one of its
        /// elements was reconciled alone.
        var previous: [AnyHashableSendable]?
    }

    private var segments: [Segment]
    /// The segment of each lift token that appears once (a token lifted twice is ambiguous).
    private let segmentOfToken: [LiftToken: Int]
    /// Reused buffers of the full evaluation.
    private var keep: Keep<Action> = []
    private var ends: [Int] = []
    private var orders: [UInt64] = []
    private var scratch: Keep<Action> = []
    /// Whether the trackers' memos and the segments' keys describe the engine's memory.
    private var isCommitted = false
    /// Whether single-element reconciles are allowed (a test switch; on by default).
    var allowsPartial = true

    @usableFromInline
    init(units: [SupervisionUnit<State, Action, Environment>]) {
        segments = units.map { Segment(supervise: $0.supervise, tracker: $0.keyed?.makeTracker(), previous: nil) }
        var counts: [LiftToken: Int] = [:]
        var positions: [LiftToken: Int] = [:]
        for (index, unit) in units.enumerated() {
            guard let token = unit.keyed?.token else { continue }
            counts[token, default: 0] += 1
            positions[token] = index
        }
        segmentOfToken = positions.filter { counts[$0.key] == 1 }
    }

    /// Reconciles after a mutation of `scope` caused by `action`: only the addressed element when
    /// that is sound, else the full desired set.
    func reconcile(after scope: MutationScope, action: Action, state: State, environment: Environment, engine: EffectEngine<Action>, depth: Int) {
        if allowsPartial, isCommitted, let token = scope.addressedToken, let segment = segmentOfToken[token],
           reconcileAddressed(segment, action: action, state: state, environment: environment, engine: engine, depth: depth) {
            return
        }
        reconcileAll(state: state, environment: environment, engine: engine, depth: depth)
    }

    /// Evaluates every segment and reconciles the full set; remembers it when it changed.
    func reconcileAll(state: State, environment: Environment, engine: EffectEngine<Action>, depth: Int) {
        if segments.count == 1, segments[0].tracker == nil {
            // One plain supervision: its channels go to the engine as they are (copying them
            // into the shared buffer would copy every channel on every reconcile).
            let channels = segments[0].supervise(state).runReader(environment)
            if engine.reconcile(channels, depth: depth) || !isCommitted {
                var previous: [AnyHashableSendable] = []
                previous.reserveCapacity(channels.count)
                for index in channels.indices { previous.append(channels[index].id) }
                segments[0].previous = previous
                isCommitted = true
            }
            return
        }
        keep.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
        orders.removeAll(keepingCapacity: true)
        for (index, segment) in segments.enumerated() {
            if let tracker = segment.tracker {
                tracker.evaluateAll(state, environment, into: &keep)
                tracker.appendOrders(segment: index, into: &orders)
            } else {
                let start = keep.count
                keep.append(contentsOf: segment.supervise(state).runReader(environment))
                for position in 0..<(keep.count - start) {
                    orders.append(containerOrder(segment: index, ordinal: position, index: 0))
                }
            }
            ends.append(keep.count)
        }
        let changed = engine.reconcile(keep, segmentEnds: ends, orders: orders, depth: depth)
        // Remember what was evaluated: everything after a change, else only the segments whose
        // memory went stale (an element reconciled alone, or channel-less elements that moved).
        var start = 0
        for index in segments.indices {
            let stale = changed || !isCommitted || segments[index].previous == nil
                || segments[index].tracker.map { !$0.pendingMatchesMemo } ?? false
            if stale {
                if !changed { engine.updateOrders(keep, start..<ends[index], orders: orders) }
                segments[index].tracker?.commitAll()
                var previous: [AnyHashableSendable] = []
                previous.reserveCapacity(ends[index] - start)
                for position in start..<ends[index] { previous.append(keep[position].id) }
                segments[index].previous = previous
            }
            start = ends[index]
        }
        isCommitted = true
        keep.removeAll(keepingCapacity: true)
    }

    /// Reconciles the element `action` addresses in `target` alone, after checking that every
    /// other segment still wants exactly what it wanted. `false` when that cannot be done soundly.
    private func reconcileAddressed(
        _ target: Int, action: Action, state: State, environment: Environment, engine: EffectEngine<Action>, depth: Int
    ) -> Bool {
        for index in segments.indices where index != target {
            guard let previous = segments[index].previous else { return false }
            scratch.removeAll(keepingCapacity: true)
            if let tracker = segments[index].tracker {
                tracker.evaluateAll(state, environment, into: &scratch)
            } else {
                scratch.append(contentsOf: segments[index].supervise(state).runReader(environment))
            }
            let unchanged = engine.segmentMatches(index, previous: previous, channels: scratch)
            scratch.removeAll(keepingCapacity: true)
            guard unchanged else { return false }
        }
        guard let tracker = segments[target].tracker,
              let (previous, channels, ordinal) = tracker.evaluateAddressed(action, state, environment)
        else { return false }
        if engine.segmentMatches(target, previous: previous, channels: channels) { return true }
        guard engine.reconcileSegment(target, previous: Array(previous), channels: channels, ordinal: ordinal, depth: depth) else { return false }
        tracker.commitAddressed(ElementKeys(channels))
        segments[target].previous = nil
        return true
    }
}
