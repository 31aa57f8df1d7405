/// The measured closure: runs the operation `iterations` times. Setup is done before.
/// Synchronous closures convert to it; asynchronous ones (effect round trips through the
/// main actor) await their work inside the measured region.
public typealias Measured = @MainActor (_ iterations: Int) async -> Void

/// One stack measurement of one operation: the high-water below the dispatching call and, when
/// the reducer body marks its frame, the distance to that frame.
public struct StackFigures: Sendable, Equatable {
    /// Bytes between the dispatching call and the deepest stack byte written.
    public var highWater: Int
    /// Bytes between the dispatching call and the reducer body's frame, if marked.
    public var markBytes: Int?
    /// The painted region was exhausted: `highWater` is a lower bound.
    public var isSaturated: Bool

    /// Creates figures.
    public init(highWater: Int, markBytes: Int? = nil, isSaturated: Bool = false) {
        self.highWater = highWater
        self.markBytes = markBytes
        self.isSaturated = isSaturated
    }
}

/// What a scenario's setup returns: the measured closure plus optional extra figures.
public struct ScenarioBody {
    /// The measured closure.
    public var run: Measured
    /// Stack scenarios: measures one operation's stack high-water (the stack painted first).
    public var stackProbe: (@MainActor () -> StackFigures)?
    /// Awaits the work a call of ``run`` left behind (tasks it started), after every measured
    /// call and outside what is measured, so the timed sample and the allocation reading cover
    /// the call alone and the next sample does not run beside that work.
    ///
    /// The instruction pass awaits it too, after each counted run and outside the count (there
    /// every job runs on the main thread: see ``InstructionCounting/serialized(iterations:)``).
    /// Paired ratios refuse a body that has one.
    public var settle: (@MainActor () async -> Void)?

    /// Creates a body.
    public init(stackProbe: (@MainActor () -> StackFigures)? = nil, settle: (@MainActor () async -> Void)? = nil, run: @escaping Measured) {
        self.stackProbe = stackProbe
        self.settle = settle
        self.run = run
    }
}

/// Whether and how the instruction pass (callgrind) counts a scenario.
///
/// A sized scenario is counted at its smallest and its largest size up to `maxSize`: the two ends
/// show whether the cost per operation depends on the size, and each count under valgrind costs
/// about a second of fixed overhead. Unless the scenario fixes it, the iteration count N comes
/// from a one-iteration probe (``CallgrindSession/iterations(probe:cap:budget:)``), so a costly
/// operation is counted over fewer iterations and the pass stays short.
public enum InstructionCounting: Sendable, Equatable {
    /// Counted, differencing `iterations` and twice as many (nil: chosen by a probe), at the
    /// smallest size and the largest size up to `maxSize` (nil: the largest). Larger sizes take
    /// too long under valgrind.
    case counted(iterations: Int? = nil, maxSize: Int? = nil)
    /// Not counted, for the reason given (an operation too costly to run under valgrind).
    case skipped(reason: String)
    /// Asynchronous work (effects, `Task.yield`) that is not counted: it waits for another thread
    /// or a timer, which the instruction pass cannot run, or takes too long under valgrind.
    case asynchronous
    /// Asynchronous work counted as the main thread runs it, differencing `iterations` and twice
    /// as many (nil: chosen by a probe). In the instruction pass every job, the main actor's and
    /// the global executor's alike, runs on the main thread in the order it was enqueued (the
    /// lab's C shim installs the runtime's executor hooks before `main`; valgrind cannot follow a
    /// second thread), so the count covers the whole operation, its hops and tasks included, and
    /// repeats from run to run; a worker thread's wake-ups are not in it.
    case serialized(iterations: Int? = nil)

    /// Whether the scenario's work is asynchronous.
    public var isAsynchronous: Bool {
        switch self {
        case .asynchronous, .serialized: return true
        case .counted, .skipped: return false
        }
    }

    /// Counted with the default iterations.
    public static let `default` = InstructionCounting.counted()

    /// The sizes counted among `sizes` (nil for an unsized scenario, which is counted unless
    /// skipped).
    public func countedSizes(_ sizes: [Int]?) -> [Int]? {
        switch self {
        case .skipped, .asynchronous: return []
        case .serialized: return InstructionCounting.default.countedSizes(sizes)
        case .counted(_, let maxSize):
            guard let sizes else { return nil }
            let eligible = sizes.filter { maxSize == nil || $0 <= maxSize! }.sorted()
            guard let smallest = eligible.first, let largest = eligible.last else { return [] }
            return smallest == largest ? [smallest] : [smallest, largest]
        }
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
    /// Relative tolerance on instructions per operation that `compare` allows this scenario's
    /// records when it is wider than its own (0: `compare`'s). Only for a count that moves with
    /// what the instruction pass ran before it; say by how much where it is declared.
    public var instructionTolerance: Double = 0
    /// The iteration count the timing harness starts scaling from (default 1). Scenarios whose
    /// every call pays a fixed latency (a hop onto a busy main actor can take milliseconds on a
    /// loaded machine) set it so that one slow first call cannot shrink their samples to a few
    /// iterations, where that latency would swamp the per-operation figure.
    public var minimumIterations: Int = 1
    /// Whether the instruction pass counts this scenario.
    public var instructions: InstructionCounting
    /// Builds the measured body for a size (nil for unsized scenarios).
    public var setup: @MainActor (Int?) -> ScenarioBody

    /// A sized scenario whose setup returns the measured closure.
    public init(
        name: String, sizes: [Int], allocationIterations: Int? = nil, instructionTolerance: Double = 0, instructions: InstructionCounting = .default,
        setup: @escaping @MainActor (Int) -> Measured
    ) {
        self.name = name
        self.sizes = sizes
        self.isBaseline = false
        self.allocationIterations = allocationIterations
        self.instructionTolerance = instructionTolerance
        self.instructions = instructions
        self.setup = { size in ScenarioBody(run: setup(size ?? sizes.first ?? 0)) }
    }

    /// An unsized scenario whose setup returns the measured closure.
    public init(
        name: String, isBaseline: Bool = false, allocationIterations: Int? = nil, minimumIterations: Int = 1,
        instructionTolerance: Double = 0, instructions: InstructionCounting = .default, setup: @escaping @MainActor () -> Measured
    ) {
        self.name = name
        self.sizes = nil
        self.isBaseline = isBaseline
        self.allocationIterations = allocationIterations
        self.minimumIterations = minimumIterations
        self.instructionTolerance = instructionTolerance
        self.instructions = instructions
        self.setup = { _ in ScenarioBody(run: setup()) }
    }

    /// A scenario whose setup returns a full `ScenarioBody` (extras such as a stack probe or a
    /// settle step).
    public init(
        name: String, sizes: [Int]? = nil, allocationIterations: Int? = nil, instructionTolerance: Double = 0,
        instructions: InstructionCounting = .default, body: @escaping @MainActor (Int?) -> ScenarioBody
    ) {
        self.name = name
        self.sizes = sizes
        self.isBaseline = false
        self.allocationIterations = allocationIterations
        self.instructionTolerance = instructionTolerance
        self.instructions = instructions
        self.setup = body
    }

    /// The record keys this scenario produces.
    public var keys: [RecordKey] {
        if let sizes { return sizes.map { RecordKey(name: name, size: $0) } }
        return [RecordKey(name: name, size: nil)]
    }

    /// Whether the instruction pass counts the record of `size`.
    public func countsInstructions(size: Int?) -> Bool {
        switch instructions {
        case .skipped, .asynchronous: return false
        case .counted, .serialized: break
        }
        guard let size else { return true }
        return instructions.countedSizes(sizes)?.contains(size) ?? true
    }

    /// The iteration count the instruction pass differences (with twice as many) when the
    /// scenario fixes one; nil lets the pass choose it from a one-iteration probe.
    public var fixedInstructionIterations: Int? {
        switch instructions {
        case .counted(let iterations?, _), .serialized(let iterations?): return max(1, iterations)
        default: return nil
        }
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
    /// Whether ``measure(_:size:)`` counts allocations. Off when another process counts them
    /// (``AllocationPass``): the records then carry zeros until its figures are merged in.
    public var countsAllocations: Bool

    /// Creates a runner.
    public init(configuration: RunConfiguration, counter: AllocationCounter, countsAllocations: Bool = true, log: @escaping (String) -> Void) {
        self.configuration = configuration
        self.counter = counter
        self.countsAllocations = countsAllocations
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

    /// Measures one scenario at one size: time; then, on a fresh setup, allocations and bytes
    /// over a fixed iteration count until a reading repeats, and (stack scenarios) the stack
    /// high-water of one operation, the smallest of three. The fresh setup keeps those figures
    /// independent of how many iterations the timing loop ran (a scenario whose loop walks a
    /// sequence, or a library cache that cycles, would otherwise be caught at a different point).
    public func measure(_ scenario: Scenario, size: Int?) async -> BenchmarkRecord {
        let timing: TimingResult
        do {
            let body = scenario.setup(size)
            timing = await Harness.time(body.run, settle: body.settle, configuration: configuration, minimumIterations: scenario.minimumIterations)
        }
        let body = scenario.setup(size)
        let allocations = countsAllocations ? await measureAllocations(scenario, size: size, body: body) : nil
        let summary = Statistics.summarize(timing.nanosecondsPerOperation) ?? Summary(min: 0, median: 0, p90: 0, max: 0)
        let stack = body.stackProbe.map { probe in
            (0..<3).map { _ in probe() }.min { $0.highWater < $1.highWater }!
        }
        if let stack, stack.isSaturated {
            log(
                "warning: \(RecordKey(name: scenario.name, size: size)): the stack probe saturated; the high-water is at least \(stack.highWater) bytes"
            )
        }
        return BenchmarkRecord(
            name: scenario.name,
            size: size,
            nsPerOp: summary,
            allocsPerOp: allocations?.allocsPerOp ?? 0,
            bytesPerOp: allocations?.bytesPerOp ?? 0,
            iterations: timing.iterationsPerSample,
            samples: timing.nanosecondsPerOperation.count,
            allocationIterations: allocations?.allocationIterations,
            instructionTolerance: scenario.instructionTolerance > 0 ? scenario.instructionTolerance : nil,
            stackBytes: stack?.highWater,
            stackMarkBytes: stack?.markBytes,
            residentBytes: ProcessMemory.residentBytes()
        )
    }

    /// Counts one scenario's allocations and bytes on `body` (a fresh setup) over a fixed
    /// iteration count until a reading repeats.
    public func measureAllocations(_ scenario: Scenario, size: Int?, body: ScenarioBody) async -> AllocationMeasurement {
        let allocationIterations = scenario.allocationIterations ?? configuration.allocationIterations
        let allocations = await Harness.allocations(
            body.run, settle: body.settle, iterations: allocationIterations, repeats: configuration.allocationRepeats, counter: counter, warmUp: false
        )
        let allocsPerOp = Double(allocations.count) / Double(allocationIterations)
        let bytesPerOp = Double(allocations.bytes) / Double(allocationIterations)
        return AllocationMeasurement(
            name: scenario.name, size: size, allocsPerOp: allocsPerOp, bytesPerOp: bytesPerOp, allocationIterations: allocationIterations)
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
            let stack = record.stackBytes.map { ", stack \($0) B" } ?? ""
            let allocations = countsAllocations ? ", \(format(record.allocsPerOp)) allocs/op, \(format(record.bytesPerOp)) B/op" : ""
            log("[\(position)] \(key): \(formatDuration(record.nsPerOp.median))/op\(allocations)\(stack) (\(fixed(seconds, digits: 1)) s)")
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
