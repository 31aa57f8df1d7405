// swift-format-ignore-file
// (A documentation example, kept verbatim: not reformatted.)
#if Macros || PrebuiltMacroPlugin
import SwiftRexMacros
import SwiftRexTesting
import Synchronization
import Testing

// The code of the Testing article and of SwiftRexTesting's landing page
// (Sources/SwiftRexTesting/Documentation.docc), verbatim (types file-private here).
@Prisms
private enum SearchAction: Sendable, Equatable {
    case query(String)
    case results([String])
}

private struct SearchState: Sendable, Equatable {
    var query = ""
    var results: [String] = []
    var isSearching = false
}

private struct SearchEnvironment: Sendable {
    var search: @Sendable (String) async -> [String]
    static let test = SearchEnvironment(search: { _ in ["SwiftRex"] })
}

private let search = Behavior<SearchAction, SearchState, SearchEnvironment>
    .reduce { action, state in
        switch action {
        case .query(let text): state.query = text
        case .results(let found): state.results = found
        }
    }
    .produce { action, _ in
        guard case .query(let text) = action else { return .doNothing }
        return Producer { context in
            .task(scheduling: .debounce(id: "search", delay: .milliseconds(300))) { send in
                send(.results(await context.environment.search(text)))
            }
        }
    }

@MainActor
@Test func searchShowsResultsAfterTheDebounce() async {
    let store = TestStore(
        initial: SearchState(),
        behavior: search,
        environment: SearchEnvironment(search: { query in ["\(query)!"] })
    )
    store.send(.query("sw")) { $0.query = "sw" }
    await store.advance(by: .milliseconds(100))
    store.send(.query("swift")) { $0.query = "swift" }
    await store.advance(by: .milliseconds(300))
    await store.receive(.results(["swift!"])) { $0.results = ["swift!"] }
    await store.finish()
}

@Prisms
private enum AppAction: Sendable, Equatable {
    case search(SearchAction)
    case row(ElementAction<Int, RowAction>)
}

private enum RowAction: Sendable, Equatable {
    case toggle
}

private struct Row: Sendable, Equatable, Identifiable {
    var id: Int
    var done = false
}

private struct AppState: Sendable, Equatable {
    var search = SearchState()
    var rows: IdentifiedArray<Row> = []
}

private struct AppEnvironment: Sendable {
    var search: SearchEnvironment
    static let test = AppEnvironment(search: .test)
}

/// The search, lifted, marks itself busy while a query waits (a detail a test may not care about).
private let app: Behavior<AppAction, AppState, AppEnvironment> = Behavior.combine(
    search.lift(action: \AppAction.search, state: \AppState.search, environment: \AppEnvironment.search),
    Behavior<SearchAction, SearchState, SearchEnvironment>
        .reduce { action, state in state.isSearching = action.query != nil }
        .lift(action: \AppAction.search, state: \AppState.search, environment: \AppEnvironment.search),
    Reducer<RowAction, Row>.reduce { _, row in row.done.toggle() }.liftCollection(.action(\.row).state(\.rows)).asBehavior()
)

@MainActor
@Suite struct TestingArticleTests {
    @Test func theLandingPageExample() async {
        let store = TestStore(initial: SearchState(), behavior: search, environment: .test)
        store.send(.query("swift")) { $0.query = "swift" }
        await store.advance(by: .milliseconds(300))
        await store.receive(.results(["SwiftRex"])) { $0.results = ["SwiftRex"] }
        await store.finish()
    }

    @Test func aNonExhaustiveTestAssertsOnlyTheQueryAndTheResults() async {
        let store = TestStore(initial: AppState(), behavior: app, environment: .test, exhaustivity: .off(showSkippedAssertions: true))
        store.send(.search(.query("swift"))) { $0.search.query = "swift" }
        await store.advance(by: .milliseconds(300))
        await store.receive(\.search.results) { results, state in state.search.results = results }
        await store.finish()
        #expect(store.state.search.isSearching == false)
    }

    @Test func diagnosticsAreCapturedInATest() {
        let store = TestStore(initial: AppState(rows: [Row(id: 1)]), behavior: app, environment: .test)
        let diagnostics = Mutex<[StoreDiagnostic]>([])
        DiagnosticOverride.$handler.withValue({ diagnostic in diagnostics.withLock { $0.append(diagnostic) } }) {
            store.send(.row(ElementAction(404, action: .toggle)))
        }
        #expect(diagnostics.withLock { $0.map(\.kind) } == [.missingElement])
    }
}
#endif
