#if Macros || PrebuiltMacroPlugin
import SwiftRexMacros
import SwiftRexTesting
import Testing

// @Prisms generates an action lane type per case (`AppAction.lane.counter`): a lift through it
// extracts with a `switch` the compiler sees instead of a prism's closure, and behaves as the
// lift through the case's prism does.

private enum PrismLanes {
    enum CounterAction: Sendable, Equatable { case increment, ping, pong }
    struct CounterState: Sendable, Equatable { var count = 0, pongs = 0 }

    @Prisms
    enum AppAction: Sendable, Equatable {
        case first(CounterAction)
        case second(CounterAction)
        case reset
        case load(id: Int, force: Bool)
    }

    struct AppState: Sendable, Equatable {
        var first = CounterState()
        var second = CounterState()
    }

    @Prisms
    enum Numbered: Sendable {
        case only(Int)
        var caseIndex: Int { 7 }
    }

    static let counter = Reducer<CounterAction, CounterState>.reduce { action, state in
        if action == .increment { state.count += 1 }
    }

    /// A ping answers a pong through an effect: the lane embeds it back into the app's action.
    static let pinging = Behavior<CounterAction, CounterState, Void>.reduce { action, state, _ in
        switch action {
        case .ping: return .produce { _ in .just(.pong) }
        case .pong:
            state.pongs += 1
            return .doNothing
        case .increment:
            state.count += 1
            return .doNothing
        }
    }
}

/// A public enum: its lanes are public and inlinable, so another module's lift specialises them.
@Prisms
public enum PublicLaneRoute: Sendable {
    case detail(Int)
    case callback(@Sendable () -> Void)
    case close
}

@Suite struct PrismLanesTests {
    private typealias Page = PrismLanes

    @Test func eachLaneExtractsAndEmbedsItsCaseAsThePrismDoes() {
        let first = Page.AppAction.lane.first
        #expect(first.extract(.first(.increment)) == .increment)
        #expect(first.extract(.second(.increment)) == nil)
        #expect(first.embed(.ping) == .first(.ping))
        #expect(first.extractedCase == 0)
        #expect(Page.AppAction.lane.second.extractedCase == Page.AppAction.prism.second.caseIndex)
        // A case without payload, and one with several values (a tuple, labels kept).
        #expect(Page.AppAction.lane.reset.extract(.reset) != nil)
        #expect(Page.AppAction.lane.reset.extract(.first(.ping)) == nil)
        #expect(Page.AppAction.lane.reset.embed(()) == .reset)
        let load = Page.AppAction.lane.load.extract(.load(id: 3, force: true))
        #expect(load?.id == 3 && load?.force == true)
        #expect(Page.AppAction.lane.load.embed((id: 4, force: false)) == .load(id: 4, force: false))
        #expect(Page.AppAction.lane.load.extractedCase == 3)
    }

    @Test func aPublicEnumsLanesWork() {
        #expect(PublicLaneRoute.lane.detail.extract(.detail(9)) == 9)
        #expect(PublicLaneRoute.lane.detail.extract(.close) == nil)
        #expect(PublicLaneRoute.lane.close.extractedCase == 2)
        if case .detail(let value) = PublicLaneRoute.lane.detail.embed(4) { #expect(value == 4) } else { Issue.record("embed built another case") }
    }

    @Test func anEnumWithItsOwnCaseIndexGetsLanesThatNameNoCase() {
        #expect(Page.Numbered.lane.only.extractedCase == nil)
        #expect(Page.Numbered.lane.only.extract(.only(5)) == 5)
    }

    @Test @MainActor func featuresLiftedThroughLanesGetOnlyTheirCaseAsThroughPrisms() {
        let throughLanes = Store(
            initial: Page.AppState(),
            reducer: .mconcat([
                Page.counter.lift(.action(Page.AppAction.lane.first).state(\.first)),
                Page.counter.lift(.state(\Page.AppState.second).action(Page.AppAction.lane.second)),
            ]))
        let throughPrisms = Store(
            initial: Page.AppState(),
            reducer: .mconcat([
                Page.counter.lift(.action(Page.AppAction.prism.first).state(\.first)),
                Page.counter.lift(.action(Page.AppAction.prism.second).state(\.second)),
            ]))
        let actions: [Page.AppAction] = [
            .second(.increment), .second(.increment), .first(.increment), .reset, .load(id: 1, force: false), .first(.ping),
        ]
        for action in actions {
            throughLanes.dispatch(action)
            throughPrisms.dispatch(action)
            #expect(throughLanes.state == throughPrisms.state)
        }
        #expect(throughLanes.state == Page.AppState(first: .init(count: 1), second: .init(count: 2)))
    }

    @Test @MainActor func aBehaviorLiftedThroughALaneSendsItsEffectsActionsBackThroughIt() async {
        let store = TestStore(
            initial: Page.AppState(),
            behavior: Page.pinging.lift(.action(Page.AppAction.lane.second).state(\.second)),
            environment: ()
        )
        store.send(.second(.ping))
        await store.receive(.second(.pong)) { $0.second.pongs = 1 }
        store.send(.first(.ping))
        await store.finish()
    }
}
#endif
