import Foundation
import Testing

@testable import LabCore

@Suite("Reports and charts")
struct ReportsTests {
    @Test("table and Markdown list every record with the ratio to naive.dispatch")
    func tables() {
        let file = Fixture.results()
        let table = Reports.table(file)
        #expect(table.split(separator: "\n").count == file.benchmarks.count + 2)
        #expect(table.contains("reducer.single"))
        let markdown = Reports.markdown(file, charts: ["endomut.zerocopy"])
        #expect(markdown.contains("| `reducer.single` |  | 3 ns |"))
        #expect(markdown.contains("0.3"))
        #expect(markdown.contains("charts/endomut.zerocopy.svg"))
        #expect(markdown.contains("abc123"))
    }

    @Test("the committed Results/baseline.md is the summary of Results/baseline.json (regenerate it with `swiftrex-lab summary`)")
    func committedBaselineSummary() throws {
        let results = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../../Results").standardized
        let baseline = try ResultsIO.load(path: results.appendingPathComponent("baseline.json").path, role: "baseline")
        let committed = try String(contentsOf: results.appendingPathComponent("baseline.md"), encoding: .utf8)
        let summary = Reports.baselineSummary(baseline)
        #expect(committed == summary, "Results/baseline.md is stale: Scripts/bench summary Results/baseline.json --output Results/baseline.md")
        for chart in SVGChart.chartedScenarios(baseline) {
            #expect(FileManager.default.fileExists(atPath: results.appendingPathComponent("baseline-charts/\(chart).svg").path), "\(chart)")
        }
    }

    @Test("the Performance article's figures are the committed baseline's (regenerate them with `swiftrex-lab summary --article`)")
    func committedArticleFigures() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../..").standardized
        let baseline = try ResultsIO.load(path: root.appendingPathComponent("Results/baseline.json").path, role: "baseline")
        let article = try String(
            contentsOf: root.appendingPathComponent("Sources/SwiftRex/Documentation.docc/Articles/Performance.md"), encoding: .utf8)
        let committed = try #require(ArticleFigures.committedTable(in: article), "the Performance article has no generated figures")
        #expect(
            committed == (try ArticleFigures.table(baseline)),
            "the Performance article's figures are stale: Scripts/bench summary Results/baseline.json --output Results/baseline.md --article Sources/SwiftRex/Documentation.docc/Articles/Performance.md"
        )
    }

    @Test("the article's table names what a results file lacks, and an article without markers is an error")
    func articleFiguresNeedTheirScenariosAndMarkers() {
        let file = Fixture.results()
        #expect(throws: MissingFigures.self) { try ArticleFigures.table(file) }
        #expect(throws: MissingFigures.self) { try ArticleFigures.updating("no markers here", from: file) }
    }

    @Test("charts: one per sized scenario; .raw controls are drawn on their scenario's chart")
    func charts() {
        var file = Fixture.results()
        for size in [100, 100_000] { file.benchmarks.append(Fixture.record("endomut.zerocopy.raw", size: size, ns: 1)) }
        #expect(SVGChart.chartedScenarios(file) == ["endomut.zerocopy"])
        let svg = SVGChart.chart(for: "endomut.zerocopy", in: file)
        #expect(svg.hasPrefix("<svg"))
        #expect(svg.hasSuffix("</svg>\n"))
        #expect(svg.components(separatedBy: "<polyline").count - 1 == 4) // 2 panels × (scenario + raw)
        #expect(svg.contains(">100k<") && svg.contains(">100<"))
        #expect(svg.contains("stroke-dasharray"))
    }

    @Test("charts: times in human units, a log y axis when values span more than two decades")
    func chartUnitsAndScale() {
        var file = Fixture.results()
        for (size, ns) in [(100, 120.0), (1_000, 1_500.0), (10_000, 25_000.0), (100_000, 3_000_000.0)] {
            file = file.modifying("endomut.zerocopy", size: size) { $0.nsPerOp = Summary(min: ns, median: ns, p90: ns, max: ns) }
        }
        let svg = SVGChart.chart(for: "endomut.zerocopy", in: file)
        #expect(svg.contains("(log scale)"))
        #expect(svg.contains(">100 ns<") && svg.contains(">1 µs<") && svg.contains(">1 ms<") && svg.contains(">10 ms<"))
        #expect(svg.contains(">3 ms<") && svg.contains(">1.5 µs<")) // point labels
        #expect(!svg.contains("3000000"))
        // A flat series keeps a linear axis from 0.
        #expect(SVGChart.scale(for: [2, 2, 3]) == .linear(max: 5))
        #expect(SVGChart.scale(for: [1, 100]) == .linear(max: 100))
        #expect(SVGChart.scale(for: [1, 101]) == .logarithmic(low: 0, high: 3))
        #expect(SVGChart.scale(for: [0, 1_000]) == .linear(max: 1_000))
    }

    @Test("charts: the baseline is drawn dashed; instruction counts get their own panel")
    func chartBaselineAndInstructions() {
        let latest = Fixture.results(instructions: true)
        let baseline = Fixture.results(instructions: true).modifying("endomut.zerocopy", size: 100) { $0.nsPerOp.median = 3 }
        let svg = SVGChart.chart(for: "endomut.zerocopy", in: latest, baseline: baseline)
        #expect(svg.contains("endomut.zerocopy (baseline)"))
        #expect(svg.contains("instructions / op"))
        #expect(svg.components(separatedBy: "<polyline").count - 1 == 6) // 3 panels × (latest + baseline)
    }

    @Test("the comparison chart has one row per common record with the time and instruction ratios")
    func comparisonChart() {
        let baseline = Fixture.results(instructions: true)
        let latest = baseline.modifying("reducer.single") { record in
            record.instructionsPerOp! *= 1.1
            record.allocsPerOp = 1
        }
        let svg = SVGChart.comparison(current: latest, baseline: baseline)
        #expect(svg.hasPrefix("<svg") && svg.hasSuffix("</svg>\n"))
        #expect(svg.contains(">reducer.single<") && svg.contains(">endomut.zerocopy/100000<"))
        #expect(svg.contains("instr +10.0 %") && svg.contains("allocs 0 → 1"))
        #expect(svg.contains("#c62828")) // the instruction ratio outside the gate is drawn red
        #expect(svg.components(separatedBy: "<circle").count - 1 == baseline.benchmarks.count - 1) // every record but naive.dispatch
    }

    @Test("human units")
    func units() {
        #expect(formatDuration(0.626) == "0.626 ns")
        #expect(formatDuration(85.34) == "85.3 ns")
        #expect(formatDuration(999.96) == "1 µs")
        #expect(formatDuration(1_240) == "1.24 µs")
        #expect(formatDuration(3_400_000) == "3.4 ms")
        #expect(formatDuration(1.2e9) == "1.2 s")
        #expect(formatBytes(512) == "512 B")
        #expect(formatBytes(65_536) == "64 KiB")
        #expect(formatBytes(590_783) == "577 KiB")
        #expect(formatBytes(1.5 * 1_048_576) == "1.5 MiB")
        #expect(formatBytes(1_048_500) == "1 MiB") // 1023.9 KiB rounds up to the next unit
    }

    @Test("the instruction pass counts a sized scenario at its two ends (up to its limit), never a skipped one")
    @MainActor
    func instructionSizes() {
        #expect(InstructionCounting.default.countedSizes([100, 1_000, 10_000, 100_000]) == [100, 100_000])
        #expect(InstructionCounting.counted(maxSize: 10_000).countedSizes([1_000, 10_000, 100_000]) == [1_000, 10_000])
        #expect(InstructionCounting.counted(maxSize: 1_000).countedSizes([1_000, 10_000]) == [1_000])
        #expect(InstructionCounting.default.countedSizes(nil) == nil)
        #expect(InstructionCounting.skipped(reason: "too costly").countedSizes([1, 2]) == [])
        let sized = Scenario(name: "x", sizes: [100, 1_000, 10_000], instructions: .counted(iterations: 8)) { _ in { _ in } }
        #expect(sized.countsInstructions(size: 100) && !sized.countsInstructions(size: 1_000) && sized.countsInstructions(size: 10_000))
        #expect(sized.fixedInstructionIterations == 8)
        let skipped = Scenario(name: "y", instructions: .skipped(reason: "too costly")) { { _ in } }
        #expect(!skipped.countsInstructions(size: nil))
        let asynchronous = Scenario(name: "w", instructions: .asynchronous) { { _ in } }
        #expect(!asynchronous.countsInstructions(size: nil))
        #expect(InstructionCounting.asynchronous.countedSizes([1, 2]) == [])
        let serialized = Scenario(name: "v", instructions: .serialized(iterations: 16)) { { _ in } }
        #expect(serialized.countsInstructions(size: nil) && serialized.fixedInstructionIterations == 16)
        #expect(InstructionCounting.serialized().isAsynchronous && InstructionCounting.asynchronous.isAsynchronous)
        #expect(!InstructionCounting.default.isAsynchronous && !InstructionCounting.skipped(reason: "").isAsynchronous)
        let probed = Scenario(name: "z", sizes: [1], allocationIterations: 4) { _ in { _ in } }
        #expect(probed.fixedInstructionIterations == nil)
        // A probe sets N: the largest power of two up to 256 whose run stays within 4 Mi instructions.
        #expect(CallgrindSession.iterations(probe: 300) == 256)
        #expect(CallgrindSession.iterations(probe: 100_000) == 32)
        #expect(CallgrindSession.iterations(probe: 5_800_000) == 1)
        #expect(CallgrindSession.iterations(probe: 0) == 256)
    }

    @Test("nice axis ceilings")
    func niceCeiling() {
        #expect(SVGChart.niceCeiling(0) == 1)
        #expect(SVGChart.niceCeiling(3) == 5)
        #expect(SVGChart.niceCeiling(10) == 10)
        #expect(SVGChart.niceCeiling(1_234) == 2_000)
        #expect(SVGChart.niceCeiling(0.3) == 0.5)
    }

    @Test("filters are prefixes of names or name/size, comma-separated; baselines always run")
    @MainActor
    func filters() {
        #expect(matchesFilter(RecordKey(name: "endomut.zerocopy", size: 100), "endomut.zerocopy/100"))
        #expect(!matchesFilter(RecordKey(name: "endomut.zerocopy", size: 100), "zerocopy/100"))
        #expect(!matchesFilter(RecordKey(name: "endomut.zerocopy", size: 1_000), "endomut.zerocopy/100/"))
        #expect(!matchesFilter(RecordKey(name: "reducer.single", size: nil), "endomut"))
        #expect(!matchesFilter(RecordKey(name: "store.dispatch.reducer", size: nil), "reducer"))
        #expect(matchesFilter(RecordKey(name: "store.dispatch.reducer", size: nil), "stack., store."))
        #expect(matchesFilter(RecordKey(name: "anything", size: nil), nil))
        let scenarios = [
            Scenario(name: "naive.dispatch", isBaseline: true) { { _ in } },
            Scenario(name: "endomut.zerocopy", sizes: [100, 1_000]) { _ in { _ in } },
            Scenario(name: "reducer.single") { { _ in } },
        ]
        let jobs = Runner.jobs(scenarios, filter: "endomut").map { RecordKey(name: $0.0.name, size: $0.1).description }
        #expect(jobs == ["naive.dispatch", "endomut.zerocopy/100", "endomut.zerocopy/1000"])
    }
}
