import SwiftRex
import Synchronization
import Testing

/// `Effect.channel`'s consume closure with a `complete` parameter: calling it closes the channel at
/// once (the stream ends, later sends are dropped, the next channel under the id is a new one),
/// and completion happens exactly once whether the consumer calls it, returns, or both.
@MainActor
@Suite struct ChannelCompletionTests {
    enum Action: Sendable, Equatable {
        case open
        case push(Int)
        case got(Int)
        case late
    }

    struct State: Sendable, Equatable { var got: [Int] = [] }

    final class Probe: Sendable {
        let events = Mutex<[String]>([])
        let lateSend = Mutex<Send<Action>?>(nil)
        func log(_ event: String) { events.withLock { $0.append(event) } }
        var log: [String] { events.withLock { $0 } }
    }

    static func store(_ probe: Probe) -> Store<Action, State, Void> {
        let behavior = Behavior<Action, State, Void>
            .reduce { action, state in if case .got(let value) = action { state.got.append(value) } }
            .produce { action, _ in
                switch action {
                case .open:
                    return Producer { _ in
                        .channel(value: 0, scheduling: .keyed(id: "upload")) { values, send, complete in
                            for await value in values {
                                send(.got(value))
                                if value == 2 {
                                    complete()
                                    probe.lateSend.withLock { $0 = send }
                                    send(.got(99)) // after complete: dropped
                                    complete() // a second call changes nothing
                                }
                            }
                            probe.log("consumer returned")
                        }
                    }
                case .push(let value):
                    return Producer { _ in .broadcast(value, channel: "upload") }
                case .got, .late:
                    return .doNothing
                }
            }
        return Store(initial: State(), behavior: behavior, environment: ())
    }

    @Test func completeClosesTheChannelAtOnceAndOnlyOnce() async {
        let probe = Probe()
        let store = Self.store(probe)
        store.dispatch(.open)
        #expect(store.openChannelIDs == [AnyHashableSendable("upload")])
        #expect(await eventually { store.state.got == [0] })
        store.dispatch(.push(1))
        store.dispatch(.push(2))
        #expect(await eventually { store.openChannelIDs.isEmpty })
        #expect(await eventually { probe.log == ["consumer returned"] })
        #expect(store.state.got == [0, 1, 2])
        probe.lateSend.withLock { $0 }?(.got(100)) // a send kept past completion is dropped
        store.dispatch(.push(3)) // nothing live under the id: dropped
        for _ in 0..<20 { await Task.yield() }
        #expect(store.state.got == [0, 1, 2])
    }

    @Test func afterCompletionTheIdOpensAFreshChannel() async {
        let probe = Probe()
        let store = Self.store(probe)
        store.dispatch(.open)
        store.dispatch(.push(1))
        store.dispatch(.push(2))
        #expect(await eventually { store.openChannelIDs.isEmpty })
        store.dispatch(.open)
        #expect(store.openChannelIDs == [AnyHashableSendable("upload")])
        #expect(await eventually { store.state.got == [0, 1, 2, 0] })
    }

    @Test func aConsumerThatNeverCallsCompleteStillCompletesWhenItReturns() async {
        let effect = Effect<Int>.channel(value: 5, scheduling: .keyed(id: "once")) { values, send, _ in
            for await value in values {
                send(value)
                break
            }
        }
        let recording = effect.record()
        #expect(await eventually { recording.completions == 1 })
        #expect(recording.actionValues == [5])
        recording.cancel()
        #expect(recording.completions == 1)
    }
}
