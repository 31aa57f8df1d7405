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

    /// `ping` starts a debounced effect that answers with `setLevel(9)` after 10 ms.
    enum CellAction: Sendable, Equatable {
        case toggle
        case move(Int)
        case setLevel(Int)
        case ping
    }

    enum Action: Sendable, Equatable {
        case cell(ElementAction<Int, CellAction>)
        case panel(ElementAction<Int, CellAction>)
        case parent(ParentAction)
        case side(CellAction)
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
        /// A sibling slice with its own supervised channel, lifted through a key path.
        var side = Cell(id: 0, live: false)
    }

    typealias Events = CoreFixtures.Log<String>

    static let cellPrism = Prism<Action, ElementAction<Int, CellAction>>(
        preview: { if case .cell(let action) = $0 { action } else { nil } }, review: Action.cell)
    static let parentPrism = Prism<Action, ParentAction>(
        preview: { if case .parent(let action) = $0 { action } else { nil } }, review: Action.parent)
    static let panelPrism = Prism<Action, ElementAction<Int, CellAction>>(
        preview: { if case .panel(let action) = $0 { action } else { nil } }, review: Action.panel)
    static let sidePrism = Prism<Action, CellAction>(
        preview: { if case .side(let action) = $0 { action } else { nil } }, review: Action.side)

    /// The cell feature; `evaluations` counts how many cells' supervisions were evaluated.
    /// `reacting` writes the same mutations as a grouped reaction instead of a reducer.
    static func cell(_ name: String, events: Events, evaluations: CoreFixtures.Counter, reacting: Bool = false) -> Behavior<CellAction, Cell, Void> {
        let mutate: @Sendable (CellAction, inout Cell) -> Void = { action, cell in
            switch action {
            case .toggle: cell.live.toggle()
            case .move(let room): cell.room = room
            case .setLevel(let level): cell.level = level
            case .ping: break
            }
        }
        let core =
            reacting
            ? Behavior<CellAction, Cell, Void>.react { action, _ in .reduce { mutate(action, &$0) } }
            : Behavior<CellAction, Cell, Void>.reduce(mutate)
        return
            core
            .produce { action, _ in
                guard case .ping = action else { return Producer { _ in .empty } }
                return Producer { _ in .just(.setLevel(9), scheduling: .debounce(id: "ping", delay: .milliseconds(10))) }
            }
            .supervise { cell in
                evaluations.increment()
                let id = cell.id
                return Supervision { _ in
                    guard cell.live else { return [] }
                    return [
                        Channel<CellAction>(
                            id: "feed",
                            lifetime: .ephemeral(resetKey: cell.room),
                            broadcasting: .onChange(cell.level)
                        ) { _ in
                            events.append("\(name)\(id) open")
                            return ChannelHandler(
                                receive: { level in events.append("\(name)\(id) level \(level)") },
                                cancel: { events.append("\(name)\(id) close") }
                            )
                        }
                    ]
                }
            }
    }

    /// The app: the board's cells lifted into the board, the board focus-lifted into the app, a
    /// second collection of panels, parent reducers, an app-level watch channel and a sibling
    /// slice lifted through a key path. The parent reducer is routed by a prism: an unrouted
    /// catch-all reducer would count as mutating anything on every action, and every reconcile
    /// would be a full one. With `declared`, the parent reducers say what they touch
    /// (`confined(to:)`), so a bump or a structural edit re-evaluates only what reads it.
    static func app(events: Events, evaluations: CoreFixtures.Counter, reacting: Bool = false, declared: Bool = false) -> Behavior<
        Action, State, Void
    > {
        let board = cell("c", events: events, evaluations: evaluations, reacting: reacting)
            .liftCollection(.action(cellPrism).state(\Board.cells), site: "cells")
            .lift(.state(\State.board))
        let panels = cell("p", events: events, evaluations: evaluations)
            .liftCollection(.action(panelPrism).state(\State.panels), site: "panels")
        let structure = Behavior<ParentAction, State, Void>
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
                case .bump, .watch:
                    break
                }
            }
        let flags = Behavior<ParentAction, State, Void>
            .reduce { action, state in
                switch action {
                case .bump: state.counter += 1
                case .watch(let on): state.watching = on
                case .insert, .remove, .keepOnly, .moveToEnd: break
                }
            }
        let parent =
            declared
            ? (structure.confined(to: \State.board) <> flags.confined(to: \State.counter, \State.watching)).lift(.action(parentPrism))
            : (structure <> flags).lift(.action(parentPrism))
        let side = cell("s", events: events, evaluations: CoreFixtures.Counter(), reacting: reacting)
            .lift(.action(sidePrism).state(\State.side))
        let watch = Behavior<Action, State, Void>
            .supervise { state in
                Supervision { _ in
                    guard state.watching else { return [] }
                    return [
                        Channel<Action>(id: "watch", broadcasting: .onChange(state.counter)) { _ in
                            events.append("watch open")
                            return ChannelHandler(receive: { value in events.append("watch \(value)") }, cancel: { events.append("watch close") })
                        }
                    ]
                }
            }
        return board <> panels <> parent <> watch <> side
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
        let store = Store(
            initial: Grid.initial(cells: 1_000), behavior: Grid.app(events: events, evaluations: evaluations, reacting: reacting), environment: ())
        #expect(store.openChannelIDs.count == 1_002)
        let before = evaluations.value

        store.dispatch(.cell(ElementAction(500, action: .setLevel(7))))

        // The addressed cell is evaluated; the panels (another lift, a disjoint part of the
        // state) and the other 999 cells are not.
        #expect(evaluations.value - before == 1)
        #expect(events.values.suffix(1) == ["c500 level 7"])
        #expect(store.openChannelIDs.count == 1_002)
    }

    /// A cell's new level reaches its own live channel alone, an unchanged level delivers
    /// nothing, and a channel closed from outside is opened again by its cell's next new level.
    @Test func aCellsNewLevelIsDeliveredToItsChannelAloneAndReopensAClosedOne() {
        let events = Grid.Events()
        let store = Store(initial: Grid.initial(cells: 3), behavior: Grid.app(events: events, evaluations: F.Counter()), environment: ())
        var seen = events.values.count
        func newEvents() -> [String] {
            defer { seen = events.values.count }
            return Array(events.values.dropFirst(seen))
        }

        store.dispatch(.cell(ElementAction(1, action: .setLevel(4))))
        #expect(newEvents() == ["c1 level 4"])
        store.dispatch(.cell(ElementAction(1, action: .setLevel(4))))
        #expect(newEvents() == [])

        store.cancelEffects(id: ElementEffectID(site: "cells", element: 1, inner: "feed"))
        #expect(newEvents() == ["c1 close"])
        store.dispatch(.cell(ElementAction(1, action: .setLevel(5))))
        #expect(newEvents() == ["c1 open", "c1 level 5"])
        #expect(store.openChannelIDs.count == 5)
    }

    @Test func aParentMutationReevaluatesTheCellsInsideAFocusAndComparesTheTopLevelPanels() {
        let events = Grid.Events()
        let evaluations = F.Counter()
        let store = Store(initial: Grid.initial(cells: 100), behavior: Grid.app(events: events, evaluations: evaluations), environment: ())
        let before = evaluations.value
        store.dispatch(.parent(.bump))
        // The board's cells sit inside a focus (`lift(.state(\.board))`): evaluated whole. The
        // panels' plain array is compared before and after the write: unchanged, not evaluated.
        #expect(evaluations.value - before == 100)
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

    /// One step of a random sequence: an action, or 10 ms of the manual clock followed by a drain
    /// of the mailbox (debounced `ping` answers come back then).
    enum Step: Equatable {
        case dispatch(Grid.Action)
        case tick
    }

    static func randomSteps(seed: UInt64, count: Int) -> [Step] {
        var random = SplitMix64(seed: seed)
        var steps: [Step] = []
        for _ in 0..<count {
            // Ids up to 13 over 10 cells: some actions address cells that are not there.
            let id = Int(random.next() % 14)
            switch random.next() % 14 {
            case 0: steps.append(.dispatch(random.next() % 2 == 0 ? .parent(.insert(id)) : .parent(.moveToEnd(id))))
            case 1:
                steps.append(
                    .dispatch(
                        random.next() % 3 == 0
                            ? .parent(.keepOnly((0..<14).filter { _ in random.next() % 2 == 0 }))
                            : .parent(.remove(id))))
            case 2: steps.append(.dispatch(.parent(.bump)))
            case 3: steps.append(.dispatch(.parent(.watch(random.next() % 2 == 0))))
            case 4: steps.append(.dispatch(.panel(ElementAction(id % 3, action: .setLevel(Int(random.next() % 3))))))
            case 5: steps.append(.dispatch(.cell(ElementAction(id, action: .toggle))))
            case 6: steps.append(.dispatch(.cell(ElementAction(id, action: .move(Int(random.next() % 3))))))
            case 7: steps.append(.dispatch(.cell(ElementAction(id, action: .ping))))
            case 8: steps.append(.tick)
            case 9: steps.append(.dispatch(.side(random.next() % 2 == 0 ? .toggle : .setLevel(Int(random.next() % 3)))))
            case 10: steps.append(.dispatch(.side(.move(Int(random.next() % 2)))))
            default: steps.append(.dispatch(.cell(ElementAction(id, action: .setLevel(Int(random.next() % 4))))))
            }
        }
        return steps
    }

    /// The partial paths (with and without declared footprints) against the full one: the same
    /// channel events and open channels after every step, with sibling mutations, structural
    /// edits, moves, removals while a cell's debounced effect is pending, and missing ids.
    @Test(arguments: [false, true])
    func theIncrementalPathAgreesWithTheFullOneOnRandomSequences(reacting: Bool) {
        for seed in UInt64(1)...12 {
            let steps = Self.randomSteps(seed: seed, count: 150)
            let full = run(steps, partial: false, reacting: reacting, declared: false)
            let incremental = run(steps, partial: true, reacting: reacting, declared: false)
            let declared = run(steps, partial: true, reacting: reacting, declared: true)
            #expect(incremental.events == full.events, "seed \(seed)")
            #expect(incremental.open == full.open, "seed \(seed)")
            #expect(declared.events == full.events, "seed \(seed), declared")
            #expect(declared.open == full.open, "seed \(seed), declared")
            #expect(declared.states == full.states, "seed \(seed), declared")
        }
    }

    private func run(_ steps: [Step], partial: Bool, reacting: Bool, declared: Bool) -> (events: [String], open: [[String]], states: [Grid.State]) {
        let events = Grid.Events()
        let clock = ManualClock()
        let store = Store(
            initial: Grid.initial(cells: 10, panels: 3),
            behavior: Grid.app(events: events, evaluations: F.Counter(), reacting: reacting, declared: declared),
            environment: (), clock: { _ in clock }, reconcilesChangedElementAlone: partial
        )
        var open: [[String]] = []
        var states: [Grid.State] = []
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
