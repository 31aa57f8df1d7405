import SwiftRex
import Synchronization
import Testing

/// Bad input: effects, timers, channels and actions that outlive their Store. Defined outcome:
/// releasing the Store cancels every run, timer and channel exactly once; an action sent
/// afterwards is dropped; a pending timer never fires; `liveState` reads `nil`; a token cancelled
/// after the Store is gone is a no-op.
@MainActor
@Suite("Bad input: after teardown")
struct TeardownTests {
    enum Action: Sendable, Equatable { case start, open, sent }
    struct State: Sendable, Equatable {
        var sent = 0
        var isLive = false
    }

    static let reducer = Behavior<Action, State, Void>.reduce { action, state in
        switch action {
        case .sent: state.sent += 1
        case .open: state.isLive = true
        case .start: break
        }
    }

    @Test func anActionSentByAnEffectAfterTeardownIsDroppedAndTheEffectCancelledOnce() async {
        let log = EventLog()
        let sender = Mutex<(@Sendable (DispatchedAction<Action>) -> Void)?>(nil)
        weak var weakStore: Store<Action, State, Void>?
        do {
            let store = Store(
                initial: State(),
                behavior: Self.reducer.produce { action, _ in
                    action == .start
                        ? Producer { _ in
                            .subscribe { send, _ in
                                sender.withLock { $0 = send }
                                return SubscriptionToken { log.append("cancelled") }
                            }
                        } : .doNothing
                })
            weakStore = store
            store.dispatch(.start)
        }
        #expect(await eventually { weakStore == nil })
        sender.withLock { $0 }?(DispatchedAction(.sent))
        for _ in 0..<20 { await Task.yield() }
        #expect(log.events == ["cancelled"])
    }

    @Test func aPendingTimerIsCancelledAndNeverFires() async {
        let clock = ManualClock()
        let log = EventLog()
        weak var weakStore: Store<Action, State, Void>?
        do {
            let store = Store(
                initial: State(),
                behavior: Self.reducer.produce { action, _ in
                    action == .start
                        ? Producer { _ in
                            .subscribe(scheduling: .debounce(id: "save", delay: .seconds(1))) { _, _ in
                                log.append("ran")
                                return .empty
                            }
                        } : .doNothing
                }, environment: (), clock: { _ in clock })
            weakStore = store
            store.dispatch(.start)
            #expect(clock.pendingCount == 1)
        }
        #expect(await eventually { weakStore == nil })
        #expect(clock.pendingCount == 0)
        clock.advance(by: .seconds(5))
        #expect(log.events.isEmpty)
    }

    @Test func aSupervisedChannelClosesExactlyOnceAtTeardown() async {
        let log = EventLog()
        weak var weakStore: Store<Action, State, Void>?
        do {
            let behavior = Self.reducer.supervise { state in
                Supervision { _ in
                    state.isLive
                        ? [
                            Channel<Action>(id: "socket") { _ in
                                log.append("open")
                                return .cancelOnly { log.append("close") }
                            }
                        ] : []
                }
            }
            let store = Store(initial: State(), behavior: behavior)
            weakStore = store
            store.dispatch(.open)
        }
        #expect(await eventually { weakStore == nil })
        for _ in 0..<20 { await Task.yield() }
        #expect(log.events == ["open", "close"])
    }

    @Test func liveStateReadsNilOnceTheStoreIsGone() async {
        let reader = Mutex<(@Sendable () -> Int?)?>(nil)
        weak var weakStore: Store<Action, State, Void>?
        do {
            let store = Store(
                initial: State(),
                behavior: Self.reducer.produce { action, _ in
                    action == .start
                        ? Producer { context in
                            reader.withLock { $0 = { MainActor.assumeIsolated { context.liveState?.sent } } }
                            return .empty
                        } : .doNothing
                })
            weakStore = store
            store.dispatch(.start)
            #expect(reader.withLock { $0 }?() == 0)
        }
        #expect(await eventually { weakStore == nil })
        #expect(reader.withLock { $0 }?() == nil)
    }

    @Test func cancellingAnObserverTokenAfterTeardownIsANoOp() async {
        var token: SubscriptionToken?
        weak var weakStore: Store<Action, State, Void>?
        var calls = 0
        do {
            let store = Store(initial: State(), behavior: Self.reducer)
            token = store.observe(didChange: { calls += 1 })
            weakStore = store
            store.dispatch(.sent)
        }
        #expect(await eventually { weakStore == nil })
        token?.cancel()
        token = nil
        #expect(calls == 1)
    }
}
