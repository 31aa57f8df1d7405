import Synchronization
import Testing

@testable import SwiftRex

/// Effect or channel code the engine runs may call it back synchronously (complete, cancel,
/// schedule): each call waits until the step being performed is done, then runs in arrival order.
@MainActor
@Suite struct EffectEngineOrderingTests {
    let clock = ManualClock()

    func makeEngine() -> EffectEngine<String> {
        EffectEngine<String>(clock: EngineClock(clock), outlet: EffectOutlet(Mailbox(scheduleDrain: {})))
    }

    @Test func aSynchronousCompletionDuringSubscribeLeavesNothingRegistered() {
        let engine = makeEngine()
        engine.schedule(
            Effect<String>.Component(scheduling: .keyed(id: "a")) { _, complete in
                complete()
                return .empty
            }, depth: 0)
        // Completed during the subscription: nothing stays registered.
        #expect(engine.liveKeyCount == 0)
        #expect(engine.isQuiescent)
    }

    @Test func anEffectThatCancelsAnotherKeyWhileStartingRunsTheCancelAfterTheStart() {
        let engine = makeEngine()
        let cancelled = CallCounter()
        engine.schedule(
            Effect<String>.Component(scheduling: .keyed(id: "other")) { _, _ in
                SubscriptionToken { cancelled.record() }
            }, depth: 0)
        engine.schedule(
            Effect<String>.Component(scheduling: EffectScheduling.keyed(id: "a").delayed(by: ms(10))) { _, _ in
                MainActor.assumeIsolated { engine.cancel(key: AnyHashableSendable("other")) }
                return SubscriptionToken {}
            }, depth: 0)
        clock.advance(by: ms(10))
        #expect(cancelled.count == 1)
        #expect(engine.liveKeyCount == 1)
    }

    @Test func anEffectThatSchedulesWhileStartingIsScheduledAfterTheStart() {
        let engine = makeEngine()
        let started = CallCounter()
        let inner = Effect<String>.Component(scheduling: .keyed(id: "inner")) { _, _ in
            started.record()
            return SubscriptionToken {}
        }
        engine.schedule(
            Effect<String>.Component(scheduling: .keyed(id: "outer")) { _, _ in
                MainActor.assumeIsolated { engine.schedule(inner, depth: 1) }
                return SubscriptionToken {}
            }, depth: 0)
        #expect(started.count == 1)
        #expect(engine.liveKeyCount == 2)
    }

    @Test func aCancelClosureThatCancelsEverythingRunsAfterTheCurrentCancel() {
        let engine = makeEngine()
        let endings = CallCounter()
        engine.schedule(
            Effect<String>.Component(scheduling: .keyed(id: "a")) { _, _ in
                SubscriptionToken {
                    endings.record()
                    MainActor.assumeIsolated { engine.cancelAll() }
                }
            }, depth: 0)
        engine.schedule(
            Effect<String>.Component(scheduling: .keyed(id: "b")) { _, _ in
                SubscriptionToken { endings.record() }
            }, depth: 0)
        engine.cancel(key: AnyHashableSendable("a"))
        #expect(endings.count == 2)
        #expect(engine.liveKeyCount == 0)
    }
}

/// A thread-safe call counter for token and effect closures.
private final class CallCounter: Sendable {
    private let calls = Mutex(0)
    func record() { calls.withLock { $0 += 1 } }
    var count: Int { calls.withLock { $0 } }
}
