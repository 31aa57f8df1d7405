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
    var comparison = Comparison(current: current, baseline: baseline, options: options)
    comparison.warnAboutMetadata()
    comparison.warnAboutTimeNormalizer()
    comparison.warnAboutInstructionCounts()
    comparison.compareRecords()
    comparison.noteNewRecords()
    if options.scalingFactor > 0 { comparison.compareScaling() }
    if comparison.countedInstructions { comparison.compareRatioTargets() }
    comparison.comparePairedRatios()
    return comparison.report
}

/// One comparison under way: the two files, what is derived from them once (records by key, the
/// time normalisers, the instruction tolerance), and the findings so far, which each gate adds to
/// in the order the report prints them.
private struct Comparison {
    let current: ResultsFile
    let baseline: ResultsFile
    let options: CompareOptions
    /// The records compared: the options' filter, else the current file's.
    let filter: String?
    let currentByKey: [RecordKey: BenchmarkRecord]
    let baselineByKey: [RecordKey: BenchmarkRecord]
    /// Each file's `naive.dispatch` median, which its times are divided by.
    let currentNorm: Double?
    let baselineNorm: Double?
    /// Whether the current run counted instructions at all.
    let countedInstructions: Bool
    /// The relative instruction tolerance in force (widened for a filtered run).
    var instructionTolerance: Double
    var findings: [CompareReport.Finding] = []
    /// Baseline records found in the current file.
    var compared = 0

    init(current: ResultsFile, baseline: ResultsFile, options: CompareOptions) {
        self.current = current
        self.baseline = baseline
        self.options = options
        filter = options.filter ?? current.metadata.filter
        currentByKey = Dictionary(current.benchmarks.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        baselineByKey = Dictionary(baseline.benchmarks.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        currentNorm = current.record(normalizingBenchmark)?.nsPerOp.median
        baselineNorm = baseline.record(normalizingBenchmark)?.nsPerOp.median
        countedInstructions = current.metadata.instructionCounter != nil
        instructionTolerance = options.instructionTolerance
    }

    /// Whether both files have a positive normaliser, so times can be compared.
    var canCompareTime: Bool { (currentNorm ?? 0) > 0 && (baselineNorm ?? 0) > 0 }
    /// What a slower time is: a regression, or only a note when time is advisory.
    var timeKind: CompareReport.Kind { options.timeAdvisory ? .note : .regression }
    /// What a faster time is: an improvement, or only a note when time is advisory.
    var timeGainKind: CompareReport.Kind { options.timeAdvisory ? .note : .improvement }
    /// The suffix of a time finding's message in advisory mode.
    var advisory: String { options.timeAdvisory ? " (advisory)" : "" }

    /// The report of the findings: exit 2 on any regression, else 4 on any improvement, else 0.
    var report: CompareReport {
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

    /// Records a finding about `key` (nil: about the whole file).
    mutating func add(_ kind: CompareReport.Kind, _ key: RecordKey?, _ message: String) {
        findings.append(.init(kind: kind, key: key?.description, message: message))
    }

    /// Machine metadata: differences warn only, since times may not be comparable.
    mutating func warnAboutMetadata() {
        let a = current.metadata
        let b = baseline.metadata
        var differences: [String] = []
        if a.cores != b.cores { differences.append("cores \(b.cores) → \(a.cores)") }
        if a.memoryBytes / (1 << 30) != b.memoryBytes / (1 << 30) {
            differences.append("memory \(b.memoryBytes >> 30) GiB → \(a.memoryBytes >> 30) GiB")
        }
        if a.cpu != b.cpu { differences.append("cpu '\(b.cpu ?? "?")' → '\(a.cpu ?? "?")'") }
        if a.kernel != b.kernel { differences.append("kernel '\(b.kernel)' → '\(a.kernel)'") }
        if a.toolchain != b.toolchain { differences.append("toolchain '\(b.toolchain)' → '\(a.toolchain)'") }
        if a.host != b.host { differences.append("host '\(b.host)' → '\(a.host)'") }
        if !differences.isEmpty {
            add(.warning, nil, "machine metadata differs (\(differences.joined(separator: "; "))); times may not be comparable")
        }
    }

    /// Warns when a file lacks the normaliser, so no time ratio is compared.
    mutating func warnAboutTimeNormalizer() {
        guard !canCompareTime else { return }
        add(
            .warning, nil,
            "'\(normalizingBenchmark)' missing or zero in \(currentNorm == nil ? "current" : "baseline") file: time ratios not compared")
    }

    /// Settles the instruction tolerance and warns when the counts cannot be compared as usual.
    mutating func warnAboutInstructionCounts() {
        // A filtered run counts its scenarios after a different sequence of earlier ones than the
        // whole suite did, and the counts of scenarios that allocate or look up runtime caches move
        // with that history (by up to ~4 % here): the tolerance widens for it.
        if countedInstructions, current.metadata.filter != nil, baseline.metadata.filter == nil,
            options.instructionTolerance < CompareOptions.filteredInstructionTolerance,
            baseline.benchmarks.contains(where: { $0.instructionsPerOp != nil })
        {
            instructionTolerance = CompareOptions.filteredInstructionTolerance
            add(
                .warning, nil,
                "filtered run: instruction counts depend on the scenarios run before them; tolerance widened to ±\(format(instructionTolerance * 100)) %"
            )
        }
        if !countedInstructions && baseline.benchmarks.contains(where: { $0.instructionsPerOp != nil && matchesFilter($0.key, filter) }) {
            add(.warning, nil, "the current run did not count instructions (--no-instructions): instructions not compared")
        }
        if countedInstructions, let counter = baseline.metadata.instructionCounter, counter != current.metadata.instructionCounter {
            add(
                .warning, nil,
                "instruction counter differs ('\(counter)' → '\(current.metadata.instructionCounter ?? "none")'): counts may not be comparable")
        }
    }

    /// Every selected baseline record against the current file's: missing is a regression, else
    /// each figure goes through its gate.
    mutating func compareRecords() {
        for key in baselineByKey.keys.sorted() where matchesFilter(key, filter) {
            let base = baselineByKey[key]!
            guard let cur = currentByKey[key] else {
                add(.regression, key, "missing from the current results (present in the baseline)")
                continue
            }
            compared += 1
            compareAllocations(key, base, cur)
            compareInstructions(key, base, cur)
            compareStack(key, base, cur)
            compareTime(key, base, cur)
        }
    }

    /// Allocations and bytes per op: exact (within their tolerances), two-sided. Every scenario's
    /// count repeats: asynchronous ones are counted with every job on the main thread.
    mutating func compareAllocations(_ key: RecordKey, _ base: BenchmarkRecord, _ cur: BenchmarkRecord) {
        let allocDelta = cur.allocsPerOp - base.allocsPerOp
        let allocSlack = options.allocationTolerance + 1e-9
        if allocDelta > allocSlack {
            add(.regression, key, "allocations/op rose \(format(base.allocsPerOp)) → \(format(cur.allocsPerOp))")
        } else if allocDelta < -allocSlack {
            add(.improvement, key, "allocations/op fell \(format(base.allocsPerOp)) → \(format(cur.allocsPerOp)) (update the baseline)")
        }
        // Bytes: to half a byte per op, or the tolerance.
        let bytesDelta = cur.bytesPerOp - base.bytesPerOp
        let bytesSlack = max(options.bytesTolerance, 0.5)
        if bytesDelta > bytesSlack {
            add(.regression, key, "bytes/op rose \(format(base.bytesPerOp)) → \(format(cur.bytesPerOp))")
        } else if bytesDelta < -bytesSlack {
            add(.improvement, key, "bytes/op fell \(format(base.bytesPerOp)) → \(format(cur.bytesPerOp)) (update the baseline)")
        }
    }

    /// Instructions per op: deterministic counts, two-sided within a relative tolerance (the
    /// record's own when wider); a baseline count the current run lacks is a regression.
    mutating func compareInstructions(_ key: RecordKey, _ base: BenchmarkRecord, _ cur: BenchmarkRecord) {
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
    }

    /// Stack high-water: two-sided within an absolute tolerance, widened to 0.5 % of a large
    /// figure (a high-water of hundreds of KiB moves by a few hundred bytes between runs).
    mutating func compareStack(_ key: RecordKey, _ base: BenchmarkRecord, _ cur: BenchmarkRecord) {
        guard let s0 = base.stackBytes else { return }
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

    /// Time: each median over its own file's `naive.dispatch`, the two ratios compared within the
    /// time tolerance.
    mutating func compareTime(_ key: RecordKey, _ base: BenchmarkRecord, _ cur: BenchmarkRecord) {
        guard canCompareTime, let cn = currentNorm, let bn = baselineNorm, key.name != normalizingBenchmark else { return }
        let baseRatio = base.nsPerOp.median / bn
        let curRatio = cur.nsPerOp.median / cn
        guard baseRatio > 0, curRatio > 0 else { return }
        let relative = curRatio / baseRatio
        let detail =
            "time ratio to \(normalizingBenchmark) \(format(baseRatio)) → \(format(curRatio)) (×\(format(relative)); \(format(base.nsPerOp.median)) → \(format(cur.nsPerOp.median)) ns/op)"
        if relative > 1 + options.timeTolerance {
            add(timeKind, key, "slower: " + detail + advisory)
        } else if relative < 1 / (1 + options.timeTolerance) {
            add(timeGainKind, key, "faster: " + detail + advisory)
        }
    }

    /// Notes each selected record only the current file holds.
    mutating func noteNewRecords() {
        for key in currentByKey.keys.sorted() where baselineByKey[key] == nil && matchesFilter(key, filter) {
            add(.note, key, "new record (not in the baseline)")
        }
    }

    /// Scaling, for each sized scenario: from instruction counts when both files counted it at
    /// two common sizes (deterministic, so it gates in every mode), else from time: the growth of
    /// the fastest sample (min ns/op, the figure least disturbed by load) between the smallest and
    /// largest common size, which gates only when time does. A baseline growth below 1 is treated
    /// as 1 (flat), so noise in the baseline cannot lower the bar.
    mutating func compareScaling() {
        let names = Set(baseline.benchmarks.filter { $0.size != nil }.map(\.name))
        for name in names.sorted() {
            let baseSized = baseline.benchmarks.filter { $0.name == name && $0.size != nil && matchesFilter($0.key, filter) }
            if let counted = growth(of: name, among: baseSized, { $0.instructionsPerOp }) {
                let ownTolerance = baseSized.compactMap(\.instructionTolerance).max() ?? 0
                let allowed = max(counted.base, 1) * (1 + options.instructionGrowthTolerance + 2 * max(instructionTolerance, ownTolerance))
                if counted.current > allowed {
                    add(
                        .regression, RecordKey(name: name, size: nil),
                        "instruction growth from size \(counted.small) to \(counted.large) rose ×\(format(counted.base)) → ×\(format(counted.current)) (over ×\(format(allowed)): complexity changed?)"
                    )
                }
            } else if let timed = growth(of: name, among: baseSized, { $0.nsPerOp.min }) {
                if timed.current > max(timed.base, 1) * options.scalingFactor {
                    add(
                        timeKind, RecordKey(name: name, size: nil),
                        "cost growth from size \(timed.small) to \(timed.large) (min ns/op) rose ×\(format(timed.base)) → ×\(format(timed.current)) (complexity changed?)\(advisory)"
                    )
                }
            }
        }
    }

    /// Scenario `name`'s growth in `value` (largest ÷ smallest size both files hold it at) in each
    /// file, when there are two such sizes and the smallest figures are positive.
    func growth(
        of name: String, among baseSized: [BenchmarkRecord], _ value: (BenchmarkRecord) -> Double?
    ) -> (small: Int, large: Int, base: Double, current: Double)? {
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

    /// Ratio targets in instructions: every paired ratio with a limit (the current file's and the
    /// baseline's) is also read from the two records' instruction counts, which repeat, and the
    /// limit applies to that form too. A target the baseline meets and this run misses is a
    /// regression; one the baseline misses too is a warning on every run (it stays visible, and it
    /// is what stands between the code and its target); one this run meets and the baseline
    /// missed is an improvement (re-record the baseline). A record whose count does not repeat
    /// exactly (it declares its own instruction tolerance: it follows the heap's history) may read
    /// that much off, so the limit allows that much more; counts that repeat get no slack.
    mutating func compareRatioTargets() {
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
            let slack = [target.numerator, target.denominator].map { ownInstructionTolerance(of: $0) }.max() ?? 0
            let limit = target.limit * (1 + slack)
            let allowance = slack > 0 ? ", +\(format(slack * 100)) % for a count that follows the heap's history" : ""
            let detail =
                "instruction ratio \(format(now))× (limit \(format(target.limit))×\(allowance); the baseline's \(before.map { "\(format($0))×" } ?? "not counted"))"
            if now > limit {
                if let before, before <= limit {
                    add(.regression, key, "\(detail): target missed")
                } else {
                    add(.warning, key, "\(detail): target missed, as in the baseline")
                }
            } else if let before, before > limit {
                add(.improvement, key, "\(detail): target now met (update the baseline)")
            }
        }
    }

    /// The instruction tolerance `key`'s record declares in this run (0 when its count repeats).
    func ownInstructionTolerance(of key: RecordKey) -> Double {
        current.record(key.name, size: key.size)?.instructionTolerance ?? 0
    }

    /// Paired ratios: timed like everything else, so they gate only when time does. A ratio over
    /// its limit in the current run is reported whatever the baseline says.
    mutating func comparePairedRatios() {
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
    }
}
