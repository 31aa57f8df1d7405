/// How a Store runs each action, chosen once, when the Store is made, from its behavior's shape.
/// Each case owns what it needs; `Store.process(_:source:depth:)` is the one entry point.
@usableFromInline
internal enum DispatchProgram<Action: Sendable, State: Sendable, Environment: Sendable>: ~Copyable {
    /// A behavior of one reducer unit whose `run` is, while nobody observes, the whole dispatch.
    case bareReducer(run: @Sendable (Action, inout State) -> Void, SoleReducer<Action, State>)
    /// A behavior of one reducer unit, asked with its test, and phase 5 when something supervises.
    case reducer(SoleReducer<Action, State>)
    /// A behavior of several reducer units (or none).
    case reducers(Reducers<Action, State>)
    /// Producers and reducer units alone, nothing supervised and no unit that may remove
    /// collection elements owning effects: the producers, the reducer phase, then the effects.
    case producersThenReducers(ProducerPhase<Action, State, Environment>)
    /// Anything else: every phase, unit by unit.
    case allPhases(AllPhases<Action, State, Environment>)

    /// The program of `behavior`. `plan` is its phase 5 (`nil` when nothing supervises), `regions`
    /// what its units write for observers; `partialReconcile` is off only in a test's reference
    /// mode, where every mutation of unknown scope checks every element's effects (only the full
    /// program does).
    @MainActor
    @inlinable
    @inline(__always)
    init(
        _ behavior: Behavior<Action, State, Environment>, plan: SupervisionPlan<State, Action, Environment>?, regions: ObserverRegions,
        partialReconcile: Bool
    ) {
        var units = behavior.units
        let masks = SupervisionPlan.masks(of: units.map(\.writes), plan: plan)
        if let plan {
            // Writes that may reach a supervised plain array are bracketed, so phase 5 can tell
            // which of its elements changed.
            let reached = units.indices.map { plan.watches(reaching: masks[$0], scope: units[$0].writes.scope) }
            // A watch a unit scoped to elements may reach (a broadcast, another lift's element
            // writes) is never armed: comparing would copy the array on each such dispatch, and
            // its segment is evaluated whole, as without a watch.
            let unarmed = Set(reached.flatMap { $0.elementScoped.map(ObjectIdentifier.init) })
            for index in units.indices {
                let watches = reached[index].bracketing.filter { !unarmed.contains(ObjectIdentifier($0)) }
                if !watches.isEmpty { units[index] = units[index].bracketed(by: watches) }
            }
            plan.armWatches(except: unarmed)
        }
        let unitRegions = units.map { regions.bits(writing: $0.writes.writes) }
        var reducers: [ReducerUnit<Action, State>] = []
        var reducerMasks: [UnitMask] = []
        for index in units.indices {
            guard let reducer = units[index].reducer else { continue }
            reducers.append(reducer)
            reducerMasks.append(UnitMask(supervision: masks[index], regions: unitRegions[index]))
        }
        if behavior.isReducerOnly {
            switch ReducerPhase(reducers, masks: reducerMasks, supervised: plan != nil) {
            case .sole(let reducer): self = reducer.runsAlone ? .bareReducer(run: reducer.unit.run, reducer) : .reducer(reducer)
            case .several(let reducers): self = .reducers(reducers)
            case .none: self = .reducers(Reducers([], masks: []))
            }
            return
        }
        let mayRemoveOwners = reducerMasks.contains { $0.supervision & SupervisionPlan<State, Action, Environment>.removalBit != 0 }
        if plan == nil, partialReconcile, !mayRemoveOwners, !units.contains(where: \.isReaction) {
            self = .producersThenReducers(ProducerPhase(units, then: ReducerPhase(reducers, masks: reducerMasks, supervised: false)))
            return
        }
        let unitMasks = units.indices.map { UnitMask(supervision: masks[$0], regions: unitRegions[$0]) }
        self = .allPhases(AllPhases(units, masks: unitMasks, checksEveryRemoval: !partialReconcile))
    }
}

extension Store {
    /// Runs an action now, or queues it when the Store is already processing one (FIFO, never
    /// nested); then runs the actions queued meanwhile. Inlined where the dispatch is: the program
    /// is read first, before anything is written, so a loop of dispatches reads it once, and a
    /// bare reducer runs here; every other program runs out of line.
    @inlinable
    @inline(__always)
    internal func process(_ action: Action, source: borrowing ActionSource, depth: Int) {
        switch program {
        case .bareReducer(let run, let reducer):
            guard begin(action, source: source, depth: depth) else { return }
            if observers.isEmpty {
                run(action, &storage)
            } else {
                self.run(reducer, action, depth: depth)
            }
        default:
            guard begin(action, source: source, depth: depth) else { return }
            run(action, source: source, depth: depth)
        }
        end()
    }

    /// Runs one action through the Store's program: everything but a bare reducer's dispatch
    /// with nobody observing, and every action the queue drains. Only programs with producers
    /// read the source: it is lent to them alone, so a reducer program never stores it.
    @inlinable
    @inline(__always)
    internal func run(_ action: Action, source: borrowing ActionSource, depth: Int) {
        switch program {
        case .bareReducer(_, let reducer): run(reducer, action, depth: depth)
        case .reducer(let reducer): run(reducer, action, depth: depth)
        case .reducers(let reducers): run(reducers, action, depth: depth)
        case .producersThenReducers(let producers):
            LentSource.lend(source) { run(producers, action, source: $0, depth: depth) }
        case .allPhases(let phases):
            LentSource.lend(source) { run(phases, action, source: $0, depth: depth) }
        }
    }
}
