// swift-format-ignore-file
// (A documentation example, kept verbatim: not reformatted.)
#if Macros || PrebuiltMacroPlugin
import SwiftRexMacros
import Testing

// The Lifting article's routing and spelling blocks beyond key-path lanes, verbatim, with the
// fixtures they name.
private struct Feed: Sendable, Equatable { var items: [String] = [] }
private enum RowAction: Sendable, Equatable { case add(Int) }
private enum RoomAction: Sendable, Equatable { case say(String) }

@Prisms
private enum AppAction: Sendable, Equatable {
    case loaded([String])
    case search(String)
    case row(Int, RowAction)
    case room(RoomAction)
}

private struct AppState: Sendable, Equatable {
    var feed = Feed()
    var search = ""
    var rows = [0, 0]
    var room: [String] = []
}

private struct AppEnvironment: Sendable { var roomEnv = "lobby" }

private let roomBehavior = Behavior<RoomAction, [String], String>.reduce { action, lines in
    if case .say(let line) = action { lines.append(line) }
}

extension AppAction: DomainAction {
    fileprivate typealias DomainState = AppState
    fileprivate typealias DomainEnvironment = AppEnvironment
}

private let room = roomBehavior.lift(.action(AppAction.prism.room).state(\.room).environment(\.roomEnv))

private typealias AppBehavior = Behavior<AppAction, AppState, Void>

private let app = AppBehavior.identity
private let row = Reducer<RowAction, Int>.reduce { action, value in if case .add(let amount) = action { value += amount } }

@MainActor
@Suite struct LiftingSpellingsArticleTests {
    @Test func anOnReducesThePartItsTriggerNames() {
        let routed: AppBehavior = app.on(.action(\.loaded).state(\.feed), reduce: { items, feed in feed.items = items })
        var state = AppState()
        _ = routed.step(.loaded(["a"]), state: &state, environment: ())
        #expect(state.feed.items == ["a"])
    }

    @Test func anActionThatNamesItsDomainLiftsWithoutAnnotations() {
        var state = AppState()
        _ = room.step(.room(.say("hi")), state: &state, environment: AppEnvironment())
        #expect(state.room == ["hi"])
    }

    @Test func aMiddlewareReadsItsStateThroughAGetter() {
        let searchMiddleware = Middleware<String, String, Void>.identity
        let scoped: Middleware<AppAction, AppState, Void> = searchMiddleware.lift(.action(\.search).state { (global: AppState) in global.search })
        let alone: Middleware<String, AppState, Void> = searchMiddleware.liftState { (global: AppState) in global.search }
        #expect(scoped.handle(.search("x"), PreReducerContext(source: ActionSource(), stateBefore: { AppState() })).runReader(
            PostReducerContext(environment: (), liveState: { AppState() })).isEmpty)
        _ = alone
    }

    @Test func aReducerLiftsIntoACollectionThroughATraversal() {
        let rows: Reducer<AppAction, AppState> = row.liftCollection(
            action: { (global: AppAction) in
                guard case .row(let index, let action) = global else { return nil }
                return (action, AffineTraversal(preview: { $0.indices.contains(index) ? $0[index] : nil }, set: { $0[index] = $1 }))
            },
            stateContainer: Lens(\AppState.rows)
        )
        var state = AppState()
        rows.apply(.row(1, .add(3)), to: &state)
        rows.apply(.row(5, .add(3)), to: &state)
        #expect(state.rows == [0, 3])
    }
}
#endif
