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
        #expect(markdown.contains("| `reducer.single` |  | 3 |"))
        #expect(markdown.contains("0.3"))
        #expect(markdown.contains("charts/endomut.zerocopy.svg"))
        #expect(markdown.contains("abc123"))
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

    @Test("nice axis ceilings")
    func niceCeiling() {
        #expect(SVGChart.niceCeiling(0) == 1)
        #expect(SVGChart.niceCeiling(3) == 5)
        #expect(SVGChart.niceCeiling(10) == 10)
        #expect(SVGChart.niceCeiling(1_234) == 2_000)
        #expect(SVGChart.niceCeiling(0.3) == 0.5)
    }

    @Test("filters match names and name/size; baselines always run")
    @MainActor
    func filters() {
        #expect(matchesFilter(RecordKey(name: "endomut.zerocopy", size: 100), "zerocopy/100"))
        #expect(!matchesFilter(RecordKey(name: "reducer.single", size: nil), "endomut"))
        let scenarios = [
            Scenario(name: "naive.dispatch", isBaseline: true) { { _ in } },
            Scenario(name: "endomut.zerocopy", sizes: [100, 1_000]) { _ in { _ in } },
            Scenario(name: "reducer.single") { { _ in } },
        ]
        let jobs = Runner.jobs(scenarios, filter: "endomut").map { RecordKey(name: $0.0.name, size: $0.1).description }
        #expect(jobs == ["naive.dispatch", "endomut.zerocopy/100", "endomut.zerocopy/1000"])
    }
}
