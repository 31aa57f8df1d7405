import Baselines
import LabCore
import SwiftRex

/// Stack probes: bytes of stack between the call and the reducer body with a
/// 64 KiB value-type state. A figure near `stack.probe.raw` means the state is
/// passed in place; ≥ 65536 means some layer copied it onto the stack.
@MainActor
enum StackScenarios {
    /// `stack.probe` (Reducer.apply), `stack.probe.behavior` (Behavior.step), `stack.probe.raw`.
    static var all: [Scenario] {
        [
            Scenario(name: "stack.probe") { _ in
                let probe = StackProbe()
                let reducer = Reducer<CounterAction, BigState>.reduce { action, state in
                    bigReduce(action, &state)
                    probe.recordBody()
                }
                let slot = Slot(BigState())
                let bytes = slot.withValue { state in
                    probe.measure(&state) { reducer.apply(.increment, to: &$0) }
                }
                return ScenarioBody(stackBytes: bytes, run: bigLoop(slot) { action, state in reducer.apply(action, to: &state) })
            },
            Scenario(name: "stack.probe.behavior") { _ in
                let probe = StackProbe()
                let behavior = Behavior<CounterAction, BigState, LabEnvironment>.reduce { action, state in
                    bigReduce(action, &state)
                    probe.recordBody()
                }
                let environment = LabEnvironment()
                let slot = Slot(BigState())
                let bytes = slot.withValue { state in
                    probe.measure(&state) { _ = behavior.step(.increment, state: &$0, environment: environment) }
                }
                return ScenarioBody(stackBytes: bytes, run: bigLoop(slot) { action, state in
                    _ = behavior.step(action, state: &state, environment: environment)
                })
            },
            Scenario(name: "stack.probe.raw") { _ in
                let probe = StackProbe()
                let slot = Slot(BigState())
                let bytes = slot.withValue { state in
                    probe.measure(&state) { rawBigReduce(.increment, &$0, probe: probe) }
                }
                return ScenarioBody(stackBytes: bytes, run: bigLoop(slot) { action, state in
                    rawBigReduce(action, &state, probe: probe)
                })
            },
        ]
    }

    /// The reducer body shared by the probes.
    nonisolated static func bigReduce(_ action: CounterAction, _ state: inout BigState) {
        switch action {
        case .increment: state.count &+= 1
        case .decrement: state.count &-= 1
        case .done: break
        }
    }

    /// The timed loop of a probe (recording is off while timing).
    static func bigLoop(_ slot: Slot<BigState>, _ apply: @escaping @MainActor (CounterAction, inout BigState) -> Void) -> Measured {
        let actions = makeCounterActions()
        let mask = actions.count - 1
        return { iterations in
            slot.withValue { state in
                for index in 0..<iterations { apply(actions[index & mask], &state) }
            }
        }
    }
}
