/// Units whose writes a Store brackets with the watches over the plain arrays they may change
/// (see `ContainerWatch`): each watch keeps a copy of its array while the unit writes, then
/// records which elements came, went or changed, so phase 5 evaluates only those.
extension BehaviorUnit {
    /// This unit, its writes bracketed by `watches` (a unit that writes nothing, unchanged).
    @inlinable
    func bracketed(by watches: [any ContainerWatching<State>]) -> BehaviorUnit {
        switch self {
        case .reducer(let unit):
            return .reducer(unit.bracketed(by: watches))
        case .reaction(let react, let scope, let footprint):
            return .reaction(
                { action, context in
                    var reaction = react(action, context)
                    if case .mutation(let endo) = reaction.mutation {
                        reaction.mutation = .mutation(EndoMut { state in bracketing(watches, &state, writes: true) { endo.runEndoMut(&$0) } })
                    }
                    return reaction
                }, scope: scope, footprint: footprint)
        case .producer, .supervision:
            return self
        }
    }
}

extension ReducerUnit {
    /// This unit, its writes bracketed by `watches` (its test too: a test that declines leaves
    /// the copy unchanged), fused with no other unit.
    @inlinable
    func bracketed(by watches: [any ContainerWatching<State>]) -> ReducerUnit {
        let run = self.run
        let reduce = self.reduce
        return ReducerUnit(
            applies: applies,
            run: { action, state in bracketing(watches, &state, writes: false) { run(action, &$0) } },
            reduce: { action, state, willWrite in
                var applied = false
                bracketing(watches, &state, writes: false) { applied = reduce(action, &$0, willWrite) }
                return applied
            },
            scope: scope, footprint: footprint, actionCase: actionCase, runIsComplete: runIsComplete, fusion: nil, address: address)
    }
}
