import SwiftRex
import Synchronization
import Testing

/// Bad input: an action addressed to an element that is not in the collection. Defined outcome:
/// the action is dropped (no mutation, no notification, no effect) and exactly one
/// `.missingElement` diagnostic names the id.
@MainActor
@Suite("Bad input: missing collection elements")
struct MissingElementTests {
    typealias App = LiftApp

    @Test func aStoreDropsAnActionForAMissingRowAndReportsItOnce() {
        let store = Store(initial: BadInput.state(rows: [1, 2]), behavior: BadInput.rowsByID, environment: App.AppEnvironment())
        var notifications = 0
        let token = store.observe(didChange: { notifications += 1 })
        let before = store.state
        let diagnostics = collectingDiagnostics {
            store.dispatch(.row(ElementAction(99, action: .autosave)))
        }
        #expect(store.state == before)
        #expect(notifications == 0)
        #expect(store.registeredEffectCount == 0)
        #expect(diagnostics.map(\.kind) == [.missingElement])
        #expect(diagnostics.first?.message.contains("99") == true)
        _ = token
    }

    @Test func aMissingRowsMessageIsComposedOnlyWhenRead() {
        // A handler that only looks at the kind (late responses for removed rows can be routine)
        // must not pay for formatting the message: the id is described when the message is read.
        let touch = Reducer<App.RowAction, DescribedRow>.reduce { action, row in if action == .touch { row.touches += 1 } }
        let lifted = touch.liftCollection(.action(DescribedRow.prism).state(\DescribedRows.rows))
        let store = Store(initial: DescribedRows(rows: [DescribedRow(id: DescribedID(value: 1))]), reducer: lifted)
        DescribedID.descriptions.store(0, ordering: .relaxed)
        let diagnostics = collectingDiagnostics {
            store.dispatch(.row(ElementAction(DescribedID(value: 42), action: .touch)))
        }
        #expect(diagnostics.map(\.kind) == [.missingElement])
        #expect(DescribedID.descriptions.load(ordering: .relaxed) == 0)
        #expect(diagnostics.first?.message.contains("#42") == true)
        #expect(DescribedID.descriptions.load(ordering: .relaxed) == 1)
        #expect(diagnostics.first?.description.contains("#42") == true)
        #expect(store.state.rows.map(\.touches) == [0])
    }

    @Test func aMissingRowIsReportedEvenWhenAnotherUnitMutates() {
        // An unrelated always-applying reducer in front, and an effect-producing unit, take the
        // Store's full pipeline: the lifted unit must still be asked, and report, once.
        let behavior = App.rowsAdmin <> BadInput.rowsByID
        let store = Store(initial: BadInput.state(rows: [1]), behavior: behavior, environment: App.AppEnvironment())
        let diagnostics = collectingDiagnostics {
            store.dispatch(.row(ElementAction(7, action: .touch)))
        }
        #expect(store.state.rows.map(\.touches) == [0])
        #expect(diagnostics.map(\.kind) == [.missingElement])
    }

    @Test func aReducerOnlyStoreDropsAndReportsTheSameWay() {
        let touch = Reducer<App.RowAction, App.Row>.reduce { action, row in if action == .touch { row.touches += 1 } }
        let lifted = touch.liftCollection(.action(App.rowPrism).state(\App.AppState.rows))
        let store = Store(initial: BadInput.state(rows: [1]), reducer: lifted)
        var notifications = 0
        let token = store.observe(didChange: { notifications += 1 })
        let diagnostics = collectingDiagnostics {
            store.dispatch(.row(ElementAction(2, action: .touch)))
        }
        #expect(notifications == 0)
        #expect(store.state.rows.map(\.touches) == [0])
        #expect(diagnostics.map(\.kind) == [.missingElement])
        _ = token
    }

    @Test func aReducerOnlyStoreWithoutObserversStillReports() {
        // Nobody observes and nothing supervises: the Store may skip asking whether a unit
        // applied, but a collection lift reports a missing element only while deciding, so it
        // must still be asked, bare and lifted once more through a key path.
        let touch = Reducer<App.RowAction, App.Row>.reduce { action, row in if action == .touch { row.touches += 1 } }
        let lifted = touch.liftCollection(.action(App.rowPrism).state(\App.AppState.rows))
        let relifted = lifted.lift(.action(Prism<App.AppAction, App.AppAction>.identity).state(\App.AppState.self))
        for reducer in [lifted, relifted] {
            let store = Store(initial: BadInput.state(rows: [1]), reducer: reducer)
            let diagnostics = collectingDiagnostics {
                store.dispatch(.row(ElementAction(2, action: .touch)))
                store.dispatch(.row(ElementAction(1, action: .touch)))
            }
            #expect(store.state.rows.map(\.touches) == [1])
            #expect(diagnostics.map(\.kind) == [.missingElement])
        }
    }

    @Test func anOutOfRangePositionIsAMissingElement() {
        var state = BadInput.state(rows: [10, 20])
        let before = state
        var step: BehaviorStep<App.AppAction>?
        let diagnostics = collectingDiagnostics {
            step = BadInput.rowsByPosition.step(.slot(ElementAction(2, action: .touch)), state: &state, environment: App.AppEnvironment())
        }
        #expect(step?.mutated == false)
        #expect(step?.effect.isEmpty == true)
        #expect(state == before)
        #expect(diagnostics.map(\.kind) == [.missingElement])
    }

    @Test func aRemovedElementsPendingEffectIsCancelledSoNothingArrives() async {
        // The row's debounced autosave is pending when the row is removed: it is cancelled with
        // the row, so no action comes back and nothing is reported.
        let clock = ManualClock()
        let store = Store(
            initial: BadInput.state(rows: [1, 2]), behavior: App.rowsAdmin <> BadInput.rowsByID,
            environment: App.AppEnvironment(), clock: { _ in clock })
        store.dispatch(.row(ElementAction(1, action: .autosave)))
        store.dispatch(.removeRow(1))
        #expect(store.registeredEffectCount == 0)
        let diagnostics = await collectingDiagnostics {
            clock.advance(by: .seconds(1))
            for _ in 0..<50 { await Task.yield() }
        }
        #expect(store.state.rows.map(\.id) == [2])
        #expect(store.state.rows.map(\.saves) == [0])
        #expect(diagnostics.isEmpty)
    }

    @Test func anElementRemovedBeforeItsEffectsActionArrivesDropsThatAction() async {
        // The row's effect action is already in the mailbox when the row is removed: it arrives
        // addressed to a missing row, and is dropped and reported.
        let rows = App.row
            .produce { action, _ in action == .touch ? Producer { _ in .just(.saved) } : .doNothing }
            .liftCollection(.action(App.rowPrism).state(\App.AppState.rows).environment(\App.AppEnvironment.rowEnvironment), site: "rows")
        let store = Store(
            initial: BadInput.state(rows: [1, 2]), behavior: App.rowsAdmin <> rows,
            environment: App.AppEnvironment(), clock: { _ in ManualClock() })
        let diagnostics = await collectingDiagnostics {
            store.dispatch(.row(ElementAction(1, action: .touch)))
            store.dispatch(.removeRow(1))
            for _ in 0..<50 { await Task.yield() }
        }
        #expect(store.state.rows.map(\.id) == [2])
        #expect(diagnostics.map(\.kind) == [.missingElement])
    }
}

/// An id that counts how often it is described.
struct DescribedID: Hashable, Sendable, CustomStringConvertible {
    static let descriptions = Atomic<Int>(0)
    let value: Int
    var description: String {
        DescribedID.descriptions.add(1, ordering: .relaxed)
        return "#\(value)"
    }
}

/// A row identified by a ``DescribedID``.
struct DescribedRow: Identifiable, Equatable, Sendable {
    let id: DescribedID
    var touches = 0

    enum Action: Equatable, Sendable {
        case row(ElementAction<DescribedID, LiftApp.RowAction>)
    }

    static let prism = Prism<Action, ElementAction<DescribedID, LiftApp.RowAction>>(
        preview: { if case .row(let action) = $0 { action } else { nil } },
        review: Action.row
    )
}

/// Rows identified by ``DescribedID``.
struct DescribedRows: Equatable, Sendable {
    var rows: [DescribedRow]
}
