import SwiftRexTestSupport
import SwiftRexTesting
import Synchronization
import Testing

@testable import SwiftRex

/// A task-local the dispatcher sets, to see whether a keyed task inherits it.
enum AdversarialProbe {
    @TaskLocal static var tag = "none"
}

/// When and in what context a keyed task runs: idle only once its actions are in, the last of a
/// debounced burst, with the dispatcher's priority and task-locals, cut off when it loops, and
/// in order when scheduled while the engine is busy.
@MainActor
@Suite("Adversarial: when and how keyed tasks run")
struct EffectAdversarialSchedulingTests: EffectAdversarialSuite {
    @Test(arguments: Form.allCases)
    func aKeyedTaskIsNeverIdleBeforeItsActionsAreIn(_ form: Form) async {
        // "When a run ends, the end itself goes through the mailbox too, after the actions the run
        // sent": whenever the store says it is idle, every action of the run has been processed.
        let store = makeStore { action, _ in
            guard case .run = action else { return .empty }
            return form.task(id: "k") { send in
                send(.got(1))
                send(.got(2))
            }
        }
        store.dispatch(.run(1))
        var violations: [[Int]] = []
        let finished = await adversarialWait {
            if store.isIdle, store.state.got != [1, 2] { violations.append(store.state.got) }
            return store.state.got == [1, 2] && store.isIdle
        }
        #expect(finished)
        #expect(violations.isEmpty)
    }

    @Test func onlyTheLastDebouncedTaskOfABurstRunsAndANewCallCancelsOneThatStarted() async {
        let clock = ManualClock()
        let log = AdversarialLog()
        let store = makeStore(clock: clock, log: log) { action, env in
            guard case .run(let value) = action else { return .empty }
            return .task(scheduling: .debounce(id: "d", delay: .milliseconds(300))) { send in
                env.log.append("body \(value)")
                send(.got(value))
                await withTaskCancellationHandler {
                    try? await env.clock.sleep(for: .seconds(1))
                } onCancel: {
                    env.log.append("cancelled \(value)")
                }
                send(.got(value * 100))
            }
        }
        store.dispatch(.run(1))
        clock.advance(by: .milliseconds(100))
        store.dispatch(.run(2))
        clock.advance(by: .milliseconds(100))
        store.dispatch(.run(3))
        clock.advance(by: .milliseconds(299))
        await adversarialQuiesce()
        #expect(log.events.isEmpty)
        clock.advance(by: .milliseconds(1))
        #expect(await adversarialWait { store.state.got == [3] && clock.pendingCount == 1 })
        store.dispatch(.run(4))
        #expect(await adversarialWait { log.contains("cancelled 3") })
        clock.advance(by: .milliseconds(300))
        #expect(await adversarialWait { store.state.got == [3, 4] && clock.pendingCount == 1 })
        clock.advance(by: .seconds(1))
        #expect(await adversarialWait { store.state.got == [3, 4, 400] && store.isIdle })
        #expect(log.events == ["body 3", "cancelled 3", "body 4"])
    }

    // MARK: Priority, task-locals, loops

    @Test(arguments: Form.allCases)
    func aKeyedTaskInheritsTheDispatchersPriority(_ form: Form) async {
        let seen = Mutex<[TaskPriority]>([])
        let store = makeStore { action, _ in
            guard case .run(let value) = action else { return .empty }
            return form.task(id: "priority") { send in
                seen.withLock { $0.append(Task.currentPriority) }
                send(.got(value))
            }
        }
        await Task(priority: .low) { @MainActor in _ = store.dispatch(.run(1)) }.value
        #expect(await adversarialWait { store.state.got == [1] && store.isIdle })
        #expect(seen.withLock { $0 } == [.low])
    }

    @Test(arguments: Form.allCases)
    func aKeyedTaskInheritsTheDispatchersTaskLocals(_ form: Form) async {
        let store = makeStore { action, _ in
            guard case .run(let value) = action else { return .empty }
            return form.task(id: "local") { send in
                send(.got(AdversarialProbe.tag == "outer" ? value : -value))
            }
        }
        AdversarialProbe.$tag.withValue("outer") { _ = store.dispatch(.run(1)) }
        #expect(await adversarialWait { store.state.got == [1] && store.isIdle })
    }

    @Test(arguments: Form.allCases)
    func aLoopThroughKeyedTasksIsCutOffAtTheThreshold(_ form: Form) async {
        var reports: [StoreReentranceInfo] = []
        let store = makeStore { action, _ in
            guard case .run(let value) = action else { return .empty }
            return form.task(id: "loop") { send in
                send(.got(value))
                send(.run(value + 1))
            }
        }
        store.reentranceThreshold = 5
        store.onReentranceDetected = { reports.append($0) }
        store.dispatch(.run(0))
        #expect(await adversarialWait { !reports.isEmpty && store.isIdle })
        await adversarialQuiesce()
        #expect(store.state.got == [0, 1, 2, 3, 4])
        #expect(reports.allSatisfy { $0.kind == .throughEffects })
        #expect(store.registeredEffectCount == 0)
    }

    // MARK: Scheduled while the engine is busy

    @Test(arguments: Form.allCases)
    func keyedTasksDispatchedFromEffectCodeWhileTheEngineIsBusyKeepReplacementAndCancellation(_ form: Form) async {
        // A debounced subscription fires inside `ManualClock.advance` and dispatches synchronously:
        // its keyed tasks are scheduled while the engine runs the timer, so they are deferred.
        let clock = ManualClock()
        let log = AdversarialLog()
        let ref = StoreRef<Action, State, Env>()
        let store = makeStore(clock: clock, log: log) { action, env in
            switch action {
            case .other:
                return .subscribe(scheduling: .debounce(id: "trigger", delay: .seconds(1))) { _, complete in
                    MainActor.assumeIsolated {
                        ref.store?.dispatch(.run(1))
                        ref.store?.dispatch(.run(2))
                        ref.store?.dispatch(.run(3))
                        ref.store?.dispatch(.stop)
                        ref.store?.dispatch(.run(4))
                    }
                    complete()
                    return .empty
                }
            case .stop:
                return .cancel(id: "k")
            case .run(let value):
                return form.task(id: value == 4 ? "k" : "j") { send in
                    env.log.append("body \(value)")
                    send(.got(value))
                }
            default:
                return .empty
            }
        }
        ref.store = store
        store.dispatch(.other)
        clock.advance(by: .seconds(1))
        #expect(await adversarialWait { store.state.got.count == 2 && store.isIdle })
        await adversarialQuiesce()
        #expect(Set(store.state.got) == [3, 4])
        #expect(Set(log.events) == ["body 3", "body 4"])
        #expect(store.registeredEffectCount == 0)
    }

    @Test
    func synchronousActionsOfOneEffectKeepComponentOrderWhenScheduledWhileTheEngineIsBusy() async {
        // `.combine` is scheduling order: a keyed `just` then a plain one send 1 then 2, also
        // when the dispatch happens inside a timer the engine runs.
        let clock = ManualClock()
        let ref = StoreRef<Action, State, Env>()
        let store = makeStore(clock: clock) { action, _ in
            switch action {
            case .other:
                return .subscribe(scheduling: .debounce(id: "trigger", delay: .seconds(1))) { _, complete in
                    MainActor.assumeIsolated { _ = ref.store?.dispatch(.run(1)) }
                    complete()
                    return .empty
                }
            case .run:
                return .combine(.just(.got(1), scheduling: .keyed(id: "k")), .just(.got(2)))
            default:
                return .empty
            }
        }
        ref.store = store
        store.dispatch(.run(0))
        #expect(await adversarialWait { store.state.got == [1, 2] && store.isIdle })
        store.dispatch(.other)
        clock.advance(by: .seconds(1))
        #expect(await adversarialWait { store.state.got.count == 4 && store.isIdle })
        #expect(store.state.got == [1, 2, 1, 2])
    }
}
