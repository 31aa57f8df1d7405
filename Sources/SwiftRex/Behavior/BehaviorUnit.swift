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

/// One unit of a behavior as a Store's full dispatch reads it: its kind and the closures and
/// figures each phase needs, behind one reference (copying a ``BehaviorUnit`` out of its array
/// copies and retains every closure it holds, twice per dispatch). Closures a kind does not use
/// are no-ops, not optionals: an optional closure is stored reabstracted, and calling it boxes the
/// caller's `willWrite` closure.
@usableFromInline
internal final class PhaseStep<Action: Sendable, State: Sendable, Environment: Sendable>: Sendable {
    /// What the unit is.
    @usableFromInline enum Kind: Sendable {
        case reducer
        case producer
        case reaction
        case supervision
    }

    @usableFromInline let kind: Kind
    /// A reducer unit's decide-and-mutate pass.
    @usableFromInline let reduce: @Sendable (Action, inout State, _ willWrite: () -> Void) -> Bool
    /// Whether the unit is a reducer that always applies (no test) and whose `run` does all its
    /// `reduce` does: its `reduce` is `willWrite` then `run`, so the Store calls `run` directly,
    /// without passing a `willWrite` closure.
    @usableFromInline let alwaysApplies: Bool
    /// A reducer unit's in-place reduce (what an always-applying unit's `reduce` runs).
    @usableFromInline let run: @Sendable (Action, inout State) -> Void
    /// A reducer unit's action case, when it is lifted through a case-indexed prism.
    @usableFromInline let actionCase: Int?
    /// A producer's phase-1 handler, in the shape it was given (for other kinds, one that has no
    /// producer for any action).
    @usableFromInline let producer: ProducerHandler<Action, State, Environment>
    /// A reaction's phase-1 handler.
    @usableFromInline let react: @MainActor @Sendable (Action, PreReducerContext<State>) -> Reaction<Action, State, Environment>
    /// What a reducer's or reaction's mutation may touch.
    @usableFromInline let scope: MutationScope
    /// The supervision segments (and removal bit) the unit's writes reach.
    @usableFromInline let mask: UInt64

    /// The step of `unit`, whose writes reach `mask`.
    @inlinable
    init(_ unit: BehaviorUnit<Action, State, Environment>, mask: UInt64) {
        self.mask = mask
        var reduce: @Sendable (Action, inout State, _ willWrite: () -> Void) -> Bool = { _, _, _ in false }
        var alwaysApplies = false
        var run: @Sendable (Action, inout State) -> Void = { _, _ in }
        var actionCase: Int?
        var producer = ProducerHandler<Action, State, Environment>.someActions { _, _ in nil }
        var react: @MainActor @Sendable (Action, PreReducerContext<State>) -> Reaction<Action, State, Environment> = { _, _ in .doNothing }
        var scope = MutationScope.nothing
        switch unit {
        case .reducer(let reducer):
            kind = .reducer
            reduce = reducer.reduce
            alwaysApplies = reducer.applies == nil && reducer.runIsComplete
            run = reducer.run
            actionCase = reducer.actionCase
            scope = reducer.scope
        case .producer(let handler, _):
            kind = .producer
            producer = handler
        case .reaction(let handler, let reactionScope, _):
            kind = .reaction
            react = handler
            scope = reactionScope
        case .supervision:
            kind = .supervision
        }
        self.reduce = reduce
        self.alwaysApplies = alwaysApplies
        self.run = run
        self.actionCase = actionCase
        self.producer = producer
        self.react = react
        self.scope = scope
    }
}

/// Calls `body` with the step `reference` points to, as a guaranteed reference: neither the step
/// nor a closure read from it is retained. The caller keeps the step alive for the whole call.
///
/// A function of this module, not `Unmanaged._withUnsafeGuaranteedRef` called directly: a
/// main-actor closure handed straight to the standard library has its executor checked at every
/// call, one handed to a function of a strict-concurrency module does not.
@inlinable
@inline(__always)
internal func withGuaranteedStep<Action, State, Environment, Result>(
    _ reference: Unmanaged<PhaseStep<Action, State, Environment>>,
    _ body: (PhaseStep<Action, State, Environment>) -> Result
) -> Result {
    reference._withUnsafeGuaranteedRef(body)
}
