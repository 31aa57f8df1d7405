import Foundation

/// Hand-written SVG charts of cost per operation against size (log x axis).
public enum SVGChart {
    /// One line on a chart: points of (size, value).
    public struct Series: Sendable, Equatable {
        /// Legend label.
        public var label: String
        /// (size, value) pairs, any order.
        public var points: [(Int, Double)]
        /// Dashed grey reference style instead of the solid main style.
        public var isReference: Bool

        /// Creates a series.
        public init(label: String, points: [(Int, Double)], isReference: Bool = false) {
            self.label = label
            self.points = points
            self.isReference = isReference
        }

        /// Equality on label, points and style.
        public static func == (lhs: Series, rhs: Series) -> Bool {
            lhs.label == rhs.label && lhs.isReference == rhs.isReference
                && lhs.points.map(\.0) == rhs.points.map(\.0) && lhs.points.map(\.1) == rhs.points.map(\.1)
        }
    }

    /// Names of the sized scenarios in `file` that get a chart (`X.raw` is drawn on `X`'s chart).
    public static func chartedScenarios(_ file: ResultsFile) -> [String] {
        let sized = Set(file.benchmarks.filter { $0.size != nil }.map(\.name))
        return sized.filter { name in !(name.hasSuffix(".raw") && sized.contains(String(name.dropLast(4)))) }.sorted()
    }

    /// The SVG for scenario `name`: ns/op and allocs/op panels, with `name.raw` as a reference if present.
    public static func chart(for name: String, in file: ResultsFile) -> String {
        func series(_ scenario: String, _ value: (BenchmarkRecord) -> Double, reference: Bool) -> Series? {
            let points = file.benchmarks.filter { $0.name == scenario && $0.size != nil }.map { ($0.size!, value($0)) }
            return points.isEmpty ? nil : Series(label: scenario, points: points, isReference: reference)
        }
        let reference = name + ".raw"
        let time = [series(name, { $0.nsPerOp.median }, reference: false), series(reference, { $0.nsPerOp.median }, reference: true)].compactMap { $0 }
        let allocs = [series(name, { $0.allocsPerOp }, reference: false), series(reference, { $0.allocsPerOp }, reference: true)].compactMap { $0 }
        return render(title: name, panels: [("ns / op (median)", time), ("allocations / op", allocs)])
    }

    /// Renders panels side by side. Pure; deterministic output.
    public static func render(title: String, panels: [(String, [Series])]) -> String {
        let panelWidth = 440.0, panelHeight = 300.0, top = 56.0
        let width = panelWidth * Double(max(panels.count, 1)) + 20
        let height = top + panelHeight + 40
        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" font-family=\"Helvetica, Arial, sans-serif\" font-size=\"12\">\n"
        svg += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
        svg += "<text x=\"20\" y=\"24\" font-size=\"16\" font-weight=\"bold\">\(escape(title))</text>\n"
        svg += "<text x=\"20\" y=\"42\" fill=\"#555\">cost per operation against size (log x axis); flat = O(1), rising = grows with size</text>\n"
        for (index, panel) in panels.enumerated() {
            svg += renderPanel(label: panel.0, series: panel.1, originX: 10 + Double(index) * panelWidth, originY: top, width: panelWidth - 10, height: panelHeight)
        }
        svg += "</svg>\n"
        return svg
    }

    private static func renderPanel(label: String, series: [Series], originX: Double, originY: Double, width: Double, height: Double) -> String {
        let left = originX + 64, right = originX + width - 12
        let topY = originY + 24, bottom = originY + height - 36
        let sizes = series.flatMap { $0.points.map(\.0) }.filter { $0 > 0 }
        let values = series.flatMap { $0.points.map(\.1) }
        let minExp = floor10(Double(sizes.min() ?? 100))
        var maxExp = ceil10(Double(sizes.max() ?? 100_000))
        if maxExp <= minExp { maxExp = minExp + 1 }
        let yMax = niceCeiling(values.max() ?? 1)
        func x(_ size: Int) -> Double {
            let position = (decimalLog(Double(max(size, 1))) - Double(minExp)) / Double(maxExp - minExp)
            return left + position * (right - left)
        }
        func y(_ value: Double) -> Double { bottom - (max(value, 0) / yMax) * (bottom - topY) }

        var out = "<g>\n<text x=\"\(r(left))\" y=\"\(r(originY + 12))\" font-weight=\"bold\">\(escape(label))</text>\n"
        // Grid and y labels.
        for step in 0...4 {
            let value = yMax * Double(step) / 4
            let yy = y(value)
            out += "<line x1=\"\(r(left))\" y1=\"\(r(yy))\" x2=\"\(r(right))\" y2=\"\(r(yy))\" stroke=\"#e5e5e5\"/>\n"
            out += "<text x=\"\(r(left - 6))\" y=\"\(r(yy + 4))\" text-anchor=\"end\" fill=\"#444\">\(format(value))</text>\n"
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
        for (index, item) in series.enumerated() {
            let color = item.isReference ? "#999999" : "#1f6feb"
            let dash = item.isReference ? " stroke-dasharray=\"6 4\"" : ""
            let points = item.points.sorted { $0.0 < $1.0 }
            let path = points.map { "\(r(x($0.0))),\(r(y($0.1)))" }.joined(separator: " ")
            out += "<polyline fill=\"none\" stroke=\"\(color)\" stroke-width=\"2\"\(dash) points=\"\(path)\"/>\n"
            for point in points {
                out += "<circle cx=\"\(r(x(point.0)))\" cy=\"\(r(y(point.1)))\" r=\"3.5\" fill=\"\(color)\"><title>\(escape(item.label)) size \(point.0): \(format(point.1))</title></circle>\n"
                if !item.isReference {
                    out += "<text x=\"\(r(x(point.0)))\" y=\"\(r(y(point.1) - 8))\" text-anchor=\"middle\" font-size=\"10\" fill=\"\(color)\">\(format(point.1))</text>\n"
                }
            }
            let legendY = topY + 4 + Double(index) * 16
            out += "<line x1=\"\(r(right - 150))\" y1=\"\(r(legendY))\" x2=\"\(r(right - 128))\" y2=\"\(r(legendY))\" stroke=\"\(color)\" stroke-width=\"2\"\(dash)/>\n"
            out += "<text x=\"\(r(right - 124))\" y=\"\(r(legendY + 4))\" font-size=\"11\">\(escape(item.label))</text>\n"
        }
        out += "</g>\n"
        return out
    }

    private static func decimalLog(_ value: Double) -> Double { log10(value) }

    private static func floor10(_ value: Double) -> Int { Int(decimalLog(value).rounded(.down)) }
    private static func ceil10(_ value: Double) -> Int { Int((decimalLog(value) - 1e-9).rounded(.up)) }

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
