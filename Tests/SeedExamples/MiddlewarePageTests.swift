#if Macros || PrebuiltMacroPlugin
import Synchronization
import SwiftRexMacros
import SwiftRexTestSupport
import Testing

// The code examples of SwiftRex's Middleware documentation page, as written, each with the outcome the page states. The
// reactive companions' `readLiveState()` example is out of scope (a Combine/Rx bridge).

private enum MiddlewarePage {
    @Prisms
    enum AppAction: Sendable, Equatable {
        case search(String)
        case results([String])
        case tick
        case row(ElementAction<Int, RowAction>)
        case renamed(String)
    }

    enum RowAction: Sendable, Equatable {
        case ping
        case pong(Int)
    }

    struct Row: Sendable, Equatable, Identifiable { var id: Int }
    enum DayDetail { struct State: Sendable, Equatable { var title = "" } }

    struct AppState: Sendable, Equatable {
        var isConnected = false
        var draft = ""
        var currentDay: DayDetail.State?
        var rows: [Row] = []
    }

    /// A request as a companion bridge would return it: `asEffect(_:)` maps its result to an action.
    struct Request<Output: Sendable>: Sendable {
        let output: Output
        func asEffect<Action: Sendable>(_ transform: @escaping @Sendable (Output) -> Action) -> Effect<Action> {
            .just(transform(output))
        }
    }

    struct API: Sendable {
        func search(_ query: String) -> Request<[String]> { Request(output: [query, query.uppercased()]) }

        func makeFeedChannel() -> Channel<AppAction> {
            Channel(id: "feed") { dispatch in
                dispatch(.tick)
                return .cancelOnly {}
            }
        }
    }

    final class Logger: Sendable {
        private let lines = Mutex<[String]>([])

        func log(_ action: AppAction, before: AppState?) {
            lines.withLock { $0.append("\(action) before: \(before?.draft ?? "nil")") }
        }

        var entries: [String] { lines.withLock { $0 } }
    }

    struct RowEnv: Sendable { var factor = 10 }
    struct AppEnvironment: Sendable { var rowEnv = RowEnv() }
}

private typealias AppAction = MiddlewarePage.AppAction
extension MiddlewarePage.AppAction: DomainAction {
    fileprivate typealias DomainState = MiddlewarePage.AppState
    fileprivate typealias DomainEnvironment = MiddlewarePage.AppEnvironment
}
private typealias AppState = MiddlewarePage.AppState
private typealias API = MiddlewarePage.API
private typealias Logger = MiddlewarePage.Logger

@MainActor
@Suite struct MiddlewarePageTests {
    /// Runs one action through a middleware's two phases.
    fileprivate func run<S: Sendable, E: Sendable>(
        _ middleware: Middleware<AppAction, S, E>, _ action: AppAction, before: S, after: S, environment: E
    ) -> Effect<AppAction> {
        let pre = PreReducerContext<S>(source: ActionSource(), stateBefore: { before })
        return middleware.handle(action, pre).runReader(PostReducerContext(environment: environment, liveState: { after }))
    }

    @Test func theSearchMiddlewareProducesAnActionDrivenEffectAndSupervisesAFeed() {
        let search = Middleware<AppAction, AppState, API>
            .produce { action, _ in
                guard case .search(let query) = action else { return .doNothing }
                return Producer { ctx in ctx.environment.search(query).asEffect(AppAction.results) }
            }
            .supervise { state in
                Supervision { env in state.isConnected ? [env.makeFeedChannel()] : [] }
            }

        let state = AppState()
        #expect(
            run(search, .search("swift"), before: state, after: state, environment: API()).emittedActionValues() == [.results(["swift", "SWIFT"])])
        #expect(run(search, .tick, before: state, after: state, environment: API()).isEmpty)
        #expect(search.supervisor?(state).runReader(API()).isEmpty == true)
        let connected = AppState(isConnected: true)
        #expect(search.supervisor?(connected).runReader(API()).map(\.id) == [AnyHashableSendable("feed")])
    }

    @Test func theLoggerReadsThePreMutationStateInPhaseOneAndLogsInPhaseThree() {
        let logger = Middleware<AppAction, AppState, Logger>.handle { action, context in
            let before = context.stateBefore // phase 1 — pre-mutation
            return Producer { ctx in
                ctx.environment.log(action, before: before) // phase 3 — runs with the environment
                return .empty
            }
        }

        let sink = Logger()
        let effect = run(logger, .tick, before: AppState(draft: "old"), after: AppState(draft: "new"), environment: sink)
        #expect(effect.isEmpty)
        #expect(sink.entries == ["tick before: old"])
    }

    @Test func liftOptionalSkipsTheMiddlewareWhileTheFocusIsNil() {
        let dayMiddleware = Middleware<AppAction, MiddlewarePage.DayDetail.State, Void>.produce { action, context in
            let title = context.stateBefore?.title ?? "?"
            return action == .tick ? Producer { _ in .just(.renamed(title)) } : .doNothing
        }

        let viaScope = dayMiddleware.liftOptional(.state(\AppState.currentDay)) // currentDay: DayDetail.State?
        let viaKeyPath = dayMiddleware.liftOptional(\AppState.currentDay) // key-path sugar

        for lifted in [viaScope, viaKeyPath] {
            #expect(run(lifted, .tick, before: AppState(), after: AppState(), environment: ()).isEmpty)
            let present = AppState(currentDay: .init(title: "Monday"))
            #expect(run(lifted, .tick, before: present, after: present, environment: ()).emittedActionValues() == [.renamed("Monday")])
        }
    }

    @Test func liftCollectionObservesTheAddressedElement() {
        let rowMiddleware = Middleware<MiddlewarePage.RowAction, MiddlewarePage.Row, MiddlewarePage.RowEnv>.produce { action, context in
            let id = context.stateBefore?.id ?? -1
            return action == .ping ? Producer { ctx in .just(.pong(id * ctx.environment.factor)) } : .doNothing
        }

        let lifted = rowMiddleware.liftCollection(
            .action(AppAction.prism.row).state(\.rows).environment(\.rowEnv)
        )

        let state = AppState(rows: [.init(id: 1), .init(id: 2)])
        let effect = run(lifted, .row(ElementAction(2, action: .ping)), before: state, after: state, environment: .init())
        #expect(effect.emittedActionValues() == [.row(ElementAction(2, action: .pong(20)))])
    }

    @Test func aMiddlewareLiftsItsStateThroughAGetter() {
        let drafts = Middleware<AppAction, String, Void>.produce { action, context in
            let draft = context.stateBefore ?? ""
            return action == .tick ? Producer { _ in .just(.search(draft)) } : .doNothing
        }
        let lifted = drafts.liftState { (global: AppState) in global.draft }
        let state = AppState(draft: "swift")
        #expect(run(lifted, .tick, before: state, after: state, environment: ()).emittedActionValues() == [.search("swift")])
    }
}
#endif
