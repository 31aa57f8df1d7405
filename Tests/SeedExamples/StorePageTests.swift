#if Macros || PrebuiltMacroPlugin
import SwiftRexMacros
import Testing

// The code examples of SwiftRex's Store documentation page, as written, each with the outcome the page states. The
// `withAnimation { store.dispatch(...) }` line is SwiftUI's and out of scope.

private enum StorePage {
    enum CounterAction: Sendable { case increment }
    struct CounterState: Sendable, Equatable { var count = 0 }

    @Prisms
    enum AppAction: Sendable, Equatable {
        case rename(String)
        case renamed(String)
    }

    struct AppState: Sendable, Equatable {
        var name = ""
        var log: [String] = []

        static let initial = AppState(name: "initial")
    }

    struct AppEnvironment: Sendable {
        var suffix: String

        static let live = AppEnvironment(suffix: "!")
    }

    static let appBehavior = Behavior<AppAction, AppState, AppEnvironment>
        .reduce { action, state in
            switch action {
            case .rename(let name): state.name = name
            case .renamed(let name): state.log.append(name)
            }
        }
        .produce { action, _ in
            guard case .rename(let name) = action else { return .doNothing }
            return Producer { ctx in .just(.renamed(name + ctx.environment.suffix)) }
        }

    static let counterReducer = Reducer<CounterAction, CounterState>.reduce { action, state in
        switch action {
        case .increment: state.count += 1
        }
    }

    static let appReducer = Reducer<AppAction, AppState>.reduce { action, state in
        if case .rename(let name) = action { state.name = name }
    }

    static let appMiddleware = Middleware<AppAction, AppState, AppEnvironment>.produce { action, _ in
        guard case .rename(let name) = action else { return .doNothing }
        return Producer { ctx in .just(.renamed(name + ctx.environment.suffix)) }
    }
}

private typealias AppState = StorePage.AppState
private typealias AppEnvironment = StorePage.AppEnvironment
private typealias CounterState = StorePage.CounterState

@MainActor
@Suite struct StorePageTests {
    /// Waits (bounded) for the store's effects to bring `condition` about.
    func eventually(_ condition: () -> Bool) async -> Bool {
        for _ in 0..<1_000 where !condition() { await Task.yield() }
        return condition()
    }

    @Test func theFullFormRunsABehaviorWithAnEnvironment() async {
        let appBehavior = StorePage.appBehavior

        // Full form: custom Behavior, any Environment
        let store = Store(
            initial: AppState.initial,
            behavior: appBehavior,
            environment: AppEnvironment.live
        )

        #expect(store.state.name == "initial")
        store.dispatch(.rename("ada"))
        #expect(store.state.name == "ada") // mutated synchronously, in the dispatch
        #expect(await eventually { store.state.log == ["ada!"] }) // the effect's action comes back later
    }

    @Test func theReducerOnlyFormHasNoEnvironmentAndNoEffects() {
        let counterReducer = StorePage.counterReducer

        // Reducer only (Environment == Void, no side effects)
        let store = Store(
            initial: CounterState(),
            reducer: counterReducer
        )

        store.dispatch(.increment)
        #expect(store.state.count == 1)
    }

    @Test func theReducerAndMiddlewareAreComposedInternally() {
        let appReducer = StorePage.appReducer
        let appMiddleware = StorePage.appMiddleware

        // Separate Reducer + Middleware (composed internally)
        let store = Store(
            initial: AppState.initial,
            reducer: appReducer,
            middleware: appMiddleware,
            environment: AppEnvironment.live
        )

        var changes = 0
        let token = store.observe(didChange: { changes += 1 })
        store.dispatch(.rename("ada"))
        #expect(store.state.name == "ada" && changes == 1)
        _ = token
    }

    @Test func creatingOneWithAnEnvironmentValue() async {
        let appBehavior = StorePage.appBehavior
        let env = AppEnvironment(suffix: "?")

        let store = Store(initial: AppState(), behavior: appBehavior, environment: env)

        var changes = 0
        let token = store.observe(didChange: { changes += 1 })
        store.dispatch(.rename("ada"))
        #expect(changes == 1)
        #expect(await eventually { store.state.log == ["ada?"] })
        _ = token
    }

    @Test func aProjectionNarrowsTheStoreForAView() {
        let store = Store(initial: AppState(), behavior: StorePage.appBehavior, environment: AppEnvironment.live)
        let name = store.projection(action: \.rename, state: \.name)
        name.dispatch("grace")
        #expect(name.state == "grace")
    }
}
#endif
