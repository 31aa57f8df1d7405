import SwiftRex
import SwiftRexTestSupport
import Testing

/// `ReducerOutcome` and `Reducer`: honest `.unchanged`, sequential composition, flat folds.
@Suite struct ReducerTests {
    typealias F = CoreFixtures

    // MARK: ReducerOutcome

    @Test func unchangedOperandsVanishWithoutWrapping() {
        let mutation = ReducerOutcome<Int>.mutation(EndoMut { $0 += 1 })
        #expect(!ReducerOutcome<Int>.combine(.unchanged, .unchanged).isMutation)
        #expect(ReducerOutcome.combine(mutation, .unchanged).isMutation)
        #expect(ReducerOutcome.combine(.unchanged, mutation).isMutation)
        #expect(!ReducerOutcome<Int>.mconcat([.unchanged, .unchanged, .unchanged]).isMutation)
        #expect(!ReducerOutcome<Int>.mconcat([]).isMutation)
        #expect(ReducerOutcome.mconcat([.unchanged, mutation, .unchanged]).isMutation)
        var n = 1
        ReducerOutcome.combine(mutation, ReducerOutcome<Int>.mutation(EndoMut { $0 *= 5 })).runEndoMut(&n)
        #expect(n == 10)
    }

    @Test func runningUnchangedDoesNothing() {
        var n = 3
        ReducerOutcome<Int>.unchanged.runEndoMut(&n)
        #expect(n == 3)
    }

    @Test func mapPreservesUnchangedAndTransformsTheMutation() {
        let lens = Lens<F.State, Int>(\.value)
        let unchanged = ReducerOutcome<Int>.unchanged.map(lens.lift)
        #expect(!unchanged.isMutation)
        let lifted = ReducerOutcome<Int>.mutation(EndoMut { $0 += 4 }).map(lens.lift)
        #expect(lifted.isMutation)
        var state = F.State(value: 1)
        lifted.runEndoMut(&state)
        #expect(state.value == 5)
        // Functor laws on the wrapped mutation.
        var viaIdentity = F.State(value: 2)
        ReducerOutcome<F.State>.mutation(F.endoMut([.add(3)])).map { $0 }.runEndoMut(&viaIdentity)
        #expect(viaIdentity.value == 5)
    }

    // MARK: Reducer

    @Test func applyAndReduceAgree() {
        for reducer in F.reducers(count: 5, seed: 40) {
            for action in F.actions {
                for state in F.states {
                    var applied = state
                    reducer.apply(action, to: &applied)
                    var reduced = state
                    reducer.reduce(action).runEndoMut(&reduced)
                    #expect(applied == reduced)
                }
            }
        }
    }

    @Test func combineRunsLhsThenRhsAndRhsSeesLhsWrites() {
        let first = Reducer<F.Action, F.State>.reduce { _, state in state.log.append("first") }
        let second = Reducer<F.Action, F.State>.reduce { _, state in state.log.append("second after \(state.log.count)") }
        var state = F.State()
        Reducer.combine(first, second).apply(.noop, to: &state)
        #expect(state.log == ["first", "second after 1"])
    }

    @Test func identityVanishesFromEveryFold() {
        let identities = Array(repeating: Reducer<F.Action, F.State>.identity, count: 64)
        #expect(Reducer.mconcat(identities).isIdentity)
        #expect(Reducer.sconcat(.identity, identities).isIdentity)
        #expect((Reducer<F.Action, F.State>.identity <> .identity).isIdentity)
        typealias R = Reducer<F.Action, F.State>
        #expect(
            R.compose {
                R.identity
                R.identity
            }.isIdentity)
        var state = F.State(value: 9)
        Reducer.mconcat(identities).apply(.add(1), to: &state)
        #expect(state.value == 9)
        #expect(Reducer.mconcat(identities).reduce(.add(1)).isIdentity)
    }

    @Test func identityReportsUnchangedAndAnyUnitReportsAMutation() {
        let identity = Reducer<F.Action, F.State>.identity
        #expect(!identity.willMutate(.add(1), in: F.State()))
        #expect(!identity.outcome(.add(1), in: F.State()).isMutation)
        let reducer = F.reducer([.add(1): [.add(1)]])
        #expect(reducer.willMutate(.noop, in: F.State()))
        #expect(reducer.outcome(.noop, in: F.State()).isMutation)
    }

    @Test func composeBuilderKeepsOrderAndHandlesConditionals() {
        let append: @Sendable (String) -> Reducer<F.Action, F.State> = { name in .reduce { _, state in state.log.append(name) } }
        let includeOptional = true
        let useFirst = false
        let reducer = Reducer.compose {
            append("a")
            if includeOptional { append("b") }
            if !includeOptional { append("never") }
            if useFirst { append("first") } else { append("second") }
            for name in ["x", "y"] { append(name) }
        }
        var state = F.State()
        reducer.apply(.noop, to: &state)
        #expect(state.log == ["a", "b", "second", "x", "y"])
    }

    @Test func variadicComposeKeepsOrder() {
        let reducer = Reducer.compose(F.reducer([.noop: [.add(1)]]), F.reducer([.noop: [.mul(3)]]), F.reducer([.noop: [.log("z")]]))
        var state = F.State(value: 1)
        reducer.apply(.noop, to: &state)
        #expect(state == F.State(value: 6, log: ["z"]))
    }
}
