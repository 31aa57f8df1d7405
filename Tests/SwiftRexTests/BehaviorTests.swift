import SwiftRex
import SwiftRexTestSupport
import Testing

/// `Behavior`: the free monoid of consequences and its composition guarantees, run through `step`.
@MainActor
@Suite struct BehaviorTests {
    typealias F = CoreFixtures
    typealias B = Behavior<F.Action, F.State, F.Env>

    static func seen(_ label: String) -> @MainActor @Sendable (F.Action, PreReducerContext<F.State>) -> Reaction<F.Action, F.State, F.Env> {
        { _, context in
            let before = context.stateBefore?.value ?? -1
            return .reduce { $0.value += 10 }.produce { _ in .just(.note("\(label) saw \(before)")) }
        }
    }

    @Test func everyReactionSeesTheSamePreMutationState() {
        let behavior = B.react(Self.seen("first"))
            .react(Self.seen("second"))
            .reduce { _, state in state.value += 1 }
            .produce { _, context in
                let before = context.stateBefore?.value ?? -1
                return Producer { post in
                    let after = MainActor.assumeIsolated { post.liveState?.value } ?? -1
                    return .just(.note("producer saw \(before) then \(after)"))
                }
            }
        var state = F.State(value: 1)
        let step = behavior.step(.noop, state: &state, environment: F.environment)
        #expect(state.value == 22)
        #expect(step.mutated)
        #expect(step.effect.emittedActionValues() == [.note("first saw 1"), .note("second saw 1"), .note("producer saw 1 then 22")])
    }

    @Test func handleFoldsEveryReactionAgainstOneContext() {
        let behavior = B.react(Self.seen("a")) <> .react(Self.seen("b"))
        let context = PreReducerContext<F.State>(source: ActionSource(), stateBefore: { F.State(value: 5) })
        let reaction = behavior.handle(.noop, context)
        var state = F.State(value: 5)
        reaction.mutation.runEndoMut(&state)
        #expect(state.value == 25)
        let post = PostReducerContext<F.State, F.Env>(environment: F.environment, liveState: { nil })
        #expect(reaction.resolveEffect(post).emittedActionValues() == [.note("a saw 5"), .note("b saw 5")])
    }

    @Test func mutationsRunInListOrder() {
        let behavior =
            B.reduce { _, state in state.log.append("reduce") }
            .react { _, _ in .reduce { $0.log.append("react") } }
            <> Reducer.reduce { _, state in state.log.append("reducer \(state.log.count)") }.asBehavior()
        var state = F.State()
        _ = behavior.step(.noop, state: &state, environment: F.environment)
        #expect(state.log == ["reduce", "react", "reducer 2"])
    }

    @Test func aReactionReadsTheSameWhicheverAxisIsChainedFirst() {
        let produceThenReduce = B.react { _, _ in Reaction.produce { _ in .just(.note("p")) }.reduce { $0.value += 1 } }
        let reduceThenProduce = B.react { _, _ in Reaction.reduce { $0.value += 1 }.produce { _ in .just(.note("p")) } }
        for behavior in [produceThenReduce, reduceThenProduce] {
            var state = F.State()
            let step = behavior.step(.noop, state: &state, environment: F.environment)
            #expect(state.value == 1)
            #expect(step.mutated)
            #expect(step.effect.emittedActionValues() == [.note("p")])
        }
    }

    @Test func doNothingStaysUnchanged() {
        let behavior = B.react { _, _ in .doNothing } <> .react { _, _ in .doNothing }
        var state = F.State(value: 3)
        let step = behavior.step(.add(1), state: &state, environment: F.environment)
        #expect(!step.mutated)
        #expect(step.effect.isEmpty)
        #expect(state.value == 3)
        let context = PreReducerContext<F.State>(source: ActionSource(), stateBefore: { nil })
        #expect(!behavior.handle(.add(1), context).mutation.isMutation)
    }

    @Test func aProduceOnlyBehaviorDoesNotMutate() {
        let behavior = B.produce { _, _ in Producer { _ in .just(.ping(1)) } }
        var state = F.State()
        let step = behavior.step(.noop, state: &state, environment: F.environment)
        #expect(!step.mutated)
        #expect(step.effect.emittedActionValues() == [.ping(1)])
    }

    @Test func fluentReduceAlwaysCountsAsAMutation() {
        // Documented: an unlifted `Behavior.reduce` cannot tell which actions it ignores.
        let behavior = B.reduce { action, state in if case .add(let n) = action { state.value += n } }
        var state = F.State()
        #expect(behavior.step(.noop, state: &state, environment: F.environment).mutated)
        #expect(state == F.State())
    }

    @Test func theIdentityReducersBehaviorReportsNoMutation() {
        let behavior: B = Reducer.mconcat(Array(repeating: .identity, count: 64)).asBehavior()
        var state = F.State(value: 4)
        let step = behavior.step(.add(1), state: &state, environment: F.environment)
        #expect(!step.mutated)
        #expect(step.effect.isEmpty)
        #expect(behavior.consequences.isEmpty)
        #expect(!behavior.supervises)
    }

    @Test func identityUnitsVanishFromBehaviorFolds() {
        let identities = Array(repeating: B.identity, count: 64)
        #expect(B.mconcat(identities).consequences.isEmpty)
        #expect(B.combine(identities).consequences.isEmpty)
        let one = B.reduce { _, state in state.value += 1 }
        #expect(B.mconcat(identities + [one] + identities).consequences.count == 1)
        #expect(B.combine(.identity, one, .identity).consequences.count == 1)
    }

    @Test func behaviorFromReducerAndMiddlewareRunsTheReducerFirst() {
        let reducer = Reducer<F.Action, F.State>.reduce { _, state in state.value += 1 }
        let middleware = Middleware<F.Action, F.State, F.Env>.produce { _, context in
            let before = context.stateBefore?.value ?? -1
            return Producer { post in
                let after = MainActor.assumeIsolated { post.liveState?.value } ?? -1
                return .just(.note("\(before)->\(after)"))
            }
        }
        let behavior = B(reducer: reducer, middleware: middleware)
        let context = PreReducerContext<F.State>(source: ActionSource(), stateBefore: { F.State() })
        let kinds = behavior.consequences.map { consequence -> Bool in
            guard case .reaction(let react) = consequence else { return false }
            return react(.noop, context).mutation.isMutation
        }
        #expect(kinds == [true, false])

        var state = F.State(value: 1)
        let step = behavior.step(.noop, state: &state, environment: F.environment)
        #expect(step.mutated)
        #expect(step.effect.emittedActionValues() == [.note("1->2")])
    }

    @Test func middlewareAsBehaviorKeepsUnchangedAndItsSupervision() {
        let middleware = Middleware<F.Action, F.State, F.Env>
            .produce { _, _ in Producer { _ in .just(.ping(7)) } }
            .supervise { state in Supervision { _ in [F.channel("live-\(state.value)")] } }
        let behavior = middleware.asBehavior
        var state = F.State(value: 2)
        let step = behavior.step(.noop, state: &state, environment: F.environment)
        #expect(!step.mutated)
        #expect(step.effect.emittedActionValues() == [.ping(7)])
        #expect(behavior.supervises)
        let ids = behavior.supervisor?(state).channelIdentities(F.environment).map(\.id)
        #expect(ids == [AnyHashableSendable("live-2")])
    }

    @Test func supervisionsConcatenateInListOrder() {
        let behavior = B.supervise { _ in Supervision { _ in [F.channel("a")] } }
            .reduce { _, _ in }
            .supervise { state in Supervision { env in [F.channel("\(env.tag)-\(state.value)"), F.channel("a")] } }
        let ids = behavior.supervisor?(F.State(value: 3)).channelIdentities(F.environment).map(\.id)
        #expect(ids == ["a", "env-3", "a"].map(AnyHashableSendable.init))
        #expect(B.reduce { _, _ in }.supervisor == nil)
    }

    @Test func consequencesRoundTripThroughTheInitialiser() {
        let original = B.reduce { _, state in state.value += 1 }
            .produce(CoreFixtures.producer("p"))
            .supervise { _ in Supervision { _ in [F.channel("x")] } }
        let rebuilt = B(consequences: original.consequences)
        #expect(rebuilt.consequences.count == 3)
        let violations = MonoidLaws.check(behaviors: [original, rebuilt], actions: F.actions, states: F.states, environment: F.environment)
        #expect(violations == [])
        for action in F.actions {
            for state in F.states {
                #expect(
                    StepObservation(original, action: action, state: state, environment: F.environment)
                        == StepObservation(rebuilt, action: action, state: state, environment: F.environment))
            }
        }
    }

    @Test func handleInitialiserAndStaticHandleAreReact() {
        let viaInit = B(handle: Self.seen("x"))
        let viaStatic = B.handle(Self.seen("x"))
        for action in F.actions {
            #expect(
                StepObservation(viaInit, action: action, state: F.State(), environment: F.environment)
                    == StepObservation(viaStatic, action: action, state: F.State(), environment: F.environment))
        }
    }

    @Test func stepStampsThePreContextWithTheCallSite() {
        let behavior = B.produce { _, context in
            let source = context.source
            return Producer { _ in .just(.note("\(source.file):\(source.line)")) }
        }
        var state = F.State()
        let step = behavior.step(.noop, state: &state, environment: F.environment, file: "Feature.swift", line: 12)
        #expect(step.effect.emittedActionValues() == [.note("Feature.swift:12")])
    }
}
