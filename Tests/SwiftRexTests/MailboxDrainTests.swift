@_spi(Testing) import SwiftRex
import Synchronization
import Testing

/// The mailbox drain moves each entry out of its buffer and reuses the buffer for the next
/// burst: every action is processed exactly once, in posting order, ended runs after the actions
/// they sent, and what a drained action sends waits for the next drain.
@MainActor
@Suite struct MailboxDrainTests {
    enum Action: Sendable, Equatable {
        case ask(String)
        case answer(String)
        case open
    }

    struct State: Sendable, Equatable {
        var answers: [String] = []
    }

    /// Where a test keeps the `send` and `complete` of an open subscription.
    final class Handles: Sendable {
        let send = Mutex<(@Sendable (DispatchedAction<Action>) -> Void)?>(nil)
        let complete = Mutex<(@Sendable () -> Void)?>(nil)
    }

    func makeStore(_ handles: Handles = Handles()) -> Store<Action, State, Void> {
        let behavior = Behavior<Action, State, Void>
            .reduce { action, state in
                if case .answer(let text) = action { state.answers.append(text) }
            }
            .produce { action, _ in
                switch action {
                case .ask(let text):
                    return Producer { _ in .just(.answer(text)) }
                case .answer("chain"):
                    return Producer { _ in .just(.answer("chained")) }
                case .open:
                    return Producer { _ in
                        .subscribe(scheduling: .keyed(id: "held")) { send, complete in
                            handles.send.withLock { $0 = send }
                            handles.complete.withLock { $0 = complete }
                            return .empty
                        }
                    }
                case .answer:
                    return .doNothing
                }
            }
        return Store(initial: State(), behavior: behavior)
    }

    @Test func consecutiveDrainsProcessEveryActionOnceInPostingOrder() {
        let store = makeStore()
        for text in ["a", "b", "c"] { store.dispatch(.ask(text)) }
        #expect(store.state.answers.isEmpty)
        store.drainEffectActionsNow()
        #expect(store.state.answers == ["a", "b", "c"])
        // The second burst reuses the first one's buffer.
        for text in ["d", "e"] { store.dispatch(.ask(text)) }
        store.drainEffectActionsNow()
        #expect(store.state.answers == ["a", "b", "c", "d", "e"])
        store.drainEffectActionsNow()
        #expect(store.state.answers == ["a", "b", "c", "d", "e"])
        #expect(!store.hasRunningEffects)
    }

    @Test func whatADrainedActionSendsWaitsForTheNextDrain() {
        let store = makeStore()
        store.dispatch(.ask("chain"))
        store.dispatch(.ask("x"))
        store.drainEffectActionsNow()
        #expect(store.state.answers == ["chain", "x"])
        store.drainEffectActionsNow()
        #expect(store.state.answers == ["chain", "x", "chained"])
    }

    @Test func anEndedRunIsForgottenAfterTheActionsItSentAndInterleavedEntriesKeepTheirOrder() throws {
        let handles = Handles()
        let store = makeStore(handles)
        store.dispatch(.open)
        #expect(store.registeredEffectCount == 1)
        let send = try #require(handles.send.withLock { $0 })
        let complete = try #require(handles.complete.withLock { $0 })
        store.dispatch(.ask("before"))
        send(DispatchedAction(.answer("sent")))
        complete()
        store.dispatch(.ask("after"))
        // The run ends only when its entry is drained, after what it sent.
        #expect(store.registeredEffectCount == 1)
        store.drainEffectActionsNow()
        #expect(store.state.answers == ["before", "sent", "after"])
        #expect(store.registeredEffectCount == 0)
        #expect(store.isIdle)
    }
}
