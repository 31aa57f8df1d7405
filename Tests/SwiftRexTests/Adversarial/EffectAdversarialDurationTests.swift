import SwiftRexTestSupport
import SwiftRexTesting
import Testing

@testable import SwiftRex

/// No duration traps: huge delays, debounces and throttles saturate and stay cancellable, and a
/// non-positive one counts as none without shortening the other.
@MainActor
@Suite("Adversarial: extreme and non-positive durations")
struct EffectAdversarialDurationTests: EffectAdversarialSuite {
    @Test func hugeDurationsOnKeyedTasksSaturateNeverTrapAndStayCancellable() async {
        let clock = ManualClock()
        let log = AdversarialLog()
        let maximum = Duration(attoseconds: .max)
        let minimum = Duration(attoseconds: .min)
        let store = makeStore(clock: clock, log: log) { action, env in
            func body(_ value: Int) -> @Sendable (Send<Action>) async -> Void {
                { send in
                    env.log.append("body \(value)")
                    send(.got(value))
                }
            }
            switch action {
            case .run(1):
                return .task(scheduling: EffectScheduling.debounce(id: "k", delay: .seconds(Int64.max)).delayed(by: .seconds(Int64.max)), body(1))
            case .run(2): return .task(scheduling: EffectScheduling.debounce(id: "m", delay: maximum).delayed(by: maximum), body(2))
            case .run(3): return .task(scheduling: .throttle(id: "t", interval: maximum), body(3))
            case .run(4): return .task(scheduling: .keyed(id: "k"), body(4))
            case .run(5): return .task(scheduling: EffectScheduling.keyed(id: "n").delayed(by: minimum), body(5))
            case .run(6): return .task(scheduling: EffectScheduling.debounce(id: "n2", delay: minimum).delayed(by: minimum), body(6))
            case .run(7): return .task(scheduling: .throttle(id: "t2", interval: minimum), body(7))
            default: return .empty
            }
        }
        store.dispatch(.run(1))
        store.dispatch(.run(2))
        store.dispatch(.run(3))
        store.dispatch(.run(3))
        store.dispatch(.run(5))
        store.dispatch(.run(6))
        store.dispatch(.run(7))
        store.dispatch(.run(7))
        #expect(
            await adversarialWait {
                store.state.got.sorted() == [3, 5, 6, 7] && store.pendingEffects.allSatisfy { $0.kind != .running }
            })
        #expect(store.pendingEffects.filter(\.waitsOnTheClock).count == 2)
        clock.advance(by: .seconds(365 * 24 * 3600))
        #expect(store.pendingEffects.filter(\.waitsOnTheClock).count == 2)
        #expect(clock.pendingCount == 1)
        #expect(Set(store.pendingEffects.compactMap { $0.id }) == [AnyHashableSendable("k"), AnyHashableSendable("m")])
        // A keyed task replaces the pending one under its id.
        store.dispatch(.run(4))
        #expect(clock.pendingCount == 1)
        #expect(await adversarialWait { store.state.got.count == 5 })
        // A manual clock advanced that far fires the saturated one.
        clock.advance(by: maximum)
        clock.advance(by: maximum)
        #expect(await adversarialWait { store.state.got.count == 6 && store.isIdle })
        await adversarialQuiesce()
        // The second throttled call under "t" was dropped; under "t2" (a negative interval never
        // throttles) the second replaced the first in the same turn.
        #expect(store.state.got.sorted() == [2, 3, 4, 5, 6, 7])
        #expect(!log.contains("body 1"))
    }

    @Test func hugeDelaysOnARealClockStayPendingAndCancellable() async {
        let log = AdversarialLog()
        let env = Env(clock: ManualClock(), log: log)
        let store = Store(
            initial: State(),
            behavior: Self.behavior(env) { action, env in
                guard case .run(let value) = action else { return .empty }
                let scheduling: EffectScheduling =
                    value == 1
                    ? EffectScheduling.keyed(id: "a").delayed(by: Duration(attoseconds: .max))
                    : EffectScheduling.debounce(id: "b", delay: .seconds(Int64.max)).delayed(by: .seconds(Int64.max))
                return .task(scheduling: scheduling) { send in
                    env.log.append("body \(value)")
                    send(.got(value))
                }
            }, environment: env)
        store.dispatch(.run(1))
        store.dispatch(.run(2))
        await adversarialQuiesce()
        #expect(!store.isIdle)
        #expect(store.pendingEffects.count == 2)
        store.cancelEffects(id: "a")
        store.cancelEffects(id: "b")
        #expect(store.isIdle)
        await adversarialQuiesce()
        #expect(log.events.isEmpty)
    }

    @Test
    func aNonPositiveDelayDoesNotShortenADebounce() async {
        // `delay`: "nil or a non-positive value starts at once", i.e. no delay: the debounce still
        // waits its whole window, as it does with a zero delay.
        let clock = ManualClock()
        let store = makeStore(clock: clock) { action, _ in
            guard case .run(let value) = action else { return .empty }
            let delay: Duration = value == 1 ? .zero : .seconds(-1)
            return .just(.got(value), scheduling: EffectScheduling.debounce(id: "k\(value)", delay: .milliseconds(300)).delayed(by: delay))
        }
        store.dispatch(.run(1))
        store.dispatch(.run(2))
        #expect(store.pendingEffects.filter(\.waitsOnTheClock).count == 2)
        await adversarialQuiesce()
        #expect(store.state.got.isEmpty)
        clock.advance(by: .milliseconds(300))
        #expect(await adversarialWait { store.state.got.sorted() == [1, 2] && store.isIdle })
    }

    @Test
    func aNonPositiveDebounceDoesNotCancelAPositiveDelay() async {
        // A debounce of zero or less does not coalesce in time; the delay still applies, as it
        // does with a zero window.
        let clock = ManualClock()
        let store = makeStore(clock: clock) { action, _ in
            guard case .run(let value) = action else { return .empty }
            let window: Duration = value == 1 ? .zero : .seconds(-5)
            return .just(.got(value), scheduling: EffectScheduling.debounce(id: "k\(value)", delay: window).delayed(by: .seconds(1)))
        }
        store.dispatch(.run(1))
        store.dispatch(.run(2))
        #expect(store.pendingEffects.filter(\.waitsOnTheClock).count == 2)
        await adversarialQuiesce()
        #expect(store.state.got.isEmpty)
        clock.advance(by: .seconds(1))
        #expect(await adversarialWait { store.state.got.sorted() == [1, 2] && store.isIdle })
    }

    @Test
    func aPendingEffectWithAHugeDurationDescribesItselfWithoutTrapping() {
        // "No duration traps": the TestStore prints these descriptions in its failure messages.
        let huge = PendingEffect(id: AnyHashableSendable("k"), kind: .waitingToStart(delay: nil, debounce: .seconds(Int64.max)))
        #expect(huge.description.contains("debounced by"))
        let maximal = PendingEffect(id: nil, kind: .waitingToStart(delay: Duration(attoseconds: .max), debounce: Duration(attoseconds: .max)))
        #expect(maximal.description.contains("delayed by"))
        let delivery = PendingEffect(id: AnyHashableSendable("c"), kind: .pendingDelivery(debounce: .seconds(Int64.max)))
        #expect(delivery.description.contains("debounced by"))
    }

    @Test
    func aTestStoreFinishingWithAHugeDebouncePendingReportsItWithoutTrapping() async {
        let clock = ManualClock()
        let store = makeTestStore(clock: clock) { action, _ in
            guard case .run(let value) = action else { return .empty }
            return .task(scheduling: .debounce(id: "later", delay: .seconds(Int64.max))) { send in send(.got(value)) }
        }
        store.send(.run(1))
        await withKnownIssue {
            await store.finish()
        } matching: { issue in
            String(describing: issue).contains("\"later\"")
        }
        store.store.cancelEffects(id: "later")
    }
}
