import SwiftRex
import Testing

/// Bad input: maximal durations (a delay or debounce of `Int64.max` seconds, a delay plus a
/// debounce that overflow `Duration` when added). Defined outcome: no trap. Sums saturate at the
/// largest `Duration`; a real clock sleeps at most 100 years (never, in practice) and the effect
/// stays pending and cancellable; a manual clock fires it once advanced that far.
@MainActor
@Suite("Bad input: maximal durations")
struct MaximalDurationTests {
    enum Action: Sendable, Equatable {
        case run(EffectScheduling)
        case ran
    }

    static func store(_ log: EventLog, clock: ManualClock?) -> Store<Action, Int, Void> {
        let behavior = Behavior<Action, Int, Void>
            .reduce { action, count in if action == .ran { count += 1 } }
            .produce { action, _ in
                guard case .run(let scheduling) = action else { return .doNothing }
                return Producer { _ in
                    .subscribe(scheduling: scheduling) { send, complete in
                        log.append("ran")
                        send(DispatchedAction(.ran))
                        complete()
                        return .empty
                    }
                }
            }
        if let clock { return Store(initial: 0, behavior: behavior, environment: (), clock: { _ in clock }) }
        return Store(initial: 0, behavior: behavior)
    }

    static let huge = Duration.seconds(Int64.max)
    static let nearMaximum = Duration.seconds(1.5e20)

    @Test func aHugeDebounceOnARealClockDoesNotTrap() async {
        let log = EventLog()
        let store = Self.store(log, clock: nil)
        store.dispatch(.run(.debounce(id: "forever", delay: Self.huge)))
        store.dispatch(.run(EffectScheduling.keyed(id: "later").delayed(by: Self.huge)))
        for _ in 0..<50 { await Task.yield() }
        try? await Task.sleep(for: .milliseconds(20))
        #expect(log.events.isEmpty)
        #expect(!store.isIdle)
        store.cancelEffects(id: "forever")
        store.cancelEffects(id: "later")
        #expect(store.isIdle)
    }

    @Test func aDelayPlusADebounceNearTheMaximumDoesNotTrap() async {
        let log = EventLog()
        let clock = ManualClock()
        let store = Self.store(log, clock: clock)
        store.dispatch(.run(EffectScheduling.debounce(id: "sum", delay: Self.nearMaximum).delayed(by: Self.nearMaximum)))
        clock.advance(by: .seconds(3600))
        #expect(log.events.isEmpty)
        #expect(clock.pendingCount == 1)
        // The sum saturated at the largest duration: a manual clock advanced that far fires it.
        clock.advance(by: Self.nearMaximum)
        clock.advance(by: Self.nearMaximum)
        #expect(log.events == ["ran"])
        #expect(clock.pendingCount == 0)
    }
}
