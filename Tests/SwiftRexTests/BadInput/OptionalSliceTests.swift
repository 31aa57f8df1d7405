import SwiftRex
import Synchronization
import Testing

/// Bad input: a `liftOptional` slice that becomes `nil` while one of its effects is still running.
/// Defined outcome (Lifting, "When the focus is absent"): the running one-shot effect is not
/// cancelled, but its `liveState` reads `nil`; an action it sends back while the slice is absent is
/// dropped without calling the feature (no mutation, no notification, no effect, no diagnostic);
/// the feature's supervised channels close when the slice disappears.
@MainActor
@Suite("Bad input: liftOptional slice gone mid-effect")
struct OptionalSliceTests {
    enum Action: Sendable, Equatable { case start, bump, close, open }
    struct State: Sendable, Equatable { var detail: Int? = 0 }

    final class Probe: Sendable {
        let send = Mutex<(@Sendable (DispatchedAction<Action>) -> Void)?>(nil)
        let read = Mutex<(@Sendable @MainActor () -> Int?)?>(nil)
        let log = EventLog()
        let featureCalls = Mutex(0)
    }

    static func store(_ probe: Probe) -> Store<Action, State, Void> {
        let detail = Behavior<Action, Int, Void>
            .react { action, _ in
                probe.featureCalls.withLock { $0 += 1 }
                return action == .bump ? .reduce { $0 += 1 } : .doNothing
            }
            .produce { action, _ in
                guard action == .start else { return .doNothing }
                return Producer { context in
                    probe.read.withLock { $0 = { context.liveState } }
                    return .subscribe { send, _ in
                        probe.send.withLock { $0 = send }
                        return SubscriptionToken { probe.log.append("effect cancelled") }
                    }
                }
            }
            .supervise { _ in
                Supervision { _ in
                    [
                        Channel<Action>(id: "detail-feed") { _ in
                            probe.log.append("open")
                            return .cancelOnly { probe.log.append("close") }
                        }
                    ]
                }
            }
        let parent = Behavior<Action, State, Void>.react { action, _ in
            switch action {
            case .close: return .reduce { $0.detail = nil }
            case .open: return .reduce { $0.detail = 0 }
            default: return .doNothing
            }
        }
        return Store(initial: State(), behavior: parent <> detail.liftOptional(\State.detail))
    }

    @Test func anEffectOutlivingItsSliceReadsNilAndItsActionsAreDropped() async {
        let probe = Probe()
        let store = Self.store(probe)
        store.dispatch(.start)
        #expect(probe.read.withLock { $0 }?() == 0)
        store.dispatch(.close)
        #expect(store.state.detail == nil)
        #expect(probe.read.withLock { $0 }?() == nil)
        #expect(probe.log.events == ["open", "close"])

        var notifications = 0
        let token = store.observe(didChange: { notifications += 1 })
        let callsBefore = probe.featureCalls.withLock { $0 }
        let diagnostics = await collectingDiagnostics {
            probe.send.withLock { $0 }?(DispatchedAction(.bump))
            for _ in 0..<50 { await Task.yield() }
        }
        #expect(store.state.detail == nil)
        #expect(notifications == 0)
        #expect(diagnostics.isEmpty)
        #expect(probe.featureCalls.withLock { $0 } == callsBefore)
        // The one-shot run itself is not cancelled by the slice disappearing.
        #expect(!probe.log.events.contains("effect cancelled"))
        _ = token
    }

    @Test func theSliceComingBackRestoresTheFeature() {
        let probe = Probe()
        let store = Self.store(probe)
        store.dispatch(.close)
        store.dispatch(.bump)
        #expect(store.state.detail == nil)
        store.dispatch(.open)
        store.dispatch(.bump)
        #expect(store.state.detail == 1)
        #expect(probe.log.events == ["open", "close", "open"])
    }
}
