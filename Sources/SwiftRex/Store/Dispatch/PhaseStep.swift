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
    /// What the unit's writes reach.
    @usableFromInline let mask: UnitMask

    /// The step of `unit`, whose writes reach `mask`.
    @inlinable
    init(_ unit: BehaviorUnit<Action, State, Environment>, mask: UnitMask) {
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
