import Foundation
import Testing

@testable import LabCore

@Suite("Compare")
struct CompareTests {
    @Test("identical files: exit 0")
    func identical() {
        let report = compareResults(current: Fixture.results(), baseline: Fixture.results())
        #expect(report.exitCode == .success)
        #expect(report.findings(.regression).isEmpty)
        #expect(report.compared == Fixture.results().benchmarks.count)
    }

    @Test("planted regression: one extra allocation per operation → exit 2")
    func extraAllocation() {
        let current = Fixture.results().modifying("reducer.single") { $0.allocsPerOp += 1 }
        let report = compareResults(current: current, baseline: Fixture.results())
        #expect(report.exitCode == .regression)
        #expect(report.findings(.regression).map(\.key) == ["reducer.single"])
    }

    @Test("one more allocation per op on an asynchronous scenario is a regression, one fewer an improvement")
    func asynchronousAllocationsExact() {
        // A tolerance recorded in an older baseline (these scenarios once carried one of a whole
        // allocation per op) is ignored: the key is not read any more.
        let baseline = Fixture.results().modifying("reducer.single") { $0.allocsPerOp = 4.038 }
        let oneMore = baseline.modifying("reducer.single") { $0.allocsPerOp = 5.038 }
        let report = compareResults(current: oneMore, baseline: baseline, options: CompareOptions(timeAdvisory: true))
        #expect(report.exitCode == .regression)
        #expect(report.findings(.regression).map(\.message) == ["allocations/op rose 4.04 → 5.04"])
        let oneInAThousand = baseline.modifying("reducer.single") { $0.allocsPerOp = 4.039 }
        #expect(compareResults(current: oneInAThousand, baseline: baseline).exitCode == .regression)
        let oneFewer = baseline.modifying("reducer.single") { $0.allocsPerOp = 3.038 }
        #expect(compareResults(current: oneFewer, baseline: baseline).exitCode == .improvement)
    }

    @Test("a baseline record's own instruction tolerance widens the gate for that record only")
    func recordInstructionTolerance() {
        let baseline = Fixture.results().modifying("reducer.single") {
            $0.instructionsPerOp = 100_000
            $0.instructionTolerance = 0.05
        }
        let moved = baseline.modifying("reducer.single") { $0.instructionsPerOp = 96_300 } // −3.7 %
        #expect(compareResults(current: moved, baseline: baseline).exitCode == .success)
        let rose = baseline.modifying("reducer.single") { $0.instructionsPerOp = 106_000 } // +6 %
        let report = compareResults(current: rose, baseline: baseline)
        #expect(report.exitCode == .regression)
        #expect(report.findings(.regression).map(\.key) == ["reducer.single"])
        // Without the declaration the same −3.7 % is outside the default ±2 %.
        let undeclared = baseline.modifying("reducer.single") { $0.instructionTolerance = nil }
        let strict = compareResults(current: moved.modifying("reducer.single") { $0.instructionTolerance = nil }, baseline: undeclared)
        #expect(strict.exitCode == .improvement)
    }

    @Test("allocation regressions decide even in time-advisory mode")
    func allocationInAdvisory() {
        let current = Fixture.results().modifying("endomut.zerocopy", size: 100_000) { $0.allocsPerOp = 1 }
        let report = compareResults(current: current, baseline: Fixture.results(), options: CompareOptions(timeAdvisory: true))
        #expect(report.exitCode == .regression)
    }

    @Test("planted O(n): ns/op at 100k ≫ at 100 where the baseline was flat → exit 2")
    func becameLinear() {
        var current = Fixture.results()
        for size in [1_000, 10_000, 100_000] {
            current = current.modifying("endomut.zerocopy", size: size) { record in
                let ns = 2 * Double(size) / 100
                record.nsPerOp = Summary(min: ns, median: ns, p90: ns, max: ns)
            }
        }
        let strict = compareResults(current: current, baseline: Fixture.results())
        #expect(strict.exitCode == .regression)
        #expect(strict.findings(.regression).contains { $0.key == "endomut.zerocopy/100000" })
        #expect(strict.findings(.regression).contains { $0.key == "endomut.zerocopy" && $0.message.contains("growth") })
        // Measured in time only, the growth is as noisy as time: advisory mode reports it.
        let advisory = compareResults(current: current, baseline: Fixture.results(), options: CompareOptions(timeAdvisory: true))
        #expect(advisory.exitCode == .success)
        #expect(advisory.findings(.note).contains { $0.key == "endomut.zerocopy" && $0.message.contains("growth") })
    }

    @Test("planted O(n) in instruction counts: a regression in every mode, named by its growth")
    func becameLinearInInstructions() {
        let baseline = Fixture.results(instructions: true)
        var current = baseline
        for size in [1_000, 10_000, 100_000] {
            current = current.modifying("endomut.zerocopy", size: size) { $0.instructionsPerOp = 80 * Double(size) / 100 }
        }
        let advisory = compareResults(current: current, baseline: baseline, options: CompareOptions(timeAdvisory: true))
        #expect(advisory.exitCode == .regression)
        #expect(
            advisory.findings(.regression).contains {
                $0.key == "endomut.zerocopy" && $0.message.contains("instruction growth from size 100 to 100000 rose ×1 → ×1000")
            })
        #expect(advisory.findings(.regression).contains { $0.key == "endomut.zerocopy/100000" && $0.message.contains("instructions/op rose") })
        // Time noise in the same run does not matter when instructions decide the growth.
        let noisy = baseline.modifying("endomut.zerocopy", size: 100_000) { $0.nsPerOp = Summary(min: 50, median: 60, p90: 70, max: 80) }
        #expect(compareResults(current: noisy, baseline: baseline, options: CompareOptions(timeAdvisory: true)).exitCode == .success)
    }

    @Test("planted O(n log n) where the baseline is O(n): the instruction growth check names it by itself")
    func becameLogLinearInInstructions() {
        var baseline = Fixture.results(instructions: true)
        for size in [100, 1_000, 10_000, 100_000] {
            baseline = baseline.modifying("endomut.zerocopy", size: size) { $0.instructionsPerOp = 30 * Double(size) }
        }
        // n log n with the same cost at the smallest size: ×1.67 more growth from 1,000 to 100,000.
        var current = baseline
        for size in [1_000, 10_000, 100_000] {
            current = current.modifying("endomut.zerocopy", size: size) { $0.instructionsPerOp = 30 * Double(size) * log(Double(size)) / log(100) }
        }
        let report = compareResults(current: current, baseline: baseline, options: CompareOptions(timeAdvisory: true))
        #expect(report.exitCode == .regression)
        #expect(
            report.findings(.regression).contains {
                $0.key == "endomut.zerocopy" && $0.message.contains("instruction growth from size 100 to 100000 rose")
            })
        // A rise of the growth within the tolerance (+15 %, plus twice ±2 %) is left to the
        // per-size gate.
        let within = baseline.modifying("endomut.zerocopy", size: 100_000) { $0.instructionsPerOp! *= 1.15 }
        let gated = compareResults(current: within, baseline: baseline, options: CompareOptions(timeAdvisory: true))
        #expect(!gated.findings(.regression).contains { $0.key == "endomut.zerocopy" })
        #expect(gated.findings(.regression).contains { $0.key == "endomut.zerocopy/100000" })
    }

    @Test("a ratio target met in the baseline and missed in instructions is a regression, whatever time says")
    func instructionRatioTargets() {
        func file(reducer: Double, limit: Double = 4) -> ResultsFile {
            var file = Fixture.results(instructions: true).modifying("reducer.single") { $0.instructionsPerOp = reducer }
            let time = Summary(min: 0.5, median: 0.6, p90: 0.7, max: 0.8) // time ratios: met, advisory
            file.ratios = [
                RatioRecord(numerator: "reducer.single", denominator: "raw.dispatch", limit: limit, ratio: time, rounds: 41, iterations: [1, 1])
            ]
            return file
        }
        // raw.dispatch counts 40: 159.6 is 3.99×, 160.4 is 4.01× (each within the ±2 % record gate).
        let report = compareResults(current: file(reducer: 160.4), baseline: file(reducer: 159.6), options: CompareOptions(timeAdvisory: true))
        #expect(report.exitCode == .regression)
        #expect(report.findings(.regression).map(\.key) == ["reducer.single / raw.dispatch"])
        #expect(
            report.findings(.regression).first?.message.contains("instruction ratio 4.01× (limit 4×; the baseline's 3.99×): target missed") == true)
        // Missed in the baseline too: a warning on every run, not a failure.
        let stillMissed = compareResults(current: file(reducer: 170), baseline: file(reducer: 169), options: CompareOptions(timeAdvisory: true))
        #expect(stillMissed.exitCode == .success)
        #expect(stillMissed.findings(.warning).contains { $0.message.contains("target missed, as in the baseline") })
        // Met now, missed before: re-record.
        let met = compareResults(current: file(reducer: 159.6), baseline: file(reducer: 160.4), options: CompareOptions(timeAdvisory: true))
        #expect(met.exitCode == .improvement)
        // A run without paired ratios (`--no-ratios`) is still held to the baseline's targets.
        var unpaired = file(reducer: 160.4)
        unpaired.ratios = nil
        #expect(
            compareResults(current: unpaired, baseline: file(reducer: 159.6), options: CompareOptions(timeAdvisory: true)).exitCode == .regression)
    }

    @Test("a ratio target allows a count that follows the heap's history its own tolerance, and no more")
    func instructionRatioTargetsWithOwnTolerance() {
        func file(reducer: Double, rawTolerance: Double?) -> ResultsFile {
            var file = Fixture.results(instructions: true).modifying("reducer.single") { $0.instructionsPerOp = reducer }
            file = file.modifying("raw.dispatch") { $0.instructionTolerance = rawTolerance }
            let time = Summary(min: 0.5, median: 0.6, p90: 0.7, max: 0.8)
            file.ratios = [
                RatioRecord(numerator: "reducer.single", denominator: "raw.dispatch", limit: 4, ratio: time, rounds: 41, iterations: [1, 1])
            ]
            return file
        }
        let options = CompareOptions(timeAdvisory: true)
        // raw.dispatch counts 40: 161.6 is 4.04×, within a declared 3 % (4.12×), and a miss without it.
        let within = compareResults(
            current: file(reducer: 161.6, rawTolerance: 0.03), baseline: file(reducer: 159.6, rawTolerance: 0.03), options: options)
        #expect(!within.findings(.regression).contains { $0.key == "reducer.single / raw.dispatch" })
        let exact = compareResults(
            current: file(reducer: 161.6, rawTolerance: nil), baseline: file(reducer: 159.6, rawTolerance: nil), options: options)
        #expect(exact.findings(.regression).contains { $0.key == "reducer.single / raw.dispatch" })
        // Past the allowance it is missed all the same: 165.2 is 4.13×.
        let past = compareResults(
            current: file(reducer: 165.2, rawTolerance: 0.03), baseline: file(reducer: 159.6, rawTolerance: 0.03), options: options)
        #expect(
            past.findings(.regression).contains {
                $0.key == "reducer.single / raw.dispatch" && $0.message.contains("limit 4×, +3 % for a count that follows the heap's history")
            })
    }

    @Test("scaling uses min ns/op and a flat floor: a noisy baseline cannot make ×2 noise a regression")
    func scalingRobustToNoise() {
        // Baseline: the small size was disturbed (slow), so its growth reads 0.5.
        let baseline = Fixture.results().modifying("endomut.zerocopy", size: 100) { $0.nsPerOp = Summary(min: 4, median: 4, p90: 4, max: 4) }
        // Current: the large size is 2× slower than the small one (noise, still O(1)).
        let current = Fixture.results().modifying("endomut.zerocopy", size: 100_000) { $0.nsPerOp = Summary(min: 3.6, median: 4, p90: 4.4, max: 4.8) }
        let report = compareResults(current: current, baseline: baseline, options: CompareOptions(timeAdvisory: true))
        #expect(report.exitCode == .success)
    }

    @Test("allocation improvement only → exit 4")
    func allocationImprovement() {
        let current = Fixture.results().modifying("behavior.react.produce") { $0.allocsPerOp = 3 }
        let report = compareResults(current: current, baseline: Fixture.results())
        #expect(report.exitCode == .improvement)
        #expect(report.text.contains("update the baseline"))
    }

    @Test("a regression wins over an improvement")
    func mixed() {
        let current = Fixture.results()
            .modifying("behavior.react.produce") { $0.allocsPerOp = 3 }
            .modifying("reducer.single") { $0.allocsPerOp = 1 }
        #expect(compareResults(current: current, baseline: Fixture.results()).exitCode == .regression)
    }

    @Test("time is compared as ratios to naive.dispatch, never absolutely")
    func timeRatios() {
        // A machine twice as slow: every time doubles, ratios are unchanged.
        var slower = Fixture.results()
        for index in slower.benchmarks.indices {
            let s = slower.benchmarks[index].nsPerOp
            slower.benchmarks[index].nsPerOp = Summary(min: s.min * 2, median: s.median * 2, p90: s.p90 * 2, max: s.max * 2)
        }
        #expect(compareResults(current: slower, baseline: Fixture.results()).exitCode == .success)
        // One scenario 3× slower relative to the naive store: regression beyond 50 %.
        let regressed = Fixture.results().modifying("reducer.single") { $0.nsPerOp = Summary(min: 9, median: 9, p90: 9, max: 9) }
        #expect(compareResults(current: regressed, baseline: Fixture.results()).exitCode == .regression)
        // Within tolerance: 1.4×.
        let noisy = Fixture.results().modifying("reducer.single") { $0.nsPerOp = Summary(min: 4.2, median: 4.2, p90: 4.2, max: 4.2) }
        #expect(compareResults(current: noisy, baseline: Fixture.results()).exitCode == .success)
        // A wider tolerance accepts the 3× case.
        #expect(compareResults(current: regressed, baseline: Fixture.results(), options: CompareOptions(timeTolerance: 3)).exitCode == .success)
        // Faster beyond tolerance: improvement.
        let faster = Fixture.results().modifying("reducer.single") { $0.nsPerOp = Summary(min: 1, median: 1, p90: 1, max: 1) }
        #expect(compareResults(current: faster, baseline: Fixture.results()).exitCode == .improvement)
    }

    @Test("time-advisory prints time differences but lets only allocations decide")
    func advisory() {
        let regressed = Fixture.results().modifying("reducer.single") { $0.nsPerOp = Summary(min: 9, median: 9, p90: 9, max: 9) }
        let report = compareResults(current: regressed, baseline: Fixture.results(), options: CompareOptions(timeAdvisory: true))
        #expect(report.exitCode == .success)
        #expect(report.findings(.note).contains { $0.key == "reducer.single" && $0.message.contains("slower") })
    }

    @Test("missing benchmark is a regression unless filtered; new benchmark is a note")
    func missingAndNew() {
        var current = Fixture.results()
        current.benchmarks.removeAll { $0.name == "behavior.react.produce" }
        current.benchmarks.append(Fixture.record("store.dispatch", ns: 20))
        let report = compareResults(current: current, baseline: Fixture.results())
        #expect(report.exitCode == .regression)
        #expect(report.findings(.regression).map(\.key) == ["behavior.react.produce"])
        #expect(report.findings(.note).contains { $0.key == "store.dispatch" && $0.message.contains("new") })

        var filtered = current
        filtered.benchmarks.removeAll { $0.name == "store.dispatch" }
        filtered.metadata.filter = "endomut"
        #expect(compareResults(current: filtered, baseline: Fixture.results()).exitCode == .success)
        #expect(compareResults(current: current, baseline: Fixture.results(), options: CompareOptions(filter: "reducer")).exitCode == .success)
    }

    @Test("different machine metadata warns but does not fail")
    func metadataWarning() {
        var current = Fixture.results()
        current.metadata.cores = 8
        current.metadata.host = "elsewhere"
        let report = compareResults(current: current, baseline: Fixture.results())
        #expect(report.exitCode == .success)
        #expect(report.findings(.warning).count == 1)
        #expect(report.text.contains("cores 2 → 8"))
    }

    @Test("bytes per op are gated two-sided: a rise is a regression, a fall an improvement")
    func bytesGated() {
        let more = Fixture.results().modifying("behavior.react.produce") { $0.bytesPerOp += 65_536 }
        let rose = compareResults(current: more, baseline: Fixture.results(), options: CompareOptions(timeAdvisory: true))
        #expect(rose.exitCode == .regression)
        #expect(rose.findings(.regression).map(\.key) == ["behavior.react.produce"])
        #expect(rose.findings(.regression).first?.message.contains("bytes/op rose 256 → 65792") == true)
        let fewer = Fixture.results().modifying("behavior.react.produce") { $0.bytesPerOp = 128 }
        #expect(compareResults(current: fewer, baseline: Fixture.results()).exitCode == .improvement)
        // Half a byte per op is rounding, not a change; the tolerance widens it.
        let rounding = Fixture.results().modifying("behavior.react.produce") { $0.bytesPerOp += 0.4 }
        #expect(compareResults(current: rounding, baseline: Fixture.results()).exitCode == .success)
        #expect(compareResults(current: more, baseline: Fixture.results(), options: CompareOptions(bytesTolerance: 70_000)).exitCode == .success)
    }

    @Test("instructions per op are gated two-sided within the relative tolerance")
    func instructionsGated() {
        let baseline = Fixture.results(instructions: true)
        let within = baseline.modifying("reducer.single") { $0.instructionsPerOp = 121.8 } // +1.5 %
        #expect(compareResults(current: within, baseline: baseline).exitCode == .success)
        let rose = baseline.modifying("reducer.single") { $0.instructionsPerOp = 132 } // +10 %
        let report = compareResults(current: rose, baseline: baseline, options: CompareOptions(timeAdvisory: true))
        #expect(report.exitCode == .regression)
        #expect(report.findings(.regression).map(\.key) == ["reducer.single"])
        #expect(report.findings(.regression).first?.message.contains("instructions/op rose 120 → 132 (+10.0 %)") == true)
        let fell = baseline.modifying("reducer.single") { $0.instructionsPerOp = 108 }
        #expect(compareResults(current: fell, baseline: baseline).exitCode == .improvement)
        // A looser tolerance accepts the 10 % rise.
        #expect(compareResults(current: rose, baseline: baseline, options: CompareOptions(instructionTolerance: 0.2)).exitCode == .success)
    }

    @Test("a filtered run against a whole-suite baseline widens the instruction tolerance to ±5 %, with a warning")
    func filteredRunTolerance() {
        let baseline = Fixture.results(instructions: true)
        var filtered = baseline.modifying("reducer.single") { $0.instructionsPerOp = 124.8 } // +4 %
        filtered.metadata.filter = "reducer."
        let report = compareResults(current: filtered, baseline: baseline)
        #expect(report.exitCode == .success)
        #expect(report.findings(.warning).contains { $0.message.contains("tolerance widened to ±5 %") })
        let planted = filtered.modifying("reducer.single") { $0.instructionsPerOp = 132 } // +10 %
        #expect(compareResults(current: planted, baseline: baseline).exitCode == .regression)
        // The whole suite keeps the tight gate.
        let whole = baseline.modifying("reducer.single") { $0.instructionsPerOp = 124.8 }
        #expect(compareResults(current: whole, baseline: baseline).exitCode == .regression)
    }

    @Test("a baseline instruction figure the current run lacks is a regression; a run without instructions only warns")
    func missingInstructions() {
        let baseline = Fixture.results(instructions: true)
        let lost = baseline.modifying("reducer.single") { $0.instructionsPerOp = nil }
        let report = compareResults(current: lost, baseline: baseline)
        #expect(report.exitCode == .regression)
        #expect(report.findings(.regression).first?.message.contains("instructions/op not measured") == true)

        var skipped = Fixture.results()
        skipped.metadata.instructionCounter = nil
        let warned = compareResults(current: skipped, baseline: baseline)
        #expect(warned.exitCode == .success)
        #expect(warned.findings(.warning).contains { $0.message.contains("did not count instructions") })
    }

    @Test("the stack high-water is gated two-sided within the absolute tolerance, or 0.5 % of a large figure")
    func stackGated() {
        let baseline = Fixture.results().modifying("reducer.single") { $0.stackBytes = 590_000 }
        let deeper = baseline.modifying("reducer.single") { $0.stackBytes = 590_000 + 8_192 }
        let report = compareResults(current: deeper, baseline: baseline, options: CompareOptions(timeAdvisory: true))
        #expect(report.exitCode == .regression)
        #expect(report.findings(.regression).first?.message.contains("stack high-water rose 590000 → 598192 bytes") == true)
        let noise = baseline.modifying("reducer.single") { $0.stackBytes = 590_000 + 2_000 }
        #expect(compareResults(current: noise, baseline: baseline).exitCode == .success)
        // A small figure keeps the absolute tolerance: +300 bytes over 1,063 is caught.
        let small = Fixture.results().modifying("reducer.single") { $0.stackBytes = 1_063 }
        #expect(compareResults(current: small.modifying("reducer.single") { $0.stackBytes = 1_363 }, baseline: small).exitCode == .regression)
        #expect(compareResults(current: small.modifying("reducer.single") { $0.stackBytes = 1_263 }, baseline: small).exitCode == .success)
        let fixed = baseline.modifying("reducer.single") { $0.stackBytes = 1_100 }
        #expect(compareResults(current: fixed, baseline: baseline).exitCode == .improvement)
        let unmeasured = baseline.modifying("reducer.single") { $0.stackBytes = nil }
        #expect(compareResults(current: unmeasured, baseline: baseline).exitCode == .regression)
    }

    @Test("runCompare: files on disk; missing or malformed input → exit 3 with a clear message")
    func filesOnDisk() throws {
        let good = try Fixture.temporaryFile(ResultsIO.encode(Fixture.results()))
        let worse = try Fixture.temporaryFile(ResultsIO.encode(Fixture.results().modifying("reducer.single") { $0.allocsPerOp = 2 }))
        let invalid = try Fixture.temporaryFile(Data("[1, 2".utf8))
        let missingField = try Fixture.temporaryFile(Data(#"{"schemaVersion": 1, "benchmarks": []}"#.utf8))

        #expect(runCompare(currentPath: good, baselinePath: good, options: CompareOptions()).exitCode == .success)
        #expect(runCompare(currentPath: worse, baselinePath: good, options: CompareOptions()).exitCode == .regression)
        #expect(runCompare(currentPath: good, baselinePath: worse, options: CompareOptions()).exitCode == .improvement)

        let missing = runCompare(currentPath: good, baselinePath: "/nonexistent/baseline.json", options: CompareOptions())
        #expect(missing.exitCode == .badInput)
        #expect(missing.exitCode.rawValue == 3)
        #expect(missing.output.contains("baseline file '/nonexistent/baseline.json' does not exist"))

        let broken = runCompare(currentPath: good, baselinePath: invalid, options: CompareOptions())
        #expect(broken.exitCode == .badInput)
        #expect(broken.output.contains("malformed"))

        let incomplete = runCompare(currentPath: missingField, baselinePath: good, options: CompareOptions())
        #expect(incomplete.exitCode == .badInput)
        #expect(incomplete.output.contains("current file") && incomplete.output.contains("missing field 'metadata'"))
    }
}
