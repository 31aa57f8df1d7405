@_spi(Testing) import SwiftRex
import SwiftRexTestSupport
import Testing

/// The grid's cells in an `IdentifiedArray`: app-level edits of the collection are reconciled
/// from its edit journal, element by element.
enum JournaledGrid {
    typealias Cell = Grid.Cell
    typealias CellAction = Grid.CellAction

    struct State: Sendable, Equatable {
        var rows: IdentifiedArray<Cell>
        var counter = 0
    }

    enum Edit: Sendable, Equatable {
        case append(Int)
        case remove(Int)
        case moveToFront(Int)
        case keepOnly([Int])
        case sortDescending
        case replace(Int)
    }

    enum Action: Sendable, Equatable {
        case row(ElementAction<Int, CellAction>)
        case edit(Edit)
        case bump
    }

    static let rowPrism = Prism<Action, ElementAction<Int, CellAction>>(
        preview: { if case .row(let action) = $0 { action } else { nil } }, review: Action.row)

    static func app(events: Grid.Events, evaluations: CoreFixtures.Counter) -> Behavior<Action, State, Void> {
        let rows = Grid.cell("r", events: events, evaluations: evaluations)
            .liftCollection(.action(rowPrism).state(\State.rows), site: "rows")
        let edits = Behavior<Action, State, Void>.react { action, _ in
            guard case .edit(let edit) = action else { return .doNothing }
            return .reduce { state in
                switch edit {
                case .append(let id): state.rows.append(Cell(id: id))
                case .remove(let id): state.rows.remove(id: id)
                case .moveToFront(let id):
                    if let index = state.rows.index(id: id) {
                        state.rows.move(fromOffset: state.rows.distance(from: state.rows.startIndex, to: index), toOffset: 0)
                    }
                case .keepOnly(let ids): state.rows.removeAll { !ids.contains($0.id) }
                case .sortDescending: state.rows.sort { $0.id > $1.id }
                case .replace(let id): state.rows[id: id] = Cell(id: id, live: true, room: 7)
                }
            }
        }.confined(to: \State.rows)
        let bump = Behavior<Action, State, Void>.react { action, _ in
            guard case .bump = action else { return .doNothing }
            return .reduce { $0.counter += 1 }
        }.confined(to: \State.counter)
        return rows <> edits <> bump
    }

    static func initial(_ count: Int) -> State {
        State(rows: IdentifiedArray((0..<count).map { Cell(id: $0) }))
    }
}

@MainActor
@Suite struct JournaledSupervisionTests {
    typealias F = CoreFixtures

    @Test func anAppendOrARemovalAmongManyRowsEvaluatesOnlyTheRowThatCameOrWent() {
        let events = Grid.Events()
        let evaluations = F.Counter()
        let store = Store(
            initial: JournaledGrid.initial(10_000), behavior: JournaledGrid.app(events: events, evaluations: evaluations), environment: ())
        #expect(store.openChannelIDs.count == 10_000)
        let before = (evaluations.value, store.supervisionStatistics)

        store.dispatch(.edit(.append(10_000)))
        store.dispatch(.edit(.remove(17)))
        store.dispatch(.bump)

        #expect(evaluations.value - before.0 == 1)
        #expect(store.supervisionStatistics.fullReconciles == before.1.fullReconciles)
        #expect(store.supervisionStatistics.segmentEvaluations == before.1.segmentEvaluations)
        #expect(events.values.suffix(3) == ["r10000 open", "r10000 level 0", "r17 close"])
        #expect(store.openChannelIDs.count == 10_000)
    }

    @Test func anAddressedActionKeepsTheJournalInStepWithTheMemo() {
        let events = Grid.Events()
        let evaluations = F.Counter()
        let store = Store(initial: JournaledGrid.initial(100), behavior: JournaledGrid.app(events: events, evaluations: evaluations), environment: ())
        store.dispatch(.row(ElementAction(5, action: .setLevel(3))))
        let before = evaluations.value

        // The row's own edit was reconciled with it: the next structural edit evaluates only
        // the row it adds, not row 5 again.
        store.dispatch(.edit(.append(100)))

        #expect(evaluations.value - before == 1)
        #expect(events.values.suffix(3) == ["r5 level 3", "r100 open", "r100 level 0"])
    }

    @Test func aReorderIsEvaluatedWholeAndLeaversThenCloseInTheNewOrder() {
        let events = Grid.Events()
        let evaluations = F.Counter()
        let store = Store(initial: JournaledGrid.initial(4), behavior: JournaledGrid.app(events: events, evaluations: evaluations), environment: ())
        let before = (evaluations.value, store.supervisionStatistics.segmentEvaluations)

        store.dispatch(.edit(.sortDescending))
        #expect(evaluations.value - before.0 == 4)
        #expect(store.supervisionStatistics.segmentEvaluations == before.1 + 1)

        let opened = events.values.count
        store.dispatch(.edit(.keepOnly([])))
        #expect(Array(events.values.dropFirst(opened)) == ["r3 close", "r2 close", "r1 close", "r0 close"])
    }

    enum Step {
        case dispatch(JournaledGrid.Action)
        case tick
    }

    /// Random edits, element actions and effects: the journal path against the full reference,
    /// step by step (channel events, open channels, state).
    @Test func theJournalPathAgreesWithTheFullOneOnRandomSequences() {
        for seed in UInt64(1)...10 {
            var random = SplitMix64(seed: seed)
            var steps: [Step] = []
            for _ in 0..<250 {
                let id = Int(random.next() % 16)
                switch random.next() % 16 {
                case 0: steps.append(.dispatch(.row(ElementAction(id, action: .toggle))))
                case 1: steps.append(.dispatch(.row(ElementAction(id, action: .move(Int(random.next() % 3))))))
                case 2: steps.append(.dispatch(.row(ElementAction(id, action: .ping))))
                case 3: steps.append(.tick)
                case 4: steps.append(.dispatch(.edit(.append(id))))
                case 5: steps.append(.dispatch(.edit(.remove(id))))
                case 6: steps.append(.dispatch(.edit(.moveToFront(id))))
                case 7: steps.append(.dispatch(.edit(random.next() % 4 == 0 ? .sortDescending : .replace(id))))
                case 8: steps.append(.dispatch(.edit(.keepOnly((0..<16).filter { _ in random.next() % 3 != 0 }))))
                case 9: steps.append(.dispatch(.bump))
                default: steps.append(.dispatch(.row(ElementAction(id, action: .setLevel(Int(random.next() % 4))))))
                }
            }
            let full = run(steps, partial: false)
            let journaled = run(steps, partial: true)
            #expect(journaled.events == full.events, "seed \(seed)")
            #expect(journaled.open == full.open, "seed \(seed)")
            #expect(journaled.states == full.states, "seed \(seed)")
        }
    }

    private func run(_ steps: [Step], partial: Bool) -> (events: [String], open: [[String]], states: [JournaledGrid.State]) {
        let events = Grid.Events()
        let clock = ManualClock()
        let store = Store(
            initial: JournaledGrid.initial(10),
            behavior: JournaledGrid.app(events: events, evaluations: F.Counter()),
            environment: (), clock: { _ in clock }, reconcilesChangedElementAlone: partial
        )
        var open: [[String]] = []
        var states: [JournaledGrid.State] = []
        for step in steps {
            switch step {
            case .dispatch(let action): store.dispatch(action)
            case .tick:
                clock.advance(by: .milliseconds(10))
                store.drainEffectActionsNow()
            }
            open.append(store.openChannelIDs.map { "\($0)" }.sorted())
            states.append(store.state)
        }
        return (events.values, open, states)
    }
}

/// A broadcast to more rows than the journal keeps (the journal is reset, so the segment is
/// evaluated whole) that changes which rows want a channel without any row coming, going or
/// moving: the memo is updated in place, key by key, and must then describe exactly the channels
/// the rows want.
enum BroadcastGrid {
    typealias Cell = Grid.Cell
    typealias CellAction = Grid.CellAction

    struct State: Sendable, Equatable {
        var rows: IdentifiedArray<Cell>
    }

    enum Action: Sendable, Equatable {
        case row(ElementAction<Int, CellAction>)
        case all(CellAction)
        case append(Int)
    }

    static let rowPrism = Prism<Action, ElementAction<Int, CellAction>>(
        preview: { if case .row(let action) = $0 { action } else { nil } }, review: Action.row)
    static let allPrism = Prism<Action, CellAction>(
        preview: { if case .all(let action) = $0 { action } else { nil } }, review: Action.all)

    static func app(events: Grid.Events) -> Behavior<Action, State, Void> {
        let cell = Grid.cell("r", events: events, evaluations: CoreFixtures.Counter())
        let toggleAll = Behavior<CellAction, Cell, Void>.reduce { action, cell in
            if case .toggle = action { cell.live.toggle() }
        }
        let append = Behavior<Action, State, Void>.react { action, _ in
            guard case .append(let id) = action else { return .doNothing }
            return .reduce { $0.rows.append(Cell(id: id)) }
        }.confined(to: \State.rows)
        return .combine([
            cell.liftCollection(.action(rowPrism).state(\State.rows), site: "rows"),
            toggleAll.liftEach(.action(broadcast: allPrism, into: rowPrism).state(\State.rows), site: "all"),
            append,
        ])
    }
}

@MainActor
@Suite struct BroadcastMemoTests {
    /// Each step's open channels and the channel events, partial paths on or off.
    private func run(_ actions: [BroadcastGrid.Action], partial: Bool) -> (events: [String], open: [[String]], statistics: SupervisionStatistics) {
        let events = Grid.Events()
        let store = Store(
            initial: BroadcastGrid.State(rows: IdentifiedArray((0..<100).map { Grid.Cell(id: $0) })),
            behavior: BroadcastGrid.app(events: events), environment: (), clock: { _ in ContinuousClock() },
            reconcilesChangedElementAlone: partial
        )
        var open: [[String]] = []
        for action in actions {
            store.dispatch(action)
            open.append(store.openChannelIDs.map { "\($0)" }.sorted())
        }
        return (events.values, open, store.supervisionStatistics)
    }

    @Test func aBroadcastThatChangesChannelsKeepsTheMemoExact() {
        let actions: [BroadcastGrid.Action] = [
            .all(.toggle), // every row closes its channel
            .row(ElementAction(5, action: .toggle)), // row 5 alone reopens
            .all(.toggle), // row 5 closes, every other row reopens
            .row(ElementAction(7, action: .toggle)), // row 7 closes
            .append(100), // the memo keeps following the journal
            .all(.toggle),
            .row(ElementAction(7, action: .toggle)),
        ]
        let full = run(actions, partial: false)
        let partial = run(actions, partial: true)
        #expect(partial.events == full.events)
        #expect(partial.open == full.open)
        #expect(partial.open[0].isEmpty)
        #expect(partial.open[1].count == 1)
        #expect(partial.open[2].count == 99)
        // Each element action is patched from the memo: a stale memo would have the engine refuse
        // the patch (the previous keys it names are not open) or reconcile the full set.
        #expect(partial.statistics.refusedPatches == 0)
        #expect(partial.statistics.fullReconciles == 1)
        #expect(partial.statistics.patchedReconciles == actions.count)
    }
}
