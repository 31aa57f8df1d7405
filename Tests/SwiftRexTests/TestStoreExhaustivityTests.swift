import SwiftRex
@_spi(Testing) import SwiftRexTesting
import Synchronization
import Testing

/// A non-exhaustive TestStore checks what the test asserts and nothing else, and lists what it
/// skipped when asked; `receive` names a nested action with a chain of case properties.
@MainActor
@Suite struct TestStoreExhaustivityTests {
    enum SearchAction: Sendable, Equatable {
        case query(String)
        case suggestions([String])
        case results([String])

        // Case properties written by hand (what @Prisms generates): `\.search.results` reads them.
        var query: String? {
            if case .query(let value) = self { value } else { nil }
        }
        var suggestions: [String]? {
            if case .suggestions(let value) = self { value } else { nil }
        }
        var results: [String]? {
            if case .results(let value) = self { value } else { nil }
        }
    }

    enum Action: Sendable, Equatable {
        case search(SearchAction)
        case goLive

        var search: SearchAction? {
            if case .search(let value) = self { value } else { nil }
        }
    }

    struct State: Sendable, Equatable {
        var query = ""
        var suggestions: [String] = []
        var results: [String] = []
        var searches = 0
        var isLive = false
    }

    /// A query counts a search and answers with suggestions, then results; going live opens a channel.
    static let feature = Behavior<Action, State, Void>
        .reduce { action, state in
            switch action {
            case .search(.query(let text)):
                state.query = text
                state.searches += 1
            case .search(.suggestions(let found)): state.suggestions = found
            case .search(.results(let found)): state.results = found
            case .goLive: state.isLive = true
            }
        }
        .produce { action, _ in
            guard case .search(.query(let text)) = action else { return .doNothing }
            return Producer { _ in
                .sequence([.search(.suggestions([text + "…"])), .search(.results([text.uppercased()]))])
            }
        }
        .supervise { state in
            Supervision { _ in
                state.isLive ? [Channel<Action>(id: "live") { _ in ChannelHandler<Never>.cancelOnly {} }] : []
            }
        }

    /// The skipped checks a store reported, in order.
    @MainActor final class Skipped {
        var texts: [String] = []
    }

    /// A store whose skipped checks are captured instead of recorded as known issues.
    func store(_ exhaustivity: Exhaustivity, skipped: Skipped) -> TestStore<Action, State, Void> {
        let store = TestStore(initial: State(), behavior: Self.feature, exhaustivity: exhaustivity)
        store.reportSkipped = { text, _ in skipped.texts.append(text) }
        return store
    }

    // MARK: Non-exhaustive

    @Test func aStateAssertionChecksOnlyWhatItSets() async {
        let skipped = Skipped()
        let store = store(.off, skipped: skipped)
        store.send(.search(.query("swift"))) { $0.query = "swift" } // `searches` changed too: not checked
        await store.finish()
        #expect(store.state.searches == 1)
        #expect(skipped.texts.isEmpty, "nothing is shown unless asked")
    }

    @Test func aWrongValueInWhatTheAssertionSetsIsStillAFailure() async {
        let store = TestStore(initial: State(), behavior: Self.feature, exhaustivity: .off)
        withKnownIssue {
            store.send(.search(.query("swift"))) { $0.query = "swiftly" }
        } matching: { issue in
            let text = String(describing: issue)
            return text.contains("differs from what the assertion sets") && text.contains("\"swiftly\"") && !text.contains(".searches")
        }
        await store.finish()
    }

    @Test func receiveProcessesTheActionsBeforeTheOneItWantsUnasserted() async {
        let skipped = Skipped()
        let store = store(.off(showSkippedAssertions: true), skipped: skipped)
        store.send(.search(.query("swift"))) { $0.query = "swift" }
        await store.receive(\.search.results) { results, state in state.results = results }
        #expect(store.state.suggestions == ["swift…"], "the skipped action was processed")
        #expect(store.state.results == ["SWIFT"])
        let shown = skipped.texts
        #expect(shown.count == 2, "\(shown)")
        #expect(shown.first?.contains("State changes after sending .search(.query(\"swift\")) not asserted") == true, "\(shown)")
        #expect(shown.first?.contains(".searches: 0") == true && shown.first?.contains(".searches: 1") == true, "\(shown)")
        #expect(shown.last?.contains("Received .search(.suggestions([\"swift…\"])) unasserted") == true, "\(shown)")
        #expect(shown.last?.contains(".suggestions") == true, "\(shown)")
        await store.finish()
    }

    @Test func sendFirstProcessesWhatEffectsSentMeanwhile() async {
        let skipped = Skipped()
        let store = store(.off(showSkippedAssertions: true), skipped: skipped)
        store.send(.search(.query("swift"))) {
            $0.query = "swift"
            $0.searches = 1
        }
        store.send(.goLive) { $0.isLive = true }
        #expect(store.state.results == ["SWIFT"] && store.state.suggestions == ["swift…"])
        let shown = skipped.texts
        #expect(shown.filter { $0.contains("unasserted") }.count == 2, "\(shown)")
        await store.finish()
        #expect(skipped.texts.last?.contains("1 channel still open") == true, "\(skipped.texts)")
    }

    @Test func withoutShowingNothingIsReported() async {
        let skipped = Skipped()
        let store = store(.off, skipped: skipped)
        store.send(.search(.query("swift")))
        store.send(.goLive)
        await store.finish()
        #expect(skipped.texts.isEmpty)
    }

    @Test func skippedChecksShownAsKnownIssuesDoNotFailTheTest() async {
        // The default reporter: each skipped check is a known issue in the test report.
        let store = TestStore(initial: State(), behavior: Self.feature, exhaustivity: .off(showSkippedAssertions: true))
        store.send(.search(.query("swift"))) { $0.query = "swift" }
        store.send(.goLive)
        await store.finish()
    }

    // MARK: Exhaustive, unchanged

    @Test func anExhaustiveStoreStillFailsOnWhatIsNotAsserted() async {
        let store = TestStore(initial: State(), behavior: Self.feature)
        withKnownIssue {
            store.send(.search(.query("swift"))) { $0.query = "swift" }
        } matching: { issue in
            String(describing: issue).contains(".searches")
        }
        await store.receive(\.search.suggestions) { suggestions, state in state.suggestions = suggestions }
        await store.receive(\.search.results) { results, state in state.results = results }
        await store.finish()
    }

    // MARK: Case key paths

    @Test func receiveNamesANestedActionWithItsCaseProperties() async {
        let store = TestStore(initial: State(), behavior: Self.feature)
        store.send(.search(.query("swift"))) {
            $0.query = "swift"
            $0.searches = 1
        }
        await store.receive(\.search.suggestions) { suggestions, state in state.suggestions = suggestions }
        await store.receive(\.search.results) { results, state in
            #expect(results == ["SWIFT"])
            state.results = results
        }
        await store.finish()
    }

    @Test func aCasePathOfAnotherCaseIsAMismatch() async {
        let store = TestStore(initial: State(), behavior: Self.feature)
        store.send(.search(.query("swift"))) {
            $0.query = "swift"
            $0.searches = 1
        }
        let messages = Mutex<[String]>([])
        await withKnownIssue {
            await store.receive(\.search.query) { _, state in state.suggestions = ["swift…"] }
        } matching: { issue in
            messages.withLock { $0.append(String(describing: issue)) }
            return true
        }
        // The mismatch, then the state it still processed (the closure runs only on a match).
        let recorded = messages.withLock { $0 }
        #expect(recorded.count == 2, "\(recorded)")
        #expect(recorded.first?.contains("expected: an action in the case key path's case (carrying String)") == true, "\(recorded)")
        #expect(recorded.first?.contains("received: .search(.suggestions([\"swift…\"]))") == true, "\(recorded)")
        #expect(store.state.suggestions == ["swift…"])
        await store.receive(\.search.results) { results, state in state.results = results }
        await store.finish()
    }

    @Test func aChainStopsAtTheFirstOtherCase() {
        #expect(CaseChain(Action.goLive).search.results.value == nil)
        #expect(CaseChain(Action.search(.query("a"))).search.results.value == nil)
        #expect(CaseChain(Action.search(.results(["a"]))).search.results.value == ["a"])
    }
}
