#if Macros || PrebuiltMacroPlugin
import SwiftRexMacros
import SwiftRexTestSupport
import Testing

// The code examples of SwiftRex's Lifting Features documentation page, as written, each with the outcome the page states.
// Leading-dot key paths (`.state(\.auth)`, `.environment(\.todoEnv)`) take their roots from the
// app's action, which names its state and environment (`DomainAction`, in the fixtures); an
// example printed as a bare expression is bound to an unannotated local.

private enum LiftingPage {
    enum CounterAction: Sendable, Equatable { case increment }
    enum SearchAction: Sendable, Equatable {
        case query(String)
        case results([String])
    }
    enum AuthAction: Sendable, Equatable { case login(String) }
    enum TodoAction: Sendable, Equatable { case toggleDone, tick }
    enum ConfigAction: Sendable, Equatable { case set(Bool) }

    @Prisms
    enum AppAction: Sendable, Equatable {
        case counter(CounterAction)
        case search(SearchAction)
        case auth(AuthAction)
        case todo(ElementAction<Int, TodoAction>)
        case cfg(ElementAction<String, ConfigAction>)
        case tickAll(TodoAction)
    }

    struct SearchState: Sendable, Equatable {
        var query = ""
        var results: [String] = []
    }
    struct AuthState: Sendable, Equatable { var user: String? }
    struct Todo: Sendable, Equatable, Identifiable {
        var id: Int
        var slug: Int
        var done = false
        var ticks = 0
    }
    struct Config: Sendable, Equatable { var enabled = false }
    enum DayDetail { struct State: Sendable, Equatable { var visits = 0 } }
    struct Piece: Sendable, Equatable { var value = 0 }
    struct Something: Sendable, Equatable { var piece = Piece() }

    struct AppState: Sendable, Equatable {
        var counter = 0
        var search = SearchState()
        var auth = AuthState()
        var todos: [Todo] = []
        var configs: [String: Config] = [:]
        var currentDay: DayDetail.State?
        var something = Something()
    }

    struct SearchAPI: Sendable { func find(_ query: String) -> [String] { [query + "!"] } }
    struct AuthEnvironment: Sendable { var greeting = "hi" }
    struct TodoEnvironment: Sendable { var step = 1 }

    struct AppEnvironment: Sendable {
        var searchAPI = SearchAPI()
        var auth = AuthEnvironment()
        var todoEnv = TodoEnvironment()
    }

    static let counterReducer = Reducer<CounterAction, Int>.reduce { action, state in
        switch action {
        case .increment: state += 1
        }
    }

    static let searchBehavior = Behavior<SearchAction, SearchState, SearchAPI>
        .reduce { action, state in
            switch action {
            case .query(let query): state.query = query
            case .results(let results): state.results = results
            }
        }
        .produce { action, _ in
            guard case .query(let query) = action else { return .doNothing }
            return Producer { ctx in .just(.results(ctx.environment.find(query))) }
        }

    static let authBehavior = Behavior<AuthAction, AuthState, AuthEnvironment>.reduce { action, state in
        switch action {
        case .login(let user): state.user = user
        }
    }

    static let todoBehavior = Behavior<TodoAction, Todo, TodoEnvironment>.reduce { action, todo in
        switch action {
        case .toggleDone: todo.done.toggle()
        case .tick: todo.ticks += 1
        }
    }

    static let todoReducer = Reducer<TodoAction, Todo>.reduce { action, todo in
        switch action {
        case .toggleDone: todo.done.toggle()
        case .tick: todo.ticks += 1
        }
    }

    static let configBehavior = Behavior<ConfigAction, Config, TodoEnvironment>.reduce { action, config in
        switch action {
        case .set(let enabled): config.enabled = enabled
        }
    }

    static let dayBehavior = Behavior<AppAction, DayDetail.State, Void>.reduce { _, day in day.visits += 1 }
}

private typealias AppAction = LiftingPage.AppAction
extension LiftingPage.AppAction: DomainAction {
    fileprivate typealias DomainState = LiftingPage.AppState
    fileprivate typealias DomainEnvironment = LiftingPage.AppEnvironment
}
private typealias AppState = LiftingPage.AppState
private typealias AppEnvironment = LiftingPage.AppEnvironment
private typealias Piece = LiftingPage.Piece
private typealias AppBehavior = Behavior<AppAction, AppState, AppEnvironment>

@MainActor
@Suite struct LiftingPageTests {
    @Test func aReducerLiftsThroughACaseKeyPathAndAStateKeyPath() {
        let counterReducer = LiftingPage.counterReducer

        // counterReducer:  Reducer<CounterAction, Int>
        // lifted:          Reducer<AppAction, AppState>
        let lifted = counterReducer.lift(
            action: \AppAction.counter, // narrow the action
            state: \AppState.counter // focus the state
        )

        var state = AppState()
        lifted.apply(.counter(.increment), to: &state)
        #expect(state.counter == 1)
        #expect(!lifted.willMutate(.auth(.login("x")), in: state)) // skipped when the case doesn't match
    }

    @Test func aBehaviorLiftsAllThreeAxes() {
        let searchBehavior = LiftingPage.searchBehavior

        let lifted = searchBehavior.lift(
            action: \AppAction.search,
            state: \AppState.search,
            environment: \AppEnvironment.searchAPI
        )

        var state = AppState()
        let step = lifted.step(.search(.query("swift")), state: &state, environment: AppEnvironment())
        #expect(state.search.query == "swift")
        #expect(step.effect.emittedActionValues() == [.search(.results(["swift!"]))])
        #expect(!lifted.step(.counter(.increment), state: &state, environment: AppEnvironment()).mutated)
    }

    @Test func closuresAreTheEscapeHatchForEveryOptic() {
        // The page lists the three as bare expressions; here each is passed where it is used.
        let piece = Behavior<AppAction, Piece, Void>.reduce { action, piece in if case .counter = action { piece.value += 1 } }
        let lifted = piece.lift(
            .state(
                get: { (global: AppState) -> Piece in global.something.piece }, // get
                set: { (global: inout AppState, new: Piece) -> Void in global.something.piece = new } // set
            ))
        let embed: (LiftingPage.CounterAction) -> AppAction = AppAction.counter
        var state = AppState()
        _ = lifted.step(.counter(.increment), state: &state, environment: ())
        #expect(state.something.piece.value == 1)
        #expect(embed(.increment) == .counter(.increment))
    }

    @Test func liftOptionalRunsOnlyWhileTheFocusIsPresent() {
        let dayBehavior = LiftingPage.dayBehavior

        let lifted = dayBehavior.liftOptional(.state(\AppState.currentDay))

        var state = AppState()
        #expect(!lifted.step(.counter(.increment), state: &state, environment: ()).mutated)
        state.currentDay = .init()
        _ = lifted.step(.counter(.increment), state: &state, environment: ())
        #expect(state.currentDay?.visits == 1)
    }

    @Test func liftCollectionLocatesByIdCustomKeyPositionOrDictionaryKey() {
        let todoBehavior = LiftingPage.todoBehavior
        let configBehavior = LiftingPage.configBehavior
        let todos = [LiftingPage.Todo(id: 10, slug: 7), .init(id: 20, slug: 8)]

        let byID = todoBehavior.liftCollection(.action(AppAction.prism.todo).state(\AppState.todos).environment(\.todoEnv))
        let bySlug = todoBehavior.liftCollection(
            .action(AppAction.prism.todo).state(\AppState.todos, id: \.slug).environment(\.todoEnv)) // custom id
        let byPosition = todoBehavior.liftCollection(
            .action(AppAction.prism.todo).state(indexed: \AppState.todos).environment(\.todoEnv)) // by position
        let byKey = configBehavior.liftCollection(
            .action(AppAction.prism.cfg).state(dictionary: \AppState.configs).environment(\.todoEnv)) // dictionary

        for (lifted, address) in [(byID, 20), (bySlug, 8), (byPosition, 1)] {
            var state = AppState(todos: todos)
            // dispatch:  store.dispatch(.todo(ElementAction(todo.id, action: .toggleDone)))
            _ = lifted.step(.todo(ElementAction(address, action: .toggleDone)), state: &state, environment: AppEnvironment())
            #expect(state.todos.map(\.done) == [false, true])
        }
        var state = AppState(configs: ["a": .init(), "b": .init()])
        _ = byKey.step(.cfg(ElementAction("b", action: .set(true))), state: &state, environment: AppEnvironment())
        #expect(state.configs == ["a": .init(), "b": .init(enabled: true)])
    }

    @Test func theCollectionLanesAlsoTakeAnIdClosureAndALensContainer() {
        let todoBehavior = LiftingPage.todoBehavior
        let todosLens = Lens(\AppState.todos)
        let byClosure: AppBehavior = todoBehavior.liftCollection(
            .action(AppAction.prism.todo).state(\AppState.todos, id: { $0.slug }).environment(\.todoEnv))
        let byLens: AppBehavior = todoBehavior.liftCollection(.action(\.todo).state(todosLens).environment(\.todoEnv))
        let eachByLens: AppBehavior = todoBehavior.liftEach(
            .action(broadcast: \.tickAll, into: \.todo).state(todosLens, id: { $0.slug }).environment(\.todoEnv))

        var state = AppState(todos: [.init(id: 10, slug: 7), .init(id: 20, slug: 8)])
        _ = byClosure.step(.todo(ElementAction(8, action: .toggleDone)), state: &state, environment: AppEnvironment())
        _ = byLens.step(.todo(ElementAction(10, action: .toggleDone)), state: &state, environment: AppEnvironment())
        _ = eachByLens.step(.tickAll(.tick), state: &state, environment: AppEnvironment())
        #expect(state.todos.map(\.done) == [true, true])
        #expect(state.todos.map(\.ticks) == [1, 1])
    }

    @Test func liftEachBroadcastsOneActionToEveryElement() {
        let todoBehavior = LiftingPage.todoBehavior

        let lifted = todoBehavior.liftEach(
            .action(broadcast: AppAction.prism.tickAll, into: AppAction.prism.todo).state(\AppState.todos).environment(\.todoEnv))

        var state = AppState(todos: [.init(id: 1, slug: 1), .init(id: 2, slug: 2)])
        _ = lifted.step(.tickAll(.tick), state: &state, environment: AppEnvironment())
        #expect(state.todos.map(\.ticks) == [1, 1])
    }

    @Test func puttingItTogetherIndependentFeaturesMeetAtTheStore() {
        let authBehavior = LiftingPage.authBehavior
        let searchBehavior = LiftingPage.searchBehavior
        let todoReducer = LiftingPage.todoReducer
        let appEnv = AppEnvironment()

        let app = Behavior.combine(
            authBehavior.lift(.action(AppAction.prism.auth).state(\.auth).environment(\.auth)),
            searchBehavior.lift(.action(AppAction.prism.search).state(\.search).environment(\.searchAPI)),
            todoReducer.liftCollection(.action(AppAction.prism.todo).state(\.todos)).asBehavior()
        )
        let store = Store(initial: .init(), behavior: app, environment: appEnv)

        store.dispatch(.auth(.login("ada")))
        store.dispatch(.search(.query("swift")))
        #expect(store.state.auth.user == "ada")
        #expect(store.state.search.query == "swift")
    }

    @Test func aBareCaseKeyPathInfersItsRootWhereverTheHostsGlobalTypesAreKnown() {
        let authBehavior = LiftingPage.authBehavior
        let searchBehavior = LiftingPage.searchBehavior

        // In a store's init, …
        let store = Store<AppAction, AppState, AppEnvironment>(
            initial: AppState(), behavior: authBehavior.lift(.action(\.auth).state(\.auth).environment(\.auth)), environment: AppEnvironment())
        store.dispatch(.auth(.login("ada")))
        #expect(store.state.auth.user == "ada")
        // … a projection, …
        let search = store.projection(action: \.search, state: \.search)
        #expect(search.state == LiftingPage.SearchState())
        // … a function's return, …
        func lifted() -> AppBehavior { searchBehavior.lift(.action(\.search).state(\.search).environment(\.searchAPI)) }
        // … and inlined into `Behavior.combine(…)` at known global types.
        let app: AppBehavior = Behavior.combine(
            authBehavior.lift(.action(\.auth).state(\.auth).environment(\.auth)),
            lifted()
        )
        var state = AppState()
        _ = app.step(.search(.query("swift")), state: &state, environment: AppEnvironment())
        #expect(state.search.query == "swift")
    }
}
#endif
