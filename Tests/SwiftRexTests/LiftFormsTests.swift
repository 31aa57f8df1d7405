import SwiftRex
import SwiftRexTestSupport
import Synchronization
import Testing

/// The lift forms beyond key paths and prisms: id closures and `Lens` containers on collection
/// lanes, a getter state lane for middleware, environment-aware projections, a lens writing a
/// `let` in place, and the builder giving each reducer of a `compose` block its types.
@MainActor
@Suite struct LiftFormsTests {
    struct Row: Sendable, Equatable {
        var slug: String
        var bumps = 0
    }
    struct Item: Sendable, Equatable, Identifiable {
        var id: Int
        var bumps = 0
    }

    struct State: Sendable, Equatable {
        var rows: [Row] = []
        var items: [Item] = []
        var byKey: [String: Int] = [:]
        var draft = ""
        var count = 0
    }

    enum Action: Sendable, Equatable {
        case row(ElementAction<String, Bump>)
        case item(ElementAction<Int, Bump>)
        case key(ElementAction<String, Bump>)
        case all(Bump)
        case search(String)
    }

    enum Bump: Sendable, Equatable { case bump }

    static let rowPrism = Prism<Action, ElementAction<String, Bump>>(preview: { if case .row(let a) = $0 { a } else { nil } }, review: Action.row)
    static let itemPrism = Prism<Action, ElementAction<Int, Bump>>(preview: { if case .item(let a) = $0 { a } else { nil } }, review: Action.item)
    static let keyPrism = Prism<Action, ElementAction<String, Bump>>(preview: { if case .key(let a) = $0 { a } else { nil } }, review: Action.key)
    static let allPrism = Prism<Action, Bump>(preview: { if case .all(let a) = $0 { a } else { nil } }, review: Action.all)

    @Test func aCollectionLaneLocatesElementsByAnIdClosure() {
        let bump = Reducer<Bump, Row>.reduce { _, row in row.bumps += 1 }
        let byID: Reducer<Action, State> = bump.liftCollection(.action(Self.rowPrism).state(\.rows, id: { $0.slug }))
        let each: Reducer<Action, State> = bump.liftEach(.action(broadcast: Self.allPrism, into: Self.rowPrism).state(\.rows, id: { $0.slug }))
        var state = State(rows: [.init(slug: "a"), .init(slug: "b")])
        byID.apply(.row(ElementAction("b", action: .bump)), to: &state)
        each.apply(.all(.bump), to: &state)
        #expect(state.rows.map(\.bumps) == [1, 2])
    }

    @Test func anElementActionLaneIsBuiltFromTwoClosures() {
        let bump = Behavior<Bump, Row, Void>.reduce { _, row in row.bumps += 1 }
        let element: @Sendable (Action) -> ElementAction<String, Bump>? = { if case .row(let a) = $0 { a } else { nil } }
        let embed: @Sendable (String, Bump) -> Action = { .row(ElementAction($0, action: $1)) }
        let leading: Behavior<Action, State, Void> = bump.liftCollection(.action(element: element, embed: embed).state(\.rows, id: { $0.slug }))
        let chained: Behavior<Action, State, Void> = bump.liftCollection(.state(\State.rows, id: { $0.slug }).action(element: element, embed: embed))
        var state = State(rows: [.init(slug: "a"), .init(slug: "b")])
        for lifted in [leading, chained] {
            _ = lifted.step(.row(ElementAction("b", action: .bump)), state: &state, environment: ())
            #expect(!lifted.step(.row(ElementAction("z", action: .bump)), state: &state, environment: ()).mutated)
        }
        #expect(state.rows.map(\.bumps) == [0, 2])
    }

    @Test func everyCollectionLocatorTakesALensContainer() {
        let items = Lens(\State.items)
        let rows = Lens<State, [Row]>(get: { $0.rows }, modify: { state, body in body(&state.rows) })
        let keys = Lens(\State.byKey)
        let bumpItem = Reducer<Bump, Item>.reduce { _, item in item.bumps += 1 }
        let bumpRow = Reducer<Bump, Row>.reduce { _, row in row.bumps += 1 }
        let bumpInt = Reducer<Bump, Int>.reduce { _, value in value += 1 }

        let identified: Reducer<Action, State> = bumpItem.liftCollection(.action(Self.itemPrism).state(items))
        let custom: Reducer<Action, State> = bumpRow.liftCollection(.action(Self.rowPrism).state(rows, id: \.slug))
        let customClosure: Reducer<Action, State> = bumpRow.liftCollection(.action(Self.rowPrism).state(rows, id: { $0.slug }))
        let indexed: Reducer<Action, State> = bumpItem.liftCollection(.action(Self.itemPrism).state(indexed: items))
        let dictionary: Reducer<Action, State> = bumpInt.liftCollection(.action(Self.keyPrism).state(dictionary: keys))

        var state = State(rows: [.init(slug: "a")], items: [.init(id: 10), .init(id: 20)], byKey: ["k": 0])
        identified.apply(.item(ElementAction(20, action: .bump)), to: &state)
        indexed.apply(.item(ElementAction(0, action: .bump)), to: &state)
        custom.apply(.row(ElementAction("a", action: .bump)), to: &state)
        customClosure.apply(.row(ElementAction("a", action: .bump)), to: &state)
        dictionary.apply(.key(ElementAction("k", action: .bump)), to: &state)
        #expect(state.items.map(\.bumps) == [1, 1])
        #expect(state.rows.map(\.bumps) == [2])
        #expect(state.byKey == ["k": 1])
    }

    @Test func aLensContainerMutatesTheElementInPlace() {
        struct Big: Sendable, Equatable, Identifiable {
            var id: Int
            var payload = ProbeBuffer(count: 10_000)
        }
        struct Holder: Sendable, Equatable { var bigs: [Big] }
        enum HolderAction: Sendable { case touch(ElementAction<Int, Bump>) }
        let touch = Reducer<Bump, Big>.reduce { _, big in big.payload[0] += 1 }
        let lifted: Reducer<HolderAction, Holder> = touch.liftCollection(
            .action(Prism(preview: { if case .touch(let a) = $0 { a } else { nil } }, review: HolderAction.touch)).state(Lens(\Holder.bigs))
        )
        var holder = Holder(bigs: [.init(id: 1)])
        let report = CoWProbe.trace(&holder, read: { $0.bigs.first?.payload }) { lifted.apply(.touch(ElementAction(1, action: .bump)), to: &$0) }
        #expect(report.isInPlace, "\(report)")
        #expect(holder.bigs[0].payload[0] == 1)
    }

    @Test func aMiddlewareLiftsItsStateThroughAGetter() {
        let seen = Mutex<[String]>([])
        let drafts = Middleware<Action, String, Void>.produce { _, context in
            let draft = context.stateBefore
            return Producer { ctx in
                let live = MainActor.assumeIsolated { ctx.liveState } // phase 3 runs on the main actor
                seen.withLock { $0.append("\(draft ?? "nil") -> \(live ?? "nil")") }
                return .empty
            }
        }
        let lifted = drafts.liftState { (global: State) in global.draft.uppercased() }
        let before = State(draft: "sw")
        let after = State(draft: "swift")
        let pre = PreReducerContext<State>(source: ActionSource(), stateBefore: { before })
        _ = lifted.handle(.search("x"), pre).runReader(PostReducerContext(environment: (), liveState: { after }))
        #expect(seen.withLock { $0 } == ["SW -> SWIFT"])

        // Inside a store, next to a reducer: the middleware reads, the reducer writes.
        let reducer = Reducer<Action, State>.reduce { action, state in if case .search(let text) = action { state.draft = text } }
        let store = Store(initial: State(), reducer: reducer, middleware: lifted, environment: ())
        store.dispatch(.search("swift"))
        #expect(seen.withLock { $0.last } == " -> SWIFT")
    }

    @Test func aMiddlewareScopeReadsItsStateThroughAGetterLane() {
        let seen = Mutex<[String]>([])
        let searches = Middleware<String, String, Void>.produce { query, context in
            let draft = context.stateBefore ?? "nil"
            seen.withLock { $0.append("\(query) on \(draft)") }
            return Producer { _ in .empty }
        }
        let searchPrism = Prism<Action, String>(preview: { if case .search(let q) = $0 { q } else { nil } }, review: Action.search)
        let lifted = searches.lift(.action(searchPrism).state { (global: State) in global.draft.uppercased() })
        let reducer = Reducer<Action, State>.reduce { action, state in if case .search(let text) = action { state.draft = text } }
        let store = Store(initial: State(draft: "sw"), reducer: reducer, middleware: lifted, environment: ())

        store.dispatch(.search("swift"))
        store.dispatch(.all(.bump))

        #expect(seen.withLock { $0 } == ["swift on SW"])
        #expect(store.state.draft == "swift")
    }

    @Test func thePrimitiveCollectionLiftWritesWhereTheActionsTraversalPoints() {
        struct Board: Sendable, Equatable {
            let title: String
            var cells: [Int]
        }
        struct Screen: Sendable, Equatable {
            var board: Board
            var moves = 0
        }
        enum Move: Sendable {
            case cell(Int, Int)
            case other
        }
        let cell = Reducer<Int, Int>.reduce { delta, value in value += delta }
        // The container is a `let` of the board rebuilt by its lens; the element is an index.
        let cells = Lens<Screen, [Int]>(
            get: { $0.board.cells }, set: { screen, cells in screen.board = Board(title: screen.board.title, cells: cells) })
        let lifted: Reducer<Move, Screen> = cell.liftCollection(
            action: { move in
                guard case .cell(let index, let delta) = move else { return nil }
                return (delta, AffineTraversal(preview: { $0.indices.contains(index) ? $0[index] : nil }, set: { $0[index] = $1 }))
            },
            stateContainer: cells
        )
        let store = Store(initial: Screen(board: Board(title: "b", cells: [0, 0, 0])), reducer: lifted)
        var notified = 0
        let token = store.observe(didChange: { notified += 1 })

        store.dispatch(.cell(1, 5))
        store.dispatch(.cell(7, 1))
        store.dispatch(.other)

        #expect(store.state.board.cells == [0, 5, 0])
        #expect(notified == 1)
        withExtendedLifetime(token) {}
    }

    @Test func anEnvironmentProjectionRunsItsReadersOnceAtCreation() {
        struct World: Sendable { var prefix: String }
        let reducer = Reducer<Action, State>.reduce { action, state in if case .search(let text) = action { state.draft = text } }
        let store = Store(initial: State(draft: "hello"), reducer: reducer)
        let built = Mutex(0)
        let projection = store.projection(
            environment: World(prefix: "> "),
            action: Reader { world in
                built.withLock { $0 += 1 }
                return { (text: String) in Action.search(world.prefix + text) }
            },
            state: Reader { world in
                built.withLock { $0 += 1 }
                return { (state: State) in world.prefix + state.draft }
            }
        )
        #expect(projection.state == "> hello")
        projection.dispatch("swift")
        #expect(store.state.draft == "> swift")
        #expect(projection.state == "> > swift")
        #expect(built.withLock { $0 } == 2)
    }

    @Test func theStoredPropertyLensWritesALetInPlace() {
        struct Doc: Sendable, Equatable {
            let title: String
            let body: ProbeBuffer
        }
        let body = Lens(_unsafeStoredProperty: \Doc.body)
        let title = Lens(_unsafeStoredProperty: \Doc.title)
        var doc = Doc(title: "a", body: ProbeBuffer(count: 1_000))
        let report = CoWProbe.trace(&doc, read: { $0.body }) { body.modify(&$0) { $0[0] = 7 } }
        #expect(report.isInPlace, "\(report)")
        title.set(&doc, "b")
        #expect(doc.title == "b" && doc.body[0] == 7)
        #expect(title.get(doc) == "b")
    }

    @Test func aComposeBlockTypesItsReducersSoLeadingDotKeyPathsInfer() {
        let bump = Reducer<Bump, Int>.reduce { _, count in count += 1 }
        let app: Reducer<Action, State> = Reducer.compose {
            bump.lift(.action(Self.allPrism).state(\.count))
            bump.lift(.action(Self.allPrism).state(\.count))
        }
        var state = State()
        app.apply(.all(.bump), to: &state)
        #expect(state.count == 2)
    }

    @Test func aReducerBecomesAVoidBehaviorWithoutContext() {
        let bump = Reducer<Bump, Int>.reduce { _, count in count += 1 }
        let behavior = bump.asBehavior()
        var count = 0
        _ = behavior.step(.bump, state: &count, environment: ())
        #expect(count == 1)
        let typed: Behavior<Bump, Int, String> = bump.asBehavior()
        _ = typed.step(.bump, state: &count, environment: "any")
        #expect(count == 2)
    }
}
