import SwiftRex
import Testing

// A store's delays, debounces and channel timers wait behind one clock timer for the earliest of
// them: these tests check the order they fire in, restarts, cancellation and teardown, many keys at
// once, on a manual clock and on the real one.

@MainActor
@Suite struct StoreTimerTests {
    enum Action: Sendable, Equatable {
        case debounce(Int, milliseconds: Int)
        case delay(Int, milliseconds: Int)
        case cancel(Int)
        case fired(Int)
    }

    struct State: Sendable, Equatable {
        var fired: [Int] = []
    }

    static let behavior = Behavior<Action, State, Void>
        .reduce { action, state in
            if case .fired(let id) = action { state.fired.append(id) }
        }
        .produce { action, _ in
            switch action {
            case .debounce(let id, let milliseconds):
                return Producer { _ in .just(.fired(id), scheduling: .debounce(id: id, delay: .milliseconds(milliseconds))) }
            case .delay(let id, let milliseconds):
                return Producer { _ in .just(.fired(id), scheduling: EffectScheduling.keyed(id: id).delayed(by: .milliseconds(milliseconds))) }
            case .cancel(let id):
                return Producer { _ in .cancel(id: id) }
            case .fired:
                return .doNothing
            }
        }

    func makeStore(clock: ManualClock) -> Store<Action, State, Void> {
        Store(initial: State(), behavior: Self.behavior, environment: (), clock: { _ in clock })
    }

    @Test func manyPendingTimersFireInDeadlineOrderThenSchedulingOrder() async {
        let clock = ManualClock()
        let store = makeStore(clock: clock)
        // Ids 0..<300 at deadlines 100, 200 and 300 ms, scheduled in a shuffled order.
        let ids = (0..<300).map { ($0 * 7) % 300 }
        for id in ids { store.dispatch(.debounce(id, milliseconds: 100 * (id % 3 + 1))) }
        #expect(clock.pendingCount == 1)
        #expect(store.pendingEffects.count == 300)
        clock.advance(by: .milliseconds(300))
        let expected = [0, 1, 2].flatMap { remainder in ids.filter { $0 % 3 == remainder } }
        #expect(await eventually { store.state.fired == expected })
        #expect(clock.pendingCount == 0)
        #expect(store.isIdle)
    }

    @Test func restartingADebounceMovesItBehindTheOthersAndKeepsOneClockTimer() async {
        let clock = ManualClock()
        let store = makeStore(clock: clock)
        for id in 0..<5 { store.dispatch(.debounce(id, milliseconds: 300)) }
        clock.advance(by: .milliseconds(100))
        store.dispatch(.debounce(0, milliseconds: 300))
        store.dispatch(.debounce(2, milliseconds: 300))
        #expect(clock.pendingCount == 1)
        clock.advance(by: .milliseconds(200))
        #expect(await eventually { store.state.fired == [1, 3, 4] })
        clock.advance(by: .milliseconds(99))
        for _ in 0..<20 { await Task.yield() }
        #expect(store.state.fired == [1, 3, 4])
        clock.advance(by: .milliseconds(1))
        #expect(await eventually { store.state.fired == [1, 3, 4, 0, 2] })
        #expect(clock.pendingCount == 0)
    }

    @Test func anEarlierDeadlineFiresOnTimeBeforeALaterOne() async {
        let clock = ManualClock()
        let store = makeStore(clock: clock)
        store.dispatch(.delay(1, milliseconds: 1_000))
        store.dispatch(.delay(2, milliseconds: 100))
        clock.advance(by: .milliseconds(100))
        #expect(await eventually { store.state.fired == [2] })
        clock.advance(by: .milliseconds(899))
        for _ in 0..<20 { await Task.yield() }
        #expect(store.state.fired == [2])
        clock.advance(by: .milliseconds(1))
        #expect(await eventually { store.state.fired == [2, 1] })
    }

    @Test func cancellingEveryPendingTimerLeavesNothingOnTheClock() async {
        let clock = ManualClock()
        let store = makeStore(clock: clock)
        for id in 0..<3 { store.dispatch(.debounce(id, milliseconds: 300)) }
        store.dispatch(.cancel(1))
        #expect(clock.pendingCount == 1)
        store.dispatch(.cancel(0))
        store.dispatch(.cancel(2))
        #expect(clock.pendingCount == 0)
        #expect(store.pendingEffects.isEmpty)
        clock.advance(by: .seconds(1))
        for _ in 0..<20 { await Task.yield() }
        #expect(store.state.fired.isEmpty)
    }

    @Test func releasingAStoreWithThousandsOfPendingTimersLeavesNothingOnTheClock() async {
        let clock = ManualClock()
        weak var weakStore: Store<Action, State, Void>?
        do {
            let store = makeStore(clock: clock)
            weakStore = store
            for id in 0..<5_000 { store.dispatch(.debounce(id, milliseconds: 300 + id % 7)) }
            #expect(clock.pendingCount == 1)
        }
        #expect(await eventually { weakStore == nil })
        #expect(clock.pendingCount == 0)
    }

    @Test func debouncesAndDelaysFireOnTheRealClock() async {
        let store = Store(initial: State(), behavior: Self.behavior)
        store.dispatch(.debounce(1, milliseconds: 30))
        store.dispatch(.delay(2, milliseconds: 10))
        store.dispatch(.debounce(1, milliseconds: 30))
        // Waits on the real clock (bounded generously: other suites may hold the main actor for
        // seconds), sleeping between checks, until both fired and the runs that delivered them
        // have ended (an action is reduced before its run reports its end).
        let deadline = ContinuousClock.now.advanced(by: .seconds(60))
        while store.state.fired.count < 2 || !store.isIdle, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(5))
        }
        #expect(store.state.fired == [2, 1])
        #expect(store.isIdle)
    }
}
