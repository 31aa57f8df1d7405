import SwiftRex
import Testing

/// Bad input: an identified collection holding the same id twice (Lifting, "Duplicate ids").
/// Defined outcome: a `.duplicateID` diagnostic when the id cache is (re)built, once per structural
/// change; an addressed action reaches the first occurrence only; the other occurrence is never
/// touched. The default `StoreHooks.onDiagnostic` asserts on a duplicate in debug builds (and only
/// logs in release), so tests capture diagnostics with the task-local
/// `DiagnosticOverride.$handler`.
@MainActor
@Suite("Bad input: duplicate ids")
struct DuplicateIDTests {
    typealias App = LiftApp

    static func duplicated() -> App.AppState {
        var state = BadInput.state(rows: [])
        state.rows = [App.Row(id: 1, name: "first"), App.Row(id: 2, name: "two"), App.Row(id: 1, name: "second")]
        return state
    }

    @Test func theFirstOccurrenceWinsAndTheDuplicateIsReportedOncePerStructuralChange() {
        let store = Store(initial: Self.duplicated(), behavior: App.rowsAdmin <> BadInput.rowsByID, environment: App.AppEnvironment())
        let first = collectingDiagnostics {
            store.dispatch(.row(ElementAction(1, action: .rename("renamed"))))
            store.dispatch(.row(ElementAction(1, action: .touch)))
        }
        #expect(store.state.rows.map(\.name) == ["renamed", "two", "second"])
        #expect(store.state.rows.map(\.touches) == [1, 0, 0])
        #expect(first.map(\.kind) == [.duplicateID])
        #expect(first.first?.message.contains("1") == true)
        // A structural change rebuilds the cache: the duplicate is reported again.
        let second = collectingDiagnostics {
            store.dispatch(.addRow(3))
            store.dispatch(.row(ElementAction(3, action: .touch)))
        }
        #expect(second.map(\.kind) == [.duplicateID])
        #expect(store.state.rows.last?.touches == 1)
    }

    @Test func everyLaterOccurrenceIsReportedInOrderAndEachIDRoutesToItsFirst() {
        var state = BadInput.state(rows: [])
        state.rows = [1, 2, 2, 1, 3, 1].map { App.Row(id: $0, name: "") }
        let store = Store(initial: state, behavior: App.rowsAdmin <> BadInput.rowsByID, environment: App.AppEnvironment())
        let diagnostics = collectingDiagnostics {
            for id in [1, 2, 3] { store.dispatch(.row(ElementAction(id, action: .touch))) }
        }
        #expect(store.state.rows.map(\.touches) == [1, 1, 0, 0, 1, 0])
        #expect(diagnostics.map(\.kind) == [.duplicateID])
        // The occurrences after the first, as a walk from the front meets them: offsets 2, 3 and 5.
        #expect(diagnostics.first?.message.hasPrefix("Duplicate ids in an identified collection: 2, 1, 1.") == true)
    }

    @Test func aReducerLiftRoutesToTheFirstOccurrenceToo() {
        let touch = Reducer<App.RowAction, App.Row>.reduce { action, row in if action == .touch { row.touches += 1 } }
        let lifted = touch.liftCollection(.action(App.rowPrism).state(\App.AppState.rows))
        var state = Self.duplicated()
        let diagnostics = collectingDiagnostics { lifted.apply(.row(ElementAction(1, action: .touch)), to: &state) }
        #expect(state.rows.map(\.touches) == [1, 0, 0])
        #expect(diagnostics.map(\.kind) == [.duplicateID])
    }

    @Test func aBroadcastNeverRunsTwiceOnTheFirstOccurrence() {
        // Reducer units of `liftEach` walk storage by position: every occurrence receives the
        // broadcast once. Reaction and producer units address elements by id: each distinct id
        // is visited once, at its first occurrence (before the fix, the first occurrence
        // received the broadcast once per duplicate and the others never).
        let reducerRow = Reducer<App.RowAction, App.Row>.reduce { action, row in if action == .touch { row.touches += 1 } }
        let reactionRow = Behavior<App.RowAction, App.Row, String>.react { action, _ in
            action == .touch ? .reduce { $0.touches += 1 } : .doNothing
        }
        let viaReducer = reducerRow.liftEach(.action(broadcast: App.touchAllPrism, into: App.rowPrism).state(\App.AppState.rows))
        let viaReaction = reactionRow.liftEach(
            .action(broadcast: App.touchAllPrism, into: App.rowPrism).state(\App.AppState.rows).environment(\App.AppEnvironment.rowEnvironment))
        var reduced = Self.duplicated()
        var reacted = Self.duplicated()
        let reducerDiagnostics = collectingDiagnostics { viaReducer.apply(.touchAll, to: &reduced) }
        let reactionDiagnostics = collectingDiagnostics {
            _ = viaReaction.step(.touchAll, state: &reacted, environment: App.AppEnvironment())
        }
        #expect(reduced.rows.map(\.touches) == [1, 1, 1])
        #expect(reducerDiagnostics.isEmpty)
        #expect(reacted.rows.map(\.touches) == [1, 1, 0])
        #expect(reactionDiagnostics.map(\.kind) == [.duplicateID])
    }

    @Test func aDuplicateCreatedInPlaceOfACachedElementIsNeitherReportedNorRoutedToTheFirst() {
        // Known gap: the id cache is validated by checking the id at the cached position only. A
        // duplicate that appears *before* a cached element, without moving it, leaves the cache
        // looking valid: the action reaches the cached (second) occurrence and nothing is reported.
        let lifted = BadInput.rowsByID
        var state = BadInput.state(rows: [5, 1])
        _ = collectingDiagnostics {
            _ = lifted.step(.row(ElementAction(1, action: .touch)), state: &state, environment: App.AppEnvironment())
        }
        state.rows[0] = App.Row(id: 1, name: "new first")
        let diagnostics = collectingDiagnostics {
            _ = lifted.step(.row(ElementAction(1, action: .rename("renamed"))), state: &state, environment: App.AppEnvironment())
        }
        withKnownIssue("the position cache cannot see a duplicate that leaves the cached position valid") {
            #expect(state.rows.map(\.name) == ["renamed", "row 1"])
            #expect(diagnostics.map(\.kind) == [.duplicateID])
        }
        // What happens today: the second occurrence is renamed, silently.
        #expect(state.rows.map(\.name) == ["new first", "renamed"])
    }

    #if DEBUG
    @Test func withoutAnOverrideTheDefaultHandlerAssertsInDebugBuilds() async {
        await #expect(processExitsWith: .failure) {
            // The default handler runs on the main actor: stay there until it has.
            await Task { @MainActor in
                var state = DuplicateIDTests.duplicated()
                _ = BadInput.rowsByID.step(.row(ElementAction(1, action: .touch)), state: &state, environment: LiftApp.AppEnvironment())
                for _ in 0..<100 { await Task.yield() }
            }.value
        }
    }
    #endif
}
