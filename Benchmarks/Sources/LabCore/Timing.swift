#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Makes `value` observable to the optimiser so the work producing it cannot be removed.
@inline(never)
@_optimize(none)
public func blackHole<T>(_ value: T) {}

/// Monotonic clock reading in nanoseconds.
@inline(__always)
public func monotonicNanoseconds() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return UInt64(spec.tv_sec) &* 1_000_000_000 &+ UInt64(spec.tv_nsec)
}

/// A heap slot for benchmark state. `withValue` opens one exclusive access for a
/// whole measured loop, so per-iteration code works on an `inout` value with no
/// dynamic exclusivity checks and no copies (unique buffers stay unique).
public final class Slot<Value> {
    /// The stored value.
    public var value: Value

    /// Stores `value`.
    public init(_ value: Value) { self.value = value }

    /// Runs `body` with in-place access to the stored value.
    @inlinable
    public func withValue<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        try body(&value)
    }
}

/// How many samples to take and how long each lasts.
public struct RunConfiguration: Sendable, Equatable {
    /// `"quick"` or `"full"`, recorded in the results metadata.
    public var mode: String
    /// Number of timed samples per benchmark.
    public var samples: Int
    /// Target duration of one sample; the inner loop is scaled to reach it.
    public var targetSampleNanoseconds: UInt64
    /// Time budget of one benchmark's samples: an operation too slow to fit `samples` samples in
    /// it gets fewer (never fewer than `minimumSamples`).
    public var budgetNanoseconds: UInt64
    /// Fewest timed samples, whatever the budget.
    public var minimumSamples: Int
    /// Fixed iteration count for allocation measurement, identical in every mode.
    public var allocationIterations: Int
    /// Allocation readings after the first, at most: two equal readings in a row end the
    /// repetition (see ``Harness/allocations(_:settle:iterations:repeats:counter:warmUp:)``).
    public var allocationRepeats: Int
    /// Rounds of a paired ratio (one sample of each scenario per round).
    public var ratioRounds: Int
    /// Target duration of one sample of a paired ratio.
    public var ratioSampleNanoseconds: UInt64

    /// Creates a configuration.
    public init(
        mode: String, samples: Int, targetSampleNanoseconds: UInt64, budgetNanoseconds: UInt64 = .max, minimumSamples: Int = 3,
        allocationIterations: Int = RunConfiguration.defaultAllocationIterations, allocationRepeats: Int = 3, ratioRounds: Int = 15,
        ratioSampleNanoseconds: UInt64 = 2_000_000
    ) {
        self.mode = mode
        self.samples = samples
        self.targetSampleNanoseconds = targetSampleNanoseconds
        self.budgetNanoseconds = budgetNanoseconds
        self.minimumSamples = minimumSamples
        self.allocationIterations = allocationIterations
        self.allocationRepeats = allocationRepeats
        self.ratioRounds = ratioRounds
        self.ratioSampleNanoseconds = ratioSampleNanoseconds
    }

    /// Iterations used for allocation counting unless a scenario overrides it.
    public static let defaultAllocationIterations = 1000
    /// `--quick`: 5 samples of ~2 ms (CI, smoke runs); at most ~0.3 s of samples per benchmark;
    /// paired ratios over 41 rounds of ~2 ms samples (about 0.2 s a pair).
    public static let quick = RunConfiguration(
        mode: "quick", samples: 5, targetSampleNanoseconds: 2_000_000, budgetNanoseconds: 300_000_000, ratioRounds: 41,
        ratioSampleNanoseconds: 2_000_000)
    /// Default: 31 samples of ~40 ms; at most ~4 s of samples per benchmark; paired ratios over 61
    /// rounds of ~10 ms samples (about 1.3 s a pair).
    public static let full = RunConfiguration(
        mode: "full", samples: 31, targetSampleNanoseconds: 40_000_000, budgetNanoseconds: 4_000_000_000, ratioRounds: 61,
        ratioSampleNanoseconds: 10_000_000)
}

/// The outcome of sizing a sample (``Harness/sampleSize(_:settle:target:minimumIterations:maxIterations:clock:)``).
public struct SampleSize: Sendable, Equatable {
    /// Iterations per sample.
    public var iterations: Int
    /// The iterations of the scaling run that stopped the scaling.
    public var lastRunIterations: Int
    /// That run's duration (the fastest of its repeats).
    public var lastRunNanoseconds: UInt64
}

/// Result of timing one measured closure.
public struct TimingResult: Sendable, Equatable {
    /// Iterations per sample after scaling.
    public var iterationsPerSample: Int
    /// Nanoseconds per operation, one entry per sample.
    public var nanosecondsPerOperation: [Double]
}

/// Times and counts a measured closure `(iterations) -> Void`.
public enum Harness {
    /// The iterations of one sample of `body` lasting about `target` nanoseconds by `clock`.
    ///
    /// The count grows geometrically from `minimumIterations` until one run takes at least a
    /// tenth of the target. A run that reaches it is repeated at the same size, up to twice while
    /// it still reaches it, and the fastest counts: the first calls of a scenario can pay one-off
    /// work (a cache filled on first use, a cold page; a plain array's position cache scans on
    /// its first miss and builds its table on the second), which would otherwise size every
    /// sample at a handful of operations. `settle` is awaited after every call, untimed.
    @MainActor
    public static func sampleSize(
        _ body: @MainActor (Int) async -> Void, settle: (@MainActor () async -> Void)? = nil,
        target: UInt64, minimumIterations: Int = 1, maxIterations: Int = 1 << 34,
        clock: @MainActor () -> UInt64 = monotonicNanoseconds
    ) async -> SampleSize {
        let target = max(target, 1)
        var iterations = max(1, min(minimumIterations, maxIterations))
        var elapsed: UInt64 = 0
        while true {
            elapsed = .max
            for _ in 0..<3 where elapsed >= target / 10 {
                let start = clock()
                await body(iterations)
                elapsed = min(elapsed, clock() &- start)
                await settle?()
            }
            if elapsed >= target / 10 || iterations >= maxIterations { break }
            let factor = elapsed == 0 ? 16 : min(16, max(2, Int((Double(target) / 10 / Double(elapsed)).rounded(.up))))
            iterations = min(maxIterations, iterations * factor)
        }
        let scaled = Double(iterations) * Double(target) / Double(max(elapsed, 1))
        let final = max(1, minimumIterations, min(maxIterations, Int(scaled.rounded(.up))))
        return SampleSize(iterations: final, lastRunIterations: iterations, lastRunNanoseconds: elapsed)
    }

    /// Times `body`: scales the inner loop so a sample lasts about `targetSampleNanoseconds`
    /// (``sampleSize(_:settle:target:minimumIterations:maxIterations:clock:)``), warms up once,
    /// then takes `samples` samples (fewer when they would not fit the configuration's budget, at
    /// least `minimumSamples`). Samples never run fewer than `minimumIterations` (see
    /// ``Scenario/minimumIterations``), where scaling starts. `settle`
    /// (``ScenarioBody/settle``) is awaited after every call, untimed.
    @MainActor
    public static func time(
        _ body: @MainActor (Int) async -> Void, settle: (@MainActor () async -> Void)? = nil, configuration: RunConfiguration,
        minimumIterations: Int = 1, maxIterations: Int = 1 << 34
    ) async -> TimingResult {
        let target = max(configuration.targetSampleNanoseconds, 1)
        let size = await sampleSize(body, settle: settle, target: target, minimumIterations: minimumIterations, maxIterations: maxIterations)
        let final = size.iterations
        // One sample's expected duration, from the last scaling run.
        let sampleEstimate = max(Double(size.lastRunNanoseconds) / Double(size.lastRunIterations) * Double(final), 1)
        // A run that already lasts a whole sample at the final size was the warm-up.
        if !(final == size.lastRunIterations && size.lastRunNanoseconds >= target) {
            await body(final) // warm-up at the final size
            await settle?()
        }
        let iterations = final
        let fitting = Int(min(Double(configuration.budgetNanoseconds) / sampleEstimate, Double(Int.max / 2)))
        let count = max(1, max(configuration.minimumSamples, min(configuration.samples, fitting)))
        var perOp: [Double] = []
        perOp.reserveCapacity(count)
        for _ in 0..<count {
            let start = monotonicNanoseconds()
            await body(iterations)
            let ns = monotonicNanoseconds() &- start
            await settle?()
            perOp.append(Double(ns) / Double(iterations))
        }
        return TimingResult(iterationsPerSample: iterations, nanosecondsPerOperation: perOp)
    }

    /// Counts allocations of `body` over a fixed `iterations` count: readings are taken until
    /// one repeats the one before it (the first is usually the cold one), at most
    /// `max(repeats, 2) + 1` readings; the repeated reading is the figure (else the smallest
    /// count and bytes seen: other threads can only add). With `warmUp` one unmeasured run comes
    /// first. `settle` is awaited after every run, outside the reading. Deterministic:
    /// independent of the timing configuration.
    @MainActor
    public static func allocations(
        _ body: @MainActor (Int) async -> Void, settle: (@MainActor () async -> Void)? = nil, iterations: Int, repeats: Int,
        counter: AllocationCounter, warmUp: Bool = true
    ) async -> AllocationSnapshot {
        if warmUp {
            await body(iterations)
            await settle?()
        }
        var best = AllocationSnapshot(count: .max, bytes: .max)
        var previous: AllocationSnapshot?
        for _ in 0...max(2, repeats) {
            let before = counter.snapshot()
            await body(iterations)
            let delta = counter.snapshot().since(before)
            await settle?()
            if delta == previous { return delta }
            best.count = min(best.count, delta.count)
            best.bytes = min(best.bytes, delta.bytes)
            previous = delta
        }
        return best
    }
}
