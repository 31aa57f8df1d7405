import SwiftRex
import Testing

@MainActor
@Suite("Action log")
struct ActionLogTests {
    struct Row: Identifiable, Equatable, Sendable {
        var id: Int
        var title: String
    }

    struct AppState: Equatable, Sendable {
        var query = ""
        var rows: IdentifiedArray<Row> = [Row(id: 1, title: "milk"), Row(id: 2, title: "eggs")]
    }

    enum AppAction: Sendable {
        case type(String)
        case rename(id: Int, title: String)
        case noop
    }

    static let reducer = Reducer<AppAction, AppState>.reduce { action, state in
        switch action {
        case .type(let text): state.query = text
        case .rename(let id, let title): state.rows[id: id]?.title = title
        case .noop: break
        }
    }

    final class Entries {
        var lines: [String] = []
    }

    @Test("each action is logged with its source and only the parts of the state it changed")
    func logsActionSourceAndChanges() {
        let entries = Entries()
        let behavior = Behavior<AppAction, AppState, Void>(reducer: Self.reducer, middleware: .identity)
            .logActions { entries.lines.append($0.description()) }
        let store = Store(initial: AppState(), behavior: behavior)
        let typed = ActionSource(file: "App/Search.swift", function: "body", line: 12)
        store.dispatch(.type("oat"), source: typed)
        store.dispatch(.rename(id: 2, title: "free-range eggs"), source: ActionSource(file: "App/Row.swift", function: "commit()", line: 7))
        store.dispatch(.noop, source: typed)

        #expect(
            entries.lines == [
                """
                action: AppAction.type("oat")
                  from: App/Search.swift:12 (body)
                (before −, after +; equal parts omitted)
                  AppState
                −   .query: ""
                +   .query: "oat"
                """,
                """
                action: AppAction.rename(id: 2, title: "free-range eggs")
                  from: App/Row.swift:7 (commit())
                (before −, after +; equal parts omitted)
                  AppState
                    .rows (2 elements)
                      [1] (id: 2)
                −       .title: "eggs"
                +       .title: "free-range eggs"
                """,
                """
                action: AppAction.noop
                  from: App/Search.swift:12 (body)
                  (state unchanged)
                """,
            ])
    }

    @Test("an action dispatched by an effect is logged with the effect's source, after the action that caused it")
    func logsActionsFromEffects() async {
        let entries = Entries()
        let middleware = Middleware<AppAction, AppState, Void>.handle { action, _ in
            Producer { _ in
                guard case .type(let text) = action, text == "go" else { return .empty }
                return .just(.rename(id: 1, title: "went"))
            }
        }
        let behavior = Behavior(reducer: Self.reducer, middleware: middleware).logActions { entry in
            entries.lines.append("\(entry.action) \(entry.source.file) \(entry.stateAfter.rows[id: 1]?.title ?? "-")")
        }
        let store = Store(initial: AppState(), behavior: behavior)
        store.dispatch(.type("go"), source: ActionSource(file: "App/Search.swift", function: "body", line: 3))
        for _ in 0..<100 where entries.lines.count < 2 { await Task.yield() }
        #expect(
            entries.lines == [
                "type(\"go\") App/Search.swift milk",
                "rename(id: 1, title: \"went\") SwiftRexTests/ActionLogTests.swift went",
            ])
    }

    @Test("the entry's description cuts the differences at its limit and counts the rest")
    func descriptionLimit() {
        var after = AppState()
        after.query = "x"
        after.rows[id: 1]?.title = "a"
        after.rows[id: 2]?.title = "b"
        let entry = ActionLogEntry(
            action: AppAction.noop, source: ActionSource(file: "F.swift", function: "f()", line: 1), stateBefore: AppState(), stateAfter: after)
        let text = entry.description(limit: 1)
        #expect(text.hasSuffix("… and 2 more differences"), "\(text)")
    }
}
