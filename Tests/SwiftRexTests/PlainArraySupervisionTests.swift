@_spi(Testing) import SwiftRex
import SwiftRexTestSupport
import Testing

/// The grid's cells in a plain array, edited at app level by a confined reaction, a catch-all
/// reducer and a broadcast: the Store compares the array before and after each such write and
/// reconciles only the rows that came, went or changed.
enum PlainGrid {
    typealias Cell = Grid.Cell
    typealias CellAction = Grid.CellAction

    struct State: Sendable, Equatable {
        var rows: [Cell]
        var counter = 0
    }

    enum Edit: Sendable, Equatable {
        case append(Int)
        case remove(Int)
        case insert(Int, at: Int)
        case moveToFront(Int)
        case keepOnly([Int])
        case sortDescending
        case replace(Int)
        case rotate(append: Int, remove: Int)
    }

    enum Action: Sendable, Equatable {
        case row(ElementAction<Int, CellAction>)
        case all(CellAction)
        case edit(Edit)
        case bump
        /// Handled by a catch-all reducer: bumps the counter and moves row `id` to room 5.
        case relocate(Int)
    }

    static let rowPrism = Prism<Action, ElementAction<Int, CellAction>>(
        preview: { if case .row(let action) = $0 { action } else { nil } }, review: Action.row)
    static let allPrism = Prism<Action, CellAction>(
        preview: { if case .all(let action) = $0 { action } else { nil } }, review: Action.all)

    static func apply(_ edit: Edit, to rows: inout [Cell]) {
        switch edit {
        case .append(let id):
            if !rows.contains(where: { $0.id == id }) { rows.append(Cell(id: id)) }
        case .remove(let id): rows.removeAll { $0.id == id }
        case .insert(let id, let offset):
            if !rows.contains(where: { $0.id == id }) { rows.insert(Cell(id: id), at: min(offset, rows.count)) }
        case .moveToFront(let id):
            if let index = rows.firstIndex(where: { $0.id == id }) { rows.insert(rows.remove(at: index), at: 0) }
        case .keepOnly(let ids): rows.removeAll { !ids.contains($0.id) }
        case .sortDescending: rows.sort { $0.id > $1.id }
        case .replace(let id):
            if let index = rows.firstIndex(where: { $0.id == id }) { rows[index] = Cell(id: id, live: true, room: 7) }
        case .rotate(let append, let remove):
            if !rows.contains(where: { $0.id == append }) { rows.append(Cell(id: append)) }
            rows.removeAll { $0.id == remove }
        }
    }

    /// `broadcast`: with a `liftEach` over the rows, whose writes are not compared (the array is
    /// then evaluated whole after an app-level write, as without a watch).
    static func app(events: Grid.Events, evaluations: CoreFixtures.Counter, broadcast: Bool = false) -> Behavior<Action, State, Void> {
        let cell = Grid.cell("r", events: events, evaluations: evaluations)
        let toggleAll = Behavior<CellAction, Cell, Void>.reduce { action, cell in
            if case .toggle = action { cell.live.toggle() }
        }
        let edits = Behavior<Action, State, Void>.react { action, _ in
            guard case .edit(let edit) = action else { return .doNothing }
            return .reduce { apply(edit, to: &$0.rows) }
        }.confined(to: \State.rows)
        let bump = Behavior<Action, State, Void>.react { action, _ in
            guard case .bump = action else { return .doNothing }
            return .reduce { $0.counter += 1 }
        }.confined(to: \State.counter)
        // Unlifted and undeclared: it writes the whole state, for every action.
        let catchAll = Behavior<Action, State, Void>.reduce { action, state in
            guard case .relocate(let id) = action else { return }
            state.counter += 1
            if let index = state.rows.firstIndex(where: { $0.id == id }) { state.rows[index].room = 5 }
        }
        let rows = cell.liftCollection(.action(rowPrism).state(\State.rows), site: "rows")
        guard broadcast else { return .combine([rows, edits, bump, catchAll]) }
        return .combine([
            rows, toggleAll.liftEach(.action(broadcast: allPrism, into: rowPrism).state(\State.rows), site: "all"), edits, bump, catchAll,
        ])
    }

    static func initial(_ count: Int) -> State {
        State(rows: (0..<count).map { Cell(id: $0) })
    }
}

@MainActor
@Suite struct PlainArraySupervisionTests {
    typealias F = CoreFixtures

    private func makeStore(_ count: Int, events: Grid.Events, evaluations: F.Counter) -> Store<PlainGrid.Action, PlainGrid.State, Void> {
        var store: Store<PlainGrid.Action, PlainGrid.State, Void>?
        let diagnostics = collectingDiagnostics {
            store = Store(initial: PlainGrid.initial(count), behavior: PlainGrid.app(events: events, evaluations: evaluations), environment: ())
        }
        #expect(diagnostics.map(\.kind) == [.broadInvalidation])
        return store!
    }

    @Test func anAppendAndARemovalAmongManyRowsEvaluateOnlyTheRowThatCame() {
        let events = Grid.Events()
        let evaluations = F.Counter()
        let store = makeStore(10_000, events: events, evaluations: evaluations)
        #expect(store.openChannelIDs.count == 10_000)
        let before = (evaluations.value, store.supervisionStatistics)

        store.dispatch(.edit(.rotate(append: 10_000, remove: 0)))
        store.dispatch(.edit(.append(10_001)))
        store.dispatch(.edit(.remove(17)))
        store.dispatch(.bump)

        #expect(evaluations.value - before.0 == 2)
        #expect(store.supervisionStatistics.fullReconciles == before.1.fullReconciles)
        #expect(store.supervisionStatistics.segmentEvaluations == before.1.segmentEvaluations)
        // Each edit is reconciled in container order: the row that left (first) before the one that came.
        #expect(events.values.suffix(6) == ["r0 close", "r10000 open", "r10000 level 0", "r10001 open", "r10001 level 0", "r17 close"])
        #expect(store.openChannelIDs.count == 10_000)
    }

    @Test func aCatchAllWriteThatChangesOneRowEvaluatesThatRowAlone() {
        let events = Grid.Events()
        let evaluations = F.Counter()
        let store = makeStore(1_000, events: events, evaluations: evaluations)
        let before = evaluations.value

        store.dispatch(.relocate(42))
        #expect(evaluations.value - before == 1)
        // The room is the channel's reset key: the row's channel is opened again.
        #expect(events.values.suffix(3) == ["r42 close", "r42 open", "r42 level 0"])

        // A catch-all write that leaves the rows as they were evaluates none.
        store.dispatch(.relocate(5_000))
        #expect(evaluations.value - before == 1)
        #expect(store.state.counter == 2)
    }

    @Test func anElementActionThenAnAppLevelEditKeepTheMemoInStep() {
        let events = Grid.Events()
        let evaluations = F.Counter()
        let store = makeStore(100, events: events, evaluations: evaluations)
        store.dispatch(.row(ElementAction(5, action: .setLevel(3))))
        let before = evaluations.value

        store.dispatch(.edit(.append(100)))

        #expect(evaluations.value - before == 1)
        #expect(events.values.suffix(3) == ["r5 level 3", "r100 open", "r100 level 0"])
    }

    @Test func aReorderIsEvaluatedWholeAndLeaversThenCloseInTheNewOrder() {
        let events = Grid.Events()
        let evaluations = F.Counter()
        let store = makeStore(4, events: events, evaluations: evaluations)
        let before = (evaluations.value, store.supervisionStatistics.segmentEvaluations)

        store.dispatch(.edit(.sortDescending))
        #expect(evaluations.value - before.0 == 4)
        #expect(store.supervisionStatistics.segmentEvaluations == before.1 + 1)

        let opened = events.values.count
        store.dispatch(.edit(.keepOnly([])))
        #expect(Array(events.values.dropFirst(opened)) == ["r3 close", "r2 close", "r1 close", "r0 close"])
    }

    /// A row type that is not `Equatable`, with padding between its fields and heap storage.
    struct PaddedRow: Identifiable, Sendable {
        var id: Int
        var isOn = true
        var name: String
    }

    @Test func aReactionThatAppendsToAnArrayOfPaddedRowsThatAreNotEquatableEvaluatesOnlyTheNewRow() {
        let evaluations = F.Counter()
        let rowPrism = Prism<PaddedAction, ElementAction<Int, Bool>>(
            preview: { if case .row(let action) = $0 { action } else { nil } }, review: PaddedAction.row)
        let row = Behavior<Bool, PaddedRow, Void>
            .reduce { isOn, row in row.isOn = isOn }
            .supervise { row in
                evaluations.increment()
                return Supervision { _ in row.isOn ? [Channel<Bool>(id: "on") { _ in .cancelOnly {} }] : [] }
            }
        let app =
            row.liftCollection(.action(rowPrism).state(\PaddedState.rows), site: "rows")
            <> Behavior<PaddedAction, PaddedState, Void>.react { action, _ in
                guard case .append(let id) = action else { return .doNothing }
                return .reduce { $0.rows.append(PaddedRow(id: id, name: "a row name long enough for the heap \(id)")) }
            }.confined(to: \PaddedState.rows)
        // The array is the Store's alone: a write to an array some other value shares copies it
        // first, and that copy may leave the padding different.
        let store = Store(
            initial: PaddedState(rows: (0..<1_000).map { PaddedRow(id: $0, name: "a row name long enough for the heap \($0)") }), behavior: app,
            environment: ())
        let before = evaluations.value

        for id in 1_000..<1_010 { store.dispatch(.append(id)) }

        #expect(evaluations.value - before == 10)
        #expect(store.openChannelIDs.count == 1_010)
    }

    enum PaddedAction: Sendable {
        case row(ElementAction<Int, Bool>)
        case append(Int)
    }

    struct PaddedState: Sendable {
        var rows: [PaddedRow]
    }

    /// A row whose supervision reads a class instance it shares with the app: a write through the
    /// instance leaves the row's bytes as they were.
    final class Switch: @unchecked Sendable {
        // Written only on the main actor, by the test's reducers.
        var isOn = true
    }

    struct SwitchRow: Identifiable, Sendable {
        var id: Int
        var label = 0
        let toggle: Switch
    }

    enum SwitchAction: Sendable {
        case row(ElementAction<Int, Int>)
        case turnOff(Int)
    }

    struct SwitchState: Sendable {
        var rows: [SwitchRow]
    }

    @Test func aRowChangedOnlyThroughASharedInstanceKeepsItsChannelsUntilTheRowChanges() {
        let events = Grid.Events()
        let rowPrism = Prism<SwitchAction, ElementAction<Int, Int>>(
            preview: { if case .row(let action) = $0 { action } else { nil } }, review: SwitchAction.row)
        let row = Behavior<Int, SwitchRow, Void>
            .reduce { label, row in row.label = label }
            .supervise { row in
                let id = row.id
                return Supervision { _ in
                    guard row.toggle.isOn else { return [] }
                    return [
                        Channel<Int>(id: "switch", broadcasting: .onChange(row.label)) { _ in
                            ChannelHandler(receive: { (_: Int) in }, cancel: { events.append("close \(id)") })
                        }
                    ]
                }
            }
        let app =
            row.liftCollection(.action(rowPrism).state(\SwitchState.rows), site: "rows")
            <> Behavior<SwitchAction, SwitchState, Void>.react { action, _ in
                guard case .turnOff(let id) = action else { return .doNothing }
                return .reduce { state in state.rows.first { $0.id == id }?.toggle.isOn = false }
            }.confined(to: \SwitchState.rows)
        var store: Store<SwitchAction, SwitchState, Void>?
        _ = collectingDiagnostics {
            store = Store(initial: SwitchState(rows: (0..<3).map { SwitchRow(id: $0, toggle: Switch()) }), behavior: app, environment: ())
        }
        guard let store else { return }
        #expect(store.openChannelIDs.count == 3)

        store.dispatch(.turnOff(1))
        #expect(store.openChannelIDs.count == 3)
        #expect(events.values.isEmpty)

        store.dispatch(.row(ElementAction(1, action: 5)))
        #expect(store.openChannelIDs.count == 2)
        #expect(events.values == ["close 1"])
    }

    enum Step {
        case dispatch(PlainGrid.Action)
        case tick
    }

    /// Random app-level edits (appends, removals, insertions, moves, replacements, catch-all
    /// writes, broadcasts), element actions and effects: the bracketed-write path against the
    /// full reference, step by step (channel events, open channels, state).
    @Test(arguments: [false, true])
    func thePlainArrayPathAgreesWithTheFullOneOnRandomSequences(broadcast: Bool) {
        for seed in UInt64(1)...12 {
            var random = SplitMix64(seed: seed)
            var steps: [Step] = []
            for _ in 0..<250 {
                let id = Int(random.next() % 16)
                switch random.next() % 20 {
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
                case 10: steps.append(.dispatch(.edit(.insert(id, at: Int(random.next() % 12)))))
                case 11: steps.append(.dispatch(.edit(.rotate(append: id, remove: Int(random.next() % 16)))))
                case 12: steps.append(.dispatch(.relocate(id)))
                case 13 where broadcast: steps.append(.dispatch(.all(random.next() % 2 == 0 ? .toggle : .setLevel(Int(random.next() % 4)))))
                default: steps.append(.dispatch(.row(ElementAction(id, action: .setLevel(Int(random.next() % 4))))))
                }
            }
            let full = run(steps, partial: false, broadcast: broadcast)
            let watched = run(steps, partial: true, broadcast: broadcast)
            #expect(watched.events == full.events, "seed \(seed)")
            #expect(watched.open == full.open, "seed \(seed)")
            #expect(watched.states == full.states, "seed \(seed)")
        }
    }

    private func run(_ steps: [Step], partial: Bool, broadcast: Bool) -> (events: [String], open: [[String]], states: [PlainGrid.State]) {
        let events = Grid.Events()
        let clock = ManualClock()
        var store: Store<PlainGrid.Action, PlainGrid.State, Void>?
        _ = collectingDiagnostics {
            store = Store(
                initial: PlainGrid.initial(10),
                behavior: PlainGrid.app(events: events, evaluations: F.Counter(), broadcast: broadcast),
                environment: (), clock: { _ in clock }, reconcilesChangedElementAlone: partial
            )
        }
        guard let store else { return ([], [], []) }
        var open: [[String]] = []
        var states: [PlainGrid.State] = []
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
