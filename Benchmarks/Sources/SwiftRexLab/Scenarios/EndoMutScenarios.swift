import Baselines
import LabCore
import SwiftRex

/// Sizes of the sized scenarios (log x axis of the charts).
let standardSizes = [100, 1_000, 10_000, 100_000]

/// EndoMut zero-copy: mutating a scalar and one payload element of a state with
/// a large payload must cost O(1), allocate nothing, and match the raw control.
@MainActor
enum EndoMutScenarios {
    /// `endomut.zerocopy` and its raw control `endomut.zerocopy.raw`.
    static var all: [Scenario] {
        [
            Scenario(name: "endomut.zerocopy", sizes: standardSizes) { size in
                let endo = EndoMut<PayloadState> { state in
                    state.scalar &+= 1
                    state.payload[0] &+= 1
                }
                let slot = Slot(PayloadState(size: size))
                return { iterations in
                    slot.withValue { state in
                        for _ in 0..<iterations { endo.runEndoMut(&state) }
                    }
                }
            },
            Scenario(name: "endomut.zerocopy.raw", sizes: standardSizes) { size in
                let slot = Slot(PayloadState(size: size))
                return { iterations in
                    slot.withValue { state in rawPayloadLoop(state: &state, iterations: iterations) }
                }
            },
        ]
    }
}
