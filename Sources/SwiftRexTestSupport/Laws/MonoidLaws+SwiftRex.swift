import SwiftRex

extension MonoidLaws {
    /// Checks ``SwiftRex/EndoMut`` laws, comparing mutations by running them on every sample state.
    public static func check<Value: Equatable>(endoMuts samples: [EndoMut<Value>], on states: [Value]) -> [LawViolation] {
        check(samples) { endo in
            states.map { state in
                var copy = state
                endo.runEndoMut(&copy)
                return copy
            }
        }
    }

    /// Checks ``SwiftRex/Endo`` laws, comparing functions by applying them to every sample value.
    public static func check<Value: Equatable>(endos samples: [Endo<Value>], on values: [Value]) -> [LawViolation] {
        check(samples) { endo in values.map(endo.runEndo) }
    }

    /// Checks ``SwiftRex/Reader`` laws (output a monoid), comparing readers by running them on every
    /// sample environment and comparing outputs with `equal`.
    public static func check<Environment, Output: Monoid>(
        readers samples: [Reader<Environment, Output>],
        environments: [Environment],
        equal: (Output, Output) -> Bool
    ) -> [LawViolation] {
        check(samples) { lhs, rhs in
            environments.allSatisfy { equal(lhs.runReader($0), rhs.runReader($0)) }
        }
    }

    /// Checks ``SwiftRex/Reducer`` laws, comparing reducers by the final state for every sample
    /// action on every sample state (through both `apply(_:to:)` and `reduce(_:)`).
    public static func check<Action, State: Equatable>(reducers samples: [Reducer<Action, State>], actions: [Action], states: [State])
        -> [LawViolation]
    {
        check(samples) { reducer in
            actions.flatMap { action in
                states.flatMap { state -> [State] in
                    var applied = state
                    reducer.apply(action, to: &applied)
                    var reduced = state
                    reducer.reduce(action).runEndoMut(&reduced)
                    return [applied, reduced]
                }
            }
        }
    }

    /// Checks ``SwiftRex/ReducerOutcome`` laws (final state and `isMutation` on every sample state),
    /// plus the unchanged law (``checkUnchangedInvariant(_:)``).
    public static func check<State: Equatable>(outcomes samples: [ReducerOutcome<State>], on states: [State]) -> [LawViolation] {
        let laws = check(samples) { outcome -> [State?] in
            [outcome.isMutation ? nil : states.first]
                + states.map { state in
                    var copy = state
                    outcome.runEndoMut(&copy)
                    return copy
                }
        }
        return laws + checkUnchangedInvariant(samples)
    }

    /// The unchanged law (<doc:Composition#Unchanged-survives-composition>): a fold is `.unchanged` iff every operand is — checked on every pair, every
    /// triple, and the `mconcat` of all samples.
    public static func checkUnchangedInvariant<State>(_ samples: [ReducerOutcome<State>]) -> [LawViolation] {
        var violations: [LawViolation] = []
        func verify(_ indices: [Int], _ folded: ReducerOutcome<State>) {
            let expected = indices.contains { samples[$0].isMutation }
            if folded.isMutation != expected {
                violations.append(LawViolation(law: .unchangedIffEveryOperandUnchanged, operands: indices))
            }
        }
        for i in samples.indices {
            for j in samples.indices {
                verify([i, j], .combine(samples[i], samples[j]))
                for k in samples.indices {
                    verify([i, j, k], .combine(.combine(samples[i], samples[j]), samples[k]))
                }
            }
        }
        verify(Array(samples.indices), .mconcat(samples))
        return violations
    }

    /// Checks ``SwiftRex/Reaction`` laws componentwise: the mutation (final state and `isMutation`) and
    /// the effect produced against a post-mutation context, for every sample state.
    public static func check<Action: Equatable, State: Equatable, Environment>(
        reactions samples: [Reaction<Action, State, Environment>],
        states: [State],
        environment: Environment
    ) -> [LawViolation] {
        check(samples) { reaction in
            states.map { state -> ReactionObservation<Action, State> in
                var copy = state
                reaction.mutation.runEndoMut(&copy)
                let post = copy
                let context = PostReducerContext<State, Environment>(environment: environment, liveState: { post })
                return ReactionObservation(
                    state: copy,
                    mutated: reaction.mutation.isMutation,
                    effect: EffectObservation(reaction.produce.runReader(context))
                )
            }
        }
    }

    /// Checks ``SwiftRex/Effect`` laws, comparing effects by ``EffectObservation`` (emitted actions,
    /// schedulings and channel payloads, in component order).
    public static func check<Action: Equatable>(effects samples: [Effect<Action>]) -> [LawViolation] {
        check(samples, observe: EffectObservation.init)
    }

    /// Checks ``SwiftRex/Supervision`` laws, comparing the resolved channel identities in order for
    /// every sample environment.
    public static func check<Action: Sendable, Environment>(
        supervisions samples: [Supervision<Action, Environment>],
        environments: [Environment]
    ) -> [LawViolation] {
        check(samples) { supervision in environments.map(supervision.channelIdentities) }
    }

    /// Checks ``SwiftRex/Keep`` laws (ordered concatenation), comparing channel identities in order.
    public static func check<Action: Sendable>(keeps samples: [Keep<Action>]) -> [LawViolation] {
        check(samples) { keep in keep.map(ChannelIdentity.init) }
    }

    /// Checks ``SwiftRex/Behavior`` laws, comparing behaviors by what ``SwiftRex/Behavior/step(_:state:environment:file:function:line:)``
    /// does for every sample action on every sample state (final state, `mutated`, effect), by
    /// `supervises`, and by the supervised channel identities for every sample state.
    @MainActor
    public static func check<Action: Equatable, State: Equatable, Environment>(
        behaviors samples: [Behavior<Action, State, Environment>],
        actions: [Action],
        states: [State],
        environment: Environment
    ) -> [LawViolation] {
        check(samples) { lhs, rhs in
            observe(lhs, actions: actions, states: states, environment: environment)
                == observe(rhs, actions: actions, states: states, environment: environment)
        }
    }

    /// Checks ``SwiftRex/Middleware`` laws, comparing middlewares through `handle` (the effect resolved
    /// for every sample action on every sample state), `supervises`, and the supervised channel
    /// identities for every sample state.
    @MainActor
    public static func check<Action: Equatable, State: Equatable, Environment>(
        middlewares samples: [Middleware<Action, State, Environment>],
        actions: [Action],
        states: [State],
        environment: Environment
    ) -> [LawViolation] {
        check(samples) { lhs, rhs in
            observe(lhs, actions: actions, states: states, environment: environment)
                == observe(rhs, actions: actions, states: states, environment: environment)
        }
    }

    @MainActor
    private static func observe<Action: Equatable, State: Equatable, Environment>(
        _ behavior: Behavior<Action, State, Environment>,
        actions: [Action],
        states: [State],
        environment: Environment
    ) -> HostObservation<Action, State> {
        HostObservation(
            steps: actions.flatMap { action in
                states.map { StepObservation(behavior, action: action, state: $0, environment: environment) }
            },
            supervises: behavior.supervises,
            channels: states.map { state in behavior.supervisor.map { $0(state).channelIdentities(environment) } ?? [] }
        )
    }

    @MainActor
    private static func observe<Action: Equatable, State: Equatable, Environment>(
        _ middleware: Middleware<Action, State, Environment>,
        actions: [Action],
        states: [State],
        environment: Environment
    ) -> HostObservation<Action, State> {
        HostObservation(
            steps: actions.flatMap { action in
                states.map { state in
                    let pre = PreReducerContext<State>(source: ActionSource(), stateBefore: { state })
                    let post = PostReducerContext<State, Environment>(environment: environment, liveState: { state })
                    let effect = middleware.handle(action, pre).runReader(post)
                    return StepObservation(state: state, mutated: false, effect: EffectObservation(effect))
                }
            },
            supervises: middleware.supervises,
            channels: states.map { state in middleware.supervisor.map { $0(state).channelIdentities(environment) } ?? [] }
        )
    }
}

private struct ReactionObservation<Action: Sendable & Equatable, State: Equatable>: Equatable {
    let state: State
    let mutated: Bool
    let effect: EffectObservation<Action>
}

private struct HostObservation<Action: Sendable & Equatable, State: Equatable>: Equatable {
    let steps: [StepObservation<Action, State>]
    let supervises: Bool
    let channels: [[ChannelIdentity]]
}

extension StepObservation {
    fileprivate init(state: State, mutated: Bool, effect: EffectObservation<Action>) {
        self.state = state
        self.mutated = mutated
        self.effect = effect
    }
}
