import Testing
@testable import LabCore

@Suite("Harness")
struct HarnessTests {
    @MainActor
    final class Calls {
        var iterations: [Int] = []
    }

    @Test("timing starts scaling at, and never samples below, the scenario's minimum iteration count")
    @MainActor
    func minimumIterations() async {
        let calls = Calls()
        let configuration = RunConfiguration(mode: "test", samples: 1, targetSampleNanoseconds: 1)
        _ = await Harness.time({ calls.iterations.append($0) }, configuration: configuration, minimumIterations: 500)
        #expect(calls.iterations.first == 500)
        #expect(calls.iterations.allSatisfy { $0 >= 500 })
    }

    @Test("without a minimum, scaling starts at one iteration")
    @MainActor
    func defaultStartsAtOne() async {
        let calls = Calls()
        let configuration = RunConfiguration(mode: "test", samples: 1, targetSampleNanoseconds: 1)
        _ = await Harness.time({ calls.iterations.append($0) }, configuration: configuration)
        #expect(calls.iterations.first == 1)
    }
}
