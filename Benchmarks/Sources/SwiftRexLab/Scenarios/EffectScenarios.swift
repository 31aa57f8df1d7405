import Baselines
import LabCore
import SwiftRex

/// Effects through the Store: the mailbox round trip against one `Task` per action, and a
/// debounce storm on the injected clock.
@MainActor
enum EffectScenarios {
    /// Asynchronous scenarios: not counted by the instruction pass (how often the loop yields
    /// before the main actor drains depends on scheduling), and their allocation figures carry a
    /// scheduling tolerance.
    static let asynchronous = InstructionCounting.asynchronous

    /// `effects.roundtrip.mailbox`, `effects.roundtrip.taskPerAction`, `effects.debounce.storm`.
    static var all: [Scenario] {
        [
            Scenario(name: "effects.roundtrip.mailbox", instructions: asynchronous) {
                // Each `.increment` produces `Effect.just(.done)`; the `.done` actions come back
                // through the mailbox, drained once per main-actor turn.
                let answer = Producer<CounterAction, CounterState, Void> { _ in .just(.done) }
                let idle = Producer<CounterAction, CounterState, Void>.doNothing
                let behavior = Behavior<CounterAction, CounterState, Void>
                    .reduce { action, state in if action == .done { state.count &+= 1 } }
                    .produce { action, _ in action == .increment ? answer : idle }
                let store = Store(initial: CounterState(), behavior: behavior)
                return { iterations in
                    let target = store.state.count + iterations
                    for _ in 0..<iterations { store.dispatch(.increment) }
                    while store.state.count < target { await Task.yield() }
                }
            },
            Scenario(name: "effects.roundtrip.taskPerAction", instructions: asynchronous) {
                // The reference mechanism: the same store, each answer sent by its own Task.
                let store = Store(initial: CounterState(), reducer: Reducer<CounterAction, CounterState>.reduce { action, state in
                    if action == .done { state.count &+= 1 }
                })
                return { iterations in
                    let target = store.state.count + iterations
                    for _ in 0..<iterations {
                        store.dispatch(.increment)
                        Task { @MainActor in store.dispatch(.done) }
                    }
                    while store.state.count < target { await Task.yield() }
                }
            },
            Scenario(name: "effects.debounce.storm", instructions: asynchronous) {
                // Every dispatch restarts one debounced effect on a manual clock; the burst ends with
                // a single delivery.
                let clock = ManualClock()
                let debounced = Producer<CounterAction, CounterState, Void> { _ in
                    .just(.done, scheduling: .debounce(id: "storm", delay: .milliseconds(300)))
                }
                let idle = Producer<CounterAction, CounterState, Void>.doNothing
                let behavior = Behavior<CounterAction, CounterState, Void>
                    .reduce { action, state in if action == .done { state.count &+= 1 } }
                    .produce { action, _ in action == .increment ? debounced : idle }
                let store = Store(initial: CounterState(), behavior: behavior, environment: (), clock: { _ in clock })
                return { iterations in
                    let target = store.state.count + 1
                    for _ in 0..<iterations { store.dispatch(.increment) }
                    clock.advance(by: .milliseconds(300))
                    while store.state.count < target { await Task.yield() }
                }
            },
        ]
    }
}
