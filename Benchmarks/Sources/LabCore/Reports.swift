import Foundation

/// Text renderings of results: the stdout table and the Markdown summary.
public enum Reports {
    /// File name (without `.svg`) of the chart comparing a run with the baseline.
    public static let comparisonChartName = "latest-vs-baseline"

    private static let headers = [
        "benchmark", "size", "median time/op", "min", "p90", "max", "× naive", "allocs/op", "bytes/op", "instructions/op", "stack high-water",
    ]

    private static func rows(_ file: ResultsFile) -> [[String]] {
        let norm = file.record(normalizingBenchmark)?.nsPerOp.median ?? 0
        return file.benchmarks.map { record in
            [
                record.name,
                record.size.map(String.init) ?? "",
                formatDuration(record.nsPerOp.median),
                formatDuration(record.nsPerOp.min),
                formatDuration(record.nsPerOp.p90),
                formatDuration(record.nsPerOp.max),
                norm > 0 ? format(record.nsPerOp.median / norm) : "",
                format(record.allocsPerOp),
                format(record.bytesPerOp),
                record.instructionsPerOp.map(format) ?? "",
                record.stackBytes.map { String($0) + " B" } ?? "",
            ]
        }
    }

    /// A fixed-width table for the terminal.
    public static func table(_ file: ResultsFile) -> String {
        let body = rows(file)
        var widths = headers.map(\.count)
        for row in body { for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) } }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { index, cell in
                index == 0 ? cell.rightPadded(to: widths[index]) : cell.leftPadded(to: widths[index])
            }.joined(separator: "  ")
        }
        var lines = [line(headers), widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")]
        lines += body.map(line)
        if let ratios = file.ratios, !ratios.isEmpty {
            lines.append("")
            lines.append("paired ratios (median of rounds, min–max, time limit: advice; instruction ratio, limit: gated):")
            let width = ratios.map(\.label.count).max() ?? 0
            for ratio in ratios {
                let cells = ratioCells(ratio) + instructionRatioCells(ratio, in: file)
                lines.append("  " + ratio.label.rightPadded(to: width) + "  " + cells.filter { !$0.isEmpty }.joined(separator: "  "))
            }
        }
        return lines.joined(separator: "\n")
    }

    /// The median ratio, its range over the rounds, and the limit with its verdict.
    private static func ratioCells(_ ratio: RatioRecord) -> [String] {
        [
            format(ratio.ratio.median) + "×",
            format(ratio.ratio.min) + "–" + format(ratio.ratio.max),
            ratio.limit.map { "≤ " + format($0) + (ratio.meetsLimit ? " met" : " missed") } ?? "",
        ]
    }

    /// The instruction form of a paired ratio in `file` (its two records' counts) and, for a
    /// target, whether it meets the limit: what `compare` gates.
    private static func instructionRatioCells(_ ratio: RatioRecord, in file: ResultsFile) -> [String] {
        guard let numerator = RecordKey(parsing: ratio.numerator), let denominator = RecordKey(parsing: ratio.denominator),
            let value = instructionRatio(file, numerator, denominator)
        else { return ["", ""] }
        return [format(value) + "×", ratio.limit.map { "≤ " + format($0) + (value <= $0 ? " met" : " missed") } ?? ""]
    }

    /// The summary of the committed baseline (`Results/baseline.md`): its table, ratios and charts
    /// (`Results/baseline-charts/`), generated from `baseline.json` so the figures are never
    /// copied by hand (`swiftrex-lab summary`).
    public static func baselineSummary(_ file: ResultsFile) -> String {
        markdown(file, charts: SVGChart.chartedScenarios(file), chartDirectory: "baseline-charts", title: "SwiftRex benchmark baseline")
    }

    /// The Markdown summary (`Results/latest.md`), linking the charts in `charts` (in
    /// `chartDirectory`, relative to the summary).
    public static func markdown(
        _ file: ResultsFile, charts: [String] = [], comparisonChart: Bool = false, chartDirectory: String = "charts",
        title: String = "SwiftRex benchmark results"
    ) -> String {
        let m = file.metadata
        var out = "# \(title)\n\n"
        out += "| | |\n|---|---|\n"
        out += "| date | \(m.date) |\n"
        out += "| git revision | `\(m.gitRevision)`\(m.gitDirty == true ? " (dirty)" : "") |\n"
        out += "| mode | \(m.mode)\(m.filter.map { " (filter `\($0)`)" } ?? "") |\n"
        out += "| host | \(m.host): \(m.cores) cores, \(m.memoryBytes >> 20) MiB\(m.cpu.map { ", \($0)" } ?? "") |\n"
        out += "| kernel | \(m.kernel) |\n"
        out += "| toolchain | \(m.toolchain) |\n"
        out += "| allocator | \(m.allocator ?? "unknown")\(m.allocatorSettings.map { "; \($0)" } ?? "") |\n"
        out += "| instruction counter | \(m.instructionCounter ?? "not counted (--no-instructions)") |\n\n"
        out += "Times are per operation over repeated samples (setup excluded); "
        out += "`× naive` is the median divided by the median of `\(normalizingBenchmark)` from the same run: "
        out += "compare ratios, never absolute times, and only as advice. Allocations and bytes per operation are exact, "
        out += "instructions per operation are callgrind counts (deterministic), the stack high-water is the deepest byte "
        out += "one operation wrote below the dispatching call (stack scenarios).\n\n"
        out += "| " + headers.joined(separator: " | ") + " |\n"
        out += "|" + headers.enumerated().map { $0.offset == 0 ? "---" : "---:" }.joined(separator: "|") + "|\n"
        for row in rows(file) {
            out += "| " + row.enumerated().map { $0.offset == 0 ? "`\($0.element)`" : $0.element }.joined(separator: " | ") + " |\n"
        }
        if let ratios = file.ratios, !ratios.isEmpty {
            out += "\n## Paired ratios\n\n"
            out += "Each ratio alternates one sample of each scenario (\(ratios[0].rounds) rounds), so both run on the same machine state; "
            out += "the figure is the median of the rounds' ratios, and its limit is advice. The same limit on the two records' "
            out += "instruction counts is what `compare` gates.\n\n"
            out +=
                "| ratio | median | min–max | time limit (advice) | instructions | limit in instructions (gated) |\n|---|---:|---:|---:|---:|---:|\n"
            for ratio in ratios {
                let cells = ratioCells(ratio) + instructionRatioCells(ratio, in: file)
                out += "| `\(ratio.numerator)` / `\(ratio.denominator)` | " + cells.joined(separator: " | ") + " |\n"
            }
        }
        if !charts.isEmpty {
            out += "\n## Charts (cost per operation vs size)\n\n"
            for chart in charts { out += "- [\(chart)](\(chartDirectory)/\(chart).svg)\n" }
        }
        if comparisonChart {
            out += "\n[The run against the baseline, per record](\(chartDirectory)/\(comparisonChartName).svg)\n"
        }
        return out
    }
}
