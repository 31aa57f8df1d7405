import SwiftRex
import Testing

/// Bad input: zero and negative durations. Defined outcome (EffectsAndScheduling, "Scheduling
/// policies", time edge cases): a non-positive debounce or delay starts synchronously, during the
/// dispatch; a non-positive throttle interval never throttles; a non-positive settle re-creates a
/// channel at once; a channel's non-positive debounce or throttle delivery delivers every value at
/// once; and `ManualClock.advance(by:)` with a non-positive duration never moves time back (it only
/// fires what is already due).
@MainActor
@Suite("Bad input: zero and negative durations")
struct DurationTests {
    enum Action: Sendable, Equatable {
        case run(EffectScheduling)
        case setRoom(Int)
        case setVolume(Int)
    }
    struct State: Sendable, Equatable {
        var room = 0
        var volume = 0
    }

    static func store(_ log: EventLog, clock: ManualClock, delivery: ChannelDelivery = .immediate, settle: Duration? = nil) -> Store<
        Action, State, Void
    > {
        let behavior = Behavior<Action, State, Void>
            .reduce { action, state in
                switch action {
                case .setRoom(let room): state.room = room
                case .setVolume(let volume): state.volume = volume
                case .run: break
                }
            }
            .produce { action, _ in
                guard case .run(let scheduling) = action else { return .doNothing }
                return Producer { _ in
                    .subscribe(scheduling: scheduling) { _, complete in
                        log.append("ran")
                        complete()
                        return .empty
                    }
                }
            }
            .supervise { state in
                Supervision { _ in
                    [
                        Channel<Action>(
                            id: "feed", lifetime: .ephemeral(resetKey: state.room, settle: settle),
                            broadcasting: .onChange(state.volume), delivery: delivery
                        ) { _ in
                            log.append("open \(state.room)")
                            return ChannelHandler(receive: { log.append("volume \($0)") }, cancel: { log.append("close \(state.room)") })
                        }
                    ]
                }
            }
        return Store(initial: State(), behavior: behavior, environment: (), clock: { _ in clock })
    }

    @Test(arguments: [Duration.zero, .milliseconds(-5)])
    func aNonPositiveDebounceOrDelayStartsDuringTheDispatch(duration: Duration) {
        let log = EventLog()
        let clock = ManualClock()
        let store = Self.store(log, clock: clock)
        store.dispatch(.run(.debounce(id: "debounced", delay: duration)))
        store.dispatch(.run(EffectScheduling.keyed(id: "delayed").delayed(by: duration)))
        store.dispatch(.run(EffectScheduling.immediately.delayed(by: duration)))
        #expect(log.count(of: "ran") == 3)
        #expect(clock.pendingCount == 0)
    }

    @Test(arguments: [Duration.zero, .milliseconds(-5)])
    func aNonPositiveThrottleNeverThrottles(interval: Duration) {
        let log = EventLog()
        let store = Self.store(log, clock: ManualClock())
        for _ in 0..<3 { store.dispatch(.run(.throttle(id: "throttled", interval: interval))) }
        #expect(log.count(of: "ran") == 3)
    }

    @Test(arguments: [Duration.zero, .milliseconds(-5)])
    func aNonPositiveSettleRecreatesTheChannelAtOnce(settle: Duration) {
        let log = EventLog()
        let clock = ManualClock()
        let store = Self.store(log, clock: clock, settle: settle)
        store.dispatch(.setRoom(1))
        #expect(log.events == ["open 0", "volume 0", "close 0", "open 1", "volume 0"])
        #expect(clock.pendingCount == 0)
    }

    @Test(arguments: [ChannelDelivery.debounce(.zero), .debounce(.milliseconds(-5)), .throttle(.zero), .throttle(.milliseconds(-5))])
    func aNonPositiveChannelDeliveryDeliversEveryValueAtOnce(delivery: ChannelDelivery) {
        let log = EventLog()
        let clock = ManualClock()
        let store = Self.store(log, clock: clock, delivery: delivery)
        store.dispatch(.setVolume(1))
        store.dispatch(.setVolume(2))
        #expect(log.events == ["open 0", "volume 0", "volume 1", "volume 2"])
        #expect(clock.pendingCount == 0)
    }

    @Test func advancingAManualClockByANegativeDurationFiresOnlyWhatIsDue() {
        let clock = ManualClock()
        clock.advance(by: .seconds(2))
        let log = EventLog()
        let due = clock.scheduleTimer(at: clock.now) { log.append("due") }
        let later = clock.scheduleTimer(at: clock.now.advanced(by: .seconds(1))) { log.append("later") }
        clock.advance(by: .seconds(-1))
        #expect(clock.now == ManualClock.Instant(offset: .seconds(2)))
        #expect(log.events == ["due"])
        _ = (due, later)
    }
}
