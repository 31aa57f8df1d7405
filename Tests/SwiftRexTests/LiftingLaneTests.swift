import SwiftRex
import SwiftRexTestSupport
import Synchronization
import Testing

// Lifting tests that were still missing: nested collection lifts, the Prism state lane through
// lift, copy-on-write probes for every state lane through lift (Lifting, "In place, never a copy"),
// and the law "lifting distributes over combine" over random inputs.

// MARK: - Nested collections (boards → cards)

/// A two-level app: boards by id, each holding cards by id (card ids repeat across boards).
enum Kanban {
    enum CardAction: Sendable, Equatable {
        case rename(String)
        case autosave, saved
    }
    enum BoardAction: Sendable, Equatable { case card(ElementAction<Int, CardAction>) }
    enum AppAction: Sendable, Equatable { case board(ElementAction<String, BoardAction>) }

    struct Card: Identifiable, Sendable, Equatable {
        var id: Int
        var title: String
        var saves = 0
    }

    struct Board: Identifiable, Sendable, Equatable {
        var id: String
        var cards: [Card]
    }

    struct AppState: Sendable, Equatable {
        var boards: [Board] = ["b1", "b2"].map { board in
            Board(id: board, cards: [7, 8].map { Card(id: $0, title: "\(board)/\($0)") })
        }
    }

    static let cardPrism = Prism<BoardAction, ElementAction<Int, CardAction>>(
        preview: { if case .card(let action) = $0 { action } else { nil } }, review: BoardAction.card)
    static let boardPrism = Prism<AppAction, ElementAction<String, BoardAction>>(
        preview: { if case .board(let action) = $0 { action } else { nil } }, review: AppAction.board)

    static let card = Behavior<CardAction, Card, Void>
        .reduce { action, card in
            switch action {
            case .rename(let title): card.title = title
            case .saved: card.saves += 1
            case .autosave: break
            }
        }
        .produce { action, _ in
            action == .autosave ? Producer { _ in .just(.saved, scheduling: .debounce(id: "autosave", delay: .seconds(1))) } : .doNothing
        }
        .supervise { _ in Supervision { _ in [Channel<CardAction>(id: "watch") { _ in .cancelOnly {} }] } }

    static let board = card.liftCollection(.action(cardPrism).state(\Board.cards), site: "cards")
    static let app = board.liftCollection(.action(boardPrism).state(\AppState.boards), site: "boards")

    static func address(_ board: String, _ card: Int, _ action: CardAction) -> AppAction {
        .board(ElementAction(board, action: .card(ElementAction(card, action: action))))
    }

    /// The id an inner effect or channel `inner` of `card` in `board` carries in the app.
    static func scoped(_ board: String, _ card: Int, _ inner: String) -> AnyHashableSendable {
        AnyHashableSendable(ElementEffectID(site: "boards", element: board, inner: ElementEffectID(site: "cards", element: card, inner: inner)))
    }
}

@MainActor
@Suite struct NestedCollectionLiftTests {
    typealias K = Kanban

    @Test func anAddressedActionReachesOnlyTheInnerElementOfItsOuterElement() {
        var state = K.AppState()
        let step = K.app.step(K.address("b2", 7, .rename("renamed")), state: &state, environment: ())
        #expect(step.mutated)
        #expect(state.boards.map { $0.cards.map(\.title) } == [["b1/7", "b1/8"], ["renamed", "b2/8"]])
    }

    @Test func aMissingInnerElementIsDroppedAndReportedOnce() {
        var state = K.AppState()
        let before = state
        var step: BehaviorStep<K.AppAction>?
        let diagnostics = collectingDiagnostics {
            step = K.app.step(K.address("b1", 99, .rename("x")), state: &state, environment: ())
        }
        #expect(step?.mutated == false)
        #expect(state == before)
        #expect(diagnostics.map(\.kind) == [.missingElement])
    }

    @Test func effectIdsAreStampedPerLevelSoEqualInnerIdsNeverCollide() {
        var state = K.AppState()
        let first = K.app.step(K.address("b1", 7, .autosave), state: &state, environment: ())
        let second = K.app.step(K.address("b2", 7, .autosave), state: &state, environment: ())
        #expect(first.effect.components.map(\.scheduling.id) == [K.scoped("b1", 7, "autosave")])
        #expect(second.effect.components.map(\.scheduling.id) == [K.scoped("b2", 7, "autosave")])
        #expect(first.effect.components.first?.scheduling.id != second.effect.components.first?.scheduling.id)
        // The effect's action comes back addressed through both levels.
        #expect(first.effect.emittedActionValues() == [K.address("b1", 7, .saved)])
    }

    @Test func sameInnerIdsInTwoOuterElementsRunIndependentlyInAStore() async {
        let clock = ManualClock()
        let store = Store(initial: K.AppState(), behavior: K.app, environment: (), clock: { _ in clock })
        store.dispatch(K.address("b1", 7, .autosave))
        store.dispatch(K.address("b2", 7, .autosave))
        store.dispatch(K.address("b2", 8, .autosave))
        clock.advance(by: .seconds(1))
        #expect(await eventually { store.state.boards.map { $0.cards.map(\.saves) } == [[1, 0], [1, 1]] })
    }

    @Test func supervisedChannelsAreStampedWithBothLevels() {
        let channels = K.app.supervisor?(K.AppState()).runReader(()).map(\.id)
        #expect(channels == [K.scoped("b1", 7, "watch"), K.scoped("b1", 8, "watch"), K.scoped("b2", 7, "watch"), K.scoped("b2", 8, "watch")])
    }

    @Test func aStoreOpensOneChannelPerInnerElementAndClosesTheRemovedOnes() {
        let store = Store(initial: K.AppState(), behavior: K.app, environment: ())
        #expect(
            Set(store.openChannelIDs)
                == Set([K.scoped("b1", 7, "watch"), K.scoped("b1", 8, "watch"), K.scoped("b2", 7, "watch"), K.scoped("b2", 8, "watch")]))
    }
}

// MARK: - The Prism state lane through lift

@MainActor
@Suite struct PrismStateLaneTests {
    enum Screen: Sendable, Equatable {
        case list([String])
        case detail(Int)
    }
    enum DetailAction: Sendable, Equatable { case increment }
    enum Action: Sendable, Equatable {
        case detail(DetailAction)
        case show(Int)
    }

    static let detailState = Prism<Screen, Int>(
        preview: { if case .detail(let value) = $0 { value } else { nil } }, review: Screen.detail)
    static let detailAction = Prism<Action, DetailAction>(
        preview: { if case .detail(let action) = $0 { action } else { nil } }, review: Action.detail)

    static let counter = Behavior<DetailAction, Int, Void>.reduce { _, value in value += 1 }
    static let lifted = counter.lift(.action(detailAction).state(detailState))
    static let navigation = Behavior<Action, Screen, Void>.react { action, _ in
        if case .show(let value) = action { return .reduce { $0 = .detail(value) } }
        return .doNothing
    }

    @Test func anActionWhileInAnotherCaseIsUnchangedAndNotifiesNobody() {
        let store = Store(initial: Screen.list(["a"]), behavior: Self.navigation <> Self.lifted)
        var notifications = 0
        let token = store.observe(didChange: { notifications += 1 })
        store.dispatch(.detail(.increment))
        #expect(store.state == .list(["a"]))
        #expect(notifications == 0)
        store.dispatch(.show(1))
        store.dispatch(.detail(.increment))
        #expect(store.state == .detail(2))
        #expect(notifications == 2)
        _ = token
    }

    @Test func theStepAndTheReducerHostAgree() {
        var screen = Screen.list([])
        #expect(!Self.lifted.step(.detail(.increment), state: &screen, environment: ()).mutated)
        #expect(screen == .list([]))
        let reducer = Reducer<DetailAction, Int>.reduce { _, value in value += 1 }.lift(.action(Self.detailAction).state(Self.detailState))
        #expect(!reducer.willMutate(.detail(.increment), in: screen))
        reducer.apply(.detail(.increment), to: &screen)
        #expect(screen == .list([]))
        screen = .detail(5)
        #expect(reducer.willMutate(.detail(.increment), in: screen))
        reducer.apply(.detail(.increment), to: &screen)
        #expect(screen == .detail(6))
    }
}

// MARK: - Copy-on-write through every state lane (mutation in place)

@MainActor
@Suite struct LaneCopyOnWriteTests {
    nonisolated static let size = 20_000

    struct Payload: Sendable, Equatable {
        var values = Array(0..<LaneCopyOnWriteTests.size)
        var buffer = ProbeBuffer(count: LaneCopyOnWriteTests.size)
        mutating func bump() {
            values[0] += 1
            buffer[0] += 1
        }
    }

    struct Item: Identifiable, Sendable, Equatable {
        var id: Int
        var slug: String
        var payload = Payload()
    }

    enum Screen: Sendable, Equatable {
        case idle
        case detail(Payload)
    }

    struct Holder: Sendable, Equatable {
        var big = Payload()
        var optional: Payload? = Payload()
        var screen = Screen.detail(Payload())
        var rows = [Item(id: 1, slug: "a"), Item(id: 2, slug: "b")]
        var dictionary = ["k": Item(id: 3, slug: "k")]
    }

    enum Bump: Sendable, Equatable { case bump }
    enum Action: Sendable, Equatable {
        case bump
        case row(ElementAction<Int, Bump>)
        case slug(ElementAction<String, Bump>)
    }

    static let bumpPrism = Prism<Action, Bump>(preview: { $0 == .bump ? .bump : nil }, review: { _ in .bump })
    static let rowPrism = Prism<Action, ElementAction<Int, Bump>>(
        preview: { if case .row(let action) = $0 { action } else { nil } }, review: Action.row)
    static let slugPrism = Prism<Action, ElementAction<String, Bump>>(
        preview: { if case .slug(let action) = $0 { action } else { nil } }, review: Action.slug)
    static let screenPrism = Prism<Screen, Payload>(
        preview: { if case .detail(let payload) = $0 { payload } else { nil } }, review: Screen.detail)

    static let bumpPayload = Reducer<Bump, Payload>.reduce { _, payload in payload.bump() }
    static let bumpItem = Reducer<Bump, Item>.reduce { _, item in item.payload.bump() }

    /// Probes both payloads `read` finds (the array and the counting buffer) around `mutate`.
    static func expectInPlace(
        _ holder: inout Holder,
        _ read: @escaping (Holder) -> Payload?,
        sourceLocation: SourceLocation = #_sourceLocation,
        _ mutate: (inout Holder) -> Void
    ) {
        var arrayReport: CoWReport?
        let bufferReport = CoWProbe.trace(&holder, read: { read($0)?.buffer }) { holder in
            arrayReport = CoWProbe.trace(&holder, read: { read($0)?.values }, during: mutate)
        }
        #expect(bufferReport.copies == 0, "\(bufferReport)", sourceLocation: sourceLocation)
        #expect(bufferReport.isInPlace, "\(bufferReport)", sourceLocation: sourceLocation)
        #expect(arrayReport?.isInPlace == true, "\(String(describing: arrayReport))", sourceLocation: sourceLocation)
    }

    /// Also checks that the global container array (`rows`) kept its storage.
    static func expectRowsKept(_ holder: inout Holder, sourceLocation: SourceLocation = #_sourceLocation, _ mutate: (inout Holder) -> Void) {
        let report = CoWProbe.trace(&holder, payload: \.rows, during: mutate)
        #expect(report.isInPlace, "\(report)", sourceLocation: sourceLocation)
    }

    @Test func keyPathLane() {
        let lifted = Self.bumpPayload.lift(.action(Self.bumpPrism).state(\Holder.big))
        var holder = Holder()
        Self.expectInPlace(&holder, { $0.big }) { lifted.apply(.bump, to: &$0) }
        #expect(holder.big.buffer[0] == 1)
    }

    @Test func lensLane() {
        let lifted = Self.bumpPayload.lift(.action(Self.bumpPrism).state(Lens(\Holder.big)))
        var holder = Holder()
        Self.expectInPlace(&holder, { $0.big }) { lifted.apply(.bump, to: &$0) }
        #expect(holder.big.buffer[0] == 1)
    }

    @Test func affineTraversalLane() {
        let lifted = Self.bumpPayload.lift(.action(Self.bumpPrism).state(AffineTraversal(\Holder.optional)))
        var holder = Holder()
        Self.expectInPlace(&holder, { $0.optional }) { lifted.apply(.bump, to: &$0) }
        #expect(holder.optional?.buffer[0] == 1)
    }

    @Test func prismLane() {
        let screen = Self.bumpPayload.lift(.action(Prism<Bump, Bump>.identity).state(Self.screenPrism))
        let lifted = screen.lift(.action(Self.bumpPrism).state(\Holder.screen))
        var holder = Holder()
        Self.expectInPlace(&holder, { Self.screenPrism.preview($0.screen) }) { lifted.apply(.bump, to: &$0) }
        #expect(Self.screenPrism.preview(holder.screen)?.buffer[0] == 1)
    }

    @Test func liftOptionalLane() {
        let feature = Behavior<Action, Payload, Void>.reduce { action, payload in if action == .bump { payload.bump() } }
        let lifted = feature.liftOptional(\Holder.optional)
        var holder = Holder()
        Self.expectInPlace(&holder, { $0.optional }) { _ = lifted.step(.bump, state: &$0, environment: ()) }
        #expect(holder.optional?.buffer[0] == 1)
    }

    @Test func identifiedCollectionLane() {
        let lifted = Self.bumpItem.liftCollection(.action(Self.rowPrism).state(\Holder.rows))
        var holder = Holder()
        Self.expectInPlace(&holder, { $0.rows[1].payload }) { lifted.apply(.row(ElementAction(2, action: .bump)), to: &$0) }
        Self.expectRowsKept(&holder) { lifted.apply(.row(ElementAction(2, action: .bump)), to: &$0) }
        #expect(holder.rows[1].payload.buffer[0] == 2)
    }

    @Test func identifiedByKeyPathCollectionLane() {
        let lifted = Self.bumpItem.liftCollection(.action(Self.slugPrism).state(\Holder.rows, id: \.slug))
        var holder = Holder()
        Self.expectInPlace(&holder, { $0.rows[0].payload }) { lifted.apply(.slug(ElementAction("a", action: .bump)), to: &$0) }
        Self.expectRowsKept(&holder) { lifted.apply(.slug(ElementAction("a", action: .bump)), to: &$0) }
        #expect(holder.rows[0].payload.buffer[0] == 2)
    }

    @Test func indexedCollectionLane() {
        let lifted = Self.bumpItem.liftCollection(.action(Self.rowPrism).state(indexed: \Holder.rows))
        var holder = Holder()
        Self.expectInPlace(&holder, { $0.rows[1].payload }) { lifted.apply(.row(ElementAction(1, action: .bump)), to: &$0) }
        Self.expectRowsKept(&holder) { lifted.apply(.row(ElementAction(1, action: .bump)), to: &$0) }
        #expect(holder.rows[1].payload.buffer[0] == 2)
    }

    @Test func dictionaryCollectionLane() {
        let lifted = Self.bumpItem.liftCollection(.action(Self.slugPrism).state(dictionary: \Holder.dictionary))
        var holder = Holder()
        Self.expectInPlace(&holder, { $0.dictionary["k"]?.payload }) { lifted.apply(.slug(ElementAction("k", action: .bump)), to: &$0) }
        #expect(holder.dictionary["k"]?.payload.buffer[0] == 1)
    }

    @Test func theProbeSeesACopyWhenTheStateIsShared() {
        // Proves the probe can fail: a hidden second reference forces the lift to copy.
        let lifted = Self.bumpPayload.lift(.action(Self.bumpPrism).state(\Holder.big))
        var holder = Holder()
        let hidden = holder
        let report = CoWProbe.trace(&holder, payload: \.big.buffer) { lifted.apply(.bump, to: &$0) }
        #expect(report.copied)
        #expect(hidden.big.buffer[0] == 0)
    }
}

// MARK: - Lifting distributes over combine

@MainActor
@Suite struct LiftDistributesOverCombineTests {
    typealias F = CoreFixtures
    enum GlobalAction: Sendable, Equatable {
        case inner(F.Action)
        case other
    }
    struct GlobalState: Sendable, Equatable {
        var inner = F.State()
        var untouched = 42
    }
    struct GlobalEnvironment: Sendable { var inner = F.Env(tag: "lifted") }

    static let innerPrism = Prism<GlobalAction, F.Action>(
        preview: { if case .inner(let action) = $0 { action } else { nil } }, review: GlobalAction.inner)

    static func randomState(_ rng: inout SplitMix64) -> GlobalState {
        GlobalState(inner: F.State(value: Int.random(in: -5...5, using: &rng), log: Bool.random(using: &rng) ? ["x"] : []))
    }

    static func randomAction(_ rng: inout SplitMix64) -> GlobalAction {
        Int.random(in: 0..<6, using: &rng) == 0 ? .other : .inner(F.actions.randomElement(using: &rng)!)
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func forReducers(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let samples = F.reducers(count: 8, seed: seed)
        for _ in 0..<40 {
            let a = samples.randomElement(using: &rng)!
            let b = samples.randomElement(using: &rng)!
            let combinedThenLifted = (a <> b).lift(.action(Self.innerPrism).state(\GlobalState.inner))
            let liftedThenCombined =
                a.lift(.action(Self.innerPrism).state(\GlobalState.inner))
                <> b.lift(.action(Self.innerPrism).state(\GlobalState.inner))
            let state = Self.randomState(&rng)
            let action = Self.randomAction(&rng)
            var lhs = state
            var rhs = state
            combinedThenLifted.apply(action, to: &lhs)
            liftedThenCombined.apply(action, to: &rhs)
            #expect(lhs == rhs, "\(action) on \(state)")
            #expect(combinedThenLifted.willMutate(action, in: state) == liftedThenCombined.willMutate(action, in: state))
        }
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func forBehaviors(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let samples = F.behaviors(count: 10, seed: seed)
        let environment = GlobalEnvironment()
        for _ in 0..<40 {
            let a = samples.randomElement(using: &rng)!
            let b = samples.randomElement(using: &rng)!
            let scope:
                Relay.Scope<
                    Relay.ActionPrism<GlobalAction, F.Action>, Relay.StateLens<GlobalState, F.State>,
                    Relay.EnvironmentNarrow<GlobalEnvironment, F.Env>
                > = .action(Self.innerPrism).state(\GlobalState.inner).environment(\GlobalEnvironment.inner)
            let combinedThenLifted = (a <> b).lift(scope)
            let liftedThenCombined = a.lift(scope) <> b.lift(scope)
            let state = Self.randomState(&rng)
            let action = Self.randomAction(&rng)
            let lhs = StepObservation(combinedThenLifted, action: action, state: state, environment: environment)
            let rhs = StepObservation(liftedThenCombined, action: action, state: state, environment: environment)
            #expect(lhs == rhs, "\(action) on \(state)")
            let lhsChannels = combinedThenLifted.supervisor?(state).channelIdentities(environment) ?? []
            let rhsChannels = liftedThenCombined.supervisor?(state).channelIdentities(environment) ?? []
            #expect(lhsChannels == rhsChannels)
        }
    }
}
