import SwiftRex
import SwiftRexTestSupport
import Testing

/// Associativity and both identities (plus the one-pass folds) for every monoid of the core, on
/// seeded generated samples, by observational equality (Composition,
/// "Observational equality and the laws").
@Suite struct MonoidLawTests {
    typealias F = CoreFixtures

    @Test(arguments: [1, 2, 3] as [UInt64])
    func endoMutIsAMonoid(seed: UInt64) {
        let samples = F.endoMuts(count: 7, seed: seed)
        #expect(MonoidLaws.check(endoMuts: samples, on: F.states) == [])
    }

    @Test(arguments: [4, 5] as [UInt64])
    func endoIsAMonoid(seed: UInt64) {
        let samples = F.endoMuts(count: 6, seed: seed).map { $0.toEndo() } + [Endo { $0 }, .identity]
        #expect(MonoidLaws.check(endos: samples, on: F.states) == [])
    }

    @Test(arguments: [6, 7] as [UInt64])
    func readerIntoAnArrayIsAMonoid(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let samples: [Reader<Int, [Int]>] =
            [.identity, .doNothing]
            + (0..<5).map { _ in
                let k = Int.random(in: -3...3, using: &rng)
                let n = Int.random(in: 0...2, using: &rng)
                return Reader { env in Array(repeating: env * k, count: n) }
            }
        #expect(MonoidLaws.check(readers: samples, environments: [0, 1, 5], equal: ==) == [])
    }

    @Test func readerIntoAnEffectIsAMonoid() {
        let samples: [Reader<Int, Effect<F.Action>>] = [
            .identity,
            Reader { .just(.ping($0)) },
            Reader { .sequence([.ping($0), .note("x")]) },
            Reader { $0 > 1 ? .cancel(id: $0) : .empty },
        ]
        let violations = MonoidLaws.check(readers: samples, environments: [0, 2]) {
            EffectObservation($0) == EffectObservation($1)
        }
        #expect(violations == [])
    }

    @Test(arguments: [8, 9] as [UInt64])
    func reducerOutcomeIsAMonoidAndKeepsTheUnchangedLaw(seed: UInt64) {
        let endos = F.endoMuts(count: 4, seed: seed)
        let samples: [ReducerOutcome<F.State>] = [.unchanged, .unchanged] + endos.map { .mutation($0) }
        #expect(MonoidLaws.check(outcomes: samples, on: F.states) == [])
        #expect(MonoidLaws.checkUnchangedInvariant(samples) == [])
    }

    @Test(arguments: [10, 11] as [UInt64])
    func reactionIsAMonoidComponentwise(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var samples: [Reaction<F.Action, F.State, F.Env>] = [.doNothing]
        for index in 0..<5 {
            let ops = F.randomOps(using: &rng)
            switch index % 3 {
            case 0: samples.append(.reduce { state in for op in ops { op.apply(&state) } })
            case 1: samples.append(.produce { ctx in .just(.note("\(index):\(ctx.environment.tag)")) })
            default:
                samples.append(.reduce { state in for op in ops { op.apply(&state) } }.produce { _ in .just(.ping(index)) })
            }
        }
        #expect(MonoidLaws.check(reactions: samples, states: F.states, environment: F.environment) == [])
    }

    @Test(arguments: [12, 13] as [UInt64])
    func reducerIsAMonoidByResultingState(seed: UInt64) {
        let samples = F.reducers(count: 6, seed: seed)
        #expect(MonoidLaws.check(reducers: samples, actions: F.actions, states: F.states) == [])
    }

    @Test func reducerIsNotCommutative() {
        let add = Reducer<F.Action, F.State>.reduce { _, state in state.value += 1 }
        let double = Reducer<F.Action, F.State>.reduce { _, state in state.value *= 2 }
        var addThenDouble = F.State(value: 3)
        (add <> double).apply(.noop, to: &addThenDouble)
        var doubleThenAdd = F.State(value: 3)
        (double <> add).apply(.noop, to: &doubleThenAdd)
        #expect(addThenDouble.value == 8)
        #expect(doubleThenAdd.value == 7)
    }

    @Test(arguments: [14, 15, 16] as [UInt64])
    @MainActor
    func behaviorIsAMonoid(seed: UInt64) {
        let samples = F.behaviors(count: 6, seed: seed)
        let violations = MonoidLaws.check(behaviors: samples, actions: F.actions, states: F.states, environment: F.environment)
        #expect(violations == [])
    }

    @Test(arguments: [17, 18] as [UInt64])
    @MainActor
    func behaviorCombinedWithIdentityKeepsWhetherItSupervises(seed: UInt64) {
        for behavior in F.behaviors(count: 8, seed: seed) {
            #expect(Behavior.combine(behavior, .identity).supervises == behavior.supervises)
            #expect(Behavior.combine(.identity, behavior).supervises == behavior.supervises)
        }
        #expect(Behavior<F.Action, F.State, F.Env>.identity.supervises == false)
    }

    @Test(arguments: [19, 20] as [UInt64])
    @MainActor
    func middlewareIsAMonoid(seed: UInt64) {
        let samples = F.middlewares(count: 6, seed: seed)
        let violations = MonoidLaws.check(middlewares: samples, actions: F.actions, states: F.states, environment: F.environment)
        #expect(violations == [])
        for middleware in samples {
            #expect(Middleware.combine(middleware, .identity).supervises == middleware.supervises)
        }
    }

    @Test(arguments: [21, 22, 23] as [UInt64])
    func effectIsAMonoidOfComponentLists(seed: UInt64) {
        #expect(MonoidLaws.check(effects: F.effects(count: 7, seed: seed)) == [])
    }

    @Test(arguments: [24, 25] as [UInt64])
    func supervisionIsAMonoidByOrderedConcatenation(seed: UInt64) {
        let samples = F.supervisions(count: 6, seed: seed)
        #expect(MonoidLaws.check(supervisions: samples, environments: [F.Env(tag: "a"), F.Env(tag: "b")]) == [])
    }

    @Test func keepConcatenatesInOrderAndKeepsDuplicates() {
        let a = F.channel("a")
        let b = F.channel("b", reset: 1)
        let c = F.channel("a", broadcast: 2)
        let keeps: [Keep<F.Action>] = [[], [a], [b, c], [c, a]]
        #expect(MonoidLaws.check(keeps: keeps) == [])

        let combined = Keep.combine([a, b], [c])
        #expect(combined.map(\.id) == [AnyHashableSendable("a"), AnyHashableSendable("b"), AnyHashableSendable("a")])
        let supervision = Supervision<F.Action, F.Env> { _ in [a, b] } <> Supervision { _ in [c] }
        #expect(supervision.channelIdentities(F.environment) == combined.map(ChannelIdentity.init))
    }
}
