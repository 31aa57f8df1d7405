import Foundation
import Testing

@testable import LabCore

@Suite("Paired ratios")
struct PairedRatioTests {
    /// A clock only the measured bodies advance: each iteration of a body costs a fixed number of
    /// ticks, so the ratio the harness computes is known exactly (no wall time involved).
    @MainActor
    final class FakeMachine {
        var now: UInt64 = 0
        var calls: [String] = []
        /// Multiplies every cost while set (a machine slowing down between rounds).
        var slowdown: UInt64 = 1

        func body(_ name: String, ticksPerIteration: UInt64) -> @MainActor (Int) async -> Void {
            { iterations in
                self.calls.append(name)
                self.now &+= UInt64(iterations) &* ticksPerIteration &* self.slowdown
            }
        }
    }

    @Test("the ratio is the numerator's time per operation over the denominator's, per round")
    @MainActor
    func exactRatio() async {
        let machine = FakeMachine()
        let measured = await Harness.pairedRatios(
            machine.body("top", ticksPerIteration: 30), over: machine.body("bottom", ticksPerIteration: 20),
            rounds: 5, targetNanoseconds: 1_000, clock: { machine.now })
        #expect(measured.ratios == [1.5, 1.5, 1.5, 1.5, 1.5])
        // Each sized to about the target from its own cost.
        #expect(measured.iterations.numerator == 34)
        #expect(measured.iterations.denominator == 50)
    }

    @Test("rounds alternate which scenario runs first, after sizing and one warm-up of each")
    @MainActor
    func alternation() async {
        let machine = FakeMachine()
        _ = await Harness.pairedRatios(
            machine.body("a", ticksPerIteration: 1_000), over: machine.body("b", ticksPerIteration: 1_000),
            rounds: 4, targetNanoseconds: 1_000, clock: { machine.now })
        // Sizing stops at once (one iteration already lasts the target), its run made three
        // times: a, a, a, b, b, b; warm-ups: a, b; rounds: ab, ba, ab, ba.
        #expect(machine.calls == ["a", "a", "a", "b", "b", "b", "a", "b", "a", "b", "b", "a", "a", "b", "b", "a"])
    }

    @Test("a machine that slows down between rounds leaves each round's ratio exact")
    @MainActor
    func driftCancels() async {
        let machine = FakeMachine()
        // Three sizing calls (the run that stops the scaling, made three times) and one warm-up
        // each (calls 0–7), then two calls per round; every other round runs three times slower, as a shared
        // machine does when a neighbour wakes up.
        func body(_ name: String, _ ticks: UInt64) -> @MainActor (Int) async -> Void {
            { iterations in
                let round = (machine.calls.count - 8) / 2
                machine.slowdown = machine.calls.count >= 8 && round % 2 == 1 ? 3 : 1
                await machine.body(name, ticksPerIteration: ticks)(iterations)
            }
        }
        let measured = await Harness.pairedRatios(
            body("top", 40), over: body("bottom", 30), rounds: 6, targetNanoseconds: 100, clock: { machine.now })
        #expect(machine.calls.count == 20)
        #expect(measured.ratios.allSatisfy { abs($0 - 4.0 / 3.0) < 1e-12 })
    }

    @Test("slow first calls do not size a side's samples: the run that stops the scaling is repeated")
    @MainActor
    func oneOffFirstCallsAreNotTheEstimate() async {
        let machine = FakeMachine()
        // The numerator's first two calls pay one-off work, as a missed id in a plain array of
        // 100,000 rows does (a scan of the ids, then the position table built): 1,000,000 and
        // 5,000,000 ticks. Every later iteration costs 10. Sized from those calls, a
        // 10,000-tick sample would hold one iteration, and every round would time a single call.
        let top: @MainActor (Int) async -> Void = { iterations in
            switch machine.calls.count(where: { $0 == "top" }) {
            case 0: machine.now &+= 1_000_000
            case 1: machine.now &+= 5_000_000
            default: break
            }
            await machine.body("top", ticksPerIteration: 10)(iterations)
        }
        let measured = await Harness.pairedRatios(
            top, over: machine.body("bottom", ticksPerIteration: 10),
            rounds: 3, targetNanoseconds: 10_000, clock: { machine.now })
        #expect(measured.iterations.numerator == 1_000)
        #expect(measured.ratios == [1, 1, 1])
    }

    @Test("a scenario's minimum iteration count bounds its samples from below")
    @MainActor
    func minimumIterations() async {
        let machine = FakeMachine()
        let measured = await Harness.pairedRatios(
            machine.body("top", ticksPerIteration: 1_000), minimumIterations: 64,
            over: machine.body("bottom", ticksPerIteration: 1_000),
            rounds: 1, targetNanoseconds: 1_000, clock: { machine.now })
        #expect(measured.iterations.numerator == 64)
        #expect(measured.iterations.denominator == 1)
    }

    static func file(ratio median: Double, limit: Double?) -> ResultsFile {
        var file = Fixture.results()
        file.ratios = [
            RatioRecord(
                numerator: "reducer.single", denominator: "naive.dispatch", limit: limit,
                ratio: Summary(min: median * 0.9, median: median, p90: median * 1.1, max: median * 1.2), rounds: 15, iterations: [1_000, 2_000])
        ]
        return file
    }

    @Test("a scenario that leaves work behind is not paired: the ratio is skipped with a warning")
    @MainActor
    func settledScenariosAreNotPaired() async throws {
        let settled = Scenario(name: "test.settled", body: { _ in ScenarioBody(settle: {}) { _ in } })
        let plain = Scenario(name: "test.plain") { { _ in } }
        var lines: [String] = []
        let runner = Runner(
            configuration: RunConfiguration(mode: "test", samples: 1, targetSampleNanoseconds: 1, ratioRounds: 1, ratioSampleNanoseconds: 1),
            counter: try AllocationCounter(), log: { lines.append($0) })
        let records = await runner.measureRatios([PairedRatio("test.settled", over: "test.plain")], scenarios: [settled, plain], filter: nil)
        #expect(records.isEmpty)
        #expect(lines == ["warning: ratio test.settled / test.plain: a scenario that leaves work behind cannot be paired; skipped"])
    }

    @Test("ratios survive the JSON round trip; a file without them still decodes")
    func codable() throws {
        let file = Self.file(ratio: 0.3, limit: 0.5)
        #expect(try ResultsIO.decode(ResultsIO.encode(file), role: "test", path: "memory") == file)
        let old = Fixture.results()
        #expect(old.ratios == nil)
        #expect(try ResultsIO.decode(ResultsIO.encode(old), role: "test", path: "memory").ratios == nil)
    }

    @Test("an unordered or negative ratio is rejected as malformed")
    func validation() throws {
        var file = Self.file(ratio: 0.3, limit: nil)
        file.ratios![0].ratio.min = 2
        #expect(throws: ResultsInputError.self) { try ResultsIO.decode(ResultsIO.encode(file), role: "baseline", path: "b.json") }
        file.ratios![0].ratio = Summary(min: -1, median: 0.3, p90: 0.4, max: 0.5)
        #expect(throws: ResultsInputError.self) { try ResultsIO.decode(ResultsIO.encode(file), role: "baseline", path: "b.json") }
    }

    @Test("compare notes a ratio over its limit and a moved ratio; they gate only when time does")
    func compare() {
        let baseline = Self.file(ratio: 0.3, limit: 0.5)
        let current = Self.file(ratio: 0.6, limit: 0.5)
        let advisory = compareResults(current: current, baseline: baseline, options: CompareOptions(timeAdvisory: true))
        #expect(advisory.findings(.note).contains { $0.message.contains("over its limit") })
        #expect(advisory.findings(.note).contains { $0.message.contains("paired ratio 0.300× → 0.600×") })
        #expect(advisory.exitCode == .success)
        let gating = compareResults(current: current, baseline: baseline, options: CompareOptions(timeAdvisory: false))
        #expect(gating.findings(.regression).contains { $0.message.contains("over its limit") })
        #expect(compareResults(current: baseline, baseline: baseline, options: CompareOptions(timeAdvisory: false)).exitCode == .success)
    }

    @Test("reports list each ratio with its range and verdict")
    func reports() {
        let file = Self.file(ratio: 0.6, limit: 0.5)
        #expect(Reports.table(file).contains("reducer.single / naive.dispatch  0.600×  0.540–0.720  ≤ 0.500 missed"))
        #expect(Reports.markdown(file).contains("| `reducer.single` / `naive.dispatch` | 0.600× | 0.540–0.720 | ≤ 0.500 missed |"))
    }
}
