// swift-format-ignore-file
// (A documentation example, kept verbatim: not reformatted.)
#if Macros || PrebuiltMacroPlugin
import Testing
import SwiftRexMacros   // SwiftRex, plus @Prisms and @Lenses (the `Macros` trait)
import SwiftRexTesting
import Synchronization

// The code of the Getting Started article (Sources/SwiftRex/Documentation.docc/Articles/
// GettingStarted.md), verbatim (types file-private here): it must compile and behave as the
// article says.
private enum CounterAction: Sendable, Equatable {
    case increment
    case decrement
    case fetchFact
    case factLoaded(String)
}

private struct CounterState: Sendable, Equatable {
    var count = 0
    var fact: String?
    var isLoading = false
}

private struct CounterEnvironment: Sendable {
    var fact: @Sendable (Int) async -> String
}

private let counter = Behavior<CounterAction, CounterState, CounterEnvironment>
    .reduce { action, state in
        switch action {
        case .increment: state.count += 1
        case .decrement: state.count -= 1
        case .fetchFact: state.isLoading = true
        case .factLoaded(let fact):
            state.fact = fact
            state.isLoading = false
        }
    }
    .produce { action, context in
        guard case .fetchFact = action, let count = context.stateBefore?.count else { return .doNothing }
        return Producer { context in
            .task(scheduling: .replacing(id: "fact")) { send in
                send(.factLoaded(await context.environment.fact(count)))
            }
        }
    }

@MainActor
private final class CounterModel {
    let store = Store(
        initial: CounterState(),
        behavior: counter,
        environment: CounterEnvironment(fact: { number in "\(number) is a number." })
    )
    private var token: SubscriptionToken?

    func start(render: @escaping @MainActor (CounterState) -> Void) {
        token = store.observe(didChange: { [store] in render(store.state) })
    }

    func tapped() {
        store.dispatch(.increment)
        store.dispatch(.fetchFact)
    }
}

private struct Todo: Sendable, Equatable, Identifiable {
    var id: Int
    var title: String
    var done = false
}

private enum TodoAction: Sendable, Equatable {
    case toggle
    case rename(String)
}

@Prisms
private enum AppAction: Sendable, Equatable {
    case counter(CounterAction)
    case todo(ElementAction<Int, TodoAction>)
    case addTodo(String)
    case signOut
}

private struct AppState: Sendable, Equatable {
    var counter = CounterState()
    var todos: IdentifiedArray<Todo> = []
    var user: String?
}

private struct AppEnvironment: Sendable {
    var counter: CounterEnvironment
}

private let todo = Reducer<TodoAction, Todo>.reduce { action, todo in
    switch action {
    case .toggle: todo.done.toggle()
    case .rename(let title): todo.title = title
    }
}

private let session = Behavior<AppAction, AppState, AppEnvironment>
    .react { action, _ in
        switch action {
        case .addTodo(let title):
            return .reduce { state in state.todos.append(Todo(id: (state.todos.last?.id ?? 0) + 1, title: title)) }
        case .signOut:
            return .reduce { state in
                state.user = nil
                state.todos.removeAll()
            }
        case .counter, .todo:
            return .doNothing
        }
    }
    .confined(to: \AppState.todos, \AppState.user)

private let app: Behavior<AppAction, AppState, AppEnvironment> = Behavior.combine(
    counter.lift(action: \AppAction.counter, state: \AppState.counter, environment: \AppEnvironment.counter),
    todo.liftCollection(.action(\.todo).state(\.todos)).asBehavior(),
    session
)

@MainActor
@Test func fetchingAFactShowsIt() async {
    let store = TestStore(
        initial: CounterState(),
        behavior: counter,
        environment: CounterEnvironment(fact: { number in "\(number) is a good number." })
    )
    store.send(.increment) { $0.count = 1 }
    store.send(.fetchFact) { $0.isLoading = true }
    await store.receive(.factLoaded("1 is a good number.")) {
        $0.fact = "1 is a good number."
        $0.isLoading = false
    }
    await store.finish()
}

@MainActor
@Suite struct GettingStartedTests {
    @Test func theModelRendersEveryChange() async {
        let model = CounterModel()
        var rendered: [CounterState] = []
        model.start { rendered.append($0) }
        model.tapped()
        #expect(await eventually { model.store.state.fact == "1 is a number." })
        #expect(rendered.map(\.count) == [1, 1, 1])
        #expect(rendered.last?.isLoading == false)
    }

    @Test func theLiftedCounterIgnoresOtherActions() {
        let store = Store(
            initial: AppState(user: "ana"),
            behavior: app,
            environment: AppEnvironment(counter: CounterEnvironment(fact: { _ in "" }))
        )
        var counts: [Int] = []
        let token = store.observe(changesOf: \.counter.count) { counts.append($0) }
        store.dispatch(.counter(.increment))
        store.dispatch(.signOut)
        #expect(counts == [1])
        #expect(store.state.user == nil)
        _ = token
    }

    @Test func todosAreAddedAddressedByIDAndClearedOnSignOut() async {
        let store = TestStore(
            initial: AppState(user: "ana"),
            behavior: app,
            environment: AppEnvironment(counter: CounterEnvironment(fact: { _ in "" }))
        )
        store.send(.addTodo("milk")) { $0.todos.append(Todo(id: 1, title: "milk")) }
        store.send(.addTodo("bread")) { $0.todos.append(Todo(id: 2, title: "bread")) }
        store.send(.todo(ElementAction(2, action: .toggle))) { $0.todos[id: 2]?.done = true }
        store.send(.todo(ElementAction(1, action: .rename("oat milk")))) { $0.todos[id: 1]?.title = "oat milk" }
        store.send(.signOut) {
            $0.user = nil
            $0.todos.removeAll()
        }
        await store.finish()
    }

    @Test func anActionForAnotherCaseIsUnchangedForTheLiftedFeatures() {
        let store = Store(
            initial: AppState(),
            behavior: app,
            environment: AppEnvironment(counter: CounterEnvironment(fact: { _ in "" }))
        )
        var notified = 0
        let token = store.observe(didChange: { notified += 1 })
        let diagnostics = Mutex<[StoreDiagnostic.Kind]>([])
        DiagnosticOverride.$handler.withValue({ diagnostic in diagnostics.withLock { $0.append(diagnostic.kind) } }) {
            store.dispatch(.todo(ElementAction(404, action: .toggle)))  // no todo 404: nothing applies
        }
        #expect(notified == 0)
        #expect(diagnostics.withLock { $0 } == [.missingElement])
        store.dispatch(.addTodo("milk"))
        #expect(notified == 1)
        _ = token
    }
}
#endif
