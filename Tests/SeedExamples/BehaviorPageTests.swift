#if Macros || PrebuiltMacroPlugin
import SwiftRexMacros
import SwiftRexTestSupport
import Testing

// The code examples of SwiftRex's Behavior documentation page, as written (a `/* … */` placeholder is filled with the
// smallest body that shows the stated point), each with the outcome the page states.

private enum BehaviorPage {
    @Prisms
    enum AppAction: Sendable, Equatable {
        case load(Int)
        case loaded(String)
        case tap
        case login(String)
        case loggedIn(String)
        case room(RoomAction)
        case row(ElementAction<Int, RowAction>)
        case tickAll(RowAction)
        // The `.on` routing example.
        case didLoad([String])
        case renderItems([String])
        case didTapBuy
        case checkout
        case didSearch(String)
        case performSearch(String)
        case reset
        case submit
        case doSubmit
    }

    enum RoomAction: Sendable, Equatable {
        case join
        case joined(String)
    }
    enum RowAction: Sendable, Equatable {
        case tick
        case ticked(Int)
    }

    struct RoomState: Sendable, Equatable { var members: [String] = [] }
    struct Row: Sendable, Equatable, Identifiable {
        var id: Int
        var ticks = 0
    }
    enum Day { struct State: Sendable, Equatable { var title = "" } }

    struct AppState: Sendable, Equatable {
        var isLoading = false
        var item: String?
        var taps = 0
        var user: String?
        var room = RoomState()
        var currentDay: Day.State?
        var rows: [Row] = []
        var items: [String] = []
        var isLoggedIn = false
        var isSubmitting = false
        var search = ""
    }

    /// A request as a companion bridge would return it: `asEffect()` turns it into an `Effect`.
    struct Request: Sendable {
        let action: AppAction
        func asEffect() -> Effect<AppAction> { .just(action) }
    }

    struct API: Sendable {
        func fetch(_ id: Int) -> Request { Request(action: .loaded("item \(id)")) }
    }

    struct RoomEnv: Sendable { var name = "lobby" }
    struct RowEnv: Sendable { var step = 1 }

    struct AppEnvironment: Sendable {
        var api = API()
        var roomEnv = RoomEnv()
        var rowEnv = RowEnv()
    }

    struct World: Sendable {}

    typealias Feature = Behavior<AppAction, AppState, AppEnvironment>

    /// A feature already lifted to the app's types (the page's `counter.lifted`).
    struct Lifted { let lifted: Feature }
}

private typealias AppAction = BehaviorPage.AppAction
extension BehaviorPage.AppAction: DomainAction {
    fileprivate typealias DomainState = BehaviorPage.AppState
    fileprivate typealias DomainEnvironment = BehaviorPage.AppEnvironment
}
private typealias AppState = BehaviorPage.AppState
private typealias AppEnvironment = BehaviorPage.AppEnvironment
private typealias RoomAction = BehaviorPage.RoomAction
private typealias RowAction = BehaviorPage.RowAction
private typealias World = BehaviorPage.World

@MainActor
@Suite struct BehaviorPageTests {
    @Test func theGroupedReactLoaderSetsLoadingAndFetches() {
        // Grouped action builder — react, with reduce and/or produce inside
        let loader = Behavior<AppAction, AppState, AppEnvironment>.react { action, _ in
            guard case .load(let id) = action else { return .doNothing }
            return .reduce { $0.isLoading = true }
                .produce { ctx in ctx.environment.api.fetch(id).asEffect() }
        }

        var state = AppState()
        let step = loader.step(.load(7), state: &state, environment: AppEnvironment())
        #expect(state.isLoading)
        #expect(step.effect.emittedActionValues() == [.loaded("item 7")])
        let other = loader.step(.tap, state: &state, environment: AppEnvironment())
        #expect(!other.mutated && other.effect.isEmpty)
    }

    @Test func theFluentFeatureCombinesEachConcernIntoOneBehavior() {
        // Fluent — each concern combined into one behavior
        let feature = Behavior<AppAction, AppState, AppEnvironment>
            .reduce { action, state in if action == .tap { state.taps += 1 } }
            .produce { action, ctx in Reader { c in action == .tap ? .just(.loaded("tapped")) : .empty } }
            .supervise { state in Supervision { env in state.taps > 0 ? [Channel(id: env.roomEnv.name) { _ in .cancelOnly {} }] : [] } }

        var state = AppState()
        let step = feature.step(.tap, state: &state, environment: AppEnvironment())
        #expect(state.taps == 1)
        #expect(step.effect.emittedActionValues() == [.loaded("tapped")])
        #expect(feature.supervisor?(state).runReader(AppEnvironment()).map(\.id) == [AnyHashableSendable("lobby")])
    }

    @Test func aReducerAndAReducerPlusMiddlewareBecomeBehaviors() {
        let counterReducer = Reducer<AppAction, AppState>.reduce { action, state in if action == .tap { state.taps += 1 } }
        let authReducer = Reducer<AppAction, AppState>.reduce { action, state in if case .loggedIn(let user) = action { state.user = user } }
        let authMiddleware = Middleware<AppAction, AppState, AppEnvironment>.produce { action, _ in
            guard case .login(let user) = action else { return .doNothing }
            return Producer { _ in .just(.loggedIn(user)) }
        }

        // From a Reducer, or a Reducer + Middleware
        let counter = counterReducer.asBehavior()
        let auth = Behavior(reducer: authReducer, middleware: authMiddleware)

        var state = AppState()
        #expect(counter.step(.tap, state: &state, environment: ()).mutated)
        #expect(state.taps == 1)
        let login = auth.step(.login("ada"), state: &state, environment: AppEnvironment())
        #expect(login.effect.emittedActionValues() == [.loggedIn("ada")])
        _ = auth.step(.loggedIn("ada"), state: &state, environment: AppEnvironment())
        #expect(state.user == "ada")
    }

    @Test func theRoomFeatureFlowsThroughTheFluentBuildersAsAFold() {
        typealias RoomEnv = BehaviorPage.RoomEnv
        typealias RoomState = BehaviorPage.RoomState
        let room = Behavior<RoomAction, RoomState, RoomEnv>
            .reduce { action, state in if case .joined(let name) = action { state.members.append(name) } } // what changes
            // what to do because of an action
            .produce { action, ctx in action == .join ? Reader { env in .just(.joined(env.environment.name)) } : .doNothing }
            .supervise { state in Supervision { _ in [] } } // what to keep alive while the state holds

        var state = RoomState()
        let join = room.step(.join, state: &state, environment: RoomEnv())
        #expect(join.effect.emittedActionValues() == [.joined("lobby")])
        _ = room.step(.joined("lobby"), state: &state, environment: RoomEnv())
        #expect(state.members == ["lobby"])
    }

    @Test func combiningGivesBothTheSamePreMutationStateAndSequencesMutations() {
        let counter = BehaviorPage.Lifted(
            lifted: .react { _, context in
                let before = context.stateBefore?.taps ?? -1
                return .reduce { $0.taps += 1 }.produce { _ in .just(.loaded("counter saw \(before)")) }
            })
        let profile = BehaviorPage.Lifted(
            lifted: .react { _, context in
                let before = context.stateBefore?.taps ?? -1
                return .reduce { $0.taps *= 10 }.produce { _ in .just(.loaded("profile saw \(before)")) }
            })

        let app = Behavior.combine(counter.lifted, profile.lifted) // or counter.lifted <> profile.lifted

        for behavior in [app, counter.lifted <> profile.lifted] {
            var state = AppState(taps: 1)
            let step = behavior.step(.tap, state: &state, environment: AppEnvironment())
            #expect(state.taps == 20) // lhs then rhs
            #expect(step.effect.emittedActionValues() == [.loaded("counter saw 1"), .loaded("profile saw 1")])
        }
    }

    @Test func liftRaisesAFeatureThroughActionStateAndEnvironmentLanes() {
        let room = Behavior<RoomAction, BehaviorPage.RoomState, BehaviorPage.RoomEnv>
            .reduce { action, state in if case .joined(let name) = action { state.members.append(name) } }
            .produce { action, _ in action == .join ? Producer { ctx in .just(.joined(ctx.environment.name)) } : .doNothing }

        // Leading-dot key paths take their roots from the action's domain (`DomainAction`).
        let lifted = room.lift(.action(AppAction.prism.room).state(\.room).environment(\.roomEnv))

        var state = AppState()
        let join = lifted.step(.room(.join), state: &state, environment: AppEnvironment())
        #expect(join.effect.emittedActionValues() == [.room(.joined("lobby"))])
        _ = lifted.step(.room(.joined("lobby")), state: &state, environment: AppEnvironment())
        #expect(state.room.members == ["lobby"])
        #expect(!lifted.step(.tap, state: &state, environment: AppEnvironment()).mutated)
    }

    @Test func liftOptionalIsACompleteNoOpWhileTheFocusIsNil() {
        let dayBehavior = Behavior<AppAction, BehaviorPage.Day.State, AppEnvironment>
            .reduce { action, day in if case .loaded(let title) = action { day.title = title } }
            .produce { action, _ in action == .tap ? Producer { _ in .just(.loaded("tapped")) } : .doNothing }

        let viaScope = dayBehavior.liftOptional(.state(\AppState.currentDay)) // currentDay: DayDetail.State?
        let viaKeyPath = dayBehavior.liftOptional(\AppState.currentDay) // key-path sugar

        for lifted in [viaScope, viaKeyPath] {
            var state = AppState()
            let absent = lifted.step(.loaded("Monday"), state: &state, environment: AppEnvironment())
            #expect(!absent.mutated && absent.effect.isEmpty)
            #expect(lifted.step(.tap, state: &state, environment: AppEnvironment()).effect.isEmpty)
            state.currentDay = .init()
            let present = lifted.step(.loaded("Monday"), state: &state, environment: AppEnvironment())
            #expect(present.mutated && state.currentDay?.title == "Monday")
            #expect(lifted.step(.tap, state: &state, environment: AppEnvironment()).effect.emittedActionValues() == [.loaded("tapped")])
        }
    }

    @Test func liftCollectionRoutesAnAddressedActionToOneElement() {
        let rowBehavior = Behavior<RowAction, BehaviorPage.Row, BehaviorPage.RowEnv>
            .reduce { action, row in if action == .tick { row.ticks += 1 } }
            .produce { action, context in
                let ticks = (context.stateBefore?.ticks ?? 0) + 1
                return action == .tick ? Producer { ctx in .just(.ticked(ticks * ctx.environment.step)) } : .doNothing
            }

        let lifted = rowBehavior.liftCollection(
            .action(AppAction.prism.row).state(\.rows).environment(\.rowEnv)
        )

        var state = AppState(rows: [.init(id: 1), .init(id: 2)])
        let step = lifted.step(.row(ElementAction(2, action: .tick)), state: &state, environment: AppEnvironment())
        #expect(state.rows.map(\.ticks) == [0, 1])
        #expect(step.effect.emittedActionValues() == [.row(ElementAction(2, action: .ticked(1)))])
    }

    @Test func liftEachBroadcastsToEveryPresentElement() {
        let rowBehavior = Behavior<RowAction, BehaviorPage.Row, BehaviorPage.RowEnv>
            .reduce { action, row in if action == .tick { row.ticks += 1 } }

        let lifted = rowBehavior.liftEach(
            .action(broadcast: AppAction.prism.tickAll, into: AppAction.prism.row)
                .state(\.rows).environment(\.rowEnv)
        )

        var state = AppState(rows: [.init(id: 1), .init(id: 2), .init(id: 3)])
        #expect(lifted.step(.tickAll(.tick), state: &state, environment: AppEnvironment()).mutated)
        #expect(state.rows.map(\.ticks) == [1, 1, 1])
    }

    @Test func theRoutingBridgeDispatchesGuardsReducesAndTransforms() {
        let behavior = Behavior<AppAction, AppState, World>.identity
            // route the extracted payload to another action
            .on(.action(\.didLoad), dispatch: .action(\.renderItems))
            // + a state guard (right after the trigger — it gates dispatch and reduce)
            .on(.action(\.didTapBuy), when: { $0.isLoggedIn }, dispatch: .action(\.checkout))
            // + a co-located mutation
            .on(
                .action(\.didLoad), dispatch: .action(\.renderItems),
                reduce: { items, state in
                    state.items = items
                    state.isLoading = false
                }
            )
            // transform the payload — a trailing closure is the embed (the `review:` label is implicit)
            .on(.action(\.didSearch), dispatch: .action { AppAction.performSearch($0) })
            // react by mutating state only, no dispatch
            .on(.action(\.reset), reduce: { _, state in state = .init() })
            // a bool test with no payload → extract Void, guard, then route
            .on(
                .action { if case .submit = $0 { () } else { nil } },
                when: { !$0.isSubmitting }, dispatch: .action(\.doSubmit))

        var state = AppState(isLoading: true)
        let load = behavior.step(.didLoad(["a"]), state: &state, environment: World())
        #expect(state.items == ["a"] && !state.isLoading)
        #expect(load.effect.emittedActionValues() == [.renderItems(["a"]), .renderItems(["a"])])

        #expect(behavior.step(.didTapBuy, state: &state, environment: World()).effect.isEmpty) // not logged in
        state.isLoggedIn = true
        #expect(behavior.step(.didTapBuy, state: &state, environment: World()).effect.emittedActionValues() == [.checkout])

        #expect(behavior.step(.didSearch("swift"), state: &state, environment: World()).effect.emittedActionValues() == [.performSearch("swift")])

        #expect(behavior.step(.submit, state: &state, environment: World()).effect.emittedActionValues() == [.doSubmit])
        state.isSubmitting = true
        #expect(behavior.step(.submit, state: &state, environment: World()).effect.isEmpty)

        let reset = behavior.step(.reset, state: &state, environment: World())
        #expect(reset.effect.isEmpty && state == AppState())

        // A routing-only `.on` never touches state.
        #expect(!behavior.step(.didSearch("x"), state: &state, environment: World()).mutated)
    }
}

#endif
