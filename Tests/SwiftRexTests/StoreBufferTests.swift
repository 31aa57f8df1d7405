import SwiftRex
import Testing

@MainActor
@Suite struct StoreBufferTests {
    enum Action: Sendable, Equatable {
        case set(Int)
        case setLabel(String)
        case touch
    }

    struct State: Sendable, Equatable {
        var value = 0
        var label = ""
    }

    static let reducer = Reducer<Action, State>.reduce { action, state in
        switch action {
        case .set(let value): state.value = value
        case .setLabel(let label): state.label = label
        case .touch: break
        }
    }

    func makeStore() -> Store<Action, State, Void> {
        Store(initial: State(), reducer: Self.reducer)
    }

    @Test func theBufferStartsWithTheUnderlyingState() {
        let store = makeStore()
        store.dispatch(.set(4))
        let buffer = store.buffer()
        #expect(buffer.state == State(value: 4))
    }

    @Test func anEqualStateNotifiesNobody() {
        let store = makeStore()
        let buffer = store.buffer()
        var underlying = 0
        var buffered = 0
        let storeToken = store.observe(didChange: { underlying += 1 })
        let bufferToken = buffer.observe(willChange: { buffered += 1 }, didChange: { buffered += 1 })
        store.dispatch(.touch)
        store.dispatch(.set(0))
        #expect(underlying == 2)
        #expect(buffered == 0)
        _ = (storeToken, bufferToken)
    }

    @Test func aChangeNotifiesWillChangeWithTheOldStateThenDidChangeWithTheNew() {
        let store = makeStore()
        let buffer = store.buffer()
        var calls: [String] = []
        let token = buffer.observe(
            willChange: { calls.append("will \(buffer.state.value) (store \(store.state.value))") },
            didChange: { calls.append("did \(buffer.state.value)") }
        )
        store.dispatch(.set(2))
        #expect(calls == ["will 0 (store 2)", "did 2"])
        _ = token
    }

    @Test func aProjectedBufferIgnoresChangesOutsideItsSlice() {
        let store = makeStore()
        let value = store.projection(action: { $0 }, state: \.value).buffer()
        var notified = 0
        let token = value.observe(didChange: { notified += 1 })
        store.dispatch(.setLabel("x"))
        store.dispatch(.setLabel("y"))
        #expect(notified == 0)
        store.dispatch(.set(1))
        #expect(notified == 1)
        #expect(value.state == 1)
        _ = token
    }

    @Test func comparisonsAreAgainstTheLastPropagatedValue() {
        let store = makeStore()
        let buffer = store.projection(action: { $0 }, state: \.value).buffer(hasChanged: { old, new in abs(new - old) >= 10 })
        var seen: [Int] = []
        let token = buffer.observe(didChange: { seen.append(buffer.state) })
        store.dispatch(.set(6))
        #expect(buffer.state == 0)
        // 12 is 6 away from the last value seen but 12 away from the last propagated one (0).
        store.dispatch(.set(12))
        #expect(seen == [12])
        store.dispatch(.set(18))
        store.dispatch(.set(21))
        #expect(seen == [12])
        store.dispatch(.set(22))
        #expect(seen == [12, 22])
        _ = token
    }

    @Test func aCustomPredicateDecidesWhatCountsAsAChange() {
        let store = makeStore()
        let buffer = StoreBuffer(store, hasChanged: { $0.label.count != $1.label.count })
        var notified = 0
        let token = buffer.observe(didChange: { notified += 1 })
        store.dispatch(.set(5))
        store.dispatch(.setLabel("ab"))
        store.dispatch(.setLabel("cd"))
        #expect(notified == 1)
        #expect(buffer.state.label == "ab")
        _ = token
    }

    @Test func theEquatableInitialiserDeduplicates() {
        let store = makeStore()
        let buffer = StoreBuffer(store)
        var notified = 0
        let token = buffer.observe(didChange: { notified += 1 })
        store.dispatch(.touch)
        store.dispatch(.set(1))
        #expect(notified == 1)
        _ = token
    }

    @Test func dispatchIsForwardedUnchangedWithItsSource() {
        @MainActor final class Sources { var all: [ActionSource] = [] }
        let sources = Sources()
        let behavior =
            Self.reducer.asBehavior()
            <> Behavior<Action, State, Void>.produce { _, context in
                sources.all.append(context.source)
                return .doNothing
            }
        let store = Store(initial: State(), behavior: behavior)
        let buffer = store.buffer()
        let source = ActionSource(file: "View.swift", function: "body", line: 3)
        buffer.dispatch(.set(9), source: source)
        #expect(store.state.value == 9)
        #expect(buffer.state.value == 9)
        #expect(sources.all == [source])
    }

    @Test func observersAreCalledInSubscriptionOrder() {
        let store = makeStore()
        let buffer = store.buffer()
        var calls: [String] = []
        let tokens = (0..<4).map { index in
            buffer.observe(willChange: { calls.append("will \(index)") }, didChange: { calls.append("did \(index)") })
        }
        store.dispatch(.set(1))
        #expect(calls == ["will 0", "will 1", "will 2", "will 3", "did 0", "did 1", "did 2", "did 3"])
        _ = tokens
    }

    @Test func cancellingATokenStopsNotificationsAtOnce() {
        let store = makeStore()
        let buffer = store.buffer()
        var notified = 0
        let token = buffer.observe(didChange: { notified += 1 })
        #expect(buffer.observerCount == 1)
        store.dispatch(.set(1))
        token.cancel()
        #expect(buffer.observerCount == 0)
        store.dispatch(.set(2))
        #expect(notified == 1)
    }

    @Test func cancellingDuringANotificationSkipsTheRestOfIt() {
        let store = makeStore()
        let buffer = store.buffer()
        var calls: [String] = []
        var second: SubscriptionToken?
        let first = buffer.observe(
            willChange: {
                calls.append("will first")
                second?.cancel()
            }, didChange: { calls.append("did first") })
        second = buffer.observe(willChange: { calls.append("will second") }, didChange: { calls.append("did second") })
        store.dispatch(.set(1))
        #expect(calls == ["will first", "did first"])
        store.dispatch(.set(2))
        #expect(calls == ["will first", "did first", "will first", "did first"])
        _ = first
    }

    @Test func anObserverAddedDuringANotificationMissesIt() {
        let store = makeStore()
        let buffer = store.buffer()
        var calls: [String] = []
        var late: SubscriptionToken?
        let first = buffer.observe(didChange: {
            calls.append("first")
            if late == nil { late = buffer.observe(didChange: { calls.append("late") }) }
        })
        store.dispatch(.set(1))
        #expect(calls == ["first"])
        store.dispatch(.set(2))
        #expect(calls == ["first", "first", "late"])
        _ = first
    }

    @Test func theBufferKeepsItsUnderlyingProjectionAliveAndReleasesItsSubscription() {
        let store = makeStore()
        var buffer: StoreBuffer<Action, Int>? = store.projection(action: { $0 }, state: \.value).buffer()
        var notified = 0
        let token = buffer?.observe(didChange: { notified += 1 })
        #expect(store.observerCount == 1)
        store.dispatch(.set(3))
        #expect(notified == 1)
        #expect(buffer?.state == 3)
        buffer = nil
        #expect(store.observerCount == 0)
        store.dispatch(.set(4))
        #expect(notified == 1)
        _ = token
    }
}
