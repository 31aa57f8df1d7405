import SwiftRex
import SwiftRexTestSupport
import Testing

/// Teardown leaves nothing behind. Each test builds a real `Store` whose effects, timers, channels
/// and states hold objects counted by a ``LifetimeTracker``, tears part or all of it down, and
/// checks that every tracked object was released, that no timer is left on the `ManualClock`, and
/// that every channel and started effect was cancelled exactly once. Observers and state streams:
/// ``ObserverLeakTrackingTests``.
@MainActor
@Suite struct LeakTrackingTests {
    enum Action: Sendable, Equatable {
        case goLive
        case setRoom(Int)
        case setVolume(Int)
        case start, done
        case openDetail, closeDetail
        case row(ElementAction<Int, RowAction>)
        case removeRow(Int)
        case attach(Attachment)
        case attachToDetail(Attachment)
    }

    /// A tracked object held by state: equal only to itself.
    struct Attachment: Sendable, Equatable {
        let object: Tracked<String>

        init(_ object: Tracked<String>) { self.object = object }

        static func == (lhs: Attachment, rhs: Attachment) -> Bool { lhs.object === rhs.object }
    }

    enum RowAction: Sendable, Equatable {
        case rename(String)
        case autosave, sync, saved
    }

    struct Row: Identifiable, Sendable, Equatable {
        var id: Int
        var name = ""
        var attachment: Attachment?
    }

    struct Detail: Sendable, Equatable {
        var room = 0
        var volume = 0
        var attachment: Attachment?
    }

    struct State: Sendable, Equatable {
        var isLive = false
        var room = 0
        var volume = 0
        var detail: Detail?
        var rows: [Row] = []
        var attachment: Attachment?
    }

    /// What the features capture: the clock the Store schedules on, the tracker every captured
    /// object comes from (one per collection element, so one element's leftovers can be told
    /// apart) and a log of cancellations.
    struct Environment: Sendable {
        let clock: ManualClock
        let tracker: LifetimeTracker
        let rowTrackers: [Int: LifetimeTracker]
        let log: EventLog

        init(rowIDs: [Int] = []) {
            clock = ManualClock()
            tracker = LifetimeTracker()
            rowTrackers = Dictionary(uniqueKeysWithValues: rowIDs.map { ($0, LifetimeTracker()) })
            log = EventLog()
        }

        func tracker(forRow id: Int) -> LifetimeTracker { rowTrackers[id] ?? tracker }
    }

    static let rowPrism = Prism<Action, ElementAction<Int, RowAction>>(
        preview: { if case .row(let action) = $0 { action } else { nil } }, review: Action.row)

    static let reducer = Behavior<Action, State, Environment>.reduce { action, state in
        switch action {
        case .goLive: state.isLive = true
        case .setRoom(let room): state.room = room
        case .setVolume(let volume): state.volume = volume
        case .openDetail: state.detail = Detail()
        case .closeDetail: state.detail = nil
        case .removeRow(let id): state.rows.removeAll { $0.id == id }
        case .attach(let attachment): state.attachment = attachment
        case .attachToDetail(let attachment): state.detail?.attachment = attachment
        case .start, .done, .row: break
        }
    }

    /// Main-actor turns to wait for work on another thread (an effect's task): generous, since
    /// the suite also runs under sanitizers, and free when the condition already holds.
    static let taskTurns = 20_000

    func makeStore(_ behavior: Behavior<Action, State, Environment>, initial: State = State(), environment: Environment) -> Store<
        Action, State, Environment
    > {
        Store(initial: initial, behavior: Self.reducer <> behavior, environment: environment, clock: { $0.clock })
    }

    // MARK: Building blocks

    /// A one-shot effect that never completes by itself. Its closure captures a tracked object
    /// from the moment it is built (so a pending start holds it) and, once started, its token holds
    /// another one and logs `cancel <name>`.
    nonisolated static func pendingWork<A: Sendable>(_ name: String, scheduling: EffectScheduling, tracker: LifetimeTracker, log: EventLog) -> Effect<
        A
    > {
        let capture = tracker.instance("capture \(name)")
        return .subscribe(scheduling: scheduling) { _, _ in
            let resource = tracker.instance("resource \(name)")
            return SubscriptionToken {
                _ = capture
                _ = resource
                log.append("cancel \(name)")
            }
        }
    }

    /// A channel whose body captures a tracked object and whose handler holds another one;
    /// closing it logs `close <name>`.
    nonisolated static func trackedChannel<A: Sendable>(
        _ name: String,
        id: some Hashable & Sendable,
        lifetime: Channel<A>.Lifetime = .permanent,
        tracker: LifetimeTracker,
        log: EventLog
    ) -> Channel<A> {
        trackedChannel(name, id: id, lifetime: lifetime, broadcasting: Broadcasting<Int>.nothing, tracker: tracker, log: log)
    }

    /// ``trackedChannel(_:id:lifetime:tracker:log:)`` receiving a broadcast value, paced by `delivery`.
    nonisolated static func trackedChannel<A: Sendable, Value: Hashable & Sendable>(
        _ name: String,
        id: some Hashable & Sendable,
        lifetime: Channel<A>.Lifetime = .permanent,
        broadcasting: Broadcasting<Value>,
        delivery: ChannelDelivery = .immediate,
        tracker: LifetimeTracker,
        log: EventLog
    ) -> Channel<A> {
        let capture = tracker.instance("capture \(name)")
        return Channel(id: id, lifetime: lifetime, broadcasting: broadcasting, delivery: delivery) { _ in
            let handle = tracker.instance("handle \(name)")
            return ChannelHandler(
                receive: { value in
                    _ = capture
                    log.append("\(name) received \(value)")
                },
                cancel: {
                    _ = handle
                    log.append("close \(name)")
                }
            )
        }
    }

    // MARK: (a) The whole store is dropped

    /// One-shot, keyed, debounced, delayed and async effects, a channel with a pending debounced
    /// delivery, a channel waiting to settle and a live channel, all alive when the store goes.
    static let everything = Behavior<Action, State, Environment>
        .produce { action, _ in
            guard action == .start else { return .doNothing }
            return Producer { context in
                let env = context.environment
                let clock = context.generators.clock
                let taskCapture = env.tracker.instance("capture task")
                return .mconcat([
                    pendingWork("job", scheduling: .keyed(id: "job"), tracker: env.tracker, log: env.log),
                    pendingWork("anonymous", scheduling: .immediately, tracker: env.tracker, log: env.log),
                    pendingWork("debounced", scheduling: .debounce(id: "debounced", delay: .seconds(5)), tracker: env.tracker, log: env.log),
                    pendingWork("delayed", scheduling: EffectScheduling.immediately.delayed(by: .seconds(10)), tracker: env.tracker, log: env.log),
                    .subscribe { _, complete in
                        let resource = env.tracker.instance("resource completed")
                        complete()
                        return SubscriptionToken {
                            _ = resource
                            env.log.append("cancel completed")
                        }
                    },
                    .task(scheduling: .keyed(id: "task")) { send in
                        let resource = env.tracker.instance("resource task")
                        env.log.append("task sleeping")
                        do {
                            try await clock.sleep(for: .seconds(100))
                        } catch {
                            env.log.append("task cancelled")
                            return
                        }
                        _ = taskCapture
                        _ = resource
                        env.log.append("task woke")
                        send(.done)
                    },
                ])
            }
        }
        .supervise { state in
            Supervision { env in
                guard state.isLive else { return [] }
                return [
                    trackedChannel(
                        "socket", id: "socket", broadcasting: .onChange(state.volume),
                        delivery: .debounce(.milliseconds(200)), tracker: env.tracker, log: env.log),
                    trackedChannel(
                        "room \(state.room)", id: "room", lifetime: .ephemeral(resetKey: state.room, settle: .seconds(1)),
                        tracker: env.tracker, log: env.log),
                    trackedChannel("radio", id: "radio", tracker: env.tracker, log: env.log),
                ]
            }
        }

    @Test func droppingTheStoreReleasesItsStateAndEveryEffectTimerAndChannel() async {
        let environment = Environment()
        let tracker = environment.tracker
        let clock = environment.clock
        let log = environment.log
        weak var weakStore: Store<Action, State, Environment>?
        do {
            let store = makeStore(Self.everything, environment: environment)
            weakStore = store
            store.dispatch(.attach(Attachment(tracker.instance("state"))))
            store.dispatch(.goLive)
            store.dispatch(.setVolume(1)) // a debounced delivery into "socket" is pending
            store.dispatch(.setRoom(1)) // "room" closed; its re-creation waits to settle
            store.dispatch(.start)
            // Pending: the debounce and delay starts, the socket delivery, the room settle (behind
            // the store's one clock timer), the task's sleep.
            #expect(await eventually({ log.count(of: "task sleeping") == 1 && clock.pendingCount == 2 }, turns: Self.taskTurns))
            #expect(store.pendingEffects.filter(\.waitsOnTheClock).count == 4)
            // A run that completed released its token (its completion may arrive on a later turn).
            #expect(await eventually { log.count(of: "cancel completed") == 1 })
            #expect(store.openChannelIDs.count == 2)
            #expect(tracker.liveCount > 0)
        }
        #expect(await eventually { weakStore == nil })
        #expect(await eventually({ tracker.allReleased && log.count(of: "task cancelled") == 1 }, turns: Self.taskTurns))
        tracker.expectAllReleased()
        #expect(clock.pendingCount == 0)
        for name in ["cancel job", "cancel anonymous", "cancel completed", "close socket", "close room 0", "close radio", "task cancelled"] {
            #expect(log.count(of: name) == 1, "\(name)")
        }
        // The pending starts never ran, the settling room never reopened, the task never woke.
        for name in ["cancel debounced", "cancel delayed", "close room 1", "task woke"] {
            #expect(log.count(of: name) == 0, "\(name)")
        }
        clock.advance(by: .seconds(1_000))
        #expect(log.count(of: "task woke") == 0)
    }

    @Test func droppingAnIdleStoreReleasesTheCapturesOfItsBehavior() async {
        let environment = Environment()
        let tracker = environment.tracker
        weak var weakStore: Store<Action, State, Environment>?
        do {
            let dependency = tracker.instance("dependency")
            let behavior = Behavior<Action, State, Environment>
                .produce { _, _ in
                    _ = dependency
                    return .doNothing
                }
                .supervise { _ in
                    _ = dependency
                    return Supervision { _ in [] }
                }
            let store = makeStore(behavior, environment: environment)
            weakStore = store
            store.dispatch(.start)
        }
        #expect(await eventually { weakStore == nil })
        tracker.expectAllReleased()
    }

    // MARK: (b) One element is removed from a collection

    /// A row with two supervised channels (one with a debounced delivery of its name) and two
    /// one-shot effects: a debounced autosave and a keyed sync that never completes.
    static let row = Behavior<RowAction, Row, Environment>
        .reduce { action, row in
            if case .rename(let name) = action { row.name = name }
        }
        .produce { action, context in
            guard action == .autosave || action == .sync, let id = context.stateBefore?.id else { return .doNothing }
            return Producer { context in
                let env = context.environment
                return action == .autosave
                    ? pendingWork(
                        "autosave \(id)", scheduling: .debounce(id: "autosave", delay: .seconds(1)), tracker: env.tracker(forRow: id), log: env.log)
                    : pendingWork("sync \(id)", scheduling: .keyed(id: "sync"), tracker: env.tracker(forRow: id), log: env.log)
            }
        }
        .supervise { row in
            Supervision { env in
                [
                    trackedChannel("socket \(row.id)", id: "socket", tracker: env.tracker(forRow: row.id), log: env.log),
                    trackedChannel(
                        "presence \(row.id)", id: "presence", broadcasting: .onChange(row.name),
                        delivery: .debounce(.seconds(1)), tracker: env.tracker(forRow: row.id), log: env.log),
                ]
            }
        }

    static let rows = row.liftCollection(.action(rowPrism).state(\State.rows), site: "rows")

    /// Rows with these ids, each holding an object from its own tracker.
    static func rowState(_ ids: [Int], _ environment: Environment) -> State {
        var state = State()
        state.rows = ids.map { Row(id: $0, attachment: Attachment(environment.tracker(forRow: $0).instance("row state \($0)"))) }
        return state
    }

    @Test func removingOneElementReleasesItsStateChannelsAndTheirPendingDeliveries() async {
        let environment = Environment(rowIDs: [1, 2, 3])
        let removed = environment.tracker(forRow: 2)
        let log = environment.log
        let clock = environment.clock
        weak var weakStore: Store<Action, State, Environment>?
        do {
            let store = makeStore(Self.rows, initial: Self.rowState([1, 2, 3], environment), environment: environment)
            weakStore = store
            store.dispatch(.row(ElementAction(2, action: .rename("two")))) // a debounced delivery is pending
            #expect(clock.pendingCount == 1)
            #expect(store.openChannelIDs.count == 6)
            #expect(removed.liveCount > 0)

            store.dispatch(.removeRow(2))
            removed.expectAllReleased()
            #expect(log.count(of: "close socket 2") == 1)
            #expect(log.count(of: "close presence 2") == 1)
            #expect(clock.pendingCount == 0)
            #expect(store.openChannelIDs.count == 4)
            #expect(!log.events.contains { $0.hasPrefix("close") && !$0.hasSuffix(" 2") })
            for id in [1, 3] { #expect(environment.tracker(forRow: id).liveCount > 0) }

            clock.advance(by: .seconds(5))
            #expect(log.count(of: "presence 2 received two") == 0)
        }
        #expect(await eventually { weakStore == nil })
        for id in [1, 2, 3] {
            environment.tracker(forRow: id).expectAllReleased()
            #expect(log.count(of: "close socket \(id)") == 1)
            #expect(log.count(of: "close presence \(id)") == 1)
        }
    }

    @Test
    func removingOneElementCancelsItsOneShotEffects() async {
        let environment = Environment(rowIDs: [1, 2])
        let removed = environment.tracker(forRow: 2)
        let log = environment.log
        let clock = environment.clock
        let store = makeStore(Self.rows, initial: Self.rowState([1, 2], environment), environment: environment)
        store.dispatch(.row(ElementAction(2, action: .sync))) // started, never completes
        store.dispatch(.row(ElementAction(2, action: .autosave))) // waiting on a debounce timer
        store.dispatch(.row(ElementAction(1, action: .sync)))
        #expect(clock.pendingCount == 1)

        store.dispatch(.removeRow(2))
        removed.expectAllReleased()
        #expect(log.count(of: "cancel sync 2") == 1)
        #expect(clock.pendingCount == 0)
        clock.advance(by: .seconds(5))
        #expect(log.count(of: "cancel autosave 2") == 0)
        #expect(log.count(of: "cancel sync 1") == 0)
        #expect(environment.tracker(forRow: 1).liveCount > 0)
    }

    // MARK: (c) An optional slice is set to nil

    /// A detail with a live channel that has a debounced delivery pending, and a channel whose
    /// re-creation is waiting to settle.
    static let detail = Behavior<Action, Detail, Environment>
        .reduce { action, detail in
            switch action {
            case .setRoom(let room): detail.room = room
            case .setVolume(let volume): detail.volume = volume
            default: break
            }
        }
        .supervise { detail in
            Supervision { env in
                [
                    trackedChannel(
                        "detail socket", id: "detail-socket", broadcasting: .onChange(detail.volume),
                        delivery: .debounce(.milliseconds(200)), tracker: env.tracker, log: env.log),
                    trackedChannel(
                        "detail room \(detail.room)", id: "detail-room",
                        lifetime: .ephemeral(resetKey: detail.room, settle: .seconds(1)), tracker: env.tracker, log: env.log),
                ]
            }
        }
        .liftOptional(\State.detail)

    @Test func settingAnOptionalSliceToNilReleasesItsStateChannelsAndTimers() async {
        let environment = Environment()
        let tracker = environment.tracker
        let log = environment.log
        let clock = environment.clock
        let store = makeStore(Self.detail, environment: environment)
        #expect(store.openChannelIDs.isEmpty)
        store.dispatch(.openDetail)
        store.dispatch(.attachToDetail(Attachment(tracker.instance("detail state"))))
        #expect(store.openChannelIDs.count == 2)
        store.dispatch(.setVolume(4)) // a debounced delivery into the socket is pending
        store.dispatch(.setRoom(7)) // "detail room 0" closed; re-creation waits to settle
        // Two timers pending, behind the store's one clock timer.
        #expect(store.pendingEffects.filter(\.waitsOnTheClock).count == 2)
        #expect(clock.pendingCount == 1)
        #expect(tracker.liveCount > 0)

        store.dispatch(.closeDetail)
        tracker.expectAllReleased()
        #expect(clock.pendingCount == 0)
        #expect(store.openChannelIDs.isEmpty)
        #expect(store.registeredEffectCount == 0)
        #expect(log.count(of: "close detail socket") == 1)
        #expect(log.count(of: "close detail room 0") == 1)

        clock.advance(by: .seconds(5))
        #expect(log.count(of: "detail socket received 4") == 0)
        #expect(!log.events.contains("close detail room 7"))
        #expect(store.isIdle)
    }

    @Test func anOptionalSliceThatComesBackOpensFreshChannels() {
        let environment = Environment()
        let log = environment.log
        let store = makeStore(Self.detail, environment: environment)
        store.dispatch(.openDetail)
        store.dispatch(.closeDetail)
        store.dispatch(.openDetail)
        #expect(store.openChannelIDs.count == 2)
        store.dispatch(.closeDetail)
        environment.tracker.expectAllReleased()
        #expect(log.count(of: "close detail socket") == 2)
        #expect(log.count(of: "close detail room 0") == 2)
    }
}
