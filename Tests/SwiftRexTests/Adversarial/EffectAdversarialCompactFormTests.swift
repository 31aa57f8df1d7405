import SwiftRexTestSupport
import SwiftRexTesting
import Testing

@testable import SwiftRex

/// `Effect.task` stores a plain keyed or replacing task compactly (`.keyedTask`); every other way of
/// writing the same effect is a general component. Both must mean, and do, the same; re-scheduled,
/// the compact one takes the new policy.
@MainActor
@Suite("Adversarial: a compact keyed task behaves as the general one")
struct EffectAdversarialCompactFormTests: EffectAdversarialSuite {
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
}
