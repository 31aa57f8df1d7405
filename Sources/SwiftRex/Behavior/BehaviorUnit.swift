/// One flat unit of a ``Behavior`` or ``Middleware``: the internal form of a ``Consequence`` that
/// keeps the hot paths apart.
///
/// A reducer unit mutates in place with no closure built per action; a producer unit yields only an
/// effect reader; a reaction unit is a grouped `react`; a supervision unit is the state clock.
@usableFromInline
internal enum BehaviorUnit<Action: Sendable, State: Sendable, Environment: Sendable>: Sendable {
    case reducer(ReducerUnit<Action, State>)
    /// A producer, and where the collection elements owning its effects live (see `UnitFootprint`).
    case producer(@MainActor @Sendable (Action, PreReducerContext<State>) -> Producer<Action, State, Environment>?, footprint: UnitFootprint = .producer)
    /// A grouped reaction, what its mutation may touch (see ``MutationScope``) and where (see `UnitFootprint`).
    case reaction(
        @MainActor @Sendable (Action, PreReducerContext<State>) -> Reaction<Action, State, Environment>,
        scope: MutationScope,
        footprint: UnitFootprint = .whole
    )
    case supervision(SupervisionUnit<State, Action, Environment>)

    /// What the unit writes (reducers, reactions) or reads (supervisions), and where the elements
    /// owning its effects live.
    @inlinable
    var footprint: UnitFootprint {
        switch self {
        case .reducer(let unit): return unit.footprint
        case .producer(_, let footprint), .reaction(_, _, let footprint): return footprint
        case .supervision(let unit): return unit.footprint
        }
    }

    /// This unit as a public consequence.
    @inlinable
    var consequence: Consequence<Action, State, Environment> {
        switch self {
        case .reducer(let unit):
            return .reaction { action, context in
                if let applies = unit.applies, let state = context.stateBefore, !applies(action, state) {
                    return .doNothing
                }
                let run = unit.run
                return Reaction(mutation: .mutation(EndoMut { run(action, &$0) }))
            }
        case .producer(let produce, _):
            return .reaction { action, context in
                Reaction(mutation: .unchanged, produce: produce(action, context))
            }
        case .reaction(let react, _, _):
            return .reaction(react)
        case .supervision(let unit):
            return .supervision(unit.supervise)
        }
    }

    /// Whether the unit takes part in phase 1 (anything but supervision).
    @inlinable
    var isActionClock: Bool {
        if case .supervision = self { return false }
        return true
    }
}
