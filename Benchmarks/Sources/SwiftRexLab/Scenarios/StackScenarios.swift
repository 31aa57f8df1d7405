import Baselines
import LabCore

/// Stack probes: bytes of stack between the call and the reducer body with a
/// 64 KiB value-type state (≥ 65536 means the state was copied onto the stack).
@MainActor
enum StackScenarios {
    /// `stack.probe.raw` now; `stack.probe` is added with the SwiftRex scenarios.
    static var raw: [Scenario] {
        [
            Scenario(name: "stack.probe.raw") { _ in
                let probe = StackProbe()
                let slot = Slot(BigState())
                let bytes = slot.withValue { state in
                    probe.measure(&state) { rawBigReduce(.increment, &$0, probe: probe) }
                }
                let actions = makeCounterActions()
                let mask = actions.count - 1
                return ScenarioBody(stackBytes: bytes) { iterations in
                    slot.withValue { state in
                        for index in 0..<iterations { rawBigReduce(actions[index & mask], &state, probe: probe) }
                    }
                }
            },
        ]
    }
}
