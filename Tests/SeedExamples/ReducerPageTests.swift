#if Macros || PrebuiltMacroPlugin
import SwiftRexMacros
import Testing

// The code examples of SwiftRex's Reducer documentation page, as written (a `/* … */` placeholder is filled with the
// smallest body that shows the stated point), each with the outcome the page states.

private enum ReducerPage {
    enum CounterAction: Sendable { case increment, decrement, reset }
    enum ToggleAction: Sendable { case toggle }
    enum MyAction: Sendable { case double, clear }
    struct MyState: Sendable, Equatable { var items: [Int] = [1, 2] }

    enum AuthAction: Sendable {
        case login(String)
        case logout
    }
    enum ProfileAction: Sendable { case rename(String) }
    enum ItemAction: Sendable { case toggle }

    struct AuthState: Sendable, Equatable { var user: String? }
    struct ProfileState: Sendable, Equatable { var name = "" }
    struct Item: Sendable, Equatable, Identifiable {
        var id: Int
        var done = false
    }

    @Prisms
    enum AppAction: Sendable {
        case auth(AuthAction)
        case profile(ProfileAction)
        case row(ElementAction<Int, ItemAction>)
    }

    struct AppState: Sendable, Equatable {
        var authState = AuthState()
        var profileState = ProfileState()
        var rows: [Item] = []
    }

    static let authReducer = Reducer<AuthAction, AuthState>.reduce { action, state in
        switch action {
        case .login(let user): state.user = user
        case .logout: state.user = nil
        }
    }

    static let profileReducer = Reducer<ProfileAction, ProfileState>.reduce { action, state in
        switch action {
        case .rename(let name): state.name = name
        }
    }

    static let itemReducer = Reducer<ItemAction, Item>.reduce { action, item in
        switch action {
        case .toggle: item.done.toggle()
        }
    }
}

private typealias CounterAction = ReducerPage.CounterAction
private typealias ToggleAction = ReducerPage.ToggleAction
private typealias MyAction = ReducerPage.MyAction
private typealias MyState = ReducerPage.MyState
private typealias AppAction = ReducerPage.AppAction
extension ReducerPage.AppAction: DomainAction {
    fileprivate typealias DomainState = ReducerPage.AppState
}
private typealias AppState = ReducerPage.AppState

@MainActor
@Suite struct ReducerPageTests {
    @Test func theFourFactoriesBuildReducers() {
        // 1. Idiomatic Swift — direct inout mutation (preferred for leaf reducers)
        let counter = Reducer<CounterAction, Int>.reduce { action, state in
            switch action {
            case .increment: state += 1
            case .decrement: state -= 1
            case .reset: state = 0
            }
        }

        // 2. From a pure (Action, State) -> State function
        let toggle = Reducer<ToggleAction, Bool>.reduce { action, state in
            switch action {
            case .toggle: !state
            }
        }

        // 3. From (Action) -> EndoMut<State> — for low-level composition
        let raw = Reducer<MyAction, MyState>.reduce { action in
            EndoMut { state in if case .double = action { state.items = state.items.map { $0 * 2 } } else { state.items = [] } }
        }

        // 4. From (Action) -> Endo<State> — when the new state is a pure function
        let endo = Reducer<MyAction, MyState>.reduce { action in
            Endo { state in if case .double = action { MyState(items: state.items.map { $0 * 2 }) } else { MyState(items: []) } }
        }

        var count = 0
        for action in [CounterAction.increment, .increment, .decrement] { counter.apply(action, to: &count) }
        #expect(count == 1)
        counter.apply(.reset, to: &count)
        #expect(count == 0)

        var flag = false
        toggle.apply(.toggle, to: &flag)
        #expect(flag)

        // "they all build the same value"
        for actions in [[MyAction.double], [.double, .double], [.clear, .double]] {
            var viaEndoMut = MyState()
            var viaEndo = MyState()
            for action in actions {
                raw.apply(action, to: &viaEndoMut)
                endo.apply(action, to: &viaEndo)
            }
            #expect(viaEndoMut == viaEndo)
        }
    }

    @Test func theReducerBuilderComposesLiftedReducersAtTheAnnotatedTypes() {
        let authReducer = ReducerPage.authReducer
        let profileReducer = ReducerPage.profileReducer

        let appReducer: Reducer<AppAction, AppState> = Reducer.compose {
            authReducer.lift(.action(AppAction.prism.auth).state(\.authState))
            profileReducer.lift(.action(AppAction.prism.profile).state(\.profileState))
        }

        var state = AppState()
        appReducer.apply(.auth(.login("ada")), to: &state)
        appReducer.apply(.profile(.rename("Ada L.")), to: &state)
        #expect(state.authState.user == "ada")
        #expect(state.profileState.name == "Ada L.")
        // A lifted reducer whose prism misses does not mutate: the action nobody reduces is `.unchanged`.
        #expect(!authReducer.lift(.action(AppAction.prism.auth).state(\AppState.authState)).willMutate(.profile(.rename("x")), in: state))
    }

    @Test func composeRunsInOrderAndTheLaterReducerSeesTheMutation() {
        struct History: Sendable, Equatable {
            var count = 0
            var history: [Int] = []
        }
        let counterReducer = Reducer<CounterAction, History>.reduce { action, state in
            switch action {
            case .increment: state.count += 1
            case .decrement: state.count -= 1
            case .reset: state.count = 0
            }
        }
        let historyReducer = Reducer<CounterAction, History>.reduce { _, state in state.history.append(state.count) }

        let app = Reducer.compose {
            counterReducer
            historyReducer // runs after counterReducer, sees its mutation
        }

        var state = History()
        for action in [CounterAction.increment, .increment, .reset] { app.apply(action, to: &state) }
        #expect(state == History(count: 0, history: [1, 2, 0]))
    }

    @Test func liftCollectionRoutesToTheAddressedElement() {
        let itemReducer = ReducerPage.itemReducer

        let app = itemReducer.liftCollection(.action(AppAction.prism.row).state(\.rows))
        let store = Store(initial: AppState(rows: [.init(id: 1), .init(id: 2)]), reducer: app)

        store.dispatch(.row(ElementAction(2, action: .toggle)))
        #expect(store.state.rows.map(\.done) == [false, true])
    }

    @Test func aReducerBecomesABehaviorWithAnAlwaysEmptyEffect() {
        let counter = Reducer<CounterAction, Int>.reduce { action, state in if case .increment = action { state += 1 } }
        let behavior = counter.asBehavior()
        var state = 0
        let step = behavior.step(.increment, state: &state, environment: ())
        #expect(state == 1 && step.mutated && step.effect.isEmpty)
    }
}
#endif
