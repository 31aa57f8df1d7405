// swift-format-ignore-file
// (A documentation example, kept verbatim: not reformatted.)
#if Macros || PrebuiltMacroPlugin
import SwiftRexMacros
import Testing

// The code of the Lifting and Composition articles, verbatim (types file-private here), with the
// fixtures each block names.
private enum RoomAction: Sendable, Equatable { case say(String) }
private enum CounterAction: Sendable, Equatable { case increment }
private enum SettingsAction: Sendable, Equatable { case toggleDarkMode }
private enum SessionAction: Sendable, Equatable { case signOut }

@Prisms
private enum AppAction: Sendable, Equatable {
    case room(RoomAction)
    case counter(CounterAction)
    case search(CounterAction)
    case settings(SettingsAction)
    case signOut
}

private struct AppState: Sendable, Equatable {
    var room: [String] = []
    var counter = 0
    var search = 0
    var settings = false
    var user: String? = "ana"
    var slice = 0
}

private struct AppEnvironment: Sendable {
    var room = "room"
    var search = 1
    var settings: Void = ()
    var env = 1
}

private typealias AppBehavior = Behavior<AppAction, AppState, AppEnvironment>

private let room = Behavior<RoomAction, [String], String>.reduce { action, lines in
    if case .say(let line) = action { lines.append(line) }
}
private let counter = Behavior<CounterAction, Int, Int>.reduce { _, count in count += 1 }
private let search = counter
private let settings = Behavior<SettingsAction, Bool, Void>.reduce { _, dark in dark.toggle() }
private let session = AppBehavior.reduce { action, state in if case .signOut = action { state.user = nil } }

@MainActor
@Suite struct LiftingAndCompositionArticleTests {
    @Test func aFeatureLiftedAlongThreeAxes() {
        let lifted = room.lift(.action(\AppAction.room).state(\AppState.room).environment(\AppEnvironment.room))
        var state = AppState()
        _ = lifted.step(.room(.say("hi")), state: &state, environment: AppEnvironment())
        _ = lifted.step(.counter(.increment), state: &state, environment: AppEnvironment())
        #expect(state.room == ["hi"] && state.counter == 0)
    }

    @Test func everySpellingOfOneLiftDoesTheSame() {
        let feature = counter
        let prism = AppAction.prism.counter
        let scope: AppBehavior = feature.lift(.action(prism).state(\.slice).environment(\.env))   // a scope
        let passing: Behavior<AppAction, AppState, Int> = feature.lift(.action(prism).state(\.slice))                      // the environment passes through
        let axes: Behavior<AppAction, AppState, Int> = feature.liftAction(prism).liftState(\.slice)                     // one axis at a time
        let labelled = feature.lift(action: \AppAction.counter, state: \AppState.slice, environment: \AppEnvironment.env)  // labelled
        for lifted in [scope, labelled, passing.liftEnvironment(\AppEnvironment.env), axes.liftEnvironment(\AppEnvironment.env)] {
            var state = AppState()
            _ = lifted.step(.counter(.increment), state: &state, environment: AppEnvironment())
            _ = lifted.step(.signOut, state: &state, environment: AppEnvironment())
            #expect(state.slice == 1)
        }
    }

    @Test func caseKeyPathsAndLanesLiftAsThePrismDoes() {
        let feature = counter.liftEnvironment(\AppEnvironment.env)
        let byPath: AppBehavior = feature.lift(action: \AppAction.counter, state: \AppState.counter)   // case key path, key path
        let byScope: AppBehavior = feature.lift(.action(\.counter).state(\.counter))                     // the same, as a scope
        let byLane: AppBehavior = feature.lift(.action(AppAction.lane.counter).state(\.counter))
        for lifted in [byPath, byScope, byLane] {
            var state = AppState()
            _ = lifted.step(.counter(.increment), state: &state, environment: AppEnvironment())
            _ = lifted.step(.search(.increment), state: &state, environment: AppEnvironment())
            #expect(state.counter == 1 && state.search == 0)
        }
    }

    @Test func aParentCancelsOneElementsEffect() {
        let rowID = 7
        let cancel: Effect<AppAction> = .cancel(id: ElementEffectID(site: "rows", element: rowID, inner: "autosave"))
        #expect(cancel.components.count == 1)
    }

    @Test func anAppIsTheCombinationOfItsLiftedFeatures() {
        let app = Behavior.combine(
            search.lift(action: \AppAction.search, state: \AppState.search, environment: \AppEnvironment.search),
            settings.lift(action: \AppAction.settings, state: \AppState.settings, environment: \AppEnvironment.settings),
            session
        )
        var state = AppState()
        for action: AppAction in [.search(.increment), .settings(.toggleDarkMode), .signOut] {
            _ = app.step(action, state: &state, environment: AppEnvironment())
        }
        #expect(state.search == 1 && state.settings && state.user == nil)
    }
}
#endif
