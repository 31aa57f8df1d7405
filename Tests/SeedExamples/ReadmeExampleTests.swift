// swift-format-ignore-file
// (A documentation example, kept verbatim: not reformatted.)
#if Macros || PrebuiltMacroPlugin
import Testing
import SwiftRexMacros   // SwiftRex, plus the @Prisms and @Lenses macros

// The README's "feature in one screen", verbatim (types file-private here): it must compile and
// behave as described.
private enum SearchAction: Sendable { case query(String), results([String]) }
private struct SearchState: Sendable, Equatable { var query = ""; var results: [String] = []; var isLive = false }
private struct SearchEnvironment: Sendable { var search: @Sendable (String) async -> [String] }

private let search = Behavior<SearchAction, SearchState, SearchEnvironment>
    .reduce { action, state in                       // what changes — in place
        switch action {
        case .query(let text): state.query = text
        case .results(let found): state.results = found
        }
    }
    .produce { action, _ in                          // what to do because of an action
        guard case .query(let text) = action else { return .doNothing }
        return Producer { ctx in
            Effect.task(scheduling: .debounce(id: "search", delay: .milliseconds(300))) { send in
                send(.results(await ctx.environment.search(text)))
            }
        }
    }
    .supervise { state in                            // what to keep alive while the state holds
        Supervision { _ in
            state.isLive ? [Channel(id: "feed") { dispatch in .cancelOnly { /* close the socket */ } }] : []
        }
    }

// Lift the feature into the app: @Prisms makes \AppAction.search a case key path (and
// AppAction.prism.search a prism); it costs what a hand-written prism costs.
@Prisms private enum AppAction: Sendable { case search(SearchAction), other }
private struct AppState: Sendable, Equatable { var search = SearchState() }
private struct AppEnvironment: Sendable { var search: SearchEnvironment }
private let app = search.lift(action: \AppAction.search, state: \AppState.search, environment: \AppEnvironment.search)

@MainActor
@Suite struct ReadmeExampleTests {
    /// Waits (bounded) for `condition`, yielding the main actor.
    func eventually(_ condition: () -> Bool) async -> Bool {
        for _ in 0..<1_000 where !condition() { await Task.yield() }
        return condition()
    }

    @Test func theReadmeFeatureSearchesAfterTheDebounceThroughTheLiftedStore() async {
        let clock = ManualClock()
        let environment = AppEnvironment(search: SearchEnvironment(search: { query in ["\(query)!"] }))
        let store = Store(initial: AppState(), behavior: app, environment: environment, clock: { _ in clock })
        store.dispatch(.search(.query("swift")))
        #expect(store.state.search.query == "swift")
        clock.advance(by: .milliseconds(300))
        #expect(await eventually { store.state.search.results == ["swift!"] })
        store.dispatch(.other)
        #expect(store.state.search.results == ["swift!"])
    }

    @Test func theCaseKeyPathIsThePrismTheMacroGenerates() {
        #expect(AppAction.prism.search.preview(.search(.query("a"))) != nil)
        #expect(AppAction.prism.search.preview(.other) == nil)
        #expect(Prism(\AppAction.search).review(.query("a")).search != nil)
    }
}
#endif
