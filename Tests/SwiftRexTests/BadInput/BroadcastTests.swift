import SwiftRex
import Testing

/// Bad input: `Effect.broadcast` with no channel to receive it. Defined outcome: the value is
/// dropped — nothing opens, nothing is registered, and a live run or channel under that id is
/// left as it was (a channel of another value type receives nothing).
@MainActor
@Suite("Bad input: broadcasts with no channel")
struct BroadcastTests {
    enum Action: Sendable, Equatable {
        case broadcast(Int)
        case broadcastText(String)
        case start, toggle
    }

    static func store(_ log: EventLog) -> Store<Action, Bool, Void> {
        let behavior = Behavior<Action, Bool, Void>
            .reduce { action, isLive in if action == .toggle { isLive.toggle() } }
            .produce { action, _ in
                switch action {
                case .broadcast(let value): return Producer { _ in .broadcast(value, channel: "radio") }
                case .broadcastText(let text): return Producer { _ in .broadcast(text, channel: "radio") }
                case .start:
                    return Producer { _ in
                        .subscribe(scheduling: .keyed(id: "radio")) { _, _ in
                            log.append("one-shot started")
                            return SubscriptionToken { log.append("one-shot cancelled") }
                        }
                    }
                case .toggle: return .doNothing
                }
            }
            .supervise { isLive in
                Supervision { _ in
                    isLive
                        ? [
                            Channel<Action>(id: "radio", broadcasting: .onChange(0)) { _ in
                                ChannelHandler<Int>(receive: { log.append("heard \($0)") }, cancel: { log.append("closed") })
                            }
                        ] : []
                }
            }
        return Store(initial: false, behavior: behavior)
    }

    @Test func aBroadcastWithNoLiveChannelIsDropped() {
        let log = EventLog()
        let store = Self.store(log)
        store.dispatch(.broadcast(1))
        #expect(log.events.isEmpty)
        #expect(store.openChannelIDs.isEmpty)
        #expect(store.registeredEffectCount == 0)
        // Opening the channel later does not replay the dropped value.
        store.dispatch(.toggle)
        #expect(log.events == ["heard 0"])
    }

    @Test func aBroadcastAfterTheChannelClosedIsDropped() {
        let log = EventLog()
        let store = Self.store(log)
        store.dispatch(.toggle)
        store.dispatch(.toggle)
        store.dispatch(.broadcast(5))
        #expect(log.events == ["heard 0", "closed"])
        #expect(store.registeredEffectCount == 0)
    }

    @Test func aBroadcastOfAnotherValueTypeIsDroppedAndTheChannelStaysOpen() {
        let log = EventLog()
        let store = Self.store(log)
        store.dispatch(.toggle)
        store.dispatch(.broadcastText("hello"))
        store.dispatch(.broadcast(3))
        #expect(log.events == ["heard 0", "heard 3"])
        #expect(store.openChannelIDs == [AnyHashableSendable("radio")])
    }

    @Test func aBroadcastToAnIdHeldByAOneShotRunLeavesTheRunAlone() {
        let log = EventLog()
        let store = Self.store(log)
        store.dispatch(.start)
        store.dispatch(.broadcast(9))
        #expect(log.events == ["one-shot started"])
        #expect(store.registeredEffectCount == 1)
        #expect(store.openChannelIDs.isEmpty)
    }
}
