import SwiftRex
import SwiftRexTestSupport
import Testing

/// `Middleware`: effects and supervision, never a mutation.
@MainActor
@Suite struct MiddlewareTests {
    typealias F = CoreFixtures
    typealias M = Middleware<F.Action, F.State, F.Env>

    static func run(_ middleware: M, _ action: F.Action, state: F.State = F.State()) -> [F.Action] {
        let pre = PreReducerContext<F.State>(source: ActionSource(), stateBefore: { state })
        let post = PostReducerContext<F.State, F.Env>(environment: F.environment, liveState: { state })
        return middleware.handle(action, pre).runReader(post).emittedActionValues()
    }

    @Test func combinedMiddlewaresConcatenateEffectsLhsFirst() {
        let lhs = M.produce { _, _ in Producer { _ in .just(.ping(1)) } }
        let rhs = M.produce { _, _ in Producer { _ in .sequence([.ping(2), .ping(3)]) } }
        #expect(Self.run(lhs <> rhs, .noop) == [.ping(1), .ping(2), .ping(3)])
        #expect(Self.run(rhs <> lhs, .noop) == [.ping(2), .ping(3), .ping(1)])
        #expect(Self.run(M.mconcat([lhs, .identity, rhs, lhs]), .noop) == [.ping(1), .ping(2), .ping(3), .ping(1)])
    }

    @Test func identityProducesNothingAndKeepsNothing() {
        #expect(Self.run(.identity, .add(1)) == [])
        #expect(!M.identity.supervises)
        #expect(M.identity.supervisor == nil)
        #expect(M.identity.consequences.isEmpty)
    }

    @Test func fluentProduceAndSuperviseAreAFold() {
        let middleware = M.produce { action, _ in
            guard case .add(let n) = action else { return .doNothing }
            return Producer { _ in .just(.ping(n)) }
        }
        .supervise { state in Supervision { _ in state.value > 0 ? [F.channel("positive")] : [] } }
        .produce { _, _ in Producer { ctx in .just(.note(ctx.environment.tag)) } }
        #expect(Self.run(middleware, .add(4)) == [.ping(4), .note("env")])
        #expect(Self.run(middleware, .noop) == [.note("env")])
        #expect(middleware.supervises)
        #expect(middleware.supervisor?(F.State(value: 1)).channelIdentities(F.environment).map(\.id) == [AnyHashableSendable("positive")])
        #expect(middleware.supervisor?(F.State(value: 0)).channelIdentities(F.environment).isEmpty == true)
    }

    @Test func everyConsequenceReportsUnchanged() {
        let middleware = M.produce { _, _ in Producer { _ in .just(.ping(1)) } } <> .produce(F.producer("x"))
        let context = PreReducerContext<F.State>(source: ActionSource(), stateBefore: { F.State() })
        for consequence in middleware.consequences {
            guard case .reaction(let react) = consequence else {
                Issue.record("expected a reaction")
                continue
            }
            #expect(!react(.noop, context).mutation.isMutation)
        }
    }

    @Test func handleAndSupervisorInitialiser() {
        let middleware = M(
            handle: { _, _ in Producer { _ in .just(.ping(9)) } },
            supervisor: { _ in Supervision { _ in [F.channel("s")] } }
        )
        #expect(Self.run(middleware, .noop) == [.ping(9)])
        #expect(middleware.supervises)
        #expect(!M(handle: { _, _ in .doNothing }).supervises)
    }

    @Test func theProducerReadsThePreContextInPhaseOne() {
        let middleware = M.handle { _, context in
            let before = context.stateBefore?.value ?? -1
            return Producer { _ in .just(.ping(before)) }
        }
        #expect(Self.run(middleware, .noop, state: F.State(value: 41)) == [.ping(41)])
    }
}
