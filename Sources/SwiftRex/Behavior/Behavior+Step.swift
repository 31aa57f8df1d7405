/// What one action did when run through a behavior without a Store: whether a mutation ran, and the
/// resolved (not yet performed) effect.
public struct BehaviorStep<Action: Sendable>: Sendable {
    /// Whether phase 2 ran a mutation (`false` means the fold was `.unchanged`: no notification).
    public let mutated: Bool
    /// The effect resolved in phase 3, in component order. Nothing has been performed.
    public let effect: Effect<Action>

    /// A step result.
    @inlinable
    public init(mutated: Bool, effect: Effect<Action>) {
        self.mutated = mutated
        self.effect = effect
    }
}

/// One entry of phase 2: an in-place reducer unit, or a mutation produced by a grouped reaction.
@usableFromInline
internal enum MutationStep<Action, State> {
    case reducer(ReducerUnit<Action, State>)
    case endo(EndoMut<State>)
}

extension Behavior {
    /// Runs one action through this behavior's phases on a caller-owned state, without a Store:
    /// phase 1 evaluates every reaction against the pre-mutation state, phase 2 runs the mutations in
    /// place in list order, phase 3 resolves the effects against the post-mutation state.
    ///
    /// Nothing is performed: the effect is returned as a value. Contexts read snapshots of `state`
    /// (`stateBefore` the pre-mutation value, `liveState` the post-mutation value). A behavior made
    /// only of reducer units builds no context, no closure and no buffer, so it allocates nothing.
    ///
    /// - Complexity: O(units) per action.
    @MainActor
    @inlinable
    public func step(
        _ action: Action,
        state: inout State,
        environment: Environment,
        file: String = #fileID, function: String = #function, line: UInt = #line
    ) -> BehaviorStep<Action> {
        if isReducerOnly {
            // Each unit decides and mutates in one pass, in list order.
            var mutated = false
            for pass in reducerPasses where pass(action, &state, {}) { mutated = true }
            return BehaviorStep(mutated: mutated, effect: .empty)
        }

        return stepThroughReactions(action, state: &state, environment: environment, source: ActionSource(file: file, function: function, line: line))
    }

    /// The general path of ``step(_:state:environment:file:function:line:)``: kept out of line so
    /// its snapshots of the state never enlarge the reducer-only path's stack frame.
    @MainActor
    @inlinable
    @inline(never)
    internal func stepThroughReactions(
        _ action: Action,
        state: inout State,
        environment: Environment,
        source: ActionSource
    ) -> BehaviorStep<Action> {
        let (steps, producers) = collectReactions(action, state: state, source: source)
        var mutated = false
        for step in steps {
            switch step {
            case .reducer(let reducer):
                if reducer.reduce(action, &state, {}) { mutated = true }
            case .endo(let endo):
                endo.runEndoMut(&state)
                mutated = true
            }
        }
        guard !producers.isEmpty else { return BehaviorStep(mutated: mutated, effect: .empty) }
        let postState = state
        let context = PostReducerContext<State, Environment>(environment: environment, liveState: { postState })
        let effect =
            producers.count == 1
            ? producers[0].runReader(context)
            : Effect.mconcat(producers.map { $0.runReader(context) })
        return BehaviorStep(mutated: mutated, effect: effect)
    }

    /// Phase 1 on a snapshot: the mutations to run (in list order: every reducer unit, which
    /// decides in phase 2 whether it applies, and each reaction's mutation) and the effect readers.
    /// The snapshot is released when this returns, before any mutation, so it never forces a copy.
    @MainActor
    @inlinable
    internal func collectReactions(
        _ action: Action,
        state: State,
        source: ActionSource
    ) -> ([MutationStep<Action, State>], [Producer<Action, State, Environment>]) {
        let context = PreReducerContext<State>(reader: SnapshotStateReader(source: source, snapshot: state, generators: { .live }))
        var steps: [MutationStep<Action, State>] = []
        var producers: [Producer<Action, State, Environment>] = []
        for unit in units {
            switch unit {
            case .reducer(let reducer):
                steps.append(.reducer(reducer))
            case .producer(let produce, _):
                if let reader = produce(action, context) { producers.append(reader) }
            case .reaction(let react, _, _):
                let reaction = react(action, context)
                if case .mutation(let endo) = reaction.mutation { steps.append(.endo(endo)) }
                if let producer = reaction.producer { producers.append(producer) }
            case .supervision:
                break
            }
        }
        return (steps, producers)
    }
}
