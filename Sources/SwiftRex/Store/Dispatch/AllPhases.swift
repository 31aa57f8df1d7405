/// Every phase, for a behavior with reactions, supervision, or a reducer that may remove
/// collection elements owning effects: each unit as a step, in behavior order.
@usableFromInline
internal final class AllPhases<Action: Sendable, State: Sendable, Environment: Sendable> {
    /// One step per unit, with its mask.
    @usableFromInline let steps: StepList<PhaseStep<Action, State, Environment>>
    /// The action's case, when reducer units lifted through other cases can be skipped.
    @usableFromInline let caseOf: (@Sendable (Action) -> Int)?
    /// Whether phase 2 asks reducer units even when no reaction mutates.
    @usableFromInline let hasReducerUnits: Bool
    /// Whether any mutation of unknown scope checks every element's effects (a test's reference
    /// mode), not only a mutation that may remove elements owning them.
    @usableFromInline let checksEveryRemoval: Bool

    @inlinable
    init(_ units: [BehaviorUnit<Action, State, Environment>], masks: [UnitMask], checksEveryRemoval: Bool) {
        steps = StepList(zip(units, masks).map { PhaseStep($0, mask: $1) })
        let reducers = units.compactMap(\.reducer)
        caseOf = ActionRoutes<Action>(cases: reducers.map(\.actionCase)).caseOf
        hasReducerUnits = !reducers.isEmpty
        self.checksEveryRemoval = checksEveryRemoval
    }
}

extension Store {
    /// Every phase. Out of line, so the reducer-only path keeps a small stack frame.
    @inlinable
    @inline(never)
    internal func run(_ phases: AllPhases<Action, State, Environment>, _ action: Action, source: LentSource, depth: Int) {
        var change = PhaseChange()
        var firstProducer: Producer<Action, State, Environment>?
        phaseOneReader.lend(to: source) { context in
            handle(phases, action, context: context, change: &change, firstProducer: &firstProducer)
        }
        if change.mutates || phases.hasReducerUnits { mutate(phases, action, change: &change) }
        if !reactionMutations.isEmpty { reactionMutations.removeAll(keepingCapacity: true) }
        scheduleProduced(consume firstProducer, depth: depth)
        // A mutation that may have removed collection elements cancels their effects.
        if engine.hasOwnedEffects,
            change.mask & SupervisionPlan<State, Action, Environment>.removalBit != 0
                || phases.checksEveryRemoval && change.scope == .anything
        {
            cancelEffectsOfRemovedElements()
        }
        // Phase 5: only after a mutation, only the supervisions it can reach.
        if change.mutates { reconcile(after: change.scope, mask: change.mask, action: action, depth: depth) }
    }

    /// Phase 1: every reaction and producer against the pre-mutation state. Reactions that mutate
    /// keep their mutation in a buffer (one entry per reaction once one mutates; before that only
    /// a count, so a dispatch no reaction mutates fills no buffer); the first producer stays out
    /// of any buffer; reducer units wait for phase 2.
    @inlinable
    @inline(__always)
    internal func handle(
        _ phases: AllPhases<Action, State, Environment>, _ action: Action, context: PreReducerContext<State>,
        change: inout PhaseChange, firstProducer: inout Producer<Action, State, Environment>?
    ) {
        var unchangedReactions = 0
        for index in 0..<phases.steps.count {
            switch phases.steps.withStep(at: index, { $0.kind }) {
            case .producer:
                keep(phases.steps.withStep(at: index) { $0.producer(action, context) }, first: &firstProducer)
            case .reaction:
                let reaction = phases.steps.withStep(at: index) { $0.react(action, context) }
                if case .mutation(let endo) = reaction.mutation {
                    if !change.mutates, unchangedReactions > 0 { appendIdentities(unchangedReactions) }
                    phases.steps.withStep(at: index) { change.merge(scope: $0.scope, mask: $0.mask) }
                    reactionMutations.append(endo)
                } else if change.mutates {
                    reactionMutations.append(.identity)
                } else {
                    unchangedReactions &+= 1
                }
                keep(reaction.producer, first: &firstProducer)
            case .reducer, .supervision:
                break
            }
        }
    }

    /// Phase 2: the mutations in place, in unit order, bracketed by one notification pair.
    /// Every reducer unit is asked (no early exit: each lifted unit can report a missing element,
    /// and a supervising store learns what the action may change); observers hear `willChange`
    /// at once when a reaction mutates, else just before the first reducer unit that writes.
    @inlinable
    @inline(__always)
    internal func mutate(_ phases: AllPhases<Action, State, Environment>, _ action: Action, change: inout PhaseChange) {
        var notified = change.mutates
        if notified { notifyWillChange() }
        var reactionIndex = 0
        let reactionsMutate = change.mutates
        // With a case-indexed action, reducer units lifted through another case are skipped.
        let actionCase = phases.caseOf?(action)
        for index in 0..<phases.steps.count {
            switch phases.steps.withStep(at: index, { $0.kind }) {
            case .reducer:
                if let actionCase, let unitCase = phases.steps.withStep(at: index, { $0.actionCase }), unitCase != actionCase { continue }
                if phases.steps.withStep(at: index, { $0.alwaysApplies }) {
                    // Its `reduce` is `willWrite` then `run`: done here, with no closure to pass.
                    if !notified {
                        notified = true
                        notifyWillChange()
                    }
                    phases.steps.withStep(at: index) { step in
                        step.run(action, &storage)
                        change.merge(scope: step.scope, mask: step.mask)
                    }
                    continue
                }
                phases.steps.withStep(at: index) { step in
                    let applied = step.reduce(action, &storage) {
                        if !notified {
                            notified = true
                            notifyWillChange()
                        }
                    }
                    if applied { change.merge(scope: step.scope, mask: step.mask) }
                }
            case .reaction:
                // The buffer holds an entry per reaction only when one mutates.
                if reactionsMutate {
                    reactionMutations[reactionIndex].runEndoMut(&storage)
                    reactionIndex &+= 1
                }
            case .producer, .supervision:
                break
            }
        }
        if notified { notifyDidChange(writing: change.regions, scope: change.scope, action: action) }
        change.mutates = notified
    }

    /// Phase 1's entries for the reactions that did not mutate before the first that does (out
    /// of line: the usual dispatch has none to add).
    @usableFromInline
    @inline(never)
    internal func appendIdentities(_ count: Int) {
        reactionMutations.append(contentsOf: repeatElement(.identity, count: count))
    }
}

/// What a dispatch's mutations did: whether any ran, what they may have touched, the
/// supervision segments they reach and the regions whose observers hear of them.
@usableFromInline
internal struct PhaseChange {
    @usableFromInline var mutates = false
    @usableFromInline var scope = MutationScope.nothing
    @usableFromInline var mask: UInt64 = 0
    @usableFromInline var regions: UInt64 = 0

    @inlinable init() {}

    /// Adds one unit's mutation.
    @inlinable
    mutating func merge(scope: MutationScope, mask: UnitMask) {
        mutates = true
        self.scope = self.scope.merged(scope)
        self.mask |= mask.supervision
        regions |= mask.regions
    }
}

/// What one unit's writes reach: the supervision segments (and removal bit) phase 5 looks at,
/// and the regions whose observers hear of them (``ObserverRegions``).
@usableFromInline
internal struct UnitMask: Equatable, Sendable {
    @usableFromInline let supervision: UInt64
    @usableFromInline let regions: UInt64

    @inlinable
    init(supervision: UInt64, regions: UInt64) {
        self.supervision = supervision
        self.regions = regions
    }

    /// What either of two units reaches.
    @inlinable
    func union(_ other: UnitMask) -> UnitMask {
        UnitMask(supervision: supervision | other.supervision, regions: regions | other.regions)
    }
}
