import Foundation

/// Hand-written SVG charts: cost per operation against size (log x axis), one panel per metric,
/// and the per-record comparison of a run with the baseline.
public enum SVGChart {
    /// One line on a chart: points of (size, value).
    public struct Series: Sendable, Equatable {
        /// How a series is drawn.
        public enum Style: Sendable, Equatable {
            /// The scenario of the chart, in the latest run: solid blue, values labelled.
            case main
            /// A hand-written control (`X.raw`): dashed grey.
            case reference
            /// The same scenario in the baseline run: dashed orange.
            case baseline
        }

        /// Legend label.
        public var label: String
        /// (size, value) pairs, any order.
        public var points: [(Int, Double)]
        /// How it is drawn.
        public var style: Style

        /// Creates a series.
        public init(label: String, points: [(Int, Double)], style: Style = .main) {
            self.label = label
            self.points = points
            self.style = style
        }

        /// Equality on label, points and style.
        public static func == (lhs: Series, rhs: Series) -> Bool {
            lhs.label == rhs.label && lhs.style == rhs.style
                && lhs.points.map(\.0) == rhs.points.map(\.0) && lhs.points.map(\.1) == rhs.points.map(\.1)
        }
    }

    /// What a panel's values are, for its axis labels.
    public enum Unit: Sendable, Equatable {
        /// Nanoseconds, labelled in ns, µs, ms or s.
        case nanoseconds
        /// A plain count (allocations, instructions).
        case count
        /// Bytes, labelled in B, KiB, MiB.
        case bytes

        /// `value` in this unit, for labels.
        public func label(_ value: Double) -> String {
            switch self {
            case .nanoseconds: return formatDuration(value)
            case .count: return compactCount(value)
            case .bytes: return formatBytes(value)
            }
        }
    }

    /// One panel of a chart.
    public struct Panel: Sendable, Equatable {
        /// Title above the panel.
        public var title: String
        /// The lines drawn.
        public var series: [Series]
        /// The values' unit.
        public var unit: Unit

        /// Creates a panel.
        public init(title: String, series: [Series], unit: Unit) {
            self.title = title
            self.series = series
            self.unit = unit
        }
    }

    /// How a panel's y axis is scaled.
    public enum Scale: Sendable, Equatable {
        /// From 0 to a nice ceiling above the largest value.
        case linear(max: Double)
        /// Decades from `10^low` to `10^high`.
        case logarithmic(low: Int, high: Int)
    }

    /// The y scale for `values`: logarithmic when every value is positive and they span more
    /// than two decades (largest ÷ smallest > 100), linear from 0 otherwise.
    public static func scale(for values: [Double]) -> Scale {
        let finite = values.filter(\.isFinite)
        if let low = finite.min(), let high = finite.max(), low > 0, high / low > 100 {
            return .logarithmic(
                low: Int(log10(low).rounded(.down)), high: max(Int((log10(high) - 1e-9).rounded(.up)), Int(log10(low).rounded(.down)) + 1))
        }
        return .linear(max: niceCeiling(finite.max() ?? 1))
    }

    /// Names of the sized scenarios in `file` that get a chart (`X.raw` is drawn on `X`'s chart).
    public static func chartedScenarios(_ file: ResultsFile) -> [String] {
        let sized = Set(file.benchmarks.filter { $0.size != nil }.map(\.name))
        return sized.filter { name in !(name.hasSuffix(".raw") && sized.contains(String(name.dropLast(4)))) }.sorted()
    }

    /// The SVG for scenario `name`: time, allocations and (when counted) instructions per
    /// operation against size, with `name.raw` as a reference and `baseline`'s figures dashed
    /// when given.
    public static func chart(for name: String, in file: ResultsFile, baseline: ResultsFile? = nil) -> String {
        func series(_ source: ResultsFile, _ scenario: String, _ value: (BenchmarkRecord) -> Double?, style: Series.Style, label: String) -> Series? {
            let points = source.benchmarks.filter { $0.name == scenario && $0.size != nil }.compactMap { record in
                value(record).map { (record.size!, $0) }
            }
            return points.isEmpty ? nil : Series(label: label, points: points, style: style)
        }
        func lines(_ value: (BenchmarkRecord) -> Double?) -> [Series] {
            [
                series(file, name, value, style: .main, label: name),
                baseline.flatMap { series($0, name, value, style: .baseline, label: "\(name) (baseline)") },
                series(file, name + ".raw", value, style: .reference, label: name + ".raw"),
            ].compactMap { $0 }
        }
        var panels = [
            Panel(title: "time / op (median)", series: lines { $0.nsPerOp.median }, unit: .nanoseconds),
            Panel(title: "allocations / op", series: lines { $0.allocsPerOp }, unit: .count),
        ]
        let instructions = lines { $0.instructionsPerOp }
        if !instructions.isEmpty {
            panels.append(Panel(title: "instructions / op (callgrind)", series: instructions, unit: .count))
        }
        return render(title: name, panels: panels)
    }

    /// Renders panels side by side. Pure; deterministic output.
    public static func render(title: String, panels: [Panel]) -> String {
        let panelWidth = 440.0
        let panelHeight = 300.0
        let top = 56.0
        let width = panelWidth * Double(max(panels.count, 1)) + 20
        let height = top + panelHeight + 40
        var svg =
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" font-family=\"Helvetica, Arial, sans-serif\" font-size=\"12\">\n"
        svg += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
        svg += "<text x=\"20\" y=\"24\" font-size=\"16\" font-weight=\"bold\">\(escape(title))</text>\n"
        svg +=
            "<text x=\"20\" y=\"42\" fill=\"#555\">cost per operation against size (log x axis; log y axis where values span more than two decades); flat = O(1), rising = grows with size</text>\n"
        for (index, panel) in panels.enumerated() {
            svg += renderPanel(panel, originX: 10 + Double(index) * panelWidth, originY: top, width: panelWidth - 10, height: panelHeight)
        }
        svg += "</svg>\n"
        return svg
    }

    private static func color(_ style: Series.Style) -> (stroke: String, dash: String) {
        switch style {
        case .main: return ("#1f6feb", "")
        case .reference: return ("#999999", " stroke-dasharray=\"6 4\"")
        case .baseline: return ("#d9822b", " stroke-dasharray=\"3 3\"")
        }
    }

    private static func renderPanel(_ panel: Panel, originX: Double, originY: Double, width: Double, height: Double) -> String {
        let left = originX + 64
        let right = originX + width - 12
        let topY = originY + 24
        let bottom = originY + height - 36
        let sizes = panel.series.flatMap { $0.points.map(\.0) }.filter { $0 > 0 }
        let values = panel.series.flatMap { $0.points.map(\.1) }
        let minExp = floor10(Double(sizes.min() ?? 100))
        var maxExp = ceil10(Double(sizes.max() ?? 100_000))
        if maxExp <= minExp { maxExp = minExp + 1 }
        let scale = scale(for: values)
        func x(_ size: Int) -> Double {
            let position = (log10(Double(max(size, 1))) - Double(minExp)) / Double(maxExp - minExp)
            return left + position * (right - left)
        }
        func y(_ value: Double) -> Double {
            switch scale {
            case .linear(let yMax):
                return bottom - (max(value, 0) / yMax) * (bottom - topY)
            case .logarithmic(let low, let high):
                let position = (log10(max(value, pow(10, Double(low)))) - Double(low)) / Double(high - low)
                return bottom - position * (bottom - topY)
            }
        }

        let scaleNote: String
        switch scale {
        case .linear: scaleNote = ""
        case .logarithmic: scaleNote = " (log scale)"
        }
        var out = "<g>\n<text x=\"\(r(left))\" y=\"\(r(originY + 12))\" font-weight=\"bold\">\(escape(panel.title + scaleNote))</text>\n"
        // Grid and y labels.
        let ticks: [Double]
        switch scale {
        case .linear(let yMax): ticks = (0...4).map { yMax * Double($0) / 4 }
        case .logarithmic(let low, let high): ticks = (low...high).map { pow(10, Double($0)) }
        }
        for value in ticks {
            let yy = y(value)
            out += "<line x1=\"\(r(left))\" y1=\"\(r(yy))\" x2=\"\(r(right))\" y2=\"\(r(yy))\" stroke=\"#e5e5e5\"/>\n"
            out += "<text x=\"\(r(left - 6))\" y=\"\(r(yy + 4))\" text-anchor=\"end\" fill=\"#444\">\(escape(panel.unit.label(value)))</text>\n"
        }
        // X decades.
        for exponent in minExp...maxExp {
            var size = 1
            for _ in 0..<exponent { size *= 10 }
            let xx = x(size)
            out += "<line x1=\"\(r(xx))\" y1=\"\(r(topY))\" x2=\"\(r(xx))\" y2=\"\(r(bottom))\" stroke=\"#f0f0f0\"/>\n"
            out += "<text x=\"\(r(xx))\" y=\"\(r(bottom + 16))\" text-anchor=\"middle\" fill=\"#444\">\(sizeLabel(size))</text>\n"
        }
        out += "<line x1=\"\(r(left))\" y1=\"\(r(bottom))\" x2=\"\(r(right))\" y2=\"\(r(bottom))\" stroke=\"#333\"/>\n"
        out += "<line x1=\"\(r(left))\" y1=\"\(r(topY))\" x2=\"\(r(left))\" y2=\"\(r(bottom))\" stroke=\"#333\"/>\n"
        out += "<text x=\"\(r((left + right) / 2))\" y=\"\(r(bottom + 32))\" text-anchor=\"middle\" fill=\"#444\">size</text>\n"
        // Series.
        for (index, item) in panel.series.enumerated() {
            let (stroke, dash) = color(item.style)
            let points = item.points.sorted { $0.0 < $1.0 }
            let path = points.map { "\(r(x($0.0))),\(r(y($0.1)))" }.joined(separator: " ")
            out += "<polyline fill=\"none\" stroke=\"\(stroke)\" stroke-width=\"2\"\(dash) points=\"\(path)\"/>\n"
            for point in points {
                out +=
                    "<circle cx=\"\(r(x(point.0)))\" cy=\"\(r(y(point.1)))\" r=\"3.5\" fill=\"\(stroke)\"><title>\(escape(item.label)) size \(point.0): \(escape(panel.unit.label(point.1)))</title></circle>\n"
                if item.style == .main {
                    out +=
                        "<text x=\"\(r(x(point.0)))\" y=\"\(r(y(point.1) - 8))\" text-anchor=\"middle\" font-size=\"10\" fill=\"\(stroke)\">\(escape(panel.unit.label(point.1)))</text>\n"
                }
            }
            let legendY = topY + 4 + Double(index) * 16
            out +=
                "<line x1=\"\(r(right - 190))\" y1=\"\(r(legendY))\" x2=\"\(r(right - 168))\" y2=\"\(r(legendY))\" stroke=\"\(stroke)\" stroke-width=\"2\"\(dash)/>\n"
            out += "<text x=\"\(r(right - 164))\" y=\"\(r(legendY + 4))\" font-size=\"11\">\(escape(item.label))</text>\n"
        }
        out += "</g>\n"
        return out
    }

    /// The latest run against the baseline, one row per record both files hold: on a log axis
    /// of ratios, the time ratio (each median over its own file's `naive.dispatch`; advisory) and
    /// the instructions ratio (gated); on the right, every figure that changed.
    public static func comparison(current: ResultsFile, baseline: ResultsFile, options: CompareOptions = CompareOptions()) -> String {
        let rows = comparisonRows(current: current, baseline: baseline)
        let layout = ComparisonLayout(rows: rows)
        var svg = comparisonHeader(layout, current: current, baseline: baseline, options: options)
        svg += comparisonBands(layout, options: options)
        for (index, row) in rows.enumerated() {
            svg += comparisonRow(row, index: index, layout, options: options)
        }
        svg += "</svg>\n"
        return svg
    }

    /// One record of the comparison chart: its two ratios (when measured) and its notes.
    private struct ComparisonRow {
        var key: String
        var time: Double?
        var instructions: Double?
        var notes: [String]
    }

    /// Where the comparison chart's parts go: the rows' heights, the three columns (labels, the
    /// ratio axis, notes) and the axis's range in powers of two, wide enough for every ratio.
    private struct ComparisonLayout {
        let rowCount: Int
        let lowExp: Double
        let highExp: Double
        let rowHeight = 18.0
        let top = 88.0
        let labelWidth = 330.0
        let axisWidth = 420.0
        let notesWidth = 420.0

        init(rows: [ComparisonRow]) {
            rowCount = rows.count
            let ratios = rows.flatMap { [$0.time, $0.instructions].compactMap { $0 } }
            lowExp = min(-1.0, (log2(ratios.min() ?? 1)).rounded(.down))
            highExp = max(1.0, (log2(ratios.max() ?? 1)).rounded(.up))
        }

        var left: Double { 20 + labelWidth }
        var right: Double { left + axisWidth }
        var width: Double { right + notesWidth + 20 }
        var height: Double { top + Double(max(rowCount, 1)) * rowHeight + 40 }

        /// The x of `ratio` on the log axis, clamped to its ends.
        func x(_ ratio: Double) -> Double {
            left + (log2(min(max(ratio, pow(2, lowExp)), pow(2, highExp))) - lowExp) / (highExp - lowExp) * axisWidth
        }
    }

    /// A row per record of `current` that `baseline` holds too, in `current`'s order: its ratios
    /// and a note for every figure that changed.
    private static func comparisonRows(current: ResultsFile, baseline: ResultsFile) -> [ComparisonRow] {
        let baselineByKey = Dictionary(baseline.benchmarks.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        let currentNorm = current.record(normalizingBenchmark)?.nsPerOp.median ?? 0
        let baselineNorm = baseline.record(normalizingBenchmark)?.nsPerOp.median ?? 0
        var rows: [ComparisonRow] = []
        for record in current.benchmarks {
            guard let base = baselineByKey[record.key] else { continue }
            var time: Double?
            if currentNorm > 0, baselineNorm > 0, base.nsPerOp.median > 0, record.nsPerOp.median > 0, record.name != normalizingBenchmark {
                time = (record.nsPerOp.median / currentNorm) / (base.nsPerOp.median / baselineNorm)
            }
            var instructions: Double?
            if let i0 = base.instructionsPerOp, let i1 = record.instructionsPerOp, i0 > 0, i1 > 0 { instructions = i1 / i0 }
            var notes: [String] = []
            if let instructions { notes.append("instr \(signedPercent(instructions - 1))") }
            if base.allocsPerOp != record.allocsPerOp { notes.append("allocs \(format(base.allocsPerOp)) → \(format(record.allocsPerOp))") }
            if abs(base.bytesPerOp - record.bytesPerOp) > 0.5 { notes.append("bytes \(format(base.bytesPerOp)) → \(format(record.bytesPerOp))") }
            if let s0 = base.stackBytes, let s1 = record.stackBytes, s0 != s1 {
                notes.append("stack \(formatBytes(Double(s0))) → \(formatBytes(Double(s1)))")
            }
            if let time { notes.insert("time ×\(format(time))", at: 0) }
            rows.append(ComparisonRow(key: record.key.description, time: time, instructions: instructions, notes: notes))
        }
        return rows
    }

    /// The comparison chart's opening: the SVG element, its title, which runs it compares and
    /// the legend of its marks and bands.
    private static func comparisonHeader(_ layout: ComparisonLayout, current: ResultsFile, baseline: ResultsFile, options: CompareOptions) -> String {
        let width = layout.width
        let height = layout.height
        var svg =
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" font-family=\"Helvetica, Arial, sans-serif\" font-size=\"11\">\n"
        svg += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
        svg += "<text x=\"20\" y=\"24\" font-size=\"16\" font-weight=\"bold\">latest against baseline</text>\n"
        svg +=
            "<text x=\"20\" y=\"42\" fill=\"#555\">\(escape("latest \(current.metadata.gitRevision.prefix(12)) (\(current.metadata.mode), \(current.metadata.date)) ÷ baseline \(baseline.metadata.gitRevision.prefix(12)) (\(baseline.metadata.mode), \(baseline.metadata.date)); log axis, 1 = unchanged"))</text>\n"
        svg +=
            "<text x=\"20\" y=\"58\" fill=\"#555\">\(escape("● time ratio (median ÷ naive.dispatch of the same run; advisory, grey band ±\(format(options.timeTolerance * 100)) %)   ◆ instructions ratio (gated ±\(format(options.instructionTolerance * 100)) %, orange band)"))</text>\n"
        return svg
    }

    /// The comparison chart's tolerance bands (time grey, instructions orange), its grid lines at
    /// powers of two and their labels.
    private static func comparisonBands(_ layout: ComparisonLayout, options: CompareOptions) -> String {
        let timeLow = layout.x(1 / (1 + options.timeTolerance))
        let timeHigh = layout.x(1 + options.timeTolerance)
        let plotTop = layout.top - 6
        let plotBottom = layout.top + Double(layout.rowCount) * layout.rowHeight
        var svg =
            "<rect x=\"\(r(timeLow))\" y=\"\(r(plotTop))\" width=\"\(r(timeHigh - timeLow))\" height=\"\(r(plotBottom - plotTop))\" fill=\"#f2f2f2\"/>\n"
        let instructionLow = layout.x(1 - options.instructionTolerance)
        let instructionHigh = layout.x(1 + options.instructionTolerance)
        svg +=
            "<rect x=\"\(r(instructionLow))\" y=\"\(r(plotTop))\" width=\"\(r(max(instructionHigh - instructionLow, 1)))\" height=\"\(r(plotBottom - plotTop))\" fill=\"#fbe3cc\"/>\n"
        for exponent in Int(layout.lowExp)...Int(layout.highExp) {
            let ratio = pow(2, Double(exponent))
            let xx = layout.x(ratio)
            svg +=
                "<line x1=\"\(r(xx))\" y1=\"\(r(plotTop))\" x2=\"\(r(xx))\" y2=\"\(r(plotBottom))\" stroke=\"\(exponent == 0 ? "#333" : "#e0e0e0")\"/>\n"
            svg += "<text x=\"\(r(xx))\" y=\"\(r(plotTop - 6))\" text-anchor=\"middle\" fill=\"#444\">×\(format(ratio))</text>\n"
        }
        return svg
    }

    /// Row `index` of the comparison chart: its shading (every other row), label, time dot,
    /// instructions diamond (red outside the tolerance) and notes.
    private static func comparisonRow(_ row: ComparisonRow, index: Int, _ layout: ComparisonLayout, options: CompareOptions) -> String {
        let rowHeight = layout.rowHeight
        let yy = layout.top + Double(index) * rowHeight + rowHeight / 2
        var svg = ""
        if index % 2 == 1 {
            svg +=
                "<rect x=\"20\" y=\"\(r(yy - rowHeight / 2))\" width=\"\(r(layout.width - 40))\" height=\"\(r(rowHeight))\" fill=\"#000\" fill-opacity=\"0.03\"/>\n"
        }
        svg += "<text x=\"\(r(layout.left - 8))\" y=\"\(r(yy + 4))\" text-anchor=\"end\">\(escape(row.key))</text>\n"
        if let time = row.time {
            svg +=
                "<circle cx=\"\(r(layout.x(time)))\" cy=\"\(r(yy))\" r=\"4\" fill=\"#1f6feb\"><title>\(escape(row.key)) time ×\(format(time))</title></circle>\n"
        }
        if let instructions = row.instructions {
            let xx = layout.x(instructions)
            let fill = abs(instructions - 1) > options.instructionTolerance ? "#c62828" : "#d9822b"
            svg +=
                "<path d=\"M \(r(xx)) \(r(yy - 5)) L \(r(xx + 5)) \(r(yy)) L \(r(xx)) \(r(yy + 5)) L \(r(xx - 5)) \(r(yy)) Z\" fill=\"\(fill)\"><title>\(escape(row.key)) instructions \(signedPercent(instructions - 1))</title></path>\n"
        }
        svg += "<text x=\"\(r(layout.right + 12))\" y=\"\(r(yy + 4))\" fill=\"#444\">\(escape(row.notes.joined(separator: " · ")))</text>\n"
        return svg
    }

    private static func floor10(_ value: Double) -> Int { Int(log10(value).rounded(.down)) }
    private static func ceil10(_ value: Double) -> Int { Int((log10(value) - 1e-9).rounded(.up)) }

    /// Smallest 1/2/2.5/5 × 10^k at or above `value` (1 for non-positive values).
    public static func niceCeiling(_ value: Double) -> Double {
        guard value > 0, value.isFinite else { return 1 }
        var magnitude = 1.0
        while magnitude * 10 <= value { magnitude *= 10 }
        while magnitude > value { magnitude /= 10 }
        for factor in [1.0, 2, 2.5, 5, 10] where magnitude * factor >= value || factor == 10 {
            return magnitude * factor
        }
        return magnitude * 10
    }

    /// A count with k/M/G suffixes: `950`, `12.5k`, `3M`.
    static func compactCount(_ value: Double) -> String {
        let magnitude = abs(value)
        if magnitude >= 1e9 { return significant(value / 1e9, 3) + "G" }
        if magnitude >= 1e6 { return significant(value / 1e6, 3) + "M" }
        if magnitude >= 1e4 { return significant(value / 1e3, 3) + "k" }
        return significant(value, 3)
    }

    private static func sizeLabel(_ size: Int) -> String {
        if size >= 1_000_000 && size % 1_000_000 == 0 { return "\(size / 1_000_000)M" }
        if size >= 1_000 && size % 1_000 == 0 { return "\(size / 1_000)k" }
        return String(size)
    }

    private static func r(_ value: Double) -> String { fixed(value, digits: 1) }

    private static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }
}
