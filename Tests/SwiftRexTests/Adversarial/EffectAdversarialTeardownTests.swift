import SwiftRexTestSupport
import SwiftRexTesting
import Testing

@testable import SwiftRex

/// When a store goes, its pending and running effects are cancelled and released; when a run ends,
/// a `Send` it kept delivers nothing more.
@MainActor
@Suite("Adversarial: what ends with a store or a run")
struct EffectAdversarialTeardownTests: EffectAdversarialSuite {
    @Test func aStoreReleasedWithPendingKeyedAndDebouncedTasksCancelsThemAndLeaksNothing() async {
        let clock = ManualClock()
        let log = AdversarialLog()
        let tracker = LifetimeTracker()
        let kept = AdversarialSendBox<Action>()
        weak var weakStore: Store<Action, State, Env>?
        do {
            let store = makeStore(clock: clock, log: log) { action, env in
                let token = tracker.instance()
                switch action {
                case .run(1):
                    return .task(scheduling: .keyed(id: "started")) { send in
                        _ = token
                        env.log.append("started body")
                        kept.keep(send)
                        await Self.sleepLoggingCancellation(env, "started cancelled")
                        send(.got(1))
                    }
                case .run(2):
                    return .task(scheduling: .keyed(id: "fresh")) { send in
                        _ = token
                        env.log.append("fresh body")
                        send(.got(2))
                    }
                case .run(3):
                    return .task(scheduling: .debounce(id: "debounced", delay: .seconds(1))) { send in
                        _ = token
                        env.log.append("debounced body")
                        send(.got(3))
                    }
                case .run(4):
                    return .task(scheduling: EffectScheduling.replacing(id: "delayed").delayed(by: .seconds(1))) { send in
                        _ = token
                        env.log.append("delayed body")
                        send(.got(4))
                    }
                case .run(5):
                    return .just(.got(5), scheduling: .debounce(id: "just", delay: .seconds(1)))
                default:
                    return .empty
                }
            }
            weakStore = store
            store.dispatch(.run(1))
            #expect(await adversarialWait { log.events == ["started body"] && clock.pendingCount == 1 })
            store.dispatch(.run(2))
            store.dispatch(.run(3))
            store.dispatch(.run(4))
            store.dispatch(.run(5))
            // The body's sleep, and the store's one clock timer for its three pending starts.
            #expect(clock.pendingCount == 2)
            #expect(store.pendingEffects.filter(\.waitsOnTheClock).count == 3)
        }
        #expect(await adversarialWait { weakStore == nil })
        #expect(await adversarialWait { log.contains("started cancelled") })
        #expect(clock.pendingCount == 0)
        clock.advance(by: .seconds(3600))
        // A `Send` kept past teardown drops what it is given; it keeps its run (and so the body
        // and what the body captured) alive until it is released.
        kept.send?(.got(9))
        kept.clear()
        #expect(await adversarialWait { tracker.allReleased })
        await adversarialQuiesce()
        #expect(log.events == ["started body", "started cancelled"])
        tracker.expectAllReleased()
    }

    @Test(arguments: Form.allCases)
    func aSendKeptPastTheBodysReturnIsDropped(_ form: Form) async {
        let kept = AdversarialSendBox<Action>()
        let store = makeStore { action, _ in
            guard case .run(let value) = action else { return .empty }
            return form.task(id: "k") { send in
                kept.keep(send)
                send(.got(value))
            }
        }
        store.dispatch(.run(1))
        #expect(await adversarialWait { store.state.got == [1] && store.isIdle })
        kept.send?(.got(2))
        await adversarialQuiesce()
        #expect(store.state.got == [1])
        #expect(store.isIdle)
        kept.clear()
    }
}
