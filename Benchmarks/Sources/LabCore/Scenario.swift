/// The measured closure: runs the operation `iterations` times. Setup is done before.
/// Synchronous closures convert to it; asynchronous ones (effect round trips through the
/// main actor) await their work inside the measured region.
public typealias Measured = @MainActor (_ iterations: Int) async -> Void

/// What a scenario's setup returns: the measured closure plus optional extra figures.
public struct ScenarioBody {
    /// The measured closure.
    public var run: Measured
    /// Stack bytes between the call and the reducer body (stack probes).
    public var stackBytes: Int?

    /// Creates a body.
    public init(stackBytes: Int? = nil, run: @escaping Measured) {
        self.stackBytes = stackBytes
        self.run = run
    }
}

/// A named benchmark. The setup closure (excluded from measurement) builds state
/// and returns the measured closure; sized scenarios are set up once per size.
///
/// ```swift
/// Scenario(name: "store.dispatch", sizes: [100, 1_000, 10_000, 100_000]) { size in
///     let store = makeStore(size)
///     return { iterations in for _ in 0..<iterations { store.dispatch(.increment) } }
/// }
/// ```
public struct Scenario {
    /// Stable dotted name.
    public var name: String
    /// Sizes to run, or nil for an unsized scenario.
    public var sizes: [Int]?
    /// Always run, whatever the filter (the `raw.dispatch` / `naive.dispatch` baselines).
    public var isBaseline: Bool
    /// Overrides the fixed allocation-measurement iteration count (same in every mode).
    public var allocationIterations: Int?
    /// Allocations per operation that `compare` lets this scenario's records drift either way
    /// (0: exact). Only for work on other threads, whose count jitters with libdispatch's
    /// continuation caches; keep it below 1 so one more allocation per operation still fails.
    public var allocationTolerance: Double = 0
    /// The iteration count the timing harness starts scaling from (default 1). Scenarios whose
    /// every call pays a fixed latency (a hop onto a busy main actor can take milliseconds on a
    /// loaded machine) set it so that one slow first call cannot shrink their samples to a few
    /// iterations, where that latency would swamp the per-operation figure.
    public var minimumIterations: Int = 1
    /// Builds the measured body for a size (nil for unsized scenarios).
    public var setup: @MainActor (Int?) -> ScenarioBody

    /// A sized scenario whose setup returns the measured closure.
    public init(name: String, sizes: [Int], allocationIterations: Int? = nil, setup: @escaping @MainActor (Int) -> Measured) {
        self.name = name
        self.sizes = sizes
        self.isBaseline = false
        self.allocationIterations = allocationIterations
        self.setup = { size in ScenarioBody(run: setup(size ?? sizes.first ?? 0)) }
    }

    /// An unsized scenario whose setup returns the measured closure.
    public init(name: String, isBaseline: Bool = false, allocationIterations: Int? = nil, allocationTolerance: Double = 0, minimumIterations: Int = 1, setup: @escaping @MainActor () -> Measured) {
        self.name = name
        self.sizes = nil
        self.isBaseline = isBaseline
        self.allocationIterations = allocationIterations
        self.allocationTolerance = allocationTolerance
        self.minimumIterations = minimumIterations
        self.setup = { _ in ScenarioBody(run: setup()) }
    }

    /// A scenario whose setup returns a full `ScenarioBody` (extras such as `stackBytes`).
    public init(name: String, sizes: [Int]? = nil, allocationIterations: Int? = nil, body: @escaping @MainActor (Int?) -> ScenarioBody) {
        self.name = name
        self.sizes = sizes
        self.isBaseline = false
        self.allocationIterations = allocationIterations
        self.setup = body
    }

    /// The record keys this scenario produces.
    public var keys: [RecordKey] {
        if let sizes { return sizes.map { RecordKey(name: name, size: $0) } }
        return [RecordKey(name: name, size: nil)]
    }
}

/// Runs scenarios and produces records.
@MainActor
public struct Runner {
    /// Timing configuration.
    public var configuration: RunConfiguration
    /// The calibrated allocation counter.
    public var counter: AllocationCounter
    /// Progress output (one line per benchmark).
    public var log: (String) -> Void

    /// Creates a runner.
    public init(configuration: RunConfiguration, counter: AllocationCounter, log: @escaping (String) -> Void) {
        self.configuration = configuration
        self.counter = counter
        self.log = log
    }

    /// The (scenario, size) jobs selected by `filter`; baselines are always included.
    public static func jobs(_ scenarios: [Scenario], filter: String?) -> [(Scenario, Int?)] {
        var jobs: [(Scenario, Int?)] = []
        for scenario in scenarios {
            for key in scenario.keys where scenario.isBaseline || matchesFilter(key, filter) {
                jobs.append((scenario, key.size))
            }
        }
        return jobs
    }

    /// Measures one scenario at one size.
    public func measure(_ scenario: Scenario, size: Int?) async -> BenchmarkRecord {
        let body = scenario.setup(size)
        let timing = await Harness.time(body.run, configuration: configuration, minimumIterations: scenario.minimumIterations)
        let allocationIterations = scenario.allocationIterations ?? configuration.allocationIterations
        let allocations = await Harness.allocations(body.run, iterations: allocationIterations, repeats: configuration.allocationRepeats, counter: counter)
        let summary = Statistics.summarize(timing.nanosecondsPerOperation) ?? Summary(min: 0, median: 0, p90: 0, max: 0)
        return BenchmarkRecord(
            name: scenario.name,
            size: size,
            nsPerOp: summary,
            allocsPerOp: Double(allocations.count) / Double(allocationIterations),
            bytesPerOp: Double(allocations.bytes) / Double(allocationIterations),
            iterations: timing.iterationsPerSample,
            samples: timing.nanosecondsPerOperation.count,
            allocationIterations: allocationIterations,
            allocationTolerance: scenario.allocationTolerance > 0 ? scenario.allocationTolerance : nil,
            stackBytes: body.stackBytes,
            residentBytes: ProcessMemory.residentBytes()
        )
    }

    /// Runs every selected job, logging progress.
    public func run(_ scenarios: [Scenario], filter: String?) async -> [BenchmarkRecord] {
        let jobs = Self.jobs(scenarios, filter: filter)
        var records: [BenchmarkRecord] = []
        let width = String(jobs.count).count
        for (index, job) in jobs.enumerated() {
            let key = RecordKey(name: job.0.name, size: job.1)
            let start = monotonicNanoseconds()
            let record = await measure(job.0, size: job.1)
            let seconds = Double(monotonicNanoseconds() - start) / 1e9
            let position = String(index + 1).leftPadded(to: width) + "/\(jobs.count)"
            log("[\(position)] \(key): \(format(record.nsPerOp.median)) ns/op, \(format(record.allocsPerOp)) allocs/op (\(fixed(seconds, digits: 1)) s)")
            records.append(record)
        }
        return records
    }
}

extension String {
    /// Pads with leading spaces to `width` characters.
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }

    /// Pads with trailing spaces to `width` characters.
    func rightPadded(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
