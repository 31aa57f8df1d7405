import SwiftRexTestSupport
import Testing

@_spi(Testing) @testable import SwiftRex

/// `EndoMut` and `Endo`: in-place and value-level endomorphisms, composed left to right.
@Suite struct EndoMutTests {
    @Test func combineRunsLhsThenRhsOnTheSameValue() {
        let add = EndoMut<Int> { $0 += 1 }
        let double = EndoMut<Int> { $0 *= 2 }
        var n = 3
        (add <> double).runEndoMut(&n)
        #expect(n == 8)
        var m = 3
        (double <> add)(&m)
        #expect(m == 7)
    }

    @Test func rhsSeesLhsWrites() {
        let write = EndoMut<[String]> { $0.append("lhs") }
        let read = EndoMut<[String]> { $0.append("rhs saw \($0.count)") }
        var log: [String] = []
        EndoMut.combine(write, read).runEndoMut(&log)
        #expect(log == ["lhs", "rhs saw 1"])
    }

    @Test func identityDoesNothingAndVanishesFromCompositions() {
        var n = 5
        EndoMut<Int>.identity.runEndoMut(&n)
        #expect(n == 5)
        #expect(EndoMut<Int>.identity.isIdentity)
        #expect(EndoMut<Int>.mconcat([.identity, .identity]).isIdentity)
        #expect((EndoMut<Int>.identity <> .identity).isIdentity)
        #expect(!EndoMut<Int> { $0 += 1 }.isIdentity)
        #expect(!(EndoMut<Int>.identity <> EndoMut { $0 += 1 }).isIdentity)
    }

    @Test func mconcatRunsEveryMutationInListOrder() {
        let steps = (1...5).map { step in EndoMut<[Int]> { $0.append(step) } }
        var trail: [Int] = []
        EndoMut.mconcat(steps + [.identity]).runEndoMut(&trail)
        #expect(trail == [1, 2, 3, 4, 5])
        var again: [Int] = []
        EndoMut.sconcat(steps[0], Array(steps.dropFirst())).runEndoMut(&again)
        #expect(again == [1, 2, 3, 4, 5])
        var variadic: [Int] = []
        EndoMut.mconcat(steps[4], steps[3])(&variadic)
        #expect(variadic == [5, 4])
    }

    @Test func endoComposesLeftToRightNotHaskellOrder() {
        let add = Endo<Int> { $0 + 1 }
        let double = Endo<Int> { $0 * 2 }
        #expect((add <> double).runEndo(3) == 8)
        #expect((double <> add)(3) == 7)
        #expect(Endo<Int>.identity.runEndo(9) == 9)
        #expect(Endo.mconcat([add, .identity, double, add]).runEndo(1) == 5)
    }

    @Test func conversionsBetweenEndoAndEndoMutAgree() {
        let mutating = EndoMut<Int> { $0 = $0 * 10 + 1 }
        #expect(mutating.toEndo().runEndo(4) == 41)
        var n = 4
        Endo<Int> { $0 * 10 + 1 }.toEndoMut().runEndoMut(&n)
        #expect(n == 41)
        #expect(Endo<Int>.identity.toEndoMut().isIdentity)
        #expect(EndoMut<Int>.identity.toEndo().runEndo(7) == 7)
    }

    @Test func toEndoLeavesTheInputUntouched() {
        let original = [1, 2, 3]
        let result = EndoMut<[Int]> { $0.append(4) }.toEndo().runEndo(original)
        #expect(original == [1, 2, 3])
        #expect(result == [1, 2, 3, 4])
    }
}

/// `Reader`: output functor, environment contravariance, and the monoid on monoidal outputs.
@Suite struct ReaderTests {
    @Test func combineRunsBothWithTheSameEnvironmentLhsFirst() {
        let log = CoreFixtures.Log<String>()
        let lhs = Reader<Int, [Int]> { env in
            log.append("lhs")
            return [env]
        }
        let rhs = Reader<Int, [Int]> { env in
            log.append("rhs")
            return [env * 10]
        }
        #expect((lhs <> rhs).runReader(3) == [3, 30])
        #expect(log.values == ["lhs", "rhs"])
        #expect(Reader<Int, [Int]>.doNothing(3) == [])
        #expect(Reader<Int, [Int]>.mconcat([lhs, rhs, lhs])(1) == [1, 10, 1])
    }

    @Test @MainActor func identityIsDroppedFromCompositionsAndAStoreSkipsItsProducer() {
        let lhs = Reader<Int, [Int]> { [$0] }
        #expect(Reader<Int, [Int]>.identity.isIdentity)
        #expect(!lhs.isIdentity)
        #expect(!(lhs <> .identity).isIdentity)
        #expect((lhs <> .identity)(2) == [2])
        #expect((.identity <> lhs)(2) == [2])
        #expect((Reader<Int, [Int]>.identity <> .identity).isIdentity)
        #expect(Reader<Int, [Int]>.mconcat([.identity, lhs, .identity, lhs])(1) == [1, 1])
        #expect(Reader<Int, [Int]>.mconcat([.identity, .identity]).isIdentity)
        // A producer answering `.doNothing` produces nothing; the other one still runs.
        let ran = CoreFixtures.Log<String>()
        let behavior = Behavior<Int, [Int], Void>
            .reduce { action, state in state.append(action) }
            .produce { action, _ in
                action == 1
                    ? .doNothing
                    : Producer { _ in
                        ran.append("ran")
                        return .just(1)
                    }
            }
        let store = Store(initial: [], behavior: behavior)
        store.dispatch(1)
        store.dispatch(2)
        #expect(ran.values == ["ran"])
        store.drainEffectActionsNow()
        #expect(store.state == [1, 2, 1])
        #expect(!store.hasRunningEffects)
    }

    @Test(arguments: [31, 32] as [UInt64])
    func mapObeysTheFunctorLaws(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let k = Int.random(in: 1...9, using: &rng)
        let reader = Reader<Int, Int> { $0 * k }
        let f: @Sendable (Int) -> Int = { $0 + 3 }
        let g: @Sendable (Int) -> String = { "v\($0)" }
        for env in [-2, 0, 5] {
            #expect(reader.map { $0 }(env) == reader(env))
            #expect(reader.map { g(f($0)) }(env) == reader.map(f).map(g)(env))
        }
    }

    @Test func contramapEnvironmentObeysTheLaws() {
        let reader = Reader<Int, String> { "env \($0)" }
        let f: @Sendable (String) -> Int = { $0.count }
        let g: @Sendable ([String]) -> String = { $0.joined() }
        for env in [[], ["a"], ["ab", "c"]] {
            #expect(reader.contramapEnvironment { $0 }(env.count) == reader(env.count))
            #expect(reader.contramapEnvironment { f(g($0)) }(env) == reader.contramapEnvironment(f).contramapEnvironment(g)(env))
        }
    }

    @Test func mapAndContramapCommute() {
        let reader = Reader<Int, Int> { $0 + 1 }
        let project: @Sendable (String) -> Int = { $0.count }
        let transform: @Sendable (Int) -> Int = { $0 * 100 }
        for env in ["", "abc"] {
            #expect(reader.map(transform).contramapEnvironment(project)(env) == reader.contramapEnvironment(project).map(transform)(env))
        }
    }

    @Test func pureIgnoresTheEnvironmentAndProduceIsReaderSugar() {
        #expect(Reader<Int, String>.pure("x")(42) == "x")
        let producer = Producer<Int, Int, String>.produce { ctx in .just(ctx.environment.count) }
        let context = PostReducerContext<Int, String>(environment: "four", liveState: { nil })
        #expect(producer(context).emittedActionValues() == [4])
    }
}
