import SwiftRexTestSupport
import SwiftRexTesting
import Testing

@testable import SwiftRex

/// One key, one effect: a keyed task replaces the task, `just`, debounce, delayed start, channel or
/// subscription already under its key (and a keyed `just`, a debounce or a channel replaces it),
/// before or after its body started.
@MainActor
@Suite("Adversarial: a newer effect under a key replaces the older")
struct EffectAdversarialReplacementTests: EffectAdversarialSuite {
    // MARK: Keyed tasks under one key

    @Test(arguments: Form.allCases, [false, true])
    func aKeyedTaskReplacedInTheSameTurnNeverRunsItsBody(_ form: Form, _ exclusive: Bool) async {
        let log = AdversarialLog()
        let store = makeStore(log: log) { action, env in
            guard case .run(let value) = action else { return .empty }
            return form.task(id: "search", exclusive: exclusive) { send in
                env.log.append("body \(value)")
                send(.got(value))
            }
        }
        store.dispatch(.run(1))
        store.dispatch(.run(2))
        store.dispatch(.run(3))
        #expect(await adversarialWait { store.state.got == [3] && store.isIdle })
        await adversarialQuiesce()
        #expect(log.events == ["body 3"])
        #expect(store.state.got == [3])
        #expect(store.registeredEffectCount == 0)
        #expect(store.pendingEffects.isEmpty)
    }

    @Test(arguments: Form.allCases, [false, true])
    func aKeyedTaskReplacedAfterItStartedIsCancelledAndItsLaterSendsAreDropped(_ form: Form, _ exclusive: Bool) async {
        let clock = ManualClock()
        let log = AdversarialLog()
        let store = makeStore(clock: clock, log: log) { action, env in
            guard case .run(let value) = action else { return .empty }
            return form.task(id: "job", exclusive: exclusive) { send in
                send(.got(value * 10))
                try? await env.clock.sleep(for: .seconds(1))
                if Task.isCancelled { env.log.append("cancelled \(value)") }
                if send.isCancelled { env.log.append("send cancelled \(value)") }
                send(.got(value))
                env.log.append("returned \(value)")
            }
        }
        store.dispatch(.run(1))
        #expect(await adversarialWait { store.state.got == [10] && clock.pendingCount == 1 })
        store.dispatch(.run(2))
        #expect(await adversarialWait { log.contains("returned 1") && clock.pendingCount == 1 && store.state.got == [10, 20] })
        #expect(log.events == ["cancelled 1", "send cancelled 1", "returned 1"])
        clock.advance(by: .seconds(1))
        #expect(await adversarialWait { store.state.got == [10, 20, 2] && store.isIdle })
        await adversarialQuiesce()
        #expect(store.state.got == [10, 20, 2])
        #expect(log.events == ["cancelled 1", "send cancelled 1", "returned 1", "returned 2"])
        #expect(store.registeredEffectCount == 0)
    }

    @Test(arguments: Form.allCases)
    func aMappedKeyedTaskReplacesAndIsReplacedByAnUnmappedOneUnderTheSameKey(_ form: Form) async {
        let log = AdversarialLog()
        let store = makeStore(log: log) { action, env in
            guard case .run(let value) = action else { return .empty }
            if value.isMultiple(of: 2) {
                return form.task(id: "shared") { (send: Send<Action>) in
                    env.log.append("plain \(value)")
                    send(.got(value))
                }
            }
            let child: Effect<Int> = form.task(id: "shared") { send in
                env.log.append("mapped \(value)")
                send(value)
            }
            return child.map { .got($0) }
        }
        store.dispatch(.run(1))
        store.dispatch(.run(2))
        store.dispatch(.run(3))
        #expect(await adversarialWait { store.state.got == [3] && store.isIdle })
        store.dispatch(.run(5))
        store.dispatch(.run(4))
        #expect(await adversarialWait { store.state.got == [3, 4] && store.isIdle })
        await adversarialQuiesce()
        #expect(log.events == ["mapped 3", "plain 4"])
        #expect(store.registeredEffectCount == 0)
    }

    @Test(arguments: Form.allCases)
    func inOneEffectASecondKeyedTaskUnderTheSameKeyReplacesTheFirstAndOtherKeysRun(_ form: Form) async {
        let log = AdversarialLog()
        let store = makeStore(log: log) { action, env in
            func body(_ value: Int) -> @Sendable (Send<Action>) async -> Void {
                { send in
                    env.log.append("body \(value)")
                    send(.got(value))
                }
            }
            switch action {
            case .run(1):
                return .combine(form.task(id: "k", body(1)), .combine(form.task(id: "k", body(2)), form.task(id: "other", body(3))))
            case .run(2):
                return .mconcat([form.task(id: "k", body(4)), .empty, form.task(id: "other", body(5)), form.task(id: "other", body(6))])
            default:
                return .empty
            }
        }
        store.dispatch(.run(1))
        #expect(await adversarialWait { store.state.got.count == 2 && store.isIdle })
        #expect(Set(store.state.got) == [2, 3])
        store.dispatch(.run(2))
        #expect(await adversarialWait { store.state.got.count == 4 && store.isIdle })
        await adversarialQuiesce()
        #expect(Set(store.state.got) == [2, 3, 4, 6])
        #expect(Set(log.events) == ["body 2", "body 3", "body 4", "body 6"])
        #expect(log.events.count == 4)
        #expect(store.registeredEffectCount == 0)
    }

    // MARK: The same key used by other effects

    @Test(arguments: Form.allCases)
    func aKeyedJustUnderTheSameKeyCancelsAStartedKeyedTask(_ form: Form) async {
        let clock = ManualClock()
        let log = AdversarialLog()
        let store = makeStore(clock: clock, log: log) { action, env in
            switch action {
            case .run(let value):
                return form.task(id: "k") { send in
                    env.log.append("body \(value)")
                    try? await env.clock.sleep(for: .seconds(1))
                    send(.got(value))
                }
            case .other:
                return .just(.got(99), scheduling: .keyed(id: "k"))
            default:
                return .empty
            }
        }
        store.dispatch(.run(1))
        #expect(await adversarialWait { log.events == ["body 1"] && clock.pendingCount == 1 })
        store.dispatch(.other)
        #expect(await adversarialWait { store.state.got == [99] && clock.pendingCount == 0 })
        clock.advance(by: .seconds(5))
        #expect(await adversarialWait { store.isIdle })
        await adversarialQuiesce()
        #expect(store.state.got == [99])
        #expect(store.registeredEffectCount == 0)
    }

    @Test(arguments: Form.allCases)
    func aKeyedTaskReplacesAPendingDebouncedJustUnderTheSameKey(_ form: Form) async {
        let clock = ManualClock()
        let log = AdversarialLog()
        let store = makeStore(clock: clock, log: log) { action, env in
            switch action {
            case .run(let value):
                return form.task(id: "k") { send in
                    env.log.append("body \(value)")
                    send(.got(value))
                }
            case .other:
                return .just(.got(99), scheduling: .debounce(id: "k", delay: .milliseconds(300)))
            default:
                return .empty
            }
        }
        store.dispatch(.other)
        #expect(clock.pendingCount == 1)
        store.dispatch(.run(1))
        #expect(clock.pendingCount == 0)
        #expect(await adversarialWait { store.state.got == [1] && store.isIdle })
        clock.advance(by: .seconds(1))
        await adversarialQuiesce()
        #expect(store.state.got == [1])
        #expect(log.events == ["body 1"])
        #expect(store.registeredEffectCount == 0)
    }

    @Test(arguments: Form.allCases)
    func aDebouncedJustUnderTheSameKeyCancelsAKeyedTaskEvenOnceStarted(_ form: Form) async {
        let clock = ManualClock()
        let log = AdversarialLog()
        let store = makeStore(clock: clock, log: log) { action, env in
            switch action {
            case .run(let value):
                return form.task(id: "k") { send in
                    await Self.sleepLoggingCancellation(env, "cancelled \(value)")
                    send(.got(value))
                }
            case .other:
                return .just(.got(99), scheduling: .debounce(id: "k", delay: .milliseconds(300)))
            default:
                return .empty
            }
        }
        store.dispatch(.run(1))
        #expect(await adversarialWait { clock.pendingCount == 1 })
        store.dispatch(.other)
        #expect(await adversarialWait { log.events == ["cancelled 1"] })
        #expect(!store.isIdle)
        clock.advance(by: .milliseconds(300))
        #expect(await adversarialWait { store.state.got == [99] && store.isIdle })
        clock.advance(by: .seconds(20))
        await adversarialQuiesce()
        #expect(store.state.got == [99])
        #expect(store.registeredEffectCount == 0)
    }

    @Test(arguments: Form.allCases)
    func aKeyedTaskAndAChannelUnderTheSameIdReplaceEachOther(_ form: Form) async {
        let clock = ManualClock()
        let log = AdversarialLog()
        let store = makeStore(clock: clock, log: log) { action, env in
            switch action {
            case .run(let value):
                return form.task(id: "shared") { send in
                    await Self.sleepLoggingCancellation(env, "task cancelled \(value)")
                    send(.got(value))
                }
            case .other:
                return .channel(value: 0, scheduling: .keyed(id: "shared")) { _, _ in
                    ChannelHandler<Int>(receive: { _ in }, cancel: { env.log.append("channel cancelled") })
                }
            default:
                return .empty
            }
        }
        store.dispatch(.other)
        #expect(store.openChannelIDs == [AnyHashableSendable("shared")])
        store.dispatch(.run(1))
        #expect(log.events == ["channel cancelled"])
        #expect(store.openChannelIDs.isEmpty)
        #expect(await adversarialWait { clock.pendingCount == 1 })
        store.dispatch(.other)
        #expect(await adversarialWait { log.events == ["channel cancelled", "task cancelled 1"] })
        #expect(store.openChannelIDs == [AnyHashableSendable("shared")])
        store.cancelEffects(id: "shared")
        #expect(log.events == ["channel cancelled", "task cancelled 1", "channel cancelled"])
        await adversarialQuiesce()
        #expect(store.state.got.isEmpty)
        #expect(store.isIdle)
    }

    @Test(arguments: Form.allCases)
    func aKeyedTaskReplacesAPendingDelayedStartUnderItsId(_ form: Form) async {
        let clock = ManualClock()
        let log = AdversarialLog()
        let store = makeStore(clock: clock, log: log) { action, env in
            switch action {
            case .run(let value):
                return form.task(id: "k") { send in
                    env.log.append("body \(value)")
                    send(.got(value))
                }
            case .other:
                return .task(scheduling: EffectScheduling.keyed(id: "k").delayed(by: .seconds(1))) { send in
                    env.log.append("delayed body")
                    send(.got(99))
                }
            default:
                return .empty
            }
        }
        store.dispatch(.other)
        store.dispatch(.other)
        #expect(clock.pendingCount == 1)
        store.dispatch(.run(1))
        #expect(clock.pendingCount == 0)
        #expect(await adversarialWait { store.state.got == [1] && store.isIdle })
        clock.advance(by: .seconds(2))
        await adversarialQuiesce()
        #expect(log.events == ["body 1"])
        #expect(store.registeredEffectCount == 0)
    }

    @Test(arguments: Form.allCases)
    func aSubscriptionReplacedByAKeyedTaskIsCancelledExactlyOnce(_ form: Form) async {
        let clock = ManualClock()
        let log = AdversarialLog()
        weak var weakStore: Store<Action, State, Env>?
        do {
            let store = makeStore(clock: clock, log: log) { action, env in
                switch action {
                case .other:
                    return .subscribe(scheduling: .keyed(id: "k")) { _, _ in SubscriptionToken { env.log.append("subscription cancelled") } }
                case .run(let value):
                    return form.task(id: "k") { send in
                        await withTaskCancellationHandler {
                            try? await env.clock.sleep(for: .seconds(1))
                        } onCancel: {
                            env.log.append("task cancelled")
                        }
                        send(.got(value))
                    }
                default:
                    return .empty
                }
            }
            weakStore = store
            store.dispatch(.other)
            store.dispatch(.run(1))
            #expect(log.events == ["subscription cancelled"])
            store.cancelEffects(id: "k")
            store.cancelEffects(id: "k")
            #expect(log.events == ["subscription cancelled"])
            store.dispatch(.other)
            store.dispatch(.run(2))
            #expect(log.events == ["subscription cancelled", "subscription cancelled"])
            // Torn down while the task's body runs: it is cancelled once, through its Task.
            #expect(await adversarialWait { clock.pendingCount == 1 })
        }
        #expect(await adversarialWait { weakStore == nil })
        #expect(await adversarialWait { log.events.count == 3 })
        await adversarialQuiesce()
        #expect(log.events == ["subscription cancelled", "subscription cancelled", "task cancelled"])
    }
}
