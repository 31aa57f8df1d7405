import SwiftRex
import SwiftRexTestSupport
import Synchronization
import Testing

/// The code examples of the Reducer, Behavior and Middleware seed pages, written out with plain
/// values (no macros, no `\.case` paths, companion `asEffect()` replaced by a plain `Effect`),
/// compile and behave as the pages say. Lifting and the Store are covered elsewhere.
@MainActor
@Suite struct SeedExampleTests {
    // MARK: Reducer page

    enum CounterAction: Sendable { case increment, decrement, reset }
    enum ToggleAction: Sendable { case toggle }
    enum MyAction: Sendable { case double, clear }
    struct MyState: Sendable, Equatable { var items: [Int] = [1, 2] }

    static let counter = Reducer<CounterAction, Int>.reduce { action, state in
        switch action {
        case .increment: state += 1
        case .decrement: state -= 1
        case .reset:     state  = 0
        }
    }

    static let toggle = Reducer<ToggleAction, Bool>.reduce { action, state in
        switch action {
        case .toggle: !state
        }
    }

    static let raw = Reducer<MyAction, MyState>.reduce { action in
        EndoMut { state in
            switch action {
            case .double: state.items = state.items.map { $0 * 2 }
            case .clear: state.items.removeAll()
            }
        }
    }

    static let endo = Reducer<MyAction, MyState>.reduce { action in
        Endo { state in
            switch action {
            case .double: MyState(items: state.items.map { $0 * 2 })
            case .clear: MyState(items: [])
            }
        }
    }

    @Test func theInoutCounterFactoryReduces() {
        var state = 0
        for action in [CounterAction.increment, .increment, .decrement] { Self.counter.apply(action, to: &state) }
        #expect(state == 1)
        Self.counter.reduce(.reset).runEndoMut(&state)
        #expect(state == 0)
    }

    @Test func thePureReturnToggleFactoryReduces() {
        var state = false
        Self.toggle.apply(.toggle, to: &state)
        #expect(state)
        Self.toggle.apply(.toggle, to: &state)
        #expect(!state)
    }

    @Test func theEndoMutAndEndoFactoriesBuildTheSameReducer() {
        for actions in [[MyAction.double], [.double, .double], [.clear, .double]] {
            var viaEndoMut = MyState()
            var viaEndo = MyState()
            for action in actions {
                Self.raw.apply(action, to: &viaEndoMut)
                Self.endo.apply(action, to: &viaEndo)
            }
            #expect(viaEndoMut == viaEndo)
        }
        var state = MyState()
        Self.raw.apply(.double, to: &state)
        #expect(state.items == [2, 4])
    }

    struct History: Sendable, Equatable {
        var count = 0
        var history: [Int] = []
    }

    @Test func composeRunsInOrderAndTheLaterReducerSeesTheEarlierMutation() {
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
            historyReducer            // runs after counterReducer, sees its mutation
        }
        var state = History()
        app.apply(.increment, to: &state)
        app.apply(.increment, to: &state)
        app.apply(.reset, to: &state)
        #expect(state == History(count: 0, history: [1, 2, 0]))
    }

    @Test func combineRunsLhsThenRhsOnTheSameState() {
        let appendA = Reducer<CounterAction, [String]>.reduce { _, state in state.append("a") }
        let appendCount = Reducer<CounterAction, [String]>.reduce { _, state in state.append("\(state.count)") }
        var state: [String] = []
        Reducer.combine(appendA, appendCount).apply(.increment, to: &state)
        #expect(state == ["a", "1"])
    }

    @Test func aReducerBecomesABehaviorWithAnAlwaysEmptyEffect() {
        let counter: Behavior<CounterAction, Int, Void> = Self.counter.asBehavior()
        var state = 0
        let step = counter.step(.increment, state: &state, environment: ())
        #expect(state == 1)
        #expect(step.mutated)
        #expect(step.effect.isEmpty)
    }

    // MARK: Behavior page

    enum AppAction: Sendable, Equatable {
        case load(Int)
        case loaded(String)
        case tap
        case login(String)
        case loggedIn(String)
        case feed(Int)
    }

    struct AppState: Sendable, Equatable {
        var isLoading = false
        var item: String?
        var taps = 0
        var user: String?
        var isLive = false
    }

    struct API: Sendable {
        var fetch: @Sendable (Int) -> Effect<AppAction>
    }

    struct AppEnvironment: Sendable {
        var api = API { id in .just(.loaded("item \(id)")) }
        var feedName = "feed"

        func feed() -> Channel<AppAction> {
            Channel(id: feedName) { dispatch in
                dispatch(.feed(1))
                return .cancelOnly {}
            }
        }
    }

    typealias AppBehavior = Behavior<AppAction, AppState, AppEnvironment>

    @Test func theGroupedReactLoaderMutatesAndProduces() {
        let loader = AppBehavior.react { action, _ in
            guard case .load(let id) = action else { return .doNothing }
            return .reduce  { $0.isLoading = true }
                   .produce { ctx in ctx.environment.api.fetch(id) }
        }
        var state = AppState()
        let step = loader.step(.load(7), state: &state, environment: AppEnvironment())
        #expect(state.isLoading)
        #expect(step.mutated)
        #expect(step.effect.emittedActionValues() == [.loaded("item 7")])

        let ignored = loader.step(.tap, state: &state, environment: AppEnvironment())
        #expect(!ignored.mutated)
        #expect(ignored.effect.isEmpty)
    }

    @Test func theFluentFeatureReducesProducesAndSupervises() {
        let feature = AppBehavior
            .reduce    { action, state in if case .tap = action { state.taps += 1 } }
            .produce   { action, _ in
                guard case .load(let id) = action else { return .doNothing }
                return Reader { c in c.environment.api.fetch(id) }
            }
            .supervise { state in Supervision { env in state.isLive ? [env.feed()] : [] } }
        var state = AppState()
        let tap = feature.step(.tap, state: &state, environment: AppEnvironment())
        #expect(state.taps == 1)
        #expect(tap.effect.isEmpty)
        let load = feature.step(.load(2), state: &state, environment: AppEnvironment())
        #expect(load.effect.emittedActionValues() == [.loaded("item 2")])
        #expect(feature.supervises)
        #expect(feature.supervisor?(state).channelIdentities(AppEnvironment()).isEmpty == true)
        state.isLive = true
        let keep = feature.supervisor?(state).runReader(AppEnvironment()) ?? []
        #expect(keep.map(\.id) == [AnyHashableSendable("feed")])
        #expect(keep.flatMap { Effect.open($0).emittedActionValues() } == [.feed(1)])
    }

    @Test func theReactionChainReadsEitherWay() {
        let produceThenReduce = AppBehavior.react { _, _ in
            Reaction.produce { _ in .just(.tap) }.reduce { $0.taps += 1 }
        }
        let reduceThenProduce = AppBehavior.react { _, _ in
            Reaction.reduce { $0.taps += 1 }.produce { _ in .just(.tap) }
        }
        for behavior in [produceThenReduce, reduceThenProduce] {
            var state = AppState()
            let step = behavior.step(.tap, state: &state, environment: AppEnvironment())
            #expect(state.taps == 1)
            #expect(step.effect.emittedActionValues() == [.tap])
        }
    }

    @Test func behaviorFromReducerAndMiddlewarePairsTheAxes() {
        let authReducer = Reducer<AppAction, AppState>.reduce { action, state in
            if case .loggedIn(let user) = action { state.user = user }
        }
        let authMiddleware = Middleware<AppAction, AppState, AppEnvironment>.produce { action, _ in
            guard case .login(let user) = action else { return .doNothing }
            return Producer { _ in .just(.loggedIn(user)) }
        }
        let auth = AppBehavior(reducer: authReducer, middleware: authMiddleware)
        var state = AppState()
        let login = auth.step(.login("ada"), state: &state, environment: AppEnvironment())
        #expect(login.effect.emittedActionValues() == [.loggedIn("ada")])
        for action in login.effect.emittedActionValues() { _ = auth.step(action, state: &state, environment: AppEnvironment()) }
        #expect(state.user == "ada")
    }

    @Test func combiningBehaviorsGivesBothTheSamePreMutationView() {
        let counter = AppBehavior.react { _, context in
            let before = context.stateBefore?.taps ?? -1
            return .reduce { $0.taps += 1 }.produce { _ in .just(.feed(before)) }
        }
        let profile = AppBehavior.react { _, context in
            let before = context.stateBefore?.taps ?? -1
            return .reduce { $0.taps *= 10 }.produce { _ in .just(.feed(before)) }
        }
        for app in [AppBehavior.combine(counter, profile), counter <> profile] {
            var state = AppState(taps: 1)
            let step = app.step(.tap, state: &state, environment: AppEnvironment())
            #expect(state.taps == 20)  // mutations sequence: lhs then rhs
            #expect(step.effect.emittedActionValues() == [.feed(1), .feed(1)])  // both saw the same state
        }
    }

    // MARK: Middleware page

    enum SearchAction: Sendable, Equatable {
        case search(String)
        case results([String])
        case tick
    }

    struct SearchState: Sendable, Equatable {
        var isConnected = false
        var draft = ""
    }

    struct SearchAPI: Sendable {
        func search(_ query: String) -> Effect<[String]> { .just([query, query.uppercased()]) }

        func makeFeedChannel() -> Channel<SearchAction> {
            Channel(id: "feed") { dispatch in
                dispatch(.tick)
                return .cancelOnly {}
            }
        }
    }

    static func run<A: Sendable, S: Sendable, E: Sendable>(_ middleware: Middleware<A, S, E>, _ action: A, before: S, after: S, environment: E) -> Effect<A> {
        let pre = PreReducerContext<S>(source: ActionSource(), stateBefore: { before })
        let producer = middleware.handle(action, pre)
        return producer.runReader(PostReducerContext(environment: environment, liveState: { after }))
    }

    @Test func theSearchMiddlewareProducesAndSupervises() {
        let search = Middleware<SearchAction, SearchState, SearchAPI>
            .produce { action, _ in
                guard case .search(let query) = action else { return .doNothing }
                return Producer { ctx in ctx.environment.search(query).map(SearchAction.results) }
            }
            .supervise { state in
                Supervision { env in state.isConnected ? [env.makeFeedChannel()] : [] }
            }
        let state = SearchState()
        let effect = Self.run(search, .search("swift"), before: state, after: state, environment: SearchAPI())
        #expect(effect.emittedActionValues() == [.results(["swift", "SWIFT"])])
        #expect(Self.run(search, .tick, before: state, after: state, environment: SearchAPI()).isEmpty)
        #expect(search.supervisor?(state).runReader(SearchAPI()).isEmpty == true)
        let connected = SearchState(isConnected: true)
        let keep = search.supervisor?(connected).runReader(SearchAPI()) ?? []
        #expect(keep.map(\.id) == [AnyHashableSendable("feed")])
    }

    final class Logger: Sendable {
        private let lines = Mutex<[String]>([])

        func log(_ action: SearchAction, before: SearchState?) {
            lines.withLock { $0.append("\(action) before: \(before?.draft ?? "nil")") }
        }

        var entries: [String] { lines.withLock { $0 } }
    }

    @Test func theLoggerCopiesStateBeforeIntoALocalForPhaseThree() {
        let logger = Middleware<SearchAction, SearchState, Logger>.handle { action, context in
            let before = context.stateBefore                    // phase 1 — pre-mutation
            return Producer { ctx in
                ctx.environment.log(action, before: before)     // phase 3 — runs with the environment
                return .empty
            }
        }
        let sink = Logger()
        let effect = Self.run(logger, .tick, before: SearchState(draft: "old"), after: SearchState(draft: "new"), environment: sink)
        #expect(effect.isEmpty)
        #expect(sink.entries == ["tick before: old"])
    }

    @Test func theLoggerWorksInsideABehaviorWithAReducer() {
        let draft = Reducer<SearchAction, SearchState>.reduce { action, state in
            if case .search(let query) = action { state.draft = query }
        }
        let logger = Middleware<SearchAction, SearchState, Logger>.handle { action, context in
            let before = context.stateBefore
            return Producer { ctx in
                ctx.environment.log(action, before: before)
                return .empty
            }
        }
        let sink = Logger()
        var state = SearchState(draft: "a")
        let step = Behavior(reducer: draft, middleware: logger).step(.search("b"), state: &state, environment: sink)
        #expect(step.mutated)
        #expect(state.draft == "b")
        #expect(sink.entries == ["search(\"b\") before: a"])
    }

    @Test func middlewareAsBehaviorNeverMutatesAndCarriesItsSupervision() {
        let middleware = Middleware<SearchAction, SearchState, SearchAPI>
            .produce { _, _ in Producer { _ in .just(.tick) } }
            .supervise { _ in Supervision { env in [env.makeFeedChannel()] } }
        let behavior = middleware.asBehavior
        var state = SearchState()
        let step = behavior.step(.tick, state: &state, environment: SearchAPI())
        #expect(!step.mutated)
        #expect(step.effect.emittedActionValues() == [.tick])
        #expect(behavior.supervises)
        #expect(behavior.supervisor?(state).runReader(SearchAPI()).map(\.id) == [AnyHashableSendable("feed")])
    }

    @Test func theIdentityMiddlewareProducesNoEffectAndKeepsNothing() {
        let identity = Middleware<SearchAction, SearchState, SearchAPI>.identity
        #expect(Self.run(identity, .tick, before: SearchState(), after: SearchState(), environment: SearchAPI()).isEmpty)
        #expect(!identity.supervises)
    }
}
