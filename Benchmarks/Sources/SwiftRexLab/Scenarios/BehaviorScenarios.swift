import Baselines
import LabCore
import SwiftRex

/// The (empty) environment of the behavior scenarios.
struct LabEnvironment: Sendable {}

/// Behaviors run through the Store-less pipeline step `behavior.step`.
@MainActor
enum BehaviorScenarios {
    /// `behavior.fluent.reduce`, `behavior.react.produce`, `behavior.react.payload`.
    static var all: [Scenario] {
        [
            Scenario(name: "behavior.fluent.reduce") {
                // Fluent chain of two in-place reducers (a reducer-only behavior).
                let behavior = Behavior<CounterAction, CounterState, LabEnvironment>
                    .reduce { action, state in
                        switch action {
                        case .increment: state.count &+= 1
                        case .decrement: state.count &-= 1
                        case .done: break
                        }
                    }
                    .reduce { action, state in
                        if case .done = action { state.count = 0 }
                    }
                let actions = makeCounterActions()
                let mask = actions.count - 1
                let environment = LabEnvironment()
                let slot = Slot(CounterState())
                return { iterations in
                    var mutations = 0
                    slot.withValue { state in
                        for index in 0..<iterations {
                            if behavior.step(actions[index & mask], state: &state, environment: environment).mutated {
                                mutations &+= 1
                            }
                        }
                    }
                    blackHole(mutations)
                }
            },
            Scenario(name: "behavior.react.produce") {
                // A grouped reaction: one mutation plus one effect value (nothing is performed).
                let behavior = Behavior<CounterAction, CounterState, LabEnvironment>.react { _, _ in
                    Reaction.reduce { $0.count &+= 1 }
                        .produce { _ in Effect.just(.done) }
                }
                let actions = makeCounterActions()
                let mask = actions.count - 1
                let environment = LabEnvironment()
                let slot = Slot(CounterState())
                return { iterations in
                    slot.withValue { state in
                        for index in 0..<iterations {
                            blackHole(behavior.step(actions[index & mask], state: &state, environment: environment))
                        }
                    }
                }
            },
            Scenario(name: "behavior.react.payload", sizes: standardSizes) { size in
                // The reaction reads the pre-mutation state and mutates one payload
                // element: the snapshot must be gone before the mutation runs, or the
                // payload is copied (O(size) time, one more allocation per op).
                let behavior = Behavior<CounterAction, CounterState, LabEnvironment>.react { _, context in
                    let before = context.stateBefore?.count ?? 0
                    return Reaction.reduce { state in
                        state.count = before &+ 1
                        state.payload[0] &+= 1
                    }
                }
                let actions = makeCounterActions()
                let mask = actions.count - 1
                let environment = LabEnvironment()
                let slot = Slot(CounterState(payloadSize: size))
                return { iterations in
                    slot.withValue { state in
                        for index in 0..<iterations {
                            blackHole(behavior.step(actions[index & mask], state: &state, environment: environment))
                        }
                    }
                }
            },
        ]
    }
}
