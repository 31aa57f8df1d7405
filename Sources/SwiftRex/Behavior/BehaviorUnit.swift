/// One flat unit of a ``Behavior`` or ``Middleware``: the internal form of a ``Consequence`` that
/// keeps the hot paths apart.
///
/// A reducer unit mutates in place with no closure built per action; a producer unit yields only an
/// effect reader; a reaction unit is a grouped `react`; a supervision unit is the state clock.
@usableFromInline
internal enum BehaviorUnit<Action: Sendable, State: Sendable, Environment: Sendable>: Sendable {
    case reducer(ReducerUnit<Action, State>)
    /// A producer, and where the collection elements owning its effects live (see `UnitFootprint`).
    case producer(ProducerHandler<Action, State, Environment>, footprint: UnitFootprint = .producer)
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
                if let applies = unit.applies, var state = context.stateBefore, !applies(action, &state) {
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

/// A producer unit's phase-1 handler, kept in the shape it was given: a Store calls a producer
/// for every action directly, where converting it to the optional-returning shape would put a
/// thunk between the Store and the closure on every dispatch.
@usableFromInline
internal enum ProducerHandler<Action: Sendable, State: Sendable, Environment: Sendable>: Sendable {
    /// A producer for every action (a behavior's or a middleware's own `produce`).
    case everyAction(@MainActor @Sendable (Action, PreReducerContext<State>) -> Producer<Action, State, Environment>)
    /// A producer for some actions and `nil` for the others (a lifted or routed producer).
    case someActions(@MainActor @Sendable (Action, PreReducerContext<State>) -> Producer<Action, State, Environment>?)

    /// The producer for `action`, or `nil` when the handler has none for it (inlined into the
    /// Store's phase-1 loop, where it is one branch on the shape).
    @inlinable
    @inline(__always)
    @MainActor
    func callAsFunction(_ action: Action, _ context: PreReducerContext<State>) -> Producer<Action, State, Environment>? {
        switch self {
        case .everyAction(let produce): return produce(action, context)
        case .someActions(let produce): return produce(action, context)
        }
    }
}

extension BehaviorUnit {
    /// The reducer unit, when this is one.
    @inlinable
    var reducer: ReducerUnit<Action, State>? {
        if case .reducer(let unit) = self { return unit }
        return nil
    }

    /// The supervision unit, when this is one.
    @inlinable
    var supervision: SupervisionUnit<State, Action, Environment>? {
        if case .supervision(let unit) = self { return unit }
        return nil
    }

    /// Whether this is a grouped reaction.
    @inlinable
    var isReaction: Bool {
        if case .reaction = self { return true }
        return false
    }

    /// What phase 5 needs to know of this unit: what it may write, with what scope, and where the
    /// collection elements owning its effects live.
    @inlinable
    var writes: UnitWrites {
        switch self {
        case .reducer(let unit): return UnitWrites(writes: unit.footprint.touches, scope: unit.scope)
        case .reaction(_, let scope, let footprint):
            return UnitWrites(writes: footprint.touches, scope: scope, effectContainers: footprint.containers)
        case .producer(_, let footprint): return UnitWrites(effectContainers: footprint.containers)
        case .supervision: return UnitWrites()
        }
    }
}
