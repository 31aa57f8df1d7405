import SwiftRexTestSupport
import Testing

@_spi(Testing) @testable import SwiftRex

/// An app whose rows live in an `IdentifiedArray`, lifted with `liftCollection` and `liftEach`.
enum IdentifiedApp {
    enum RowAction: Sendable, Equatable {
        case touch
        case rename(String)
    }
    enum AppAction: Sendable, Equatable {
        case row(ElementAction<Int, RowAction>)
        case touchAll
        case add(Int)
        case remove(Int)
        case count
    }

    struct Row: Identifiable, Sendable, Equatable {
        var id: Int
        var name = ""
        var touches = 0
    }

    struct AppState: Sendable, Equatable {
        var rows = IdentifiedArray((1...3).map { Row(id: $0) })
        var counter = 0
    }

    static let rowPrism = Prism<AppAction, ElementAction<Int, RowAction>>(
        preview: { if case .row(let action) = $0 { action } else { nil } }, review: AppAction.row)
    static let touchAllPrism = Prism<AppAction, RowAction>(
        preview: { $0 == .touchAll ? .touch : nil }, review: { _ in .touchAll })

    static let rowReducer = Reducer<RowAction, Row>.reduce { action, row in
        switch action {
        case .touch: row.touches += 1
        case .rename(let name): row.name = name
        }
    }

    static let row = Behavior<RowAction, Row, Void>
        .reduce { action, row in
            switch action {
            case .touch: row.touches += 1
            case .rename(let name): row.name = name
            }
        }
        .supervise { _ in Supervision { _ in [Channel<RowAction>(id: "watch") { _ in .cancelOnly {} }] } }

    static let admin = Behavior<AppAction, AppState, Void>.reduce { action, state in
        switch action {
        case .add(let id): state.rows.append(Row(id: id))
        case .remove(let id): state.rows.remove(id: id)
        default: break
        }
    }

    // Built afresh on each read, as the other lane fixtures are.
    static var rowsByID: Behavior<AppAction, AppState, Void> {
        row.liftCollection(.action(rowPrism).state(\AppState.rows), site: "rows")
    }

    static func watch(_ id: Int) -> AnyHashableSendable {
        AnyHashableSendable(ElementEffectID(site: "rows", element: id, inner: "watch"))
    }
}

/// `Relay.IdentifiedArrayElements`: the builder selects it for an `IdentifiedArray` without
/// annotations, and `liftCollection`/`liftEach` route by id through it (absent ids included).
@MainActor
@Suite struct IdentifiedArrayLaneTests {
    typealias App = IdentifiedApp

    // MARK: The builder

    @Test func everyBuilderSpellingSelectsTheIdentifiedArrayLane() {
        typealias Lane = Relay.IdentifiedArrayElements<App.AppState, App.Row>
        typealias Routed = Relay.ActionElement<App.AppAction, Int, App.RowAction>
        let member: Relay.Scope<Routed, Lane, Relay.Identity<Void>> = .action(App.rowPrism).state(\App.AppState.rows)
        let memberLens: Relay.Scope<Routed, Lane, Relay.Identity<Void>> = .action(App.rowPrism).state(Lens(\App.AppState.rows))
        let staticFirst: Relay.Scope<Relay.Identity<App.AppAction>, Lane, Relay.Identity<Void>> = .state(\App.AppState.rows)
        let staticLens: Relay.Scope<Relay.Identity<App.AppAction>, Lane, Relay.Identity<Void>> = .state(Lens(\App.AppState.rows))
        var state = App.AppState()
        for lane in [member.state, memberLens.state, staticFirst.state, staticLens.state] {
            #expect(lane.modifyElement(1, in: &state) { $0.touches += 1 })
        }
        #expect(state.rows[id: 1]?.touches == 4)
        // Static state first, then the action lane: the same lift.
        let lifted = App.rowReducer.liftCollection(.state(\App.AppState.rows).action(App.rowPrism))
        lifted.apply(.row(ElementAction(2, action: .touch)), to: &state)
        #expect(state.rows.map(\.touches) == [4, 1, 0])
    }

    @Test func aWholeCollectionLiftStillFocusesTheContainer() {
        // A feature over the whole IdentifiedArray picks the total lens lane, not the keyed one.
        let clear = Reducer<App.AppAction, IdentifiedArray<App.Row>>.reduce { action, rows in
            if case .remove(let id) = action { rows.remove(id: id) }
        }
        let lifted = clear.lift(.action(Prism<App.AppAction, App.AppAction>.identity).state(\App.AppState.rows))
        var state = App.AppState()
        lifted.apply(.remove(2), to: &state)
        #expect(Array(state.rows.ids) == [1, 3])
    }

    // MARK: The lane

    @Test func theLaneFindsPresentAndAbsentIdsAndWalksInOrder() {
        let lane = Relay.IdentifiedArrayElements<App.AppState, App.Row>(container: Lens(\App.AppState.rows))
        var state = App.AppState()
        state.rows.insert(App.Row(id: 9), at: 0)
        #expect(lane.element(2, in: state)?.id == 2)
        #expect(lane.element(5, in: state) == nil)
        #expect(!lane.modifyElement(5, in: &state) { $0.touches += 1 })
        #expect(lane.modifyElement(3, in: &state) { $0.touches += 1 })
        #expect(!lane.isEmpty(in: state))
        var visited: [Int] = []
        lane.forEachElement(in: state) { id, row in
            #expect(id == row.id)
            visited.append(id)
        }
        #expect(visited == [9, 1, 2, 3])
        var seen: [Int] = []
        lane.modifyEach(in: &state) { id, row in
            seen.append(id)
            row.touches += 1
        }
        #expect(seen == visited)
        #expect(state.rows.map(\.touches) == [1, 1, 1, 2])
        state.rows.removeAll()
        #expect(lane.isEmpty(in: state))
    }

    @Test func aLaneWriteIsJournaledAsAModification() {
        let lane = Relay.IdentifiedArrayElements<App.AppState, App.Row>(container: Lens(\App.AppState.rows))
        var state = App.AppState()
        let version = state.rows.contentVersion
        #expect(lane.modifyElement(2, in: &state) { $0.touches += 1 })
        var edits: [ContainerEdit<Int>] = []
        #expect(state.rows.forEachEdit(since: version) { edits.append($0) })
        #expect(edits == [.modified(2)])
        let unchanged = state.rows.contentVersion
        #expect(!lane.modifyElement(7, in: &state) { $0.touches += 1 })
        #expect(state.rows.contentVersion == unchanged)
    }

    // MARK: The located write

    /// The edits `state.rows` journaled while `mutate` ran.
    static func edits(_ state: inout App.AppState, _ mutate: (inout App.AppState) -> Void) -> [ContainerEdit<Int>] {
        let version = state.rows.contentVersion
        mutate(&state)
        var edits: [ContainerEdit<Int>] = []
        #expect(state.rows.forEachEdit(since: version) { edits.append($0) })
        return edits
    }

    @Test func aWriteAtTheSlotAReadFoundReachesThatElementAndIsJournaled() {
        let lane = Relay.IdentifiedArrayElements<App.AppState, App.Row>(container: Lens(\App.AppState.rows))
        var state = App.AppState()
        state.rows.remove(id: 1)
        state.rows.append(App.Row(id: 4))
        let slot = lane.locateElement(3, in: &state)
        #expect(slot == state.rows.slot(of: 3))
        #expect(lane.inspectElement(4, in: &state, locating: { $0.id })! == (result: 4, location: state.rows.slot(of: 4)!))
        let edits = Self.edits(&state) { #expect(lane.modifyElement(3, at: slot!, in: &$0) { $0.touches += 1 }) }
        #expect(edits == [.modified(3)])
        #expect(state.rows.map(\.touches) == [0, 1, 0])
        // A write that changes the element's id re-keys it, as the write by id does.
        let four = state.rows.slot(of: 4)!
        let rekeyed = Self.edits(&state) { #expect(lane.modifyElement(4, at: four, in: &$0) { $0.id = 5 }) }
        #expect(rekeyed == [.removed(4), .inserted(5)])
        #expect(Array(state.rows.ids) == [2, 3, 5])
        #expect(lane.locateElement(1, in: &state) == nil)
        #expect(lane.inspectElement(1, in: &state, locating: { $0.id }) == nil)
        Identified.expectSound(state.rows)
    }

    @Test func aSlotThatNoLongerHoldsItsIdIsLookedUpAgain() {
        let lane = Relay.IdentifiedArrayElements<App.AppState, App.Row>(container: Lens(\App.AppState.rows))
        var state = App.AppState()
        state.rows = IdentifiedArray((0..<40).map { App.Row(id: $0) })
        let stale = lane.locateElement(30, in: &state)!
        // Removals from the front compact the storage, which renumbers the slots.
        for id in 0..<25 { state.rows.remove(id: id) }
        #expect(state.rows.slot(of: 30) != stale)
        let removed = state.rows.slot(of: 32)!
        state.rows.remove(id: 32)
        #expect(state.rows.isTombstone(0) && state.rows.isTombstone(removed))
        let strays = [stale, 0, removed, state.rows.slot(of: 31)!, state.rows.slots.count, -1, Int.min, Int.max]
        for stray in strays {
            let edits = Self.edits(&state) { #expect(lane.modifyElement(30, at: stray, in: &$0) { $0.touches += 1 }) }
            #expect(edits == [.modified(30)], "slot \(stray)")
        }
        #expect(state.rows[id: 30]?.touches == strays.count)
        #expect(state.rows.filter { $0.id != 30 }.allSatisfy { $0.touches == 0 })
        Identified.expectSound(state.rows)
    }

    @Test func aLocatedWriteToARemovedElementWritesNothing() {
        let lane = Relay.IdentifiedArrayElements<App.AppState, App.Row>(container: Lens(\App.AppState.rows))
        var state = App.AppState()
        let middle = lane.locateElement(2, in: &state)!
        let last = lane.locateElement(3, in: &state)!
        // The last slot is popped with its element, and an element appended later takes it; the
        // middle one is left a tombstone.
        state.rows.remove(id: 3)
        state.rows.append(App.Row(id: 4))
        state.rows.remove(id: 2)
        #expect(state.rows.slot(of: 4) == last)
        #expect(state.rows.isTombstone(middle))
        let unchanged = state.rows.contentVersion
        #expect(!lane.modifyElement(2, at: middle, in: &state) { $0.touches += 1 })
        #expect(!lane.modifyElement(3, at: last, in: &state) { $0.touches += 1 })
        #expect(state.rows.contentVersion == unchanged)
        #expect(state.rows.allSatisfy { $0.touches == 0 })
        Identified.expectSound(state.rows)
    }

    // MARK: Through a Store

    @Test func aStoreRoutesAnActionToTheRowWithItsId() {
        let store = Store(initial: App.AppState(), behavior: App.rowsByID, environment: ())
        store.dispatch(.row(ElementAction(2, action: .rename("two"))))
        store.dispatch(.row(ElementAction(3, action: .touch)))
        #expect(store.state.rows.map(\.name) == ["", "two", ""])
        #expect(store.state.rows.map(\.touches) == [0, 0, 1])
    }

    @Test func aStoreDropsAnActionForAnAbsentIdAndReportsItOnce() {
        var initial = App.AppState()
        initial.rows = IdentifiedArray((0..<1_000).map { App.Row(id: $0) })
        initial.rows.remove(id: 500)
        let store = Store(initial: initial, behavior: App.rowsByID, environment: ())
        var notifications = 0
        let token = store.observe(didChange: { notifications += 1 })
        let diagnostics = collectingDiagnostics {
            store.dispatch(.row(ElementAction(500, action: .touch)))
        }
        #expect(store.state == initial)
        #expect(notifications == 0)
        #expect(diagnostics.map(\.kind) == [.missingElement])
        #expect(diagnostics.first?.message.contains("500") == true)
        _ = token
    }

    @Test func aRowRemovedByTheAppIsMissingForItsNextAction() {
        let store = Store(initial: App.AppState(), behavior: App.admin <> App.rowsByID, environment: ())
        store.dispatch(.remove(2))
        let diagnostics = collectingDiagnostics {
            store.dispatch(.row(ElementAction(2, action: .touch)))
        }
        #expect(Array(store.state.rows.ids) == [1, 3])
        #expect(store.state.rows.allSatisfy { $0.touches == 0 })
        #expect(diagnostics.map(\.kind) == [.missingElement])
    }

    @Test func aReducerOnlyStoreRoutesAndReportsTheSameWay() {
        let store = Store(initial: App.AppState(), reducer: App.rowReducer.liftCollection(.action(App.rowPrism).state(\App.AppState.rows)))
        let diagnostics = collectingDiagnostics {
            store.dispatch(.row(ElementAction(1, action: .touch)))
            store.dispatch(.row(ElementAction(4, action: .touch)))
        }
        #expect(store.state.rows.map(\.touches) == [1, 0, 0])
        #expect(diagnostics.map(\.kind) == [.missingElement])
    }

    @Test func liftEachReachesEveryRowInOrder() {
        let each = App.row.liftEach(.action(broadcast: App.touchAllPrism, into: App.rowPrism).state(\App.AppState.rows))
        let store = Store(initial: App.AppState(), behavior: each, environment: ())
        store.dispatch(.touchAll)
        #expect(store.state.rows.map(\.touches) == [1, 1, 1])
        var empty = App.AppState()
        empty.rows = []
        #expect(!each.step(.touchAll, state: &empty, environment: ()).mutated)
    }

    @Test func aSiblingSliceMutationEvaluatesNoRowSupervision() {
        let evaluations = CoreFixtures.Counter()
        let rows = Behavior<App.RowAction, App.Row, Void>
            .reduce { action, row in if action == .touch { row.touches += 1 } }
            .supervise { _ in
                evaluations.increment()
                return Supervision { _ in [] }
            }
            .liftCollection(.action(App.rowPrism).state(\App.AppState.rows), site: "rows")
        let counter = Behavior<App.AppAction, Int, Void>
            .reduce { action, counter in if action == .count { counter += 1 } }
            .lift(.action(Prism<App.AppAction, App.AppAction>(preview: { $0 == .count ? $0 : nil }, review: { $0 })).state(\App.AppState.counter))
        let store = Store(initial: App.AppState(), behavior: rows <> counter, environment: ())
        let before = (evaluations.value, store.supervisionStatistics)
        store.dispatch(.count)
        #expect(store.state.counter == 1)
        #expect(evaluations.value == before.0)
        #expect(store.supervisionStatistics == before.1)
        store.dispatch(.row(ElementAction(2, action: .touch)))
        #expect(evaluations.value - before.0 == 1)
    }

    @Test func aStoreOpensAChannelPerRowAndClosesTheRemovedOnes() {
        let store = Store(initial: App.AppState(), behavior: App.admin <> App.rowsByID, environment: ())
        #expect(Set(store.openChannelIDs) == Set([1, 2, 3].map(App.watch)))
        store.dispatch(.remove(2))
        store.dispatch(.add(4))
        #expect(Set(store.openChannelIDs) == Set([1, 3, 4].map(App.watch)))
        store.dispatch(.row(ElementAction(4, action: .touch)))
        #expect(store.state.rows[id: 4]?.touches == 1)
    }
}
