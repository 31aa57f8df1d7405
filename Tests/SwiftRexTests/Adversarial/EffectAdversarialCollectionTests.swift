import SwiftRexTestSupport
import SwiftRexTesting
import Testing

@testable import SwiftRex

/// A collection element's keyed tasks are its own: they replace only within the element, its cancels
/// reach only them, and removing the element takes them with it.
@MainActor
@Suite("Adversarial: keyed tasks of collection elements")
struct EffectAdversarialCollectionTests: EffectAdversarialSuite {
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
