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

/// Compares `current` against `baseline`. Pure: no I/O.
///
/// - Allocations per op are exact and two-sided: a rise is a regression, a fall
///   an improvement (the baseline must be updated). So are bytes per op.
/// - Instructions per op (deterministic, from callgrind) are two-sided within
///   `instructionTolerance`; a baseline figure the current run lacks is a regression,
///   unless the current run did not count instructions at all (a warning).
/// - Stack high-water is two-sided within `stackTolerance` bytes, or 0.5 % of the baseline's
///   figure when that is larger.
/// - Time: each median is divided by the same file's `naive.dispatch` median and
///   the ratios are compared with `timeTolerance`; advisory mode only prints.
/// - Scaling: sized scenarios whose large/small growth rose by more than
///   `scalingFactor` are regressions (O(1) → O(n)): from instruction counts where both files
///   have them at two sizes, else from time (advisory when time is).
/// - A baseline record missing from the current file is a regression (unless
///   filtered out); a record only in the current file is a note.
public func compareResults(current: ResultsFile, baseline: ResultsFile, options: CompareOptions = CompareOptions()) -> CompareReport {
    var findings: [CompareReport.Finding] = []
    func add(_ kind: CompareReport.Kind, _ key: RecordKey?, _ message: String) {
        findings.append(.init(kind: kind, key: key?.description, message: message))
    }
    let filter = options.filter ?? current.metadata.filter

    // Metadata: warn only.
    let a = current.metadata
    let b = baseline.metadata
    var differences: [String] = []
    if a.cores != b.cores { differences.append("cores \(b.cores) → \(a.cores)") }
    if a.memoryBytes / (1 << 30) != b.memoryBytes / (1 << 30) { differences.append("memory \(b.memoryBytes >> 30) GiB → \(a.memoryBytes >> 30) GiB") }
    if a.cpu != b.cpu { differences.append("cpu '\(b.cpu ?? "?")' → '\(a.cpu ?? "?")'") }
    if a.kernel != b.kernel { differences.append("kernel '\(b.kernel)' → '\(a.kernel)'") }
    if a.toolchain != b.toolchain { differences.append("toolchain '\(b.toolchain)' → '\(a.toolchain)'") }
    if a.host != b.host { differences.append("host '\(b.host)' → '\(a.host)'") }
    if !differences.isEmpty {
        add(.warning, nil, "machine metadata differs (\(differences.joined(separator: "; "))); times may not be comparable")
    }

    let currentByKey = Dictionary(current.benchmarks.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
    let baselineByKey = Dictionary(baseline.benchmarks.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })

    let currentNorm = current.record(normalizingBenchmark)?.nsPerOp.median
    let baselineNorm = baseline.record(normalizingBenchmark)?.nsPerOp.median
    let canCompareTime = (currentNorm ?? 0) > 0 && (baselineNorm ?? 0) > 0
    if !canCompareTime {
        add(
            .warning, nil,
            "'\(normalizingBenchmark)' missing or zero in \(currentNorm == nil ? "current" : "baseline") file: time ratios not compared")
    }
    let countedInstructions = current.metadata.instructionCounter != nil
    // A filtered run counts its scenarios after a different sequence of earlier ones than the
    // whole suite did, and the counts of scenarios that allocate or look up runtime caches move
    // with that history (by up to ~4 % here): the tolerance widens for it.
    var instructionTolerance = options.instructionTolerance
    if countedInstructions, current.metadata.filter != nil, baseline.metadata.filter == nil,
        options.instructionTolerance < CompareOptions.filteredInstructionTolerance,
        baseline.benchmarks.contains(where: { $0.instructionsPerOp != nil })
    {
        instructionTolerance = CompareOptions.filteredInstructionTolerance
        add(
            .warning, nil,
            "filtered run: instruction counts depend on the scenarios run before them; tolerance widened to ±\(format(instructionTolerance * 100)) %")
    }
    if !countedInstructions && baseline.benchmarks.contains(where: { $0.instructionsPerOp != nil && matchesFilter($0.key, filter) }) {
        add(.warning, nil, "the current run did not count instructions (--no-instructions): instructions not compared")
    }
    if countedInstructions, let counter = b.instructionCounter, counter != a.instructionCounter {
        add(.warning, nil, "instruction counter differs ('\(counter)' → '\(a.instructionCounter ?? "none")'): counts may not be comparable")
    }
    let timeKind: CompareReport.Kind = options.timeAdvisory ? .note : .regression
    let timeGainKind: CompareReport.Kind = options.timeAdvisory ? .note : .improvement
    let advisory = options.timeAdvisory ? " (advisory)" : ""

    var compared = 0
    for key in baselineByKey.keys.sorted() where matchesFilter(key, filter) {
        let base = baselineByKey[key]!
        guard let cur = currentByKey[key] else {
            add(.regression, key, "missing from the current results (present in the baseline)")
            continue
        }
        compared += 1

        // Allocations: exact, two-sided (every scenario's count repeats: asynchronous ones are
        // counted with every job on the main thread).
        let allocDelta = cur.allocsPerOp - base.allocsPerOp
        let allocSlack = options.allocationTolerance + 1e-9
        if allocDelta > allocSlack {
            add(.regression, key, "allocations/op rose \(format(base.allocsPerOp)) → \(format(cur.allocsPerOp))")
        } else if allocDelta < -allocSlack {
            add(.improvement, key, "allocations/op fell \(format(base.allocsPerOp)) → \(format(cur.allocsPerOp)) (update the baseline)")
        }
        // Bytes: exact (to half a byte per op, or the tolerance), two-sided.
        let bytesDelta = cur.bytesPerOp - base.bytesPerOp
        let bytesSlack = max(options.bytesTolerance, 0.5)
        if bytesDelta > bytesSlack {
            add(.regression, key, "bytes/op rose \(format(base.bytesPerOp)) → \(format(cur.bytesPerOp))")
        } else if bytesDelta < -bytesSlack {
            add(.improvement, key, "bytes/op fell \(format(base.bytesPerOp)) → \(format(cur.bytesPerOp)) (update the baseline)")
        }

        // Instructions: deterministic counts, two-sided within a relative tolerance.
        if let i0 = base.instructionsPerOp, countedInstructions {
            if let i1 = cur.instructionsPerOp {
                let slack = max(i0 * max(instructionTolerance, base.instructionTolerance ?? 0), 0.5)
                let change = i0 > 0 ? " (\(signedPercent(i1 / i0 - 1)))" : ""
                if i1 - i0 > slack {
                    add(.regression, key, "instructions/op rose \(format(i0)) → \(format(i1))\(change)")
                } else if i0 - i1 > slack {
                    add(.improvement, key, "instructions/op fell \(format(i0)) → \(format(i1))\(change) (update the baseline)")
                }
            } else {
                add(.regression, key, "instructions/op not measured (the baseline has \(format(i0)))")
            }
        } else if base.instructionsPerOp == nil, let i1 = cur.instructionsPerOp {
            add(.note, key, "instructions/op \(format(i1)) (not in the baseline)")
        }

        // Stack high-water: two-sided within an absolute tolerance, widened to 0.5 % of a large
        // figure (a high-water of hundreds of KiB moves by a few hundred bytes between runs).
        if let s0 = base.stackBytes {
            let stackSlack = max(options.stackTolerance, s0 / 200)
            if let s1 = cur.stackBytes {
                if s1 - s0 > stackSlack {
                    add(.regression, key, "stack high-water rose \(s0) → \(s1) bytes (+\(s1 - s0))")
                } else if s0 - s1 > stackSlack {
                    add(.improvement, key, "stack high-water fell \(s0) → \(s1) bytes (−\(s0 - s1)) (update the baseline)")
                }
            } else {
                add(.regression, key, "stack high-water not measured (the baseline has \(s0) bytes)")
            }
        }

        // Time: ratios to the same file's naive.dispatch.
        if canCompareTime, let cn = currentNorm, let bn = baselineNorm, key.name != normalizingBenchmark {
            let baseRatio = base.nsPerOp.median / bn
            let curRatio = cur.nsPerOp.median / cn
            if baseRatio > 0, curRatio > 0 {
                let relative = curRatio / baseRatio
                let detail =
                    "time ratio to \(normalizingBenchmark) \(format(baseRatio)) → \(format(curRatio)) (×\(format(relative)); \(format(base.nsPerOp.median)) → \(format(cur.nsPerOp.median)) ns/op)"
                if relative > 1 + options.timeTolerance {
                    add(timeKind, key, "slower: " + detail + advisory)
                } else if relative < 1 / (1 + options.timeTolerance) {
                    add(timeGainKind, key, "faster: " + detail + advisory)
                }
            }
        }
    }
    for key in currentByKey.keys.sorted() where baselineByKey[key] == nil && matchesFilter(key, filter) {
        add(.note, key, "new record (not in the baseline)")
    }

    // Scaling, for each sized scenario: from instruction counts when both files counted it at
    // two common sizes (deterministic, so it gates in every mode), else from time: the growth of
    // the fastest sample (min ns/op, the figure least disturbed by load) between the smallest and
    // largest common size, which gates only when time does. A baseline growth below 1 is treated
    // as 1 (flat), so noise in the baseline cannot lower the bar.
    if options.scalingFactor > 0 {
        let names = Set(baseline.benchmarks.filter { $0.size != nil }.map(\.name))
        for name in names.sorted() {
            let baseSized = baseline.benchmarks.filter { $0.name == name && $0.size != nil && matchesFilter($0.key, filter) }
            func growth(_ value: (BenchmarkRecord) -> Double?) -> (small: Int, large: Int, base: Double, current: Double)? {
                let common = baseSized.filter { value($0) != nil }.compactMap(\.size).filter { size in
                    currentByKey[RecordKey(name: name, size: size)].flatMap(value) != nil
                }.sorted()
                guard let small = common.first, let large = common.last, small < large,
                    let b0 = baselineByKey[RecordKey(name: name, size: small)].flatMap(value),
                    let b1 = baselineByKey[RecordKey(name: name, size: large)].flatMap(value),
                    let c0 = currentByKey[RecordKey(name: name, size: small)].flatMap(value),
                    let c1 = currentByKey[RecordKey(name: name, size: large)].flatMap(value),
                    b0 > 0, c0 > 0
                else { return nil }
                return (small, large, b1 / b0, c1 / c0)
            }
            if let counted = growth({ $0.instructionsPerOp }) {
                let ownTolerance = baseSized.compactMap(\.instructionTolerance).max() ?? 0
                let allowed = max(counted.base, 1) * (1 + options.instructionGrowthTolerance + 2 * max(instructionTolerance, ownTolerance))
                if counted.current > allowed {
                    add(
                        .regression, RecordKey(name: name, size: nil),
                        "instruction growth from size \(counted.small) to \(counted.large) rose ×\(format(counted.base)) → ×\(format(counted.current)) (over ×\(format(allowed)): complexity changed?)"
                    )
                }
            } else if let timed = growth({ $0.nsPerOp.min }) {
                if timed.current > max(timed.base, 1) * options.scalingFactor {
                    add(
                        timeKind, RecordKey(name: name, size: nil),
                        "cost growth from size \(timed.small) to \(timed.large) (min ns/op) rose ×\(format(timed.base)) → ×\(format(timed.current)) (complexity changed?)\(advisory)"
                    )
                }
            }
        }
    }

    // Ratio targets in instructions: every paired ratio with a limit (the current file's and the
    // baseline's) is also read from the two records' instruction counts, which repeat, and the
    // limit applies to that form too. A target the baseline meets and this run misses is a
    // regression; one the baseline misses too is a warning on every run (it stays visible, and it
    // is what stands between the code and its target); one this run meets and the baseline
    // missed is an improvement (re-record the baseline).
    if countedInstructions {
        var targets: [(label: String, numerator: RecordKey, denominator: RecordKey, limit: Double)] = []
        for ratio in (current.ratios ?? []) + (baseline.ratios ?? []) {
            guard let limit = ratio.limit, !targets.contains(where: { $0.label == ratio.label }),
                let numerator = RecordKey(parsing: ratio.numerator), let denominator = RecordKey(parsing: ratio.denominator)
            else { continue }
            targets.append((ratio.label, numerator, denominator, limit))
        }
        for target in targets where matchesFilter(target.numerator, filter) && matchesFilter(target.denominator, filter) {
            guard let now = instructionRatio(current, target.numerator, target.denominator) else { continue }
            let before = instructionRatio(baseline, target.numerator, target.denominator)
            let key = RecordKey(name: target.label, size: nil)
            let detail =
                "instruction ratio \(format(now))× (limit \(format(target.limit))×; the baseline's \(before.map { "\(format($0))×" } ?? "not counted"))"
            if now > target.limit {
                if let before, before <= target.limit {
                    add(.regression, key, "\(detail): target missed")
                } else {
                    add(.warning, key, "\(detail): target missed, as in the baseline")
                }
            } else if let before, before > target.limit {
                add(.improvement, key, "\(detail): target now met (update the baseline)")
            }
        }
    }

    // Paired ratios: timed like everything else, so they gate only when time does. A ratio over
    // its limit in the current run is reported whatever the baseline says.
    let baselineRatios = Dictionary((baseline.ratios ?? []).map { ($0.label, $0) }, uniquingKeysWith: { first, _ in first })
    for ratio in current.ratios ?? [] {
        let key = RecordKey(name: ratio.label, size: nil)
        if let limit = ratio.limit, !ratio.meetsLimit {
            add(timeKind, key, "paired time ratio \(format(ratio.ratio.median))× is over its limit \(format(limit))×\(advisory)")
        }
        guard let base = baselineRatios[ratio.label], base.ratio.median > 0 else { continue }
        let relative = ratio.ratio.median / base.ratio.median
        let detail = "paired ratio \(format(base.ratio.median))× → \(format(ratio.ratio.median))×"
        if relative > 1 + options.timeTolerance {
            add(timeKind, key, "slower: \(detail)\(advisory)")
        } else if relative < 1 / (1 + options.timeTolerance) {
            add(timeGainKind, key, "faster: \(detail)\(advisory)")
        }
    }

    let exit: ExitCode
    if findings.contains(where: { $0.kind == .regression }) {
        exit = .regression
    } else if findings.contains(where: { $0.kind == .improvement }) {
        exit = .improvement
    } else {
        exit = .success
    }
    return CompareReport(findings: findings, compared: compared, exitCode: exit)
}

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
