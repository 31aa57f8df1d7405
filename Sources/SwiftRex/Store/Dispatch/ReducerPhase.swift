/// Phase 2 of a behavior whose mutations all come from reducer units: each unit decides and
/// mutates in one pass, in list order, and observers hear `willChange` just before the first
/// write. Chosen once, from the number of units.
@usableFromInline
internal enum ReducerPhase<Action: Sendable, State: Sendable>: ~Copyable {
    /// No reducer unit.
    case none
    /// One unit, called directly.
    case sole(SoleReducer<Action, State>)
    /// Several units, asked in a loop.
    case several(Reducers<Action, State>)

    /// The phase of `units`, whose writes reach the supervision segments in `masks`; `supervised`
    /// tells whether something supervises (a unit whose pre-mutation test is part of its run can
    /// then not run bare: whether it applied decides phase 5).
    @inlinable
    init(_ units: [ReducerUnit<Action, State>], masks: [UnitMask], supervised: Bool) {
        switch units.count {
        case 0: self = .none
        case 1: self = .sole(SoleReducer(units[0], mask: masks[0], supervised: supervised))
        default: self = .several(Reducers(units, masks: masks))
        }
    }
}

/// One reducer unit, held in the program itself so the dispatch calls its closures without
/// copying them out of an array.
@usableFromInline
internal final class SoleReducer<Action: Sendable, State: Sendable> {
    @usableFromInline let unit: ReducerUnit<Action, State>
    /// What the unit's writes reach.
    @usableFromInline let mask: UnitMask
    /// Whether, while nobody observes, `unit.run` does all a dispatch needs: the unit always
    /// applies, or its `run` does all its `reduce` does and nothing supervises.
    @usableFromInline let runsBare: Bool
    /// Whether, while nobody observes, `unit.run` is the whole dispatch: it runs bare and nothing
    /// is reconciled after it.
    @usableFromInline let runsAlone: Bool

    @inlinable
    init(_ unit: ReducerUnit<Action, State>, mask: UnitMask, supervised: Bool) {
        self.unit = unit
        self.mask = mask
        runsBare = unit.applies == nil || (unit.runIsComplete && !supervised)
        runsAlone = runsBare && !supervised
    }
}

/// Several reducer units as steps, with the routes that pick the units an action's case reaches.
@usableFromInline
internal final class Reducers<Action: Sendable, State: Sendable> {
    /// One step per unit; without routes, side-by-side units of one shape are fused into one step.
    @usableFromInline let steps: StepList<ReducerStep<Action, State>>
    @usableFromInline let routes: ActionRoutes<Action>
    /// Whether every unit always applies (no pre-mutation test to run).
    @usableFromInline let alwaysApply: Bool
    /// What an always-applying fold may change: the union of the units' scopes and masks.
    @usableFromInline let scope: MutationScope
    @usableFromInline let mask: UnitMask

    @inlinable
    init(_ units: [ReducerUnit<Action, State>], masks: [UnitMask]) {
        routes = ActionRoutes(cases: units.map(\.actionCase))
        // With routes the steps line up with the units the routes name.
        steps = StepList(
            routes.caseOf == nil
                ? ReducerStep.fused(units, masks: masks)
                : zip(units, masks).map { ReducerStep($0, mask: $1) })
        alwaysApply = !units.isEmpty && units.allSatisfy { $0.applies == nil }
        scope = units.reduce(MutationScope.nothing) { $0.merged($1.scope) }
        mask = masks.reduce(UnitMask(supervision: 0, regions: 0)) { $0.union($1) }
    }
}

extension Reducers {
    /// Asks the units `action` reaches, in order, to decide and mutate `state` (every unit, or with
    /// a case-indexed action the units of its case and those that name none), and merges each
    /// one that applied into `change`.
    @inlinable
    @inline(__always)
    func ask(_ action: Action, _ state: inout State, change: inout PhaseChange, willWrite: () -> Void) {
        steps.withUnretainedSteps { steps in
            func ask(_ index: Int) { steps.ask(index, action, &state, change: &change, willWrite: willWrite) }
            guard routes.caseOf != nil else {
                for index in 0..<steps.count { ask(index) }
                return
            }
            for position in routes.group(of: action) { ask(routes.units[position]) }
        }
    }

    /// Runs every unit, in order (a fold whose units all apply).
    @inlinable
    @inline(__always)
    func runAll(_ action: Action, _ state: inout State) {
        steps.withUnretainedSteps { steps in
            for index in 0..<steps.count {
                steps.run(index, action, &state)
            }
        }
    }
}

extension Store {
    /// Runs a reducer phase. Only tests and calls, inlined where the dispatch is: the common case
    /// (one unit that runs alone, nobody observing) calls the unit from here.
    @inlinable
    @inline(__always)
    internal func run(_ phase: borrowing ReducerPhase<Action, State>, _ action: Action, depth: Int) {
        switch phase {
        case .sole(let reducer):
            if reducer.runsAlone, observers.isEmpty {
                reducer.unit.run(action, &storage)
            } else {
                run(reducer, action, depth: depth)
            }
        case .several(let reducers):
            run(reducers, action, depth: depth)
        case .none:
            break
        }
    }

    /// One unit, with observers or supervision.
    @inlinable
    internal func run(_ reducer: SoleReducer<Action, State>, _ action: Action, depth: Int) {
        if reducer.runsBare, observers.isEmpty {
            // Nobody to tell: a lifted unit skips by itself when it does not apply.
            reducer.unit.run(action, &storage)
        } else if reducer.unit.applies != nil {
            // Decides and mutates in one pass; observers hear `willChange` before its first write.
            if observers.willChangeCount == 0 {
                guard reducer.unit.reduce(action, &storage, {}) else { return }
            } else {
                guard reducer.unit.reduce(action, &storage, { notifyWillChange() }) else { return }
            }
            notifyDidChange(writing: reducer.mask.regions, scope: reducer.unit.scope, action: action)
        } else {
            notifyWillChange()
            reducer.unit.run(action, &storage)
            notifyDidChange(writing: reducer.mask.regions, scope: reducer.unit.scope, action: action)
        }
        reconcile(after: reducer.unit.scope, mask: reducer.mask.supervision, action: action, depth: depth)
    }

    /// Several units. Every unit that may act on the action is asked, in order, with no early
    /// exit, so each lifted unit can report a missing element: with a case-indexed action, the
    /// units of its case and those that name none; else every unit.
    @inlinable
    internal func run(_ reducers: Reducers<Action, State>, _ action: Action, depth: Int) {
        if reducers.alwaysApply {
            if observers.isEmpty {
                reducers.runAll(action, &storage)
            } else {
                notifyWillChange()
                reducers.runAll(action, &storage)
                notifyDidChange(writing: reducers.mask.regions, scope: reducers.scope, action: action)
            }
            reconcile(after: reducers.scope, mask: reducers.mask.supervision, action: action, depth: depth)
            return
        }
        var change = PhaseChange()
        if observers.willChangeCount == 0 {
            reducers.ask(action, &storage, change: &change) {}
        } else {
            var notified = false
            reducers.ask(action, &storage, change: &change) {
                if !notified {
                    notified = true
                    notifyWillChange()
                }
            }
        }
        guard change.mutates else { return }
        notifyDidChange(writing: change.regions, scope: change.scope, action: action)
        reconcile(after: change.scope, mask: change.mask, action: action, depth: depth)
    }
}
