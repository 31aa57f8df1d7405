import SwiftRex
import Testing

/// When an action is `.unchanged` (nobody notified, nothing reconciled), exactly as the
/// DispatchPipeline article states it, and the opt-in that skips notifications for equal values.
@MainActor
@Suite struct UnchangedActionTests {
    enum Counter: Sendable, Equatable { case increment, touch }
    enum AppAction: Sendable, Equatable {
        case counter(Counter)
        case other
    }
    struct AppState: Sendable, Equatable {
        var count = 0
        var details: Int? = nil
        var log: [String] = []
    }

    static let counterPrism = Prism<AppAction, Counter>(
        preview: { if case .counter(let action) = $0 { action } else { nil } },
        review: AppAction.counter
    )

    /// Increments on `.increment`; `.touch` reaches the reducer and changes nothing.
    static let counter = Behavior<Counter, Int, Void>.reduce { action, count in
        if action == .increment { count += 1 }
    }

    static func notifications(_ behavior: Behavior<AppAction, AppState, Void>, _ actions: [AppAction], initial: AppState = AppState()) -> Int {
        let store = Store(initial: initial, behavior: behavior)
        var fired = 0
        let token = store.observe(didChange: { fired += 1 })
        for action in actions { store.dispatch(action) }
        _ = token
        return fired
    }

    // MARK: The rule

    @Test func aLiftedReducerWhosePrismMissesIsUnchanged() {
        let app = Self.counter.lift(.action(Self.counterPrism).state(\AppState.count))
        #expect(Self.notifications(app, [.other, .other]) == 0)
    }

    @Test func aLiftedReducerThatRunsButChangesNothingStillNotifies() {
        // The Store never compares states: an applying unit is a mutation.
        let app = Self.counter.lift(.action(Self.counterPrism).state(\AppState.count))
        #expect(Self.notifications(app, [.counter(.touch), .counter(.touch)]) == 2)
    }

    @Test func anUnliftedReduceAlwaysCountsAsAMutation() {
        let app = Behavior<AppAction, AppState, Void>.reduce { action, state in
            if action == .counter(.increment) { state.count += 1 }
        }
        #expect(Self.notifications(app, [.other]) == 1)
    }

    @Test func anAbsentAffineFocusIsUnchanged() {
        let details = Behavior<Counter, Int, Void>.reduce { _, value in value += 1 }
            .lift(.action(Self.counterPrism).state(\AppState.details))
        #expect(Self.notifications(details, [.counter(.increment)]) == 0)
        #expect(Self.notifications(details, [.counter(.increment)], initial: AppState(details: 0)) == 1)
    }

    @Test func reactionsProducersAndIdentityAreUnchangedUnlessTheyReduce() {
        let producing = Behavior<AppAction, AppState, Void>.produce { _, _ in .doNothing }
        #expect(Self.notifications(producing, [.other]) == 0)
        #expect(Self.notifications(.identity, [.other]) == 0)
        let reacting = Behavior<AppAction, AppState, Void>.react { action, _ in
            action == .other ? .doNothing : .reduce { $0.count += 1 }
        }
        #expect(Self.notifications(reacting, [.other, .counter(.touch)]) == 1)
    }

    // MARK: Skipping equal values

    @Test func observingChangesOfAValueSkipsMutationsThatLeaveItEqual() {
        let app = Self.counter.lift(.action(Self.counterPrism).state(\AppState.count))
        let store = Store(initial: AppState(), behavior: app)
        var plain = 0
        var seen: [Int] = []
        let plainToken = store.observe(didChange: { plain += 1 })
        let token = store.observe(changesOf: \.count) { seen.append($0) }
        store.dispatch(.counter(.touch))
        store.dispatch(.counter(.increment))
        store.dispatch(.counter(.touch))
        store.dispatch(.counter(.increment))
        #expect(plain == 4)
        #expect(seen == [1, 2])
        _ = (plainToken, token)
    }

    @Test func aDerivedValueIsComparedNotTheWholeState() {
        let log = Behavior<AppAction, AppState, Void>.reduce { action, state in state.log.append("\(action)") }
        let store = Store(initial: AppState(), behavior: log)
        var counts: [Int] = []
        let token = store.observe(changesOf: { $0.count }) { counts.append($0) }
        store.dispatch(.other)
        store.dispatch(.other)
        #expect(counts.isEmpty, "the log changed, the observed count did not")
        _ = token
    }

    @Test func observingDistinctStatesSkipsEqualStates() {
        let app = Self.counter.lift(.action(Self.counterPrism).state(\AppState.count))
        let store = Store(initial: AppState(), behavior: app)
        var states: [Int] = []
        let token = store.observeDistinctStates { states.append($0.count) }
        store.dispatch(.counter(.touch))
        store.dispatch(.counter(.increment))
        store.dispatch(.counter(.touch))
        #expect(states == [1])
        _ = token
    }

    @Test func cancellingTheTokenEndsTheObservationAtOnce() {
        let app = Self.counter.lift(.action(Self.counterPrism).state(\AppState.count))
        let store = Store(initial: AppState(), behavior: app)
        var seen: [Int] = []
        let token = store.observe(changesOf: \.count) { seen.append($0) }
        store.dispatch(.counter(.increment))
        token.cancel()
        store.dispatch(.counter(.increment))
        #expect(seen == [1])
    }

    @Test func theObserverWorksOnProjectionsAndBuffersToo() {
        let app = Self.counter.lift(.action(Self.counterPrism).state(\AppState.count))
        let store = Store(initial: AppState(), behavior: app)
        let projection = store.projection(action: AppAction.counter, state: \.count)
        var seen: [Int] = []
        let token = projection.observe(changesOf: { $0 }) { seen.append($0) }
        projection.dispatch(.touch)
        projection.dispatch(.increment)
        #expect(seen == [1])
        _ = token
    }
}
