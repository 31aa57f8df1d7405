import SwiftRexTestSupport
import SwiftRexTesting
import Testing

@testable import SwiftRex

/// A `TestStore` sees keyed tasks as the store runs them: only a replacement's survivor arrives, and
/// a receive or `finish()` reports what did not arrive, or still runs, without waiting in vain.
@MainActor
@Suite("Adversarial: a TestStore over keyed tasks")
struct EffectAdversarialTestStoreTests: EffectAdversarialSuite {
    @Test(arguments: Form.allCases)
    func aTestStoreReceivesOnlyTheSurvivorOfAReplacedKeyedTaskAndFinishesClean(_ form: Form) async {
        let log = AdversarialLog()
        let store = makeTestStore(log: log) { action, env in
            guard case .run(let value) = action else { return .empty }
            return form.task(id: "search") { send in
                env.log.append("body \(value)")
                send(.got(value))
            }
        }
        store.send(.run(1))
        store.send(.run(2))
        await store.receive(.got(2)) { $0.got = [2] }
        await store.finish()
        #expect(log.events == ["body 2"])
    }

    @Test func aTestStoreReportsTheReplacedActionItExpectedAndStillProcessesTheSurvivor() async {
        let store = makeTestStore { action, _ in
            guard case .run(let value) = action else { return .empty }
            return .task(scheduling: .keyed(id: "search")) { send in send(.got(value)) }
        }
        store.send(.run(1))
        store.send(.run(2))
        await withKnownIssue {
            await store.receive(.got(1)) { $0.got = [2] }
        } matching: { issue in
            String(describing: issue).contains("other than the expected")
        }
        #expect(store.state.got == [2])
        await store.finish()
    }

    @Test func aTestStoreReceiveTimesOutOnAKeyedTaskWaitingOnTheManualClockThenReceivesAfterAdvancing() async {
        let clock = ManualClock()
        let store = makeTestStore(clock: clock) { action, env in
            guard case .run(let value) = action else { return .empty }
            return .task(scheduling: .keyed(id: "slow")) { send in
                try? await env.clock.sleep(for: .seconds(1))
                send(.got(value))
            }
        }
        store.send(.run(1))
        #expect(await adversarialWait { clock.pendingCount == 1 })
        await withKnownIssue {
            await store.receive(.got(1), timeout: .milliseconds(30))
        } matching: { issue in
            String(describing: issue).contains("no action arrived within")
        }
        await store.advance(by: .seconds(1))
        await store.receive(.got(1)) { $0.got = [1] }
        await store.finish()
    }

    @Test func aTestStoreFinishReportsAKeyedTaskStillRunning() async {
        let clock = ManualClock()
        let store = makeTestStore(clock: clock) { action, env in
            guard case .run(let value) = action else { return .empty }
            return .task(scheduling: .keyed(id: "slow")) { send in
                try? await env.clock.sleep(for: .seconds(1))
                send(.got(value))
            }
        }
        store.send(.run(1))
        #expect(await adversarialWait { clock.pendingCount == 1 })
        await withKnownIssue {
            await store.finish()
        } matching: { issue in
            String(describing: issue).contains("still running")
        }
        store.store.cancelEffects(id: "slow")
        #expect(store.store.isIdle)
    }

    @Test func aTestStoreReceiveFailsAtOnceWhenTheOnlyKeyedTaskWasCancelled() async {
        let store = makeTestStore { action, _ in
            switch action {
            case .run(let value): return .task(scheduling: .keyed(id: "search")) { send in send(.got(value)) }
            case .stop: return .cancel(id: "search")
            default: return .empty
            }
        }
        store.send(.run(1))
        store.send(.stop)
        // Nothing can send any more: the receive fails without waiting for its timeout.
        await withKnownIssue {
            await store.receive(.got(1), timeout: .seconds(5))
        } matching: { issue in
            let text = String(describing: issue)
            return text.contains("no action arrived.") && !text.contains("within")
        }
        await store.finish()
    }
}
