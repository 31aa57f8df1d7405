/// What a Store's reducer-only path needs of one reducer unit: its decide-and-mutate closure, its
/// mutation scope and its supervision mask.
///
/// A class, reached through unretained references while the Store owns it: the hot loop calls
/// the closure of a guaranteed instance's `let`, so nothing is retained or released per unit
/// (a `ReducerUnit` read out of an array retains three closures and its footprint).
@usableFromInline
internal final class ReducerStep<Action, State>: Sendable {
    /// The unit's ``ReducerUnit/reduce``.
    @usableFromInline let reduce: @Sendable (Action, inout State, _ willWrite: () -> Void) -> Bool
    /// The unit's ``ReducerUnit/run``: what a dispatch whose units all apply calls.
    @usableFromInline let run: @Sendable (Action, inout State) -> Void
    /// The unit's ``ReducerUnit/scope``.
    @usableFromInline let scope: MutationScope
    /// What the unit's writes can reach.
    @usableFromInline let mask: UnitMask

    /// The step of `unit`, whose writes reach `mask`.
    @inlinable
    init(_ unit: ReducerUnit<Action, State>, mask: UnitMask) {
        reduce = unit.reduce
        run = unit.run
        scope = unit.scope
        self.mask = mask
    }

    /// A step from its parts (a fused run of units).
    @inlinable
    init(
        reduce: @escaping @Sendable (Action, inout State, _ willWrite: () -> Void) -> Bool,
        run: @escaping @Sendable (Action, inout State) -> Void,
        scope: MutationScope, mask: UnitMask
    ) {
        self.reduce = reduce
        self.run = run
        self.scope = scope
        self.mask = mask
    }

    /// One step per unit, except that each run of side-by-side units of one shape (see
    /// ``ReducerFusion``) with the same scope and supervision mask becomes one step asking them
    /// all, in order; when one of them applies, observers of any of their regions hear of it.
    ///
    /// Only for a dispatch that asks every unit: the steps no longer line up with the units.
    @inlinable
    static func fused(_ units: [ReducerUnit<Action, State>], masks: [UnitMask]) -> [ReducerStep] {
        var steps: [ReducerStep] = []
        var start = 0
        while start < units.count {
            let first = units[start]
            var end = start + 1
            // The units are alive for this whole call, and with them their fusions.
            if let fusion = first.fusion?.object {
                while end < units.count, let next = units[end].fusion?.object, fusion.accepts(next),
                    units[end].scope == first.scope, masks[end].supervision == masks[start].supervision
                {
                    end += 1
                }
                if end - start > 1 {
                    let others = units[(start + 1)..<end].map { $0.fusion!.object }
                    let runs = units[start..<end].map(\.run)
                    steps.append(
                        ReducerStep(
                            reduce: fusion.reduce(with: others),
                            run: { action, state in for run in runs { run(action, &state) } },
                            scope: first.scope, mask: masks[start..<end].reduce(masks[start]) { $0.union($1) }
                        ))
                    start = end
                    continue
                }
            }
            steps.append(ReducerStep(first, mask: masks[start]))
            start = end
        }
        return steps
    }
}

extension ReducerStep: UnretainedLoopStep {
    /// Runs ``reduce`` and, when the unit applied, merges its scope and mask into `change`.
    @inlinable
    @inline(__always)
    func ask(_ action: Action, _ state: inout State, change: inout PhaseChange, willWrite: () -> Void) {
        if reduce(action, &state, willWrite) { change.merge(scope: scope, mask: mask) }
    }

    /// Runs ``run``.
    @inlinable
    @inline(__always)
    func runAlways(_ action: Action, _ state: inout State) {
        run(action, &state)
    }
}
