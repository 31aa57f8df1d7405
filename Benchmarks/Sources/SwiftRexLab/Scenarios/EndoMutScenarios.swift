import Baselines
import LabCore

/// Sizes of the sized scenarios (log x axis of the charts).
let standardSizes = [100, 1_000, 10_000, 100_000]

/// EndoMut zero-copy: mutating a scalar and one payload element of a state with
/// a large payload must cost O(1) and allocate nothing.
@MainActor
enum EndoMutScenarios {
    /// The raw control (`endomut.zerocopy.raw`).
    static var raw: [Scenario] {
        [
            Scenario(name: "endomut.zerocopy.raw", sizes: standardSizes) { size in
                let slot = Slot(PayloadState(size: size))
                return { iterations in
                    slot.withValue { state in rawPayloadLoop(state: &state, iterations: iterations) }
                }
            },
        ]
    }
}
