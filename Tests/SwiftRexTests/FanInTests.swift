import SwiftRex
import Synchronization
import Testing

/// Many producers, one Store: every action sent through an effect's `Send` from child tasks, or
/// through a supervised channel's `dispatch` from detached tasks, is reduced exactly once, in
/// order per producer.
@MainActor
@Suite struct FanInTests {
    enum Action: Sendable, Equatable {
        case start, open
        case got(producer: Int, sequence: Int)
    }

    struct State: Sendable, Equatable {
        var isOpen = false
        var count = 0
        var next = Array(repeating: 0, count: FanInTests.producers)
        var outOfOrder = 0
    }

    nonisolated static let producers = 8
    nonisolated static let perProducer = 2_000

    static let reducer = Behavior<Action, State, Void>.reduce { action, state in
        switch action {
        case .got(let producer, let sequence):
            if sequence != state.next[producer] { state.outOfOrder += 1 }
            state.next[producer] = sequence + 1
            state.count += 1
        case .open: state.isOpen = true
        case .start: break
        }
    }

    /// Waits (sleeping, not yielding) until `condition` holds or ten minutes pass.
    func waitUntil(_ condition: () -> Bool) async {
        let deadline = ContinuousClock.now.advanced(by: .seconds(600))
        while !condition(), ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(2))
        }
    }

    @Test func everyActionSentFromChildTasksIsReducedOnceInOrderPerProducer() async {
        let store = Store(
            initial: State(),
            behavior: Self.reducer.produce { action, _ in
                guard action == .start else { return .doNothing }
                return Producer { _ in
                    .task { send in
                        await withTaskGroup(of: Void.self) { group in
                            for producer in 0..<Self.producers {
                                group.addTask {
                                    for sequence in 0..<Self.perProducer { send(.got(producer: producer, sequence: sequence)) }
                                }
                            }
                        }
                    }
                }
            })
        store.dispatch(.start)
        let total = Self.producers * Self.perProducer
        await waitUntil { store.state.count >= total && store.isIdle }
        #expect(store.state.count == total)
        #expect(store.state.outOfOrder == 0)
        #expect(store.state.next == Array(repeating: Self.perProducer, count: Self.producers))
        #expect(store.isIdle)
        #expect(store.registeredEffectCount == 0)
    }

    @Test func everyActionDispatchedThroughAChannelFromDetachedTasksIsReducedOnceInOrderPerProducer() async {
        let dispatch = Mutex<(@Sendable (Action) -> Void)?>(nil)
        let store = Store(
            initial: State(),
            behavior: Self.reducer.supervise { state in
                Supervision { _ in
                    state.isOpen
                        ? [
                            Channel<Action>(id: "fan-in") { send in
                                dispatch.withLock { $0 = send }
                                return ChannelHandler<Never>.cancelOnly {}
                            }
                        ] : []
                }
            })
        store.dispatch(.open)
        guard let send = dispatch.withLock({ $0 }) else {
            Issue.record("the channel did not open")
            return
        }
        for producer in 0..<Self.producers {
            Task.detached {
                for sequence in 0..<Self.perProducer { send(.got(producer: producer, sequence: sequence)) }
            }
        }
        let total = Self.producers * Self.perProducer
        await waitUntil { store.state.count >= total }
        for _ in 0..<10 { await Task.yield() }
        #expect(store.state.count == total)
        #expect(store.state.outOfOrder == 0)
        #expect(store.state.next == Array(repeating: Self.perProducer, count: Self.producers))
    }
}
