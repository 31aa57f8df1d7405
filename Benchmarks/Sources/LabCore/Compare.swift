import Foundation

/// Exit codes shared by the lab executable and its scripts.
public enum ExitCode: Int32, Sendable {
    /// Success; for compare: no difference beyond tolerances.
    case success = 0
    /// A run failed (calibration, jemalloc inactive, output not writable).
    case failure = 1
    /// Compare found at least one regression.
    case regression = 2
    /// A results file (current or baseline) is missing or malformed.
    case badInput = 3
    /// Compare found improvements only: update the baseline (ratchet).
    case improvement = 4
    /// The command line could not be understood.
    case usage = 64
}

/// Options of a comparison.
public struct CompareOptions: Sendable, Equatable {
    /// Relative tolerance on normalised time (0.5 = ±50 %, symmetric in log space).
    public var timeTolerance: Double
    /// When true, time differences are printed but never decide the exit code.
    public var timeAdvisory: Bool
    /// A sized scenario whose growth in time (min ns/op at the largest size ÷ at the smallest, used
    /// when it has no instruction counts at two sizes) exceeds the baseline's growth (at least 1)
    /// by more than this factor is a regression, when time gates. 0 disables every growth check.
    public var scalingFactor: Double
    /// A sized scenario whose growth in instructions (per op at the largest counted size ÷ at the
    /// smallest) rose by more than this fraction over the baseline's (at least 1), plus twice the
    /// instruction tolerance of its records (both ends move), is a regression: deterministic
    /// counts, so an O(n log n) pass where the baseline is O(n) shows (a log factor of 1.33 from
    /// 1,000 to 10,000 and 1.67 to 100,000).
    public var instructionGrowthTolerance: Double
    /// Absolute tolerance on allocations per operation (0 = exact).
    public var allocationTolerance: Double
    /// Absolute tolerance on bytes allocated per operation (0 = exact, to half a byte).
    public var bytesTolerance: Double
    /// Relative tolerance on instructions per operation (0.02 = ±2 %), two-sided.
    public var instructionTolerance: Double
    /// Absolute tolerance on the stack high-water, in bytes, two-sided.
    public var stackTolerance: Int
    /// Restricts the comparison to matching records; defaults to the current file's filter.
    public var filter: String?

    /// Creates options; the defaults are those of the CLI.
    public init(
        timeTolerance: Double = 0.5, timeAdvisory: Bool = false, scalingFactor: Double = 4,
        instructionGrowthTolerance: Double = CompareOptions.defaultInstructionGrowthTolerance, allocationTolerance: Double = 0,
        bytesTolerance: Double = 0, instructionTolerance: Double = CompareOptions.defaultInstructionTolerance,
        stackTolerance: Int = CompareOptions.defaultStackTolerance, filter: String? = nil
    ) {
        self.timeTolerance = timeTolerance
        self.timeAdvisory = timeAdvisory
        self.scalingFactor = scalingFactor
        self.instructionGrowthTolerance = instructionGrowthTolerance
        self.allocationTolerance = allocationTolerance
        self.bytesTolerance = bytesTolerance
        self.instructionTolerance = instructionTolerance
        self.stackTolerance = stackTolerance
        self.filter = filter
    }

    /// Default relative tolerance on instructions per operation: ±2 %.
    public static let defaultInstructionTolerance = 0.02
    /// The instruction tolerance of a filtered run against a whole-suite baseline: ±5 %.
    public static let filteredInstructionTolerance = 0.05
    /// Default tolerance on the rise of a sized scenario's instruction growth: 15 %.
    public static let defaultInstructionGrowthTolerance = 0.15
    /// Default tolerance on the stack high-water: ±256 bytes.
    public static let defaultStackTolerance = 256
}

/// The outcome of one comparison.
public struct CompareReport: Sendable, Equatable {
    /// One line of the report.
    public enum Kind: String, Sendable, Equatable {
        /// Worse than the baseline: decides exit 2.
        case regression
        /// Better than the baseline: exit 4 when there is no regression.
        case improvement
        /// Printed only (time in advisory mode, bytes, stack, new records).
        case note
        /// Metadata differences and skipped checks.
        case warning
    }

    /// A finding about one record (or the whole file).
    public struct Finding: Sendable, Equatable {
        /// Severity.
        public var kind: Kind
        /// Record key, or nil for file-level findings.
        public var key: String?
        /// Explanation.
        public var message: String
    }

    /// All findings, in order.
    public var findings: [Finding]
    /// Records compared.
    public var compared: Int
    /// The process exit code this report maps to.
    public var exitCode: ExitCode

    /// Findings of `kind`.
    public func findings(_ kind: Kind) -> [Finding] { findings.filter { $0.kind == kind } }

    /// Human-readable text of the report.
    public var text: String {
        var lines: [String] = []
        for kind in [Kind.warning, .regression, .improvement, .note] {
            let items = findings(kind)
            guard !items.isEmpty else { continue }
            lines.append("\(kind.rawValue.uppercased())S (\(items.count)):")
            for item in items {
                lines.append("  " + (item.key.map { "\($0): " } ?? "") + item.message)
            }
        }
        let verdict: String
        switch exitCode {
        case .regression: verdict = "REGRESSION (exit 2)"
        case .improvement: verdict = "IMPROVEMENT ONLY (exit 4): update the baseline, e.g. cp Results/latest.json Results/baseline.json"
        default: verdict = "OK (exit 0): no difference beyond tolerances"
        }
        lines.append("compared \(compared) records — \(verdict)")
        return lines.joined(separator: "\n")
    }
}

/// The prefixes of a `--filter`: comma-separated, blanks trimmed, empty items dropped.
public func filterPrefixes(_ filter: String?) -> [String] {
    guard let filter else { return [] }
    return filter.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
}

/// Whether `key` is selected by a `--filter`: a comma-separated list of prefixes, each matched
/// against `name` and `name/size` (`store.` selects every store scenario, `lift.collection.byId/100`
/// one size of one). No filter selects everything.
public func matchesFilter(_ key: RecordKey, _ filter: String?) -> Bool {
    let prefixes = filterPrefixes(filter)
    guard !prefixes.isEmpty else { return true }
    let description = key.description
    return prefixes.contains { key.name.hasPrefix($0) || description.hasPrefix($0) }
}

/// The record every time is normalised by (median ns/op of the naive store).
public let normalizingBenchmark = "naive.dispatch"

/// The instruction ratio of two records of `file` (`numerator`'s count over `denominator`'s), when
/// both were counted.
public func instructionRatio(_ file: ResultsFile, _ numerator: RecordKey, _ denominator: RecordKey) -> Double? {
    guard let top = file.benchmarks.first(where: { $0.key == numerator })?.instructionsPerOp,
        let bottom = file.benchmarks.first(where: { $0.key == denominator })?.instructionsPerOp, bottom > 0
    else { return nil }
    return top / bottom
}

/// A relative change as a signed percentage, e.g. `+10.2 %` or `−0.4 %`.
public func signedPercent(_ fraction: Double) -> String {
    let percent = fraction * 100
    return (percent < 0 ? "−" : "+") + fixed(abs(percent), digits: abs(percent) >= 10 ? 1 : 2) + " %"
}

/// Compact number formatting for reports and tables.
public func format(_ value: Double) -> String {
    if value == 0 { return "0" }
    if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
    let magnitude = abs(value)
    let digits = magnitude >= 100 ? 1 : magnitude >= 1 ? 2 : magnitude >= 0.01 ? 3 : 5
    return fixed(value, digits: digits)
}

/// `value` with exactly `digits` decimals (no Foundation formatting).
public func fixed(_ value: Double, digits: Int) -> String {
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let scaled = (abs(value) * scale).rounded()
    let integer = Int(scaled / scale)
    var fraction = String(Int(scaled - Double(integer) * scale))
    while fraction.count < digits { fraction = "0" + fraction }
    let sign = value < 0 && scaled != 0 ? "-" : ""
    return digits == 0 ? "\(sign)\(integer)" : "\(sign)\(integer).\(fraction)"
}

/// The `compare` command without process I/O: loads both files, compares them and
/// returns the text to print and the exit code (3 with a clear message when a
/// file is missing or malformed).
public func runCompare(currentPath: String, baselinePath: String, options: CompareOptions) -> (output: String, exitCode: ExitCode) {
    let current: ResultsFile
    let baseline: ResultsFile
    do {
        current = try ResultsIO.load(path: currentPath, role: "current")
        baseline = try ResultsIO.load(path: baselinePath, role: "baseline")
    } catch {
        return ("error: \(error)", .badInput)
    }
    let report = compareResults(current: current, baseline: baseline, options: options)
    let header =
        "compare \(currentPath) (\(current.metadata.gitRevision.prefix(12)), \(current.metadata.mode)) against \(baselinePath) (\(baseline.metadata.gitRevision.prefix(12)), \(baseline.metadata.mode))\(options.timeAdvisory ? " — time advisory" : "")\n"
        + "gates: allocations ±\(format(options.allocationTolerance))/op, bytes ±\(format(max(options.bytesTolerance, 0.5)))/op, instructions ±\(format(options.instructionTolerance * 100)) %, instruction growth +\(format(options.instructionGrowthTolerance * 100)) %, ratio targets in instructions, stack ±\(options.stackTolerance) B, time \(options.timeAdvisory ? "advisory (paired time ratios and time growth too)" : "±\(format(options.timeTolerance * 100)) %, time growth ×\(format(options.scalingFactor))")"
    return (header + "\n" + report.text, report.exitCode)
}
