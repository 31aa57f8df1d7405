import SwiftRex
import Synchronization
import Testing

/// A thread-safe event log for effects and channels.
final class EventLog: Sendable {
    private let storage = Mutex<[String]>([])
    func append(_ event: String) { storage.withLock { $0.append(event) } }
    var events: [String] { storage.withLock { $0 } }
    func count(of event: String) -> Int { events.filter { $0 == event }.count }
}

@MainActor
@Suite struct StoreEffectTests {
    enum Action: Sendable, Equatable {
        case ping, pong
        case search(String)
        case result(String)
        case start(String)
        case finished(String)
        case tick, toggle
        case setRoom(Int)
        case setVolume(Int)
    }

    struct State: Sendable, Equatable {
        var pongs = 0
        var results: [String] = []
        var finished: [String] = []
        var isLive = false
        var room = 0
        var volume = 0
        var ticks = 0
    }

    struct Environment: Sendable {
        let clock: ManualClock
        let log: EventLog
    }

    static let reducer = Behavior<Action, State, Environment>.reduce { action, state in
        switch action {
        case .pong: state.pongs += 1
        case .result(let value): state.results.append(value)
        case .finished(let value): state.finished.append(value)
        case .toggle: state.isLive.toggle()
        case .setRoom(let room): state.room = room
        case .setVolume(let volume): state.volume = volume
        case .tick: state.ticks += 1
        case .ping, .search, .start: break
        }
    }

    func makeStore(_ behavior: Behavior<Action, State, Environment>, clock: ManualClock = ManualClock(), log: EventLog = EventLog()) -> Store<
        Action, State, Environment
    > {
        Store(initial: State(), behavior: Self.reducer <> behavior, environment: Environment(clock: clock, log: log), clock: { $0.clock })
    }

    @Test func effectActionsArriveOnALaterTurnThroughTheMailbox() async {
        let store = makeStore(
            .produce { action, _ in
                guard action == .ping else { return .doNothing }
                return Producer { _ in .just(.pong) }
            })
        store.dispatch(.ping)
        #expect(store.state.pongs == 0)
        #expect(await eventually { store.state.pongs == 1 })
    }

    @Test func aSequenceIsDeliveredInOrder() async {
        let store = makeStore(
            .produce { action, _ in
                guard action == .ping else { return .doNothing }
                return Producer { _ in .sequence([.result("a"), .result("b"), .result("c")]) }
            })
        store.dispatch(.ping)
        #expect(await eventually { store.state.results.count == 3 })
        #expect(store.state.results == ["a", "b", "c"])
    }

    @Test func debounceKeepsOnlyTheLastCallOfABurst() async {
        let clock = ManualClock()
        let store = makeStore(
            .produce { action, _ in
                guard case .search(let query) = action else { return .doNothing }
                return Producer { _ in .just(.result(query), scheduling: .debounce(id: "search", delay: .milliseconds(300))) }
            }, clock: clock)
        store.dispatch(.search("a"))
        clock.advance(by: .milliseconds(100))
        store.dispatch(.search("ab"))
        clock.advance(by: .milliseconds(100))
        store.dispatch(.search("abc"))
        clock.advance(by: .milliseconds(299))
        for _ in 0..<20 { await Task.yield() }
        #expect(store.state.results.isEmpty)
        #expect(!store.isIdle)
        clock.advance(by: .milliseconds(1))
        #expect(await eventually { store.state.results == ["abc"] })
        #expect(store.isIdle)
    }

    @Test func throttleDropsCallsInsideTheWindowAndReopensAfterIt() async {
        let clock = ManualClock()
        let store = makeStore(
            .produce { action, _ in
                guard case .search(let query) = action else { return .doNothing }
                return Producer { _ in .just(.result(query), scheduling: .throttle(id: "t", interval: .milliseconds(500))) }
            }, clock: clock)
        store.dispatch(.search("1"))
        clock.advance(by: .milliseconds(100))
        store.dispatch(.search("2"))
        clock.advance(by: .milliseconds(400))
        store.dispatch(.search("3"))
        #expect(await eventually { store.state.results == ["1", "3"] })
    }

    @Test func replacingCancelsTheRunningEffectExactlyOnce() async {
        let log = EventLog()
        let store = makeStore(
            .produce { action, _ in
                guard case .start(let name) = action else { return .doNothing }
                return Producer { ctx in
                    .subscribe(scheduling: .replacing(id: "job")) { _, _ in
                        ctx.environment.log.append("start \(name)")
                        return SubscriptionToken { ctx.environment.log.append("cancel \(name)") }
                    }
                }
            }, log: log)
        store.dispatch(.start("a"))
        store.dispatch(.start("b"))
        #expect(log.events == ["start a", "cancel a", "start b"])
        store.cancelEffects(id: "job")
        store.cancelEffects(id: "job")
        #expect(log.events == ["start a", "cancel a", "start b", "cancel b"])
    }

    @Test func aDelayWithoutIdStartsAfterTheDelay() async {
        let clock = ManualClock()
        let store = makeStore(
            .produce { action, _ in
                guard action == .ping else { return .doNothing }
                return Producer { _ in .just(.pong, scheduling: EffectScheduling.immediately.delayed(by: .seconds(1))) }
            }, clock: clock)
        store.dispatch(.ping)
        clock.advance(by: .milliseconds(999))
        for _ in 0..<20 { await Task.yield() }
        #expect(store.state.pongs == 0)
        clock.advance(by: .milliseconds(1))
        #expect(await eventually { store.state.pongs == 1 })
    }

    @Test func zeroAndNegativeDurationsStartAtOnce() async {
        let store = makeStore(
            .produce { action, _ in
                guard action == .ping else { return .doNothing }
                return Producer { _ in
                    .combine(
                        .just(.pong, scheduling: .debounce(id: "d", delay: .zero)),
                        .just(.pong, scheduling: EffectScheduling.keyed(id: "k").delayed(by: .seconds(-3)))
                    )
                }
            })
        store.dispatch(.ping)
        #expect(await eventually { store.state.pongs == 2 })
    }

    @Test func cancellingAnUnknownIdDoesNothing() {
        let store = makeStore(.produce { _, _ in Producer { _ in .cancel(id: "nobody") } })
        store.dispatch(.ping)
        store.cancelEffects(id: 42)
        #expect(store.isIdle)
        #expect(store.registeredEffectCount == 0)
    }

    @Test func aRunawayLoopThroughEffectsIsCutOffAndReported() async {
        let store = makeStore(
            .produce { action, _ in
                guard action == .ping else { return .doNothing }
                return Producer { _ in .combine(.just(.pong), .just(.ping)) }
            })
        store.reentranceThreshold = 5
        var reports: [StoreReentranceInfo] = []
        store.onReentranceDetected = { reports.append($0) }
        store.dispatch(.ping)
        #expect(await eventually { !reports.isEmpty })
        for _ in 0..<50 { await Task.yield() }
        #expect(reports.count == 1)
        #expect(reports.first?.kind == .throughEffects)
        #expect(store.state.pongs == 5)
    }

    @Test func actionsSentAfterTheStoreIsGoneAreDropped() async {
        let log = EventLog()
        let sender = Mutex<(@Sendable (DispatchedAction<Action>) -> Void)?>(nil)
        weak var weakStore: Store<Action, State, Environment>?
        do {
            let store = makeStore(
                .produce { action, _ in
                    guard action == .ping else { return .doNothing }
                    return Producer { _ in
                        .subscribe { send, _ in
                            sender.withLock { $0 = send }
                            return SubscriptionToken { log.append("cancelled") }
                        }
                    }
                }, log: log)
            weakStore = store
            store.dispatch(.ping)
        }
        #expect(await eventually { weakStore == nil })
        let send = sender.withLock { $0 }
        send?(DispatchedAction(.pong))
        for _ in 0..<20 { await Task.yield() }
        #expect(log.events == ["cancelled"])
    }

    @Test func aBroadcastWithNoLiveChannelIsDropped() {
        let store = makeStore(
            .produce { action, _ in
                guard action == .ping else { return .doNothing }
                return Producer { _ in .broadcast(7, channel: "radio") }
            })
        store.dispatch(.ping)
        #expect(store.openChannelIDs.isEmpty)
        #expect(store.registeredEffectCount == 0)
    }

    // MARK: Supervision

    nonisolated static func liveChannel(_ log: EventLog, room: Int, volume: Int) -> Channel<Action> {
        Channel(id: "feed", lifetime: .ephemeral(resetKey: room), broadcasting: .onChange(volume)) { dispatch in
            log.append("open \(room)")
            return ChannelHandler(receive: { log.append("volume \($0)") }, cancel: { log.append("close \(room)") })
        }
    }

    static func supervised(_ log: EventLog) -> Behavior<Action, State, Environment> {
        .supervise { state in
            Supervision { _ in state.isLive ? [liveChannel(log, room: state.room, volume: state.volume)] : [] }
        }
    }

    @Test func aSupervisedChannelOpensWhileTheStateWantsItAndClosesWhenItLeaves() {
        let log = EventLog()
        let store = makeStore(Self.supervised(log), log: log)
        #expect(log.events.isEmpty)
        store.dispatch(.toggle)
        #expect(log.events == ["open 0", "volume 0"])
        #expect(store.openChannelIDs == [AnyHashableSendable("feed")])
        store.dispatch(.setVolume(3))
        #expect(log.events == ["open 0", "volume 0", "volume 3"])
        store.dispatch(.setRoom(1))
        #expect(log.events == ["open 0", "volume 0", "volume 3", "close 0", "open 1", "volume 3"])
        store.dispatch(.tick)
        #expect(log.events.count == 6)
        store.dispatch(.toggle)
        #expect(log.events.last == "close 1")
        #expect(store.openChannelIDs.isEmpty)
    }

    @Test func theInitialStateOpensItsChannelsAtInit() {
        let log = EventLog()
        let behavior = Self.reducer <> Self.supervised(log)
        var initial = State()
        initial.isLive = true
        let store = Store(initial: initial, behavior: behavior, environment: Environment(clock: ManualClock(), log: log), clock: { $0.clock })
        #expect(log.events == ["open 0", "volume 0"])
        _ = store
    }

    @Test func releasingTheStoreCancelsEveryChannelAndEffectExactlyOnce() async {
        let log = EventLog()
        weak var weakStore: Store<Action, State, Environment>?
        do {
            let store = makeStore(
                Self.supervised(log)
                    <> .produce { action, _ in
                        guard action == .ping else { return .doNothing }
                        return Producer { _ in .subscribe(scheduling: .keyed(id: "job")) { _, _ in SubscriptionToken { log.append("job cancelled") } }
                        }
                    }, log: log)
            weakStore = store
            store.dispatch(.toggle)
            store.dispatch(.ping)
        }
        #expect(await eventually { weakStore == nil })
        #expect(log.count(of: "close 0") == 1)
        #expect(log.count(of: "job cancelled") == 1)
    }

    @Test func cancellingASupervisedChannelByIdKeepsItClosedUntilItLeavesAndComesBack() {
        let log = EventLog()
        let store = makeStore(
            Self.supervised(log)
                <> .produce { action, _ in
                    guard action == .ping else { return .doNothing }
                    return Producer { _ in .cancel(id: "feed") }
                }, log: log)
        store.dispatch(.toggle)
        store.dispatch(.ping)
        #expect(log.events == ["open 0", "volume 0", "close 0"])
        store.dispatch(.setVolume(9))
        store.dispatch(.setRoom(4))
        #expect(log.events == ["open 0", "volume 0", "close 0"])
        store.dispatch(.toggle)
        store.dispatch(.toggle)
        #expect(log.events == ["open 0", "volume 0", "close 0", "open 4", "volume 9"])
    }

    @Test func aOneShotEffectSharingAChannelIdReplacesTheChannel() {
        let log = EventLog()
        let store = makeStore(
            Self.supervised(log)
                <> .produce { action, _ in
                    guard action == .ping else { return .doNothing }
                    return Producer { _ in .subscribe(scheduling: .keyed(id: "feed")) { _, _ in .empty } }
                }, log: log)
        store.dispatch(.toggle)
        store.dispatch(.ping)
        #expect(log.events == ["open 0", "volume 0", "close 0"])
        #expect(store.openChannelIDs.isEmpty)
    }
}

@MainActor
@Suite struct StoreInspectionFromEffectsTests {
    enum Action: Sendable, Equatable {
        case start
        case inspected(Bool, Int, Int)
    }

    @Test func readingTheStoresEffectStateFromInsideAnEffectIsSafe() async {
        let box = StoreBox()
        let behavior = Behavior<Action, Int, Void>
            .reduce { action, state in if case .inspected = action { state += 1 } }
            .produce { action, _ in
                guard action == .start else { return .doNothing }
                return Producer { _ in
                    .subscribe(scheduling: .keyed(id: "inspect")) { send, complete in
                        // Runs synchronously inside the engine's scheduling operation.
                        MainActor.assumeIsolated {
                            if let store = box.store {
                                send(DispatchedAction(.inspected(store.isIdle, store.openChannelIDs.count, store.registeredEffectCount)))
                            }
                        }
                        complete()
                        return .empty
                    }
                }
            }
        let store = Store(initial: 0, behavior: behavior)
        box.store = store
        store.dispatch(.start)
        #expect(await eventually { store.state == 1 })
    }

    @MainActor
    final class StoreBox: @unchecked Sendable {
        /// Weak: the store's behavior captures this box, so a strong reference would be a cycle
        /// (LeakSanitizer reported the store of this test as leaked).
        weak var store: Store<Action, Int, Void>?
    }
}
