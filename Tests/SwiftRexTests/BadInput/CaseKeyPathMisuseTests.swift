import SwiftRex
import Testing

/// A key path that is not a case key path where one is expected, and the one-closure form's record
/// when its phases do not run in order.
@MainActor
@Suite struct CaseKeyPathMisuseTests {
    @Test func aNonCasePropertyOfAPrismaticEnumStopsWithAMessageNamingIt() async {
        await #expect(processExitsWith: .failure) {
            // `anyRow` reads two cases: no case of `CaseApp.Action` has it as its property.
            _ = Prism(\CaseApp.Action.anyRow)
        }
    }

    @Test func aLaneBuiltFromANonCasePropertyStopsWhenTheLiftIsBuiltNotOnDispatch() async {
        await #expect(processExitsWith: .failure) {
            await MainActor.run {
                let row = Reducer<CaseApp.RowAction, Int>.reduce { _, count in count += 1 }
                _ = row.lift(.action(\CaseApp.Action.anyRow).state(\CaseApp.State.count))
            }
        }
    }

    @Test func anOptionalPropertyThatIsNoCaseIsStillAnAffineStateLaneThroughItsKeyPath() {
        // A state lane accepts any key path to an optional; only a case property of a Prismatic
        // enum goes through the case's prism. `anyRow`'s setter ignores writes: nothing changes.
        let touch = Behavior<CaseApp.Action, CaseApp.RowAction, Void>.reduce { _, _ in }
        let lifted = touch.liftState(\CaseApp.Action.anyRow)
        var action = CaseApp.Action.bumpAll(.bump)
        #expect(lifted.step(.reset, state: &action, environment: ()).mutated)
        #expect(action == .bumpAll(.bump))
        var other = CaseApp.Action.reset
        #expect(!lifted.step(.reset, state: &other, environment: ()).mutated)
    }

    @Test func aProducerRunWithoutItsMutationProducesNothingAndFreesTheRecord() {
        // Phase 3 without phase 2 (the mutation was never run): no effect, and the next dispatch
        // reuses the record normally.
        let body = Behavior<Int, Int, Void>.reduce { action, state, _ in
            state += action
            return .produce { _ in .just(action) }
        }
        let pre = PreReducerContext<Int>(source: ActionSource(), stateBefore: { 0 })
        let skipped = body.handle(1, pre)
        #expect(skipped.resolveEffect(PostReducerContext(environment: (), liveState: { 0 })).isEmpty)
        var state = 0
        let step = body.step(2, state: &state, environment: ())
        #expect(state == 2)
        #expect(step.effect.components.count == 1)
    }
}
