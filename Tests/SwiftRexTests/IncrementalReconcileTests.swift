@_spi(Testing) import SwiftRex
import SwiftRexTestSupport
import Testing

/// A supervised grid: every live cell keeps a feed channel whose reset key is its room and whose
/// broadcast value is its level. Cells also sit inside a sub-feature (focus-lifted), and a second
/// collection and an app-level supervision share the store.
enum Grid {
    struct Cell: Identifiable, Sendable, Equatable {
        var id: Int
        var live = true
        var room = 0
        var level = 0
    }

    enum CellAction: Sendable, Equatable { case toggle, move(Int), setLevel(Int) }

    enum Action: Sendable, Equatable {
        case cell(ElementAction<Int, CellAction>)
        case panel(ElementAction<Int, CellAction>)
        case parent(ParentAction)
    }

    enum ParentAction: Sendable, Equatable {
        case insert(Int)
        case remove(Int)
        case keepOnly([Int])
        case moveToEnd(Int)
        case bump
        case watch(Bool)
    }

    struct Board: Sendable, Equatable {
        var cells: [Cell] = []
    }

    struct State: Sendable, Equatable {
        var board = Board()
        var panels: [Cell] = []
        var counter = 0
        var watching = false
    }

    typealias Events = CoreFixtures.Log<String>

    static let cellPrism = Prism<Action, ElementAction<Int, CellAction>>(
        preview: { if case .cell(let action) = $0 { action } else { nil } }, review: Action.cell)
    static let parentPrism = Prism<Action, ParentAction>(
        preview: { if case .parent(let action) = $0 { action } else { nil } }, review: Action.parent)
    static let panelPrism = Prism<Action, ElementAction<Int, CellAction>>(
        preview: { if case .panel(let action) = $0 { action } else { nil } }, review: Action.panel)

    /// The cell feature; `evaluations` counts how many cells' supervisions were evaluated.
    /// `reacting` writes the same mutations as a grouped reaction instead of a reducer.
    static func cell(_ name: String, events: Events, evaluations: CoreFixtures.Counter, reacting: Bool = false) -> Behavior<CellAction, Cell, Void> {
        let mutate: @Sendable (CellAction, inout Cell) -> Void = { action, cell in
            switch action {
            case .toggle: cell.live.toggle()
            case .move(let room): cell.room = room
            case .setLevel(let level): cell.level = level
            }
        }
        let core = reacting
            ? Behavior<CellAction, Cell, Void>.react { action, _ in .reduce { mutate(action, &$0) } }
            : Behavior<CellAction, Cell, Void>.reduce(mutate)
        return core
            .supervise { cell in
                evaluations.increment()
                let id = cell.id
                return Supervision { _ in
                    guard cell.live else { return [] }
                    return [Channel<CellAction>(
                        id: "feed",
                        lifetime: .ephemeral(resetKey: cell.room),
                        broadcasting: .onChange(cell.level)
                    ) { _ in
                        events.append("\(name)\(id) open")
                        return ChannelHandler(
                            receive: { level in events.append("\(name)\(id) level \(level)") },
                            cancel: { events.append("\(name)\(id) close") }
                        )
                    }]
                }
            }
    }

    /// The app: the board's cells lifted into the board, the board focus-lifted into the app, a
    /// second collection of panels, parent reducers and an app-level watch channel. The parent
    /// reducer is routed by a prism: an unrouted catch-all reducer would count as mutating anything
    /// on every action, and every reconcile would be a full one.
    static func app(events: Events, evaluations: CoreFixtures.Counter, reacting: Bool = false) -> Behavior<Action, State, Void> {
        let board = cell("c", events: events, evaluations: evaluations, reacting: reacting)
            .liftCollection(.action(cellPrism).state(\Board.cells), site: "cells")
            .lift(.state(\State.board))
        let panels = cell("p", events: events, evaluations: evaluations)
            .liftCollection(.action(panelPrism).state(\State.panels), site: "panels")
        let parent = Behavior<ParentAction, State, Void>
            .reduce { action, state in
                switch action {
                case .insert(let id):
                    if !state.board.cells.contains(where: { $0.id == id }) { state.board.cells.append(Cell(id: id)) }
                case .remove(let id):
                    state.board.cells.removeAll { $0.id == id }
                case .keepOnly(let ids):
                    state.board.cells.removeAll { !ids.contains($0.id) }
                case .moveToEnd(let id):
                    if let index = state.board.cells.firstIndex(where: { $0.id == id }) {
                        state.board.cells.append(state.board.cells.remove(at: index))
                    }
                case .bump:
                    state.counter += 1
                case .watch(let on):
                    state.watching = on
                }
            }
            .lift(.action(parentPrism))
        let watch = Behavior<Action, State, Void>
            .supervise { state in
                Supervision { _ in
                    guard state.watching else { return [] }
                    return [Channel<Action>(id: "watch", broadcasting: .onChange(state.counter)) { _ in
                        events.append("watch open")
                        return ChannelHandler(receive: { value in events.append("watch \(value)") }, cancel: { events.append("watch close") })
                    }]
                }
            }
        return board <> panels <> parent <> watch
    }

    static func initial(cells: Int, panels: Int = 2) -> State {
        State(board: Board(cells: (0..<cells).map { Cell(id: $0) }), panels: (0..<panels).map { Cell(id: $0) })
    }
}

@MainActor
@Suite struct IncrementalReconcileTests {
    typealias F = CoreFixtures

    @Test(arguments: [false, true])
    func anElementActionReevaluatesOnlyThatElementsSupervision(reacting: Bool) {
        let events = Grid.Events()
        let evaluations = F.Counter()
        let store = Store(initial: Grid.initial(cells: 1_000), behavior: Grid.app(events: events, evaluations: evaluations, reacting: reacting), environment: ())
        #expect(store.openChannelIDs.count == 1_002)
        let before = evaluations.value

        store.dispatch(.cell(ElementAction(500, action: .setLevel(7))))

        // The addressed cell is evaluated; the panels (another lift, a disjoint part of the
        // state) and the other 999 cells are not.
        #expect(evaluations.value - before == 1)
        #expect(events.values.suffix(1) == ["c500 level 7"])
        #expect(store.openChannelIDs.count == 1_002)
    }

    @Test func aParentMutationReevaluatesEverything() {
        let events = Grid.Events()
        let evaluations = F.Counter()
        let store = Store(initial: Grid.initial(cells: 100), behavior: Grid.app(events: events, evaluations: evaluations), environment: ())
        let before = evaluations.value
        store.dispatch(.parent(.bump))
        #expect(evaluations.value - before == 102)
    }

    @Test func anElementThatStopsWantingItsChannelClosesItAloneAndReopensIt() {
        let events = Grid.Events()
        let store = Store(initial: Grid.initial(cells: 10), behavior: Grid.app(events: events, evaluations: F.Counter()), environment: ())
        let opened = events.values.count
        store.dispatch(.cell(ElementAction(3, action: .toggle)))
        store.dispatch(.cell(ElementAction(3, action: .toggle)))
        store.dispatch(.cell(ElementAction(3, action: .move(9))))
        #expect(Array(events.values.dropFirst(opened)) == ["c3 close", "c3 open", "c3 level 0", "c3 close", "c3 open", "c3 level 0"])
        #expect(store.openChannelIDs.count == 12)
    }

    @Test func leaversCloseInContainerOrderAfterElementsOpenedTheirChannelsAlone() {
        // Cells 0 and 2 open their channels through their own actions (single-element
        // reconciles); a parent action then removes cells 0, 1 and 2 together: they close in
        // container order.
        let events = Grid.Events()
        var initial = Grid.initial(cells: 4, panels: 0)
        initial.board.cells[0].live = false
        initial.board.cells[2].live = false
        let store = Store(initial: initial, behavior: Grid.app(events: events, evaluations: F.Counter()), environment: ())
        store.dispatch(.cell(ElementAction(2, action: .toggle)))
        store.dispatch(.cell(ElementAction(0, action: .toggle)))
        let before = events.values.count
        store.dispatch(.parent(.keepOnly([3])))
        #expect(Array(events.values.dropFirst(before)) == ["c0 close", "c1 close", "c2 close"])
    }

    @Test func anElementWithoutChannelsThatMovedOpensItsChannelAtItsNewPlace() {
        // Cell 0 has no channel and moves to the end: the desired set is unchanged. It then opens
        // its channel alone; removing every cell closes the channels in the new container order.
        let events = Grid.Events()
        var initial = Grid.initial(cells: 3, panels: 0)
        initial.board.cells[0].live = false
        let store = Store(initial: initial, behavior: Grid.app(events: events, evaluations: F.Counter()), environment: ())
        store.dispatch(.parent(.moveToEnd(0)))
        store.dispatch(.cell(ElementAction(0, action: .toggle)))
        let before = events.values.count
        store.dispatch(.parent(.keepOnly([])))
        #expect(Array(events.values.dropFirst(before)) == ["c1 close", "c2 close", "c0 close"])
    }

    @Test(arguments: [false, true])
    func theIncrementalPathAgreesWithTheFullOneOnRandomSequences(reacting: Bool) {
        for seed in UInt64(1)...12 {
            var random = SplitMix64(seed: seed)
            var actions: [Grid.Action] = []
            for _ in 0..<150 {
                let id = Int(random.next() % 14)
                switch random.next() % 10 {
                case 0: actions.append(random.next() % 2 == 0 ? .parent(.insert(id)) : .parent(.moveToEnd(id)))
                case 1:
                    actions.append(random.next() % 3 == 0
                        ? .parent(.keepOnly((0..<14).filter { _ in random.next() % 2 == 0 }))
                        : .parent(.remove(id)))
                case 2: actions.append(.parent(.bump))
                case 3: actions.append(.parent(.watch(random.next() % 2 == 0)))
                case 4: actions.append(.panel(ElementAction(id % 3, action: .setLevel(Int(random.next() % 3)))))
                case 5: actions.append(.cell(ElementAction(id, action: .toggle)))
                case 6: actions.append(.cell(ElementAction(id, action: .move(Int(random.next() % 3)))))
                default: actions.append(.cell(ElementAction(id, action: .setLevel(Int(random.next() % 4)))))
                }
            }
            let incremental = run(actions, elementAlone: true, reacting: reacting)
            let full = run(actions, elementAlone: false, reacting: reacting)
            #expect(incremental.events == full.events, "seed \(seed)")
            #expect(incremental.open == full.open, "seed \(seed)")
        }
    }

    private func run(_ actions: [Grid.Action], elementAlone: Bool, reacting: Bool) -> (events: [String], open: [[String]]) {
        let events = Grid.Events()
        let store = Store(initial: Grid.initial(cells: 10, panels: 3), behavior: Grid.app(events: events, evaluations: F.Counter(), reacting: reacting), environment: ())
        store.reconcilesChangedElementAlone = elementAlone
        var open: [[String]] = []
        for action in actions {
            store.dispatch(action)
            open.append(store.openChannelIDs.map { "\($0)" }.sorted())
        }
        return (events.values, open)
    }
}
