import SwiftRex
import SwiftRexTestSupport
import Testing

/// Observers and state streams leave nothing behind: what an observer or a stream's consumer
/// captured is released once its token is cancelled (even from inside its own callback) or its
/// store dies. The stores are built from ``LeakTrackingTests``' domain; a ``LifetimeTracker`` counts
/// what is captured.
@MainActor
@Suite struct ObserverLeakTrackingTests {
    typealias Action = LeakTrackingTests.Action
    typealias State = LeakTrackingTests.State
    typealias Environment = LeakTrackingTests.Environment

    /// Main-actor turns to wait for a consumer's task: ``LeakTrackingTests/taskTurns``.
    static let taskTurns = LeakTrackingTests.taskTurns

    func makeStore(_ behavior: Behavior<Action, State, Environment>, environment: Environment) -> Store<Action, State, Environment> {
        LeakTrackingTests().makeStore(behavior, environment: environment)
    }

    // MARK: Observers

    // An observer's removal runs on the main actor; `SubscriptionToken` may reach it on a later
    // turn (see `onMainActor`), so releases are awaited. Its callbacks stop at once either way.

    @Test func anObserversCapturesAreReleasedWhenItsTokenIsCancelled() async {
        let tracker = LifetimeTracker()
        let store = makeStore(.identity, environment: Environment())
        var token: SubscriptionToken?
        do {
            let captured = tracker.instance("observer")
            token = store.observe(willChange: { _ = captured }, didChange: { _ = captured })
        }
        store.dispatch(.goLive)
        #expect(tracker.liveCount == 1)
        #expect(store.observerCount == 1)
        token?.cancel()
        #expect(store.observerCount == 0)
        #expect(await eventually { tracker.allReleased })
        tracker.expectAllReleased()
        token = nil
        store.dispatch(.setRoom(3))
    }

    @Test func anObserverCancelledWhileBeingNotifiedIsReleasedAfterTheNotification() async {
        let tracker = LifetimeTracker()
        let store = makeStore(.identity, environment: Environment())
        let box = TokenBox()
        do {
            let captured = tracker.instance("observer")
            box.token = store.observe(
                willChange: nil,
                didChange: {
                    _ = captured
                    box.token?.cancel()
                })
        }
        store.dispatch(.goLive)
        #expect(store.observerCount == 0)
        #expect(await eventually { tracker.allReleased })
        tracker.expectAllReleased()
        store.dispatch(.setRoom(2))
    }

    @Test func anObserversCapturesAreReleasedWhenTheStoreDies() async {
        let tracker = LifetimeTracker()
        weak var weakStore: Store<Action, State, Environment>?
        var token: SubscriptionToken?
        do {
            let store = makeStore(.identity, environment: Environment())
            weakStore = store
            let captured = tracker.instance("observer")
            token = store.observe(willChange: { _ = captured }, didChange: { _ = captured })
            store.dispatch(.goLive)
        }
        #expect(await eventually { weakStore == nil })
        tracker.expectAllReleased()
        token?.cancel() // outliving the store is harmless
        #expect(token?.isCancelled == true)
    }

    @Test func aStateStreamFinishesAndReleasesItsConsumerWhenTheStoreDies() async {
        let tracker = LifetimeTracker()
        weak var weakStore: Store<Action, State, Environment>?
        let consumer: Task<Int, Never>
        do {
            let store = makeStore(.identity, environment: Environment())
            weakStore = store
            let stream = store.stream
            let captured = tracker.instance("consumer")
            consumer = Task {
                var count = 0
                for await _ in stream { count += 1 }
                _ = captured
                return count
            }
            store.dispatch(.goLive)
        }
        #expect(await eventually { weakStore == nil })
        #expect(await consumer.value == 2)
        #expect(await eventually({ tracker.allReleased }, turns: Self.taskTurns))
        tracker.expectAllReleased()
    }

    /// Lets an observer cancel its own token from inside its callback.
    @MainActor
    final class TokenBox: Sendable {
        var token: SubscriptionToken?
    }
}
