import SwiftRex
import SwiftRexTestSupport
import Testing

/// Values release what they capture: dropping an effect, a channel, a behavior or a reducer (and
/// the results of running them) leaves nothing alive.
@MainActor
@Suite struct LifetimeTests {
    typealias F = CoreFixtures

    @Test func anEffectReleasesItsCapturesOnceDroppedAndCancelled() {
        let tracker = LifetimeTracker()
        do {
            let captured = tracker.instance(1)
            let effect =
                Effect<Int>.subscribe { send, complete in
                    send(DispatchedAction(captured.payload))
                    complete()
                    return SubscriptionToken { _ = captured }
                } <> .just(2)
            let mapped = effect.map { $0 * 10 }.scheduling(.keyed(id: "k"))
            #expect(mapped.emittedActionValues() == [10, 20])
            #expect(tracker.liveCount == 1)
        }
        tracker.expectAllReleased()
    }

    @Test func anOpenedChannelReleasesItsHandlerWhenCancelled() {
        let tracker = LifetimeTracker()
        let cancels = F.Counter()
        do {
            let channel = Channel<Int>(id: "socket", broadcasting: .onChange(1)) { dispatch in
                let socket = tracker.instance("socket")
                dispatch(0)
                return ChannelHandler(
                    receive: { _ in },
                    cancel: {
                        _ = socket
                        cancels.increment()
                    })
            }
            let recording = Effect.open(channel).record()
            #expect(tracker.liveCount == 1)
            recording.cancel()
        }
        #expect(cancels.value == 1)
        tracker.expectAllReleased()
    }

    @Test func aBehaviorAndItsStepReleaseTheirCaptures() {
        let tracker = LifetimeTracker()
        do {
            let dependency = tracker.instance(5)
            let behavior = Behavior<F.Action, F.State, F.Env>
                .reduce { _, state in state.value += dependency.payload }
                .react { _, _ in .reduce { _ in _ = dependency } }
                .produce { _, _ in Producer { _ in .just(.ping(dependency.payload)) } }
                .supervise { _ in Supervision { _ in [F.channel("c")] } }
            var state = F.State()
            let step = behavior.step(.noop, state: &state, environment: F.environment)
            #expect(step.effect.emittedActionValues() == [.ping(5)])
            #expect(state.value == 5)
            _ = behavior.supervisor?(state).runReader(F.environment)
        }
        tracker.expectAllReleased()
    }

    @Test func aComposedReducerReleasesItsCaptures() {
        let tracker = LifetimeTracker()
        do {
            let factor = tracker.instance(3)
            typealias R = Reducer<F.Action, F.State>
            let reducer = R.compose {
                R.reduce { _, state in state.value += factor.payload }
                R.reduce { _, state in state.value *= factor.payload }
            }
            var state = F.State(value: 1)
            reducer.apply(.noop, to: &state)
            reducer.reduce(.noop).runEndoMut(&state)
            #expect(state.value == 45) // ((1 + 3) * 3 + 3) * 3
        }
        tracker.expectAllReleased()
    }
}
