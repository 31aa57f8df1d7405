import SwiftRex
import Testing

/// Bad input: a dictionary lane addressed with a key that is not in the dictionary. Defined
/// outcome: like any missing element — dropped, one `.missingElement` diagnostic naming the key,
/// no notification; an element projection for the key reads `nil` and its dispatches are dropped
/// the same way; a broadcast over an empty dictionary is `.unchanged`.
@MainActor
@Suite("Bad input: dictionary lanes with missing keys")
struct DictionaryLaneTests {
    typealias App = LiftApp

    static func state() -> App.AppState {
        var state = BadInput.state(rows: [])
        state.configs = ["a": App.Row(id: 1, name: "A")]
        return state
    }

    @Test func anActionForAMissingKeyIsDroppedAndReportedOnce() {
        let store = Store(initial: Self.state(), behavior: BadInput.configsByKey, environment: App.AppEnvironment())
        var notifications = 0
        let token = store.observe(didChange: { notifications += 1 })
        let diagnostics = collectingDiagnostics {
            store.dispatch(.config(ElementAction("zzz", action: .rename("Z"))))
        }
        #expect(store.state == Self.state())
        #expect(store.state.configs["zzz"] == nil)
        #expect(notifications == 0)
        #expect(diagnostics.map(\.kind) == [.missingElement])
        #expect(diagnostics.first?.message.contains("zzz") == true)
        _ = token
    }

    @Test func anElementProjectionOfAMissingKeyReadsNilAndItsDispatchIsDropped() {
        let store = Store(initial: Self.state(), behavior: BadInput.configsByKey, environment: App.AppEnvironment())
        let missing = store.projection(.action(App.configPrism).state(dictionary: \App.AppState.configs), element: "zzz")
        #expect(missing.state == nil)
        let diagnostics = collectingDiagnostics { missing.dispatch(.touch) }
        #expect(store.state == Self.state())
        #expect(diagnostics.map(\.kind) == [.missingElement])
    }

    @Test func aBroadcastOverAnEmptyDictionaryIsUnchanged() {
        let touch = Reducer<App.RowAction, App.Row>.reduce { action, row in if action == .touch { row.touches += 1 } }
        let each = touch.liftEach(.action(broadcast: App.touchAllPrism, into: App.configPrism).state(dictionary: \App.AppState.configs))
        var state = BadInput.state(rows: [])
        #expect(!each.willMutate(.touchAll, in: state))
        each.apply(.touchAll, to: &state)
        #expect(state.configs.isEmpty)
    }
}
