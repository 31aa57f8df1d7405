import Baselines
import LabCore
import SwiftRex

/// The counter reducer every dispatch scenario uses (same `switch` as the baselines).
let counterReducer = Reducer<CounterAction, CounterState>.reduce { action, state in
    switch action {
    case .increment: state.count &+= 1
    case .decrement: state.count &-= 1
    case .done: break
    }
}

/// Reducers applied through the Store's direct in-place path, `apply(_:to:)`.
@MainActor
enum ReducerScenarios {
    /// `reducer.single`, `reducer.combine64`, `reducer.combine64.identity`, `reducer.single.payload`.
    static var all: [Scenario] {
        [
            Scenario(name: "reducer.single") {
                applyLoop(counterReducer)
            },
            Scenario(name: "reducer.combine64") {
                // 64 distinct units, folded with `combine` as a user would.
                let units = (0..<64).map { step in
                    Reducer<CounterAction, CounterState>.reduce { action, state in
                        switch action {
                        case .increment: state.count &+= step
                        case .decrement: state.count &-= step
                        case .done: break
                        }
                    }
                }
                return applyLoop(units.reduce(Reducer.identity, Reducer.combine))
            },
            Scenario(name: "reducer.combine64.identity") {
                let units = [Reducer<CounterAction, CounterState>](repeating: .identity, count: 64)
                return applyLoop(units.reduce(Reducer.identity, Reducer.combine))
            },
            Scenario(name: "reducer.single.payload", sizes: standardSizes) { size in
                // Mutates one payload element too: any copy of the state would
                // copy the payload (O(size) time and one allocation per op).
                let reducer = Reducer<CounterAction, CounterState>.reduce { action, state in
                    switch action {
                    case .increment: state.count &+= 1
                    case .decrement: state.count &-= 1
                    case .done: break
                    }
                    state.payload[0] &+= 1
                }
                return applyLoop(reducer, payloadSize: size)
            },
        ]
    }

    /// The measured loop: `reducer.apply` on a state held in place.
    static func applyLoop(_ reducer: Reducer<CounterAction, CounterState>, payloadSize: Int = CounterState.defaultPayloadSize) -> Measured {
        let actions = makeCounterActions()
        let mask = actions.count - 1
        let slot = Slot(CounterState(payloadSize: payloadSize))
        return { iterations in
            slot.withValue { state in
                for index in 0..<iterations { reducer.apply(actions[index & mask], to: &state) }
            }
        }
    }
}
