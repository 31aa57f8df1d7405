import SwiftRexTestSupport
import Testing

@_spi(Testing) @testable import SwiftRex

/// What the library's own units tell the Store they touch, and how often the default log reports
/// one misuse.
@MainActor
@Suite struct DeclaredFootprintTests {
    typealias F = CoreFixtures

    @Test func anOnReduceThroughAStateLaneLeavesUnrelatedSupervisionsAlone() {
        let evaluations = F.Counter()
        var store: Store<Chat.AppAction, Chat.AppState, Void>?
        let diagnostics = collectingDiagnostics {
            let app = Chat.app(events: Chat.Events(), evaluations: evaluations)
                .on(.action(Chat.settingsPrism).state(\Chat.AppState.unread), reduce: { _, unread in unread += 1 })
            store = Store(initial: Chat.initial(100), behavior: app, environment: ())
        }
        #expect(diagnostics.isEmpty)
        guard let store else { return }
        let before = evaluations.value

        store.dispatch(.settings(.toggleDark))

        #expect(store.state.unread == 1)
        #expect(store.state.settings.dark)
        #expect(evaluations.value == before)
    }

    @Test func anOnReduceOverTheWholeStateIsReportedAndReevaluatesNoRowItLeftUnchanged() {
        let evaluations = F.Counter()
        var store: Store<Chat.AppAction, Chat.AppState, Void>?
        let diagnostics = collectingDiagnostics {
            let app = Chat.app(events: Chat.Events(), evaluations: evaluations)
                .on(.action(Chat.settingsPrism), reduce: { _, state in state.unread += 1 })
            store = Store(initial: Chat.initial(100), behavior: app, environment: ())
        }
        #expect(diagnostics.map(\.kind) == [.broadInvalidation])
        let before = evaluations.value

        store?.dispatch(.settings(.toggleDark))

        #expect(store?.state.unread == 1)
        // It may write the conversations' plain array: the Store compares the array before and
        // after it, and no conversation changed.
        #expect(evaluations.value - before == 0)
    }

    @Test func anOnThatDispatchesAndReducesThroughAStateLaneDoesBoth() async {
        let evaluations = F.Counter()
        var store: Store<Chat.AppAction, Chat.AppState, Void>?
        let diagnostics = collectingDiagnostics {
            let app = Chat.app(events: Chat.Events(), evaluations: evaluations)
                .on(
                    .action(Chat.searchPrism).state(\Chat.AppState.unread),
                    dispatch: .action { (_: Chat.SearchAction) in Chat.AppAction.settings(.toggleDark) },
                    reduce: { _, unread in unread += 1 })
            store = Store(initial: Chat.initial(10), behavior: app, environment: ())
        }
        #expect(diagnostics.isEmpty)
        guard let store else { return }

        store.dispatch(.search(.type("s")))
        #expect(store.state.unread == 1)
        #expect(store.state.search.query == "s")
        #expect(await eventually { store.state.settings.dark })
    }

    @Test func anOnReduceThroughAnOptionalLaneLeavesAnAbsentFocusAlone() {
        struct State: Sendable, Equatable {
            var draft: String?
        }
        let echo = Prism<String, String>(preview: { $0 }, review: { $0 })
        let behavior = Behavior<String, State, Void>.identity
            .on(.action(echo).state(\State.draft), reduce: { text, draft in draft += text })
        let absent = Store(initial: State(), behavior: behavior)
        let present = Store(initial: State(draft: "x"), behavior: behavior)
        var notified = 0
        let token = absent.observe(didChange: { notified += 1 })

        absent.dispatch("a")
        present.dispatch("a")

        #expect(absent.state == State())
        #expect(notified == 0)
        #expect(present.state == State(draft: "xa"))
        withExtendedLifetime(token) {}
    }

    @Test func theLibrarysRoutingAndLoggingUnitsAreNotCatchAllWriters() {
        let diagnostics = collectingDiagnostics {
            let app =
                Chat.app(events: Chat.Events(), evaluations: F.Counter())
                .on(.action(Chat.settingsPrism), dispatch: .action(Chat.settingsPrism))
                .on(.action(Chat.searchPrism).state(\Chat.AppState.search), reduce: { _, search in search.query = "" })
                .logActions { _ in }
                <> Behavior(reducer: .identity, middleware: .actionLog { _ in })
            _ = Store(initial: Chat.initial(10), behavior: app, environment: ())
        }
        #expect(diagnostics.isEmpty)
    }

    @Test func theDefaultLogReportsEachKindAndCauseOnce() {
        var log = DiagnosticLog()
        let missing = { (id: Int, site: String) in
            StoreDiagnostic(kind: .missingElement, message: "element \(id) missing", source: nil, cause: site)
        }

        #expect(log.admit(missing(1, "rows"))?.contains("element 1 missing") == true)
        #expect(log.admit(missing(2, "rows")) == nil)
        #expect(log.admit(missing(3, "cells"))?.contains("element 3 missing") == true)
        #expect(log.admit(StoreDiagnostic(kind: .duplicateID, message: "dup", source: nil, cause: "rows")) != nil)
        let uncaused = StoreDiagnostic(kind: .runawayLoop, message: "loop", source: nil)
        #expect(log.admit(uncaused) != nil)
        #expect(log.admit(uncaused) != nil)
    }

    @Test func aMissingElementNamesItsLiftAsTheCause() {
        let diagnostics = collectingDiagnostics {
            let store = Store(initial: Chat.initial(3), behavior: Chat.app(events: Chat.Events(), evaluations: F.Counter()), environment: ())
            store.dispatch(.conversation(ElementAction(99, action: .open)))
            store.dispatch(.conversation(ElementAction(98, action: .open)))
        }
        #expect(diagnostics.map(\.kind) == [.missingElement, .missingElement])
        #expect(diagnostics.map(\.cause) == ["conversations", "conversations"])
    }
}
