import SwiftRex
import Testing

/// Bad input: cancelling an id nothing runs under. Defined outcome: a no-op — nothing is
/// cancelled, nothing is registered (the registry stays empty), other runs are untouched.
@MainActor
@Suite("Bad input: cancel of unknown ids")
struct UnknownCancelTests {
    enum Action: Sendable, Equatable {
        case start
        case cancel(String)
    }

    static func store(_ log: EventLog) -> Store<Action, Int, Void> {
        Store(
            initial: 0,
            behavior: .produce { action, _ in
                switch action {
                case .start:
                    return Producer { _ in
                        .subscribe(scheduling: .keyed(id: "running")) { _, _ in
                            log.append("start")
                            return SubscriptionToken { log.append("cancelled") }
                        }
                    }
                case .cancel(let id):
                    return Producer { _ in .cancel(id: id) }
                }
            })
    }

    @Test func anEffectCancellingAnUnknownIdChangesNothing() {
        let log = EventLog()
        let store = Self.store(log)
        store.dispatch(.cancel("nobody"))
        #expect(store.registeredEffectCount == 0)
        store.dispatch(.start)
        store.dispatch(.cancel("nobody"))
        #expect(log.events == ["start"])
        #expect(store.registeredEffectCount == 1)
        store.dispatch(.cancel("running"))
        #expect(log.events == ["start", "cancelled"])
        #expect(store.registeredEffectCount == 0)
    }

    @Test func cancelEffectsWithAnUnknownOrAlreadyCancelledIdIsANoOp() {
        let log = EventLog()
        let store = Self.store(log)
        store.cancelEffects(id: 42)
        store.dispatch(.start)
        store.cancelEffects(id: "running")
        store.cancelEffects(id: "running")
        store.cancelEffects(id: AnyHashableSendable("running"))
        #expect(log.events == ["start", "cancelled"])
        #expect(store.isIdle)
        #expect(store.registeredEffectCount == 0)
    }

    @Test func anElementCancellingAnIdItNeverStartedLeavesItsSiblingsAlone() {
        // The row's `cancel` is stamped with its element and lift site: it can only reach its own effects.
        let log = EventLog()
        let row = Behavior<LiftApp.RowAction, LiftApp.Row, String>.produce { action, _ in
            switch action {
            case .autosave:
                return Producer { _ in
                    .subscribe(scheduling: .keyed(id: "save")) { _, _ in
                        log.append("save")
                        return SubscriptionToken { log.append("save cancelled") }
                    }
                }
            case .touch: return Producer { _ in .cancel(id: "save") }
            default: return .doNothing
            }
        }
        let rows = row.liftCollection(.action(LiftApp.rowPrism).state(\LiftApp.AppState.rows).environment(\LiftApp.AppEnvironment.rowEnvironment))
        let store = Store(initial: BadInput.state(rows: [1, 2]), behavior: rows, environment: LiftApp.AppEnvironment())
        store.dispatch(.row(ElementAction(1, action: .autosave)))
        store.dispatch(.row(ElementAction(2, action: .touch)))
        #expect(log.events == ["save"])
        #expect(store.registeredEffectCount == 1)
    }
}
