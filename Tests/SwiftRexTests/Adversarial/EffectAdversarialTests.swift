import SwiftRexTestSupport
import SwiftRexTesting
import Synchronization
import Testing

@testable import SwiftRex

// Adversarial tests of the effect engine: each test states a documented guarantee of
// <doc:EffectsAndScheduling> or <doc:DispatchPipeline> and can fail. Most scenarios run in every
// *form* of a keyed `Effect.task`: the compact `.keyedTask` storage, and general components that
// stand for the same thing (see `AdversarialForm`), which must be observably identical.

/// A thread-safe log of what effect bodies did.
final class AdversarialLog: Sendable {
    private let storage = Mutex<[String]>([])
    func append(_ event: String) { storage.withLock { $0.append(event) } }
    var events: [String] { storage.withLock { $0 } }
    func contains(_ event: String) -> Bool { events.contains(event) }
}

/// A `Send` kept by a body, to call after its effect ended.
final class AdversarialSendBox<Action: Sendable>: Sendable {
    private let storage = Mutex<Send<Action>?>(nil)
    func keep(_ send: Send<Action>) { storage.withLock { $0 = send } }
    var send: Send<Action>? { storage.withLock { $0 } }
    func clear() { storage.withLock { $0 = nil } }
}

/// Waits until `condition` holds, yielding the main actor (and, after a while, sleeping a
/// millisecond between checks so worker threads of a loaded machine get to run). Bounded: a
/// condition that never holds returns `false` once both 10 s and 2,000 turns have passed. Not a
/// timing assertion. The turns matter: the whole suite shares the main actor, and behind its
/// backlog a single `Task.yield()` was measured to take 10–12 s in a full run, so a bound in
/// time alone gave up after two looks, before the work it waited for had had its first turn.
@MainActor
func adversarialWait(_ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now.advanced(by: .seconds(10))
    var turns = 0
    while !condition() {
        if turns >= 2_000, ContinuousClock.now >= deadline { return false }
        turns += 1
        if turns < 200 { await Task.yield() } else { try? await Task.sleep(for: .milliseconds(1)) }
    }
    return true
}

/// Lets whatever is in flight run (used before asserting that something did *not* happen).
@MainActor
func adversarialQuiesce() async {
    for _ in 0..<30 { await Task.yield() }
    try? await Task.sleep(for: .milliseconds(2))
    for _ in 0..<30 { await Task.yield() }
}

/// The ways to write "a keyed (or replacing) `Effect.task` with no other knob". `compact` is the
/// `.keyedTask` storage `Effect.task` builds; the others are general components that mean exactly
/// the same and must behave exactly the same.
enum AdversarialForm: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// `Effect.task(scheduling: .keyed(id:))` as it is (`.keyedTask` storage).
    case compact
    /// The same effect rebuilt from its components (`.single` storage).
    case single
    /// The same effect re-scheduled under the same policy.
    case rescheduled
    /// The policy with a zero delay (documented to start at once).
    case zeroDelay
    /// Merged after a cancel of an id nothing uses (`.many` storage).
    case merged

    var testDescription: String { rawValue }

    func task<A: Sendable>(
        id: some Hashable & Sendable, exclusive: Bool = false, _ body: @escaping @Sendable (Send<A>) async -> Void
    ) -> Effect<A> {
        let key = AnyHashableSendable(id)
        let policy: EffectScheduling = exclusive ? .replacing(id: key) : .keyed(id: key)
        switch self {
        case .compact: return Effect<A>.task(scheduling: policy, body)
        case .single: return Effect<A>(components: Effect<A>.task(scheduling: policy, body).components)
        case .rescheduled: return Effect<A>.task(scheduling: policy, body).scheduling(policy)
        case .zeroDelay: return Effect<A>.task(scheduling: policy.delayed(by: .zero), body)
        case .merged: return .combine(.cancel(id: "adversarial.unused"), Effect<A>.task(scheduling: policy, body))
        }
    }
}

enum AdversarialProbe {
    @TaskLocal static var tag = "none"
}

@MainActor
@Suite("Adversarial: effect engine")
struct EffectAdversarialTests {
    typealias Form = AdversarialForm

    enum Action: Sendable, Equatable {
        case run(Int)
        case runKey(AnyHashableSendable, Int)
        case got(Int)
        case stop
        case other
    }

    struct State: Sendable, Equatable {
        var got: [Int] = []
    }

    struct Env: Sendable {
        let clock: ManualClock
        let log: AdversarialLog
    }

    static let reducer = Behavior<Action, State, Env>.reduce { action, state in
        if case .got(let value) = action { state.got.append(value) }
    }

    /// Sleeps ten seconds of the environment's clock, logging `label` when cancelled first.
    static func sleepLoggingCancellation(_ env: Env, _ label: String) async {
        await withTaskCancellationHandler {
            try? await env.clock.sleep(for: .seconds(10))
        } onCancel: {
            env.log.append(label)
        }
    }

    static func behavior(_ env: Env, _ effect: @escaping @MainActor @Sendable (Action, Env) -> Effect<Action>) -> Behavior<Action, State, Env> {
        Self.reducer
            <> Behavior<Action, State, Env>.produce { action, _ in
                let produced = effect(action, env)
                return Producer { _ in produced }
            }
    }

    func makeStore(
        clock: ManualClock = ManualClock(), log: AdversarialLog = AdversarialLog(),
        _ effect: @escaping @MainActor @Sendable (Action, Env) -> Effect<Action>
    ) -> Store<Action, State, Env> {
        let env = Env(clock: clock, log: log)
        return Store(initial: State(), behavior: Self.behavior(env, effect), environment: env, clock: { $0.clock })
    }

    func makeTestStore(
        clock: ManualClock = ManualClock(), log: AdversarialLog = AdversarialLog(),
        _ effect: @escaping @MainActor @Sendable (Action, Env) -> Effect<Action>
    ) -> TestStore<Action, State, Env> {
        let env = Env(clock: clock, log: log)
        return TestStore(initial: State(), behavior: Self.behavior(env, effect), environment: env, clock: clock)
    }

    // MARK: The compact form stands for the general component

    @Test func aPlainKeyedOrReplacingTaskIsCompactAndItsComponentIsTheGeneralOne() {
        let keyed = Effect<Action>.task(scheduling: .keyed(id: "k")) { _ in }
        if case .keyedTask(_, let key, let exclusive) = keyed.storage {
            #expect(key == AnyHashableSendable("k"))
            #expect(!exclusive)
        } else {
            Issue.record("a keyed task is not stored compactly")
        }
        #expect(keyed.components.count == 1)
        #expect(keyed.components.first?.scheduling == .keyed(id: "k"))
        #expect(keyed.components.first?.startsTaskAtOnceByKey == true)
        #expect(!keyed.isEmpty)

        let replacing = Effect<Action>.task(scheduling: .replacing(id: 7)) { _ in }
        if case .keyedTask(_, let key, let exclusive) = replacing.storage {
            #expect(key == AnyHashableSendable(7))
            #expect(exclusive)
        } else {
            Issue.record("a replacing task is not stored compactly")
        }
        #expect(replacing.components.first?.scheduling == .replacing(id: 7))

        // `map` keeps the compact form and the key.
        let mapped: Effect<Int> = keyed.map { _ in 1 }
        if case .keyedTask(_, let key, false) = mapped.storage {
            #expect(key == AnyHashableSendable("k"))
        } else {
            Issue.record("a mapped keyed task lost its compact form")
        }

        // The other forms really are general components.
        for form in Form.allCases where form != .compact {
            let effect: Effect<Action> = form.task(id: "k") { _ in }
            if case .keyedTask = effect.storage { Issue.record("form \(form) is compact") }
            let scheduling = effect.components.last?.scheduling
            #expect(scheduling?.id == AnyHashableSendable("k"))
            #expect(scheduling?.coalesce == nil)
        }
        // Knobs that change the meaning are never compact.
        let debounced = Effect<Action>.task(scheduling: .debounce(id: "k", delay: .seconds(1))) { _ in }
        if case .keyedTask = debounced.storage { Issue.record("a debounced task is compact") }
        let throttled = Effect<Action>.task(scheduling: .throttle(id: "k", interval: .seconds(1))) { _ in }
        if case .keyedTask = throttled.storage { Issue.record("a throttled task is compact") }
        let cancelling = Effect<Action>.task(scheduling: .cancelInFlight(id: "k")) { _ in }
        #expect(cancelling.components.first?.scheduling.cancelsOnly == true)

        // Scoped to an element, the id is stamped and exclusivity kept.
        let scoped = replacing.scopedToElement(3, site: "rows").components
        #expect(scoped.count == 1)
        #expect(scoped.first?.scheduling == .replacing(id: ElementEffectID(site: "rows", element: 3, inner: 7)))
    }

    @Test func everyTransformationOfAKeyedTaskKeepsTheFactoryCallSite() async {
        let line: UInt = #line + 1
        let compact = Effect<Int>.task(scheduling: .keyed(id: "k")) { send in send(1) }
        let variants: [Effect<Int>] = [
            compact, compact.map { $0 + 1 }, Effect(components: compact.components), compact.scheduling(.replacing(id: "k")),
            compact.scopedToElement(1, site: "rows"), .combine(compact, .empty), .mconcat([compact]),
        ]
        for variant in variants {
            let recording = variant.record()
            #expect(await adversarialWait { recording.completions == 1 })
            #expect(recording.actions.map(\.dispatcher.line) == [line])
            #expect(recording.actions.map(\.dispatcher.file) == [#fileID])
            recording.cancel()
        }
    }

    @Test(arguments: Form.allCases)
    func theCompactFormSubscribedOutsideAStoreSendsAndCompletesLikeTheGeneralOne(_ form: Form) async {
        let effect: Effect<Int> = form.task(id: "k") { send in
            send(1)
            send(2)
        }
        let recording = effect.map { $0 * 10 }.record()
        #expect(await adversarialWait { recording.completions >= 1 + (form == .merged ? 1 : 0) })
        #expect(recording.actionValues == [10, 20])
        recording.cancel()
    }

    // MARK: Replacement

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

    // MARK: Merging

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

    // MARK: Cancellation by id

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

    // MARK: Collection elements

    struct Row: Identifiable, Sendable, Equatable {
        var id: Int
        var got: [Int] = []
    }

    enum RowAction: Sendable, Equatable {
        case run(Int)
        case got(Int)
        case stop
    }

    enum AppAction: Sendable, Equatable {
        case row(ElementAction<Int, RowAction>)
        case remove(Int)
        case cancelRow(Int)
        case trigger
    }

    struct AppState: Sendable, Equatable {
        var rows: [Row]
    }

    static let rowPrism = Prism<AppAction, ElementAction<Int, RowAction>>(
        preview: { if case .row(let action) = $0 { action } else { nil } }, review: AppAction.row)

    static func rowFeature(_ form: Form) -> Behavior<RowAction, Row, Env> {
        Behavior<RowAction, Row, Env>
            .reduce { action, row in if case .got(let value) = action { row.got.append(value) } }
            .produce { action, _ in
                if action == .stop { return Producer { _ in .cancel(id: "work") } }
                guard case .run(let value) = action else { return .doNothing }
                return Producer { context in
                    let env = context.environment
                    return form.task(id: "work") { send in
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
            }
    }

    static func appStore(_ form: Form, env: Env, extra: Behavior<AppAction, AppState, Env> = .identity) -> Store<AppAction, AppState, Env> {
        let rows = rowFeature(form).liftCollection(.action(Self.rowPrism).state(\AppState.rows), site: "rows")
        let admin = Behavior<AppAction, AppState, Env>
            .reduce { action, state in
                if case .remove(let id) = action { state.rows.removeAll { $0.id == id } }
            }
            .produce { action, _ in
                guard case .cancelRow(let id) = action else { return .doNothing }
                return Producer { _ in .cancel(id: ElementEffectID(site: "rows", element: id, inner: "work")) }
            }
        return Store(
            initial: AppState(rows: [Row(id: 1), Row(id: 2), Row(id: 3)]), behavior: rows <> admin <> extra,
            environment: env, clock: { $0.clock })
    }

    @Test(arguments: Form.allCases)
    func elementKeyedTasksReplaceOnlyWithinTheirElementAndAreCancelledByRemovalOrScopedId(_ form: Form) async {
        let clock = ManualClock()
        let log = AdversarialLog()
        let store = Self.appStore(form, env: Env(clock: clock, log: log))
        store.dispatch(.row(ElementAction(1, action: .run(11))))
        store.dispatch(.row(ElementAction(1, action: .run(12))))
        store.dispatch(.row(ElementAction(2, action: .run(21))))
        store.dispatch(.row(ElementAction(3, action: .run(31))))
        #expect(
            await adversarialWait {
                store.state.rows.map(\.got) == [[12], [21], [31]] && clock.pendingCount == 3
            })
        #expect(Set(log.events) == ["body 12", "body 21", "body 31"])
        store.dispatch(.cancelRow(2))
        #expect(await adversarialWait { log.contains("cancelled 21") })
        #expect(!log.contains("cancelled 12") && !log.contains("cancelled 31"))
        store.dispatch(.remove(1))
        #expect(await adversarialWait { log.contains("cancelled 12") && clock.pendingCount == 1 })
        clock.advance(by: .seconds(1))
        #expect(await adversarialWait { store.state.rows.map(\.got) == [[21], [31, 3100]] && store.isIdle })
        await adversarialQuiesce()
        #expect(!log.contains("cancelled 31"))
        #expect(store.registeredEffectCount == 0)
    }

    // MARK: Keys

    @Test func idsOfDifferentTypesAreDifferentKeys() async {
        let log = AdversarialLog()
        let store = makeStore(log: log) { action, env in
            guard case .runKey(let key, let value) = action else { return .empty }
            return .task(scheduling: .keyed(id: key)) { send in
                env.log.append("body \(value)")
                send(.got(value))
            }
        }
        let keys: [AnyHashableSendable] = [
            AnyHashableSendable(1), AnyHashableSendable(Int8(1)), AnyHashableSendable(UInt(1)), AnyHashableSendable("1"),
            AnyHashableSendable(1.0), AnyHashableSendable(true), AnyHashableSendable(Int?.some(1)), AnyHashableSendable(Character("1")),
        ]
        for (index, key) in keys.enumerated() { store.dispatch(.runKey(key, index)) }
        #expect(await adversarialWait { store.state.got.count == keys.count && store.isIdle })
        #expect(Set(store.state.got) == Set(keys.indices))
        #expect(store.registeredEffectCount == 0)
    }

    /// Pairs of equal strings held differently.
    enum EqualStrings: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case literalAndBuilt, fromSubstring, precomposedAndDecomposed, hangulSyllableAndJamo, angstrom
        case long, fifteenBytes, sixteenBytes, empty, bridgedThroughInterpolation

        var testDescription: String { rawValue }

        var pair: (String, String) {
            switch self {
            case .literalAndBuilt: return ("search", String(["s", "e", "a", "r", "c", "h"]))
            case .fromSubstring: return ("search", String("[search]".dropFirst().dropLast()))
            case .precomposedAndDecomposed: return ("caf\u{E9}", "cafe\u{301}")
            case .hangulSyllableAndJamo: return ("\u{AC00}", "\u{1100}\u{1161}")
            case .angstrom: return ("\u{C5}ngstr\u{F6}m", "\u{212B}ngstro\u{308}m")
            case .long: return ("a-rather-long-search-key-0123456789", "a-rather-long-" + String(repeating: "search-key-", count: 1) + "0123456789")
            case .fifteenBytes: return ("abcdefghijklmno", String("abcdefghijklmnop".dropLast()))
            case .sixteenBytes: return ("abcdefghijklmnop", "abcdefgh" + String("ijklmnop".reversed().reversed()))
            case .empty: return ("", String("x".dropFirst()))
            case .bridgedThroughInterpolation: return ("id-42", "id-\(42)")
            }
        }
    }

    static func expectOneKey(_ a: String, _ b: String, sourceLocation: SourceLocation = #_sourceLocation) async {
        #expect(a == b, sourceLocation: sourceLocation)
        #expect(AnyHashableSendable(a) == AnyHashableSendable(b), sourceLocation: sourceLocation)
        #expect(AnyHashableSendable(a).hashValue == AnyHashableSendable(b).hashValue, sourceLocation: sourceLocation)
        let log = AdversarialLog()
        let env = Env(clock: ManualClock(), log: log)
        let store = Store(
            initial: State(),
            behavior: Self.behavior(env) { action, env in
                guard case .runKey(let key, let value) = action else { return .empty }
                return .task(scheduling: .keyed(id: key)) { send in
                    env.log.append("body \(value)")
                    send(.got(value))
                }
            }, environment: env, clock: { $0.clock })
        store.dispatch(.runKey(AnyHashableSendable(a), 1))
        store.dispatch(.runKey(AnyHashableSendable(b), 2))
        store.dispatch(.runKey(AnyHashableSendable(a), 3))
        store.dispatch(.runKey(AnyHashableSendable(b), 4))
        #expect(await adversarialWait { !store.state.got.isEmpty && store.isIdle }, sourceLocation: sourceLocation)
        await adversarialQuiesce()
        #expect(store.state.got == [4], sourceLocation: sourceLocation)
        #expect(log.events == ["body 4"], sourceLocation: sourceLocation)
    }

    @Test(arguments: EqualStrings.allCases)
    func equalStringsHeldDifferentlyAreOneKey(_ strings: EqualStrings) async {
        let (a, b) = strings.pair
        await Self.expectOneKey(a, b)
    }

    @Test
    func anAsciiStringAndACanonicallyEquivalentNonAsciiOneAreOneKey() async {
        // U+212A KELVIN SIGN is canonically equivalent to "K", U+037E GREEK QUESTION MARK to ";":
        // Swift says the strings are equal, so they are the same id.
        await Self.expectOneKey("Kelvin", "\u{212A}elvin")
        await Self.expectOneKey("a;b", "a\u{037E}b")
    }

    @Test func optionalIdsAreKeysOfTheirOptionalType() async {
        let log = AdversarialLog()
        let store = makeStore(log: log) { action, env in
            guard case .runKey(let key, let value) = action else { return .empty }
            return .task(scheduling: .keyed(id: key)) { send in
                env.log.append("body \(value)")
                send(.got(value))
            }
        }
        // Same type, equal values: one key (only the last of each group runs).
        store.dispatch(.runKey(AnyHashableSendable(Int?.some(1)), 1))
        store.dispatch(.runKey(AnyHashableSendable(Int?.some(1)), 2))
        store.dispatch(.runKey(AnyHashableSendable(Int?.none), 3))
        store.dispatch(.runKey(AnyHashableSendable(Int?.none), 4))
        store.dispatch(.runKey(AnyHashableSendable(String?.some("a")), 5))
        store.dispatch(.runKey(AnyHashableSendable(String?.some("a")), 6))
        // Other types: other keys.
        store.dispatch(.runKey(AnyHashableSendable(String?.none), 7))
        store.dispatch(.runKey(AnyHashableSendable(1), 8))
        store.dispatch(.runKey(AnyHashableSendable("a"), 9))
        #expect(await adversarialWait { store.state.got.count == 6 && store.isIdle })
        await adversarialQuiesce()
        #expect(Set(store.state.got) == [2, 4, 6, 7, 8, 9])
        #expect(store.registeredEffectCount == 0)
    }

    @Test func effectKeysOfEqualValueAreEqualAndHashAlikeAndNoOthersAre() {
        let values: [AnyHashableSendable] = [
            AnyHashableSendable(1), AnyHashableSendable(Int.max), AnyHashableSendable(-1), AnyHashableSendable(Int8(1)),
            AnyHashableSendable(""), AnyHashableSendable("a"), AnyHashableSendable("abcdefghijklmno"),
            AnyHashableSendable(String("abcdefghijklmnop".dropLast())), AnyHashableSendable("abcdefghijklmnop"),
            AnyHashableSendable("caf\u{E9}"), AnyHashableSendable("cafe\u{301}"),
            AnyHashableSendable(String(repeating: "long-", count: 10)), AnyHashableSendable("long-" + String(repeating: "long-", count: 9)),
            AnyHashableSendable(Int?.some(1)), AnyHashableSendable(Int?.none), AnyHashableSendable(String?.some("a")),
            AnyHashableSendable(ElementEffectID(site: "rows", element: 1, inner: "work")),
            AnyHashableSendable(ElementEffectID(site: "rows", element: 1, inner: "work")),
            AnyHashableSendable(ElementEffectID(site: "rows", element: 2, inner: "work")),
            AnyHashableSendable(AnonymousEffectKey(value: 1)), AnyHashableSendable(1.5),
        ]
        for a in values {
            for b in values {
                let optional: (AnyHashableSendable?, AnyHashableSendable?) = (a, b)
                #expect((optional.0 == optional.1) == (a == b), "\(a) vs \(b) (optional)")
                if a == b { #expect(a.hashValue == b.hashValue, "\(a) vs \(b) (hash)") }
            }
        }
        #expect(Set(values).count == values.count - 4)
    }

    // MARK: Store lifetime

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

    // MARK: Durations

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

    // MARK: TestStore

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

    // MARK: More scheduling

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

    @Test func reschedulingACompactKeyedTaskChangesItsPolicy() async {
        let log = AdversarialLog()
        let store = makeStore(log: log) { action, env in
            guard case .run(let value) = action else { return .empty }
            let task = Effect<Action>.task(scheduling: .keyed(id: "a")) { send in
                env.log.append("body \(value)")
                send(.got(value))
            }
            switch value {
            case 1, 2: return task.scheduling(.immediately) // anonymous: both run
            case 3, 4: return task.scheduling(.keyed(id: "b")) // re-keyed: the later replaces
            default: return task // under "a"
            }
        }
        store.dispatch(.run(1))
        store.dispatch(.run(2))
        store.dispatch(.run(3))
        store.dispatch(.run(5))
        store.dispatch(.run(4))
        #expect(await adversarialWait { store.state.got.count == 4 && store.isIdle })
        await adversarialQuiesce()
        #expect(Set(store.state.got) == [1, 2, 4, 5])
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

    @Test(arguments: Form.allCases)
    func aRowsOwnCancelReachesOnlyItsOwnKeyedTask(_ form: Form) async {
        let clock = ManualClock()
        let log = AdversarialLog()
        let store = Self.appStore(form, env: Env(clock: clock, log: log))
        store.dispatch(.row(ElementAction(1, action: .run(11))))
        store.dispatch(.row(ElementAction(2, action: .run(21))))
        #expect(await adversarialWait { clock.pendingCount == 2 })
        store.dispatch(.row(ElementAction(1, action: .stop)))
        #expect(await adversarialWait { log.contains("cancelled 11") && clock.pendingCount == 1 })
        clock.advance(by: .seconds(1))
        #expect(await adversarialWait { store.state.rows.map(\.got) == [[11], [21, 2100], []] && store.isIdle })
        #expect(!log.contains("cancelled 21"))
        #expect(store.registeredEffectCount == 0)
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

    // MARK: Loops, task-locals

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

    // MARK: Scheduled while the engine is busy

    @MainActor final class StoreRef<A: Sendable, S: Sendable, E: Sendable> {
        weak var store: Store<A, S, E>?
    }

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

    @Test(arguments: Form.allCases)
    func anElementRemovedByADispatchFromEffectCodeStillTakesItsKeyedTaskWithIt(_ form: Form) async {
        // The removal is dispatched synchronously from inside a timer the engine runs (a
        // debounced subscription fired by `ManualClock.advance`).
        let clock = ManualClock()
        let log = AdversarialLog()
        let ref = StoreRef<AppAction, AppState, Env>()
        let trigger = Behavior<AppAction, AppState, Env>.produce { action, _ in
            guard action == .trigger else { return .doNothing }
            return Producer { _ in
                .subscribe(scheduling: .debounce(id: "trigger", delay: .milliseconds(10))) { _, complete in
                    MainActor.assumeIsolated { _ = ref.store?.dispatch(.remove(1)) }
                    complete()
                    return .empty
                }
            }
        }
        let store = Self.appStore(form, env: Env(clock: clock, log: log), extra: trigger)
        ref.store = store
        store.dispatch(.row(ElementAction(1, action: .run(11))))
        #expect(await adversarialWait { store.state.rows[0].got == [11] && clock.pendingCount == 1 })
        store.dispatch(.trigger)
        clock.advance(by: .milliseconds(10))
        #expect(store.state.rows.map(\.id) == [2, 3])
        #expect(await adversarialWait { log.contains("cancelled 11") })
        #expect(store.pendingEffects.isEmpty)
        clock.advance(by: .seconds(1))
        #expect(await adversarialWait { store.isIdle })
        #expect(store.registeredEffectCount == 0)
    }
}
