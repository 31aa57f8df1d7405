import SwiftRex
import SwiftRexTestSupport
import Testing

/// Waits (bounded) until `condition` holds, yielding the main actor between checks.
@MainActor
func eventually(_ condition: () -> Bool, turns: Int = 1_000) async -> Bool {
    for _ in 0..<turns {
        if condition() { return true }
        await Task.yield()
    }
    return condition()
}

@MainActor
@Suite struct StoreDispatchTests {
    enum CounterAction: Sendable, Equatable {
        case add(Int)
        case noop
    }

    static let adder = Reducer<CounterAction, Int>.reduce { action, state in
        if case .add(let amount) = action { state += amount }
    }

    @Test func dispatchMutatesInPlaceAndNotifiesWillChangeThenDidChange() {
        let store = Store(initial: 0, reducer: Self.adder)
        var log: [String] = []
        let token = store.observe(willChange: { log.append("will \(store.state)") }, didChange: { log.append("did \(store.state)") })
        store.dispatch(.add(2))
        #expect(store.state == 2)
        #expect(log == ["will 0", "did 2"])
        _ = token
    }

    @Test func unitsThatAlwaysApplyRunInOrderOnTheSameState() {
        let timesTen = Reducer<CounterAction, Int>.reduce { _, state in state *= 10 }
        let reducer = Reducer.mconcat([Self.adder, timesTen, Self.adder])
        let quiet = Store(initial: 1, reducer: reducer)
        quiet.dispatch(.add(2))
        #expect(quiet.state == 32)
        let observed = Store(initial: 1, reducer: reducer)
        var log: [String] = []
        let token = observed.observe(willChange: { log.append("will \(observed.state)") }, didChange: { log.append("did \(observed.state)") })
        observed.dispatch(.add(2))
        #expect(observed.state == 32)
        #expect(log == ["will 1", "did 32"])
        _ = token
    }

    @Test func anIdentityReducerNotifiesNobody() {
        let store = Store(initial: 0, reducer: Reducer<CounterAction, Int>.identity)
        var calls = 0
        let token = store.observe(willChange: { calls += 1 }, didChange: { calls += 1 })
        store.dispatch(.add(1))
        #expect(calls == 0)
        _ = token
    }

    @Test func anObserverThatDispatchesDuringDidChangeIsProcessedAfterInFIFOOrder() {
        let store = Store(initial: 0, reducer: Self.adder)
        var seen: [Int] = []
        var first = true
        let token = store.observe(didChange: {
            seen.append(store.state)
            if first {
                first = false
                store.dispatch(.add(3))
                store.dispatch(.add(2))
                store.dispatch(.add(1))
            }
        })
        store.dispatch(.add(0))
        #expect(seen == [0, 3, 5, 6])
        _ = token
    }

    @Test func observersAreCalledInSubscriptionOrderAndCancellingTakesEffectMidNotification() {
        let store = Store(initial: 0, reducer: Self.adder)
        var log: [Int] = []
        var second: SubscriptionToken?
        let first = store.observe(didChange: {
            log.append(1)
            second?.cancel()
        })
        second = store.observe(didChange: { log.append(2) })
        let third = store.observe(didChange: { log.append(3) })
        store.dispatch(.add(1))
        #expect(log == [1, 3])
        store.dispatch(.add(1))
        #expect(log == [1, 3, 1, 3])
        #expect(store.observerCount == 2)
        _ = (first, third)
    }

    @Test func anObserverMayReleaseItsOwnTokenWhileBeingNotified() {
        // The observer's closure, and what it captures, outlive its own notification only.
        final class Captured {}
        let store = Store(initial: 0, reducer: Self.adder)
        var calls = 0
        var captured: Captured? = Captured()
        weak let watched = captured
        var token: SubscriptionToken?
        token = store.observe(didChange: { [captured] in
            calls += 1
            token = nil
            _ = captured
        })
        captured = nil
        store.dispatch(.add(1))
        #expect(calls == 1)
        #expect(store.observerCount == 0)
        #expect(watched == nil)
        store.dispatch(.add(1))
        #expect(calls == 1)
        #expect(store.state == 2)
        #expect(token == nil)
    }

    @Test func releasingAnObserverTokenStopsTheObservationAtOnce() {
        let store = Store(initial: 0, reducer: Self.adder)
        var calls = 0
        var token: SubscriptionToken? = store.observe(didChange: { calls += 1 })
        store.dispatch(.add(1))
        token = nil
        store.dispatch(.add(1))
        #expect(calls == 1)
        #expect(token == nil)
    }

    @Test func aSynchronousRunawayLoopIsCutOffAtTheThresholdAndReported() {
        let store = Store(initial: 0, reducer: Self.adder)
        store.reentranceThreshold = 10
        var reports: [StoreReentranceInfo] = []
        store.onReentranceDetected = { reports.append($0) }
        let token = store.observe(didChange: { store.dispatch(.add(1)) })
        store.dispatch(.add(1))
        #expect(store.state == 10)
        #expect(reports.count == 1)
        #expect(reports.first?.kind == .synchronous)
        #expect(reports.first?.drainedCount == 11)
        #expect(reports.first?.threshold == 10)
        _ = token
    }

    @Test func queuedActionsRunInOrderAndAreReleasedOnceProcessed() {
        // Each change queues the next two actions while there are any left: processed FIFO, the
        // log is in dispatch order (breadth-first), and no queued action outlives its turn.
        let tracker = LifetimeTracker()
        let store = Store(initial: [Int](), reducer: Reducer<Tracked<Int>, [Int]>.reduce { action, log in log.append(action.payload) })
        var next = 1
        let token = store.observe(didChange: {
            guard next < 6 else { return }
            store.dispatch(tracker.instance(next))
            store.dispatch(tracker.instance(next + 1))
            next += 2
        })
        store.dispatch(tracker.instance(0))
        #expect(store.state == [0, 1, 2, 3, 4, 5, 6])
        #expect(tracker.createdCount == 7)
        #expect(tracker.liveCount == 0)
        _ = token
    }

    @Test func aRunawayCutReleasesTheActionsItDrops() {
        // Every change queues two more: the cut at the threshold drops a queue of waiting actions,
        // and each of them is released.
        let tracker = LifetimeTracker()
        let store = Store(initial: [Int](), reducer: Reducer<Tracked<Int>, [Int]>.reduce { action, log in log.append(action.payload) })
        store.reentranceThreshold = 5
        var reports: [StoreReentranceInfo] = []
        store.onReentranceDetected = { reports.append($0) }
        let token = store.observe(didChange: {
            store.dispatch(tracker.instance(1))
            store.dispatch(tracker.instance(2))
        })
        store.dispatch(tracker.instance(0))
        #expect(store.state.count == 5)
        #expect(reports.map(\.drainedCount) == [6])
        #expect(tracker.createdCount > 6)
        #expect(tracker.liveCount == 0)
        _ = token
    }

    @Test func theThresholdIsClampedToAtLeastOne() {
        let store = Store(initial: 0, reducer: Self.adder)
        store.reentranceThreshold = 0
        #expect(store.reentranceThreshold == 1)
        store.onReentranceDetected = { _ in }
        store.dispatch(.add(1))
        #expect(store.state == 1)
    }

    @Test func releasingTheStoreReleasesItsState() {
        weak var weakStore: Store<CounterAction, Int, Void>?
        do {
            let store = Store(initial: 0, reducer: Self.adder)
            weakStore = store
            store.dispatch(.add(1))
        }
        #expect(weakStore == nil)
    }
}
