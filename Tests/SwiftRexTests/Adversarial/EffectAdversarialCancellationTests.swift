import SwiftRexTestSupport
import SwiftRexTesting
import Testing

@testable import SwiftRex

/// `cancel(id:)` stops what runs under the id, and forgets its throttle window, wherever the cancel
/// comes from (the same effect, the store, a parent feature); a cancel issued before the task does not.
@MainActor
@Suite("Adversarial: cancelling by id")
struct EffectAdversarialCancellationTests: EffectAdversarialSuite {
    @Test(arguments: Form.allCases)
    func aCancelAfterAKeyedTaskStopsItBeforeItsBodyAndACancelBeforeItDoesNot(_ form: Form) async {
        let log = AdversarialLog()
        let store = makeStore(log: log) { action, env in
            guard case .run(let value) = action else { return .empty }
            let task: Effect<Action> = form.task(id: "k") { send in
                env.log.append("body \(value)")
                send(.got(value))
            }
            switch value {
            case 1: return .combine(task, .cancel(id: "k"))
            case 2: return .combine(task, .cancel(id: AnyHashableSendable("k")))
            case 3: return .combine(.cancel(id: "k"), task)
            default: return task
            }
        }
        store.dispatch(.run(1))
        store.dispatch(.run(2))
        store.dispatch(.run(4))
        store.cancelEffects(id: "k")
        #expect(store.isIdle)
        store.dispatch(.run(3))
        #expect(await adversarialWait { store.state.got == [3] && store.isIdle })
        await adversarialQuiesce()
        #expect(log.events == ["body 3"])
        #expect(store.registeredEffectCount == 0)
    }

    @Test(arguments: Form.allCases)
    func aKeyedTaskOfAFeatureLiftedIntoAParentIsCancelledByTheParentById(_ form: Form) async {
        enum Parent: Sendable, Equatable {
            case child(Action)
            case stopChild
        }
        let clock = ManualClock()
        let log = AdversarialLog()
        let env = Env(clock: clock, log: log)
        let child = Self.behavior(env) { action, env in
            guard case .run(let value) = action else { return .empty }
            return form.task(id: "search") { send in
                send(.got(value))
                await withTaskCancellationHandler {
                    try? await env.clock.sleep(for: .seconds(1))
                } onCancel: {
                    env.log.append("cancelled \(value)")
                }
                send(.got(value * 100))
            }
        }
        let prism = Prism<Parent, Action>(preview: { if case .child(let action) = $0 { action } else { nil } }, review: Parent.child)
        let parent =
            child.lift(.action(prism))
            <> Behavior<Parent, State, Env>.produce { action, _ in
                guard action == .stopChild else { return .doNothing }
                return Producer { _ in .cancel(id: "search") }
            }
        let store = Store(initial: State(), behavior: parent, environment: env, clock: { $0.clock })
        store.dispatch(.child(.run(1)))
        store.dispatch(.child(.run(2)))
        #expect(await adversarialWait { store.state.got == [2] && clock.pendingCount == 1 })
        store.dispatch(.stopChild)
        #expect(await adversarialWait { log.events == ["cancelled 2"] && store.isIdle })
        clock.advance(by: .seconds(2))
        await adversarialQuiesce()
        #expect(store.state.got == [2])
        #expect(store.registeredEffectCount == 0)
    }

    @Test func cancellingAnIdForgetsTheThrottleWindowOfAThrottledTask() async {
        let clock = ManualClock()
        let store = makeStore(clock: clock) { action, _ in
            switch action {
            case .run(let value): return .task(scheduling: .throttle(id: "t", interval: .seconds(1))) { send in send(.got(value)) }
            case .stop: return .cancel(id: "t")
            default: return .empty
            }
        }
        store.dispatch(.run(1))
        #expect(await adversarialWait { store.state.got == [1] && store.isIdle })
        clock.advance(by: .milliseconds(100))
        store.dispatch(.run(2))
        await adversarialQuiesce()
        #expect(store.state.got == [1])
        store.dispatch(.stop)
        store.dispatch(.run(3))
        #expect(await adversarialWait { store.state.got == [1, 3] && store.isIdle })
        clock.advance(by: .seconds(1))
        store.dispatch(.run(4))
        #expect(await adversarialWait { store.state.got == [1, 3, 4] && store.isIdle })
    }
}
