/// A time ratio the lab measures by interleaving two scenarios' samples: `numerator`'s time per
/// operation over `denominator`'s, with the limit a target sets on it, if any.
///
/// Each scenario's own samples run back to back, minutes apart from the other scenario's; on a
/// shared machine whose speed drifts 2–3× over minutes, the ratio of two such medians moves with
/// whatever else ran in between. A paired ratio times one sample of each in turn, so both see the
/// same machine, and keeps the median of the per-round ratios.
public struct PairedRatio: Sendable, Equatable {
    /// The scenario (and size) on top.
    public var numerator: RecordKey
    /// The scenario (and size) it is divided by.
    public var denominator: RecordKey
    /// The largest median ratio a target allows; nil when the ratio is only recorded.
    public var limit: Double?

    /// Declares a paired ratio.
    public init(_ numerator: RecordKey, over denominator: RecordKey, limit: Double? = nil) {
        self.numerator = numerator
        self.denominator = denominator
        self.limit = limit
    }

    /// Declares a paired ratio of unsized scenarios.
    public init(_ numerator: String, over denominator: String, limit: Double? = nil) {
        self.init(RecordKey(name: numerator, size: nil), over: RecordKey(name: denominator, size: nil), limit: limit)
    }

    /// `numerator / denominator`, the ratio's name in reports and results.
    public var label: String { "\(numerator) / \(denominator)" }
}

/// A measured paired ratio, as stored in `Results/*.json`.
public struct RatioRecord: Codable, Equatable, Sendable {
    /// The numerator's record key (`name` or `name/size`).
    public var numerator: String
    /// The denominator's record key.
    public var denominator: String
    /// The limit a target sets, if any.
    public var limit: Double?
    /// The per-round ratios' order statistics.
    public var ratio: Summary
    /// How many rounds (one sample of each scenario) were timed.
    public var rounds: Int
    /// Iterations per sample of the numerator and of the denominator.
    public var iterations: [Int]

    /// Creates a record.
    public init(numerator: String, denominator: String, limit: Double?, ratio: Summary, rounds: Int, iterations: [Int]) {
        self.numerator = numerator
        self.denominator = denominator
        self.limit = limit
        self.ratio = ratio
        self.rounds = rounds
        self.iterations = iterations
    }

    /// `numerator / denominator`.
    public var label: String { "\(numerator) / \(denominator)" }

    /// Whether the median ratio is within the limit (true when there is none).
    public var meetsLimit: Bool { limit.map { ratio.median <= $0 } ?? true }
}

extension Harness {
    /// Times `numerator` and `denominator` in alternation: each is first sized so one sample lasts
    /// about `targetNanoseconds` (``sampleSize(_:settle:target:minimumIterations:maxIterations:clock:)``,
    /// whose repeated scaling runs keep slow first calls from sizing the samples) and warmed up,
    /// then `rounds` rounds each time one sample of both, the order swapped every round so neither
    /// always runs first. Returns each round's ratio of time per operation and the two iteration
    /// counts.
    @MainActor
    public static func pairedRatios(
        _ numerator: @MainActor (Int) async -> Void, minimumIterations numeratorMinimum: Int = 1,
        over denominator: @MainActor (Int) async -> Void, minimumIterations denominatorMinimum: Int = 1,
        rounds: Int, targetNanoseconds: UInt64, clock: @MainActor () -> UInt64 = monotonicNanoseconds
    ) async -> (ratios: [Double], iterations: (numerator: Int, denominator: Int)) {
        func size(_ body: @MainActor (Int) async -> Void, from minimum: Int) async -> Int {
            await sampleSize(body, target: targetNanoseconds, minimumIterations: minimum, clock: clock).iterations
        }
        func perOperation(_ body: @MainActor (Int) async -> Void, _ iterations: Int) async -> Double {
            let start = clock()
            await body(iterations)
            return Double(clock() &- start) / Double(iterations)
        }
        let numeratorIterations = await size(numerator, from: numeratorMinimum)
        let denominatorIterations = await size(denominator, from: denominatorMinimum)
        await numerator(numeratorIterations)
        await denominator(denominatorIterations)
        var ratios: [Double] = []
        ratios.reserveCapacity(rounds)
        for round in 0..<max(1, rounds) {
            let top: Double
            let bottom: Double
            if round % 2 == 0 {
                top = await perOperation(numerator, numeratorIterations)
                bottom = await perOperation(denominator, denominatorIterations)
            } else {
                bottom = await perOperation(denominator, denominatorIterations)
                top = await perOperation(numerator, numeratorIterations)
            }
            ratios.append(top / max(bottom, .leastNonzeroMagnitude))
        }
        return (ratios, (numeratorIterations, denominatorIterations))
    }
}

extension Runner {
    /// Measures each paired ratio whose two scenarios are in `scenarios` and selected by `filter`
    /// (either side matching selects it), on fresh setups of both; logs one line per ratio.
    public func measureRatios(_ pairs: [PairedRatio], scenarios: [Scenario], filter: String?) async -> [RatioRecord] {
        func scenario(_ key: RecordKey) -> Scenario? {
            scenarios.first { $0.name == key.name && $0.keys.contains(key) }
        }
        var records: [RatioRecord] = []
        for pair in pairs where matchesFilter(pair.numerator, filter) || matchesFilter(pair.denominator, filter) {
            guard let top = scenario(pair.numerator), let bottom = scenario(pair.denominator) else {
                log("warning: ratio \(pair.label): no such scenario; skipped")
                continue
            }
            let start = monotonicNanoseconds()
            let topBody = top.setup(pair.numerator.size)
            let bottomBody = bottom.setup(pair.denominator.size)
            // A ratio times its two sides back to back: work one side leaves behind would run
            // inside the other's samples.
            guard topBody.settle == nil, bottomBody.settle == nil else {
                log("warning: ratio \(pair.label): a scenario that leaves work behind cannot be paired; skipped")
                continue
            }
            let measured = await Harness.pairedRatios(
                topBody.run, minimumIterations: top.minimumIterations,
                over: bottomBody.run, minimumIterations: bottom.minimumIterations,
                rounds: configuration.ratioRounds, targetNanoseconds: configuration.ratioSampleNanoseconds)
            let summary = Statistics.summarize(measured.ratios)!
            let record = RatioRecord(
                numerator: pair.numerator.description, denominator: pair.denominator.description, limit: pair.limit,
                ratio: summary, rounds: measured.ratios.count, iterations: [measured.iterations.numerator, measured.iterations.denominator])
            // Time limits are reported, never gating: the limit's instruction form is what compare
            // enforces.
            let verdict =
                pair.limit.map { record.meetsLimit ? " (time limit \(format($0)), advisory: met)" : " (time limit \(format($0)), advisory: missed)" }
                ?? ""
            let seconds = Double(monotonicNanoseconds() - start) / 1e9
            log(
                "ratio \(pair.label): \(format(summary.median))× [\(format(summary.min))–\(format(summary.max))]\(verdict) (\(fixed(seconds, digits: 1)) s)"
            )
            records.append(record)
        }
        return records
    }
}
