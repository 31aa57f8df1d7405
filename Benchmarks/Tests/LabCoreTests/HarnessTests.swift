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

    @Test("a slow first call does not size the samples: the run that stops the scaling is repeated")
    @MainActor
    func oneOffFirstCallIsNotTheEstimate() async {
        let calls = Calls()
        // The first call pays 20 ms of one-off work; every later iteration costs ~1 µs.
        let configuration = RunConfiguration(mode: "test", samples: 1, targetSampleNanoseconds: 2_000_000)
        let result = await Harness.time(
            { iterations in
                let spin = calls.iterations.isEmpty ? 20_000_000 : UInt64(iterations) * 1_000
                calls.iterations.append(iterations)
                let start = monotonicNanoseconds()
                while monotonicNanoseconds() &- start < spin {}
            }, configuration: configuration)
        // Sized from the 20 ms call, a 2 ms sample would hold one iteration; from the steady
        // cost, about 2,000.
        #expect(result.iterationsPerSample >= 100)
    }
}
