import SwiftRexTestSupport
import SwiftRexTesting
import Synchronization
import Testing

@testable import SwiftRex

// Adversarial tests of the effect engine: each test states a documented guarantee of
// <doc:EffectsAndScheduling> or <doc:DispatchPipeline> and can fail. Most scenarios run in every
// *form* of a keyed `Effect.task`: the compact `.keyedTask` storage, and general components that
// stand for the same thing (see `AdversarialForm`), which must be observably identical.
//
// The tests are in one suite a topic (`EffectAdversarial…Tests` in this folder). This file holds
// what they share: the log and the waits, the forms of a keyed task, and (through
// `EffectAdversarialSuite`) one domain and the stores built on it.

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

/// The domain every adversarial suite tests against: an action, a state that records what arrived,
/// and an environment with a manual clock and a log.
@MainActor
enum EffectAdversarial {
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

    @MainActor final class StoreRef<A: Sendable, S: Sendable, E: Sendable> {
        weak var store: Store<A, S, E>?
    }
}

/// A suite of adversarial effect-engine tests: it writes its tests against the shared domain's
/// names and builds its stores with the helpers below.
@MainActor
protocol EffectAdversarialSuite {}

extension EffectAdversarialSuite {
    typealias Form = AdversarialForm
    typealias Action = EffectAdversarial.Action
    typealias State = EffectAdversarial.State
    typealias Env = EffectAdversarial.Env
    /// A weak reference to a store, for effect code that dispatches into it.
    typealias StoreRef<A: Sendable, S: Sendable, E: Sendable> = EffectAdversarial.StoreRef<A, S, E>

    /// Sleeps ten seconds of the environment's clock, logging `label` when cancelled first.
    static func sleepLoggingCancellation(_ env: Env, _ label: String) async {
        await withTaskCancellationHandler {
            try? await env.clock.sleep(for: .seconds(10))
        } onCancel: {
            env.log.append(label)
        }
    }

    static func behavior(_ env: Env, _ effect: @escaping @MainActor @Sendable (Action, Env) -> Effect<Action>) -> Behavior<Action, State, Env> {
        EffectAdversarial.reducer
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
}
