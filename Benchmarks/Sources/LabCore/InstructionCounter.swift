import CJemalloc
import CValgrind
import Foundation

/// Errors of the instruction pass.
public enum InstructionCounterError: Error, CustomStringConvertible, Equatable {
    /// `valgrind` is not on PATH.
    case valgrindMissing
    /// The lab was built without valgrind's client-request header (`valgrind/callgrind.h`).
    case clientRequestsMissing
    /// `count-instructions` was started outside valgrind.
    case notUnderValgrind
    /// The pass's executor hooks (every job on the main thread) are not installed: the process
    /// was started without `SWIFTREX_LAB_CALLGRIND_OUT` in its environment.
    case jobsNotOnMainThread
    /// A callgrind output file is missing or has no `totals:` line.
    case unreadableOutput(path: String, problem: String)
    /// valgrind (or the pass it ran) failed.
    case passFailed(status: Int32, log: String)

    /// A human-readable explanation.
    public var description: String {
        switch self {
        case .valgrindMissing:
            return
                "valgrind is not on PATH: instruction counts cannot be measured. Install it (apt-get install valgrind; Scripts/bench does so) or run with --no-instructions (compare then warns that instructions were not compared)."
        case .clientRequestsMissing:
            return
                "this lab was built without valgrind's client-request header (valgrind/callgrind.h): install valgrind, then rebuild the lab (swift build -c release --package-path Benchmarks), or run with --no-instructions."
        case .notUnderValgrind:
            return "count-instructions runs under valgrind's callgrind (swiftrex-lab run starts it); it was started without valgrind."
        case .jobsNotOnMainThread:
            return
                "count-instructions needs its executor hooks (every job run on the main thread), installed at startup only when SWIFTREX_LAB_CALLGRIND_OUT is set under valgrind (swiftrex-lab run sets it)."
        case .unreadableOutput(let path, let problem):
            return "callgrind output '\(path)' is unusable: \(problem)"
        case .passFailed(let status, let log):
            return "the instruction pass under valgrind failed (exit \(status)); last lines of its log:\n\(log)"
        }
    }
}

/// One scenario's instruction figure, as the pass hands it to the run.
public struct InstructionMeasurement: Codable, Equatable, Sendable {
    /// Scenario name.
    public var name: String
    /// Size, for sized scenarios.
    public var size: Int?
    /// Instructions per operation: (count over 2N − count over N) ÷ N.
    public var instructionsPerOp: Double
    /// N.
    public var iterations: Int

    /// Creates a measurement.
    public init(name: String, size: Int?, instructionsPerOp: Double, iterations: Int) {
        self.name = name
        self.size = size
        self.instructionsPerOp = instructionsPerOp
        self.iterations = iterations
    }

    /// The record key it belongs to.
    public var key: RecordKey { RecordKey(name: name, size: size) }
}

/// Counting inside the process that runs under callgrind: client requests around the measured
/// region, each region dumped to its own numbered file and read back at once.
///
/// callgrind counts the instructions the program executes (`Ir`), not time: the same binary on the
/// same input gives the same count whatever else the machine does. Each scenario is counted over
/// N and 2N iterations after a warm-up; the difference divided by N is the cost of one operation
/// with the fixed costs (the closure call, the client requests) cancelled out. Only the main
/// thread's instructions are read: the scenarios dispatch there, and work other threads do at the
/// same time (a worker waking up, a channel's task) would make the count depend on scheduling.
@MainActor
public final class CallgrindSession {
    /// The `--callgrind-out-file` base the run passed (dumps go to `<base>.<n>`).
    public let outputBase: String
    private var part = 0

    /// The environment variable that carries the output base from the run to the pass.
    public nonisolated static let outputEnvironmentKey = "SWIFTREX_LAB_CALLGRIND_OUT"

    /// A session for this process; throws unless it runs under valgrind with client requests.
    public init(outputBase: String) throws {
        guard swiftrex_lab_callgrind_compiled_in() != 0 else { throw InstructionCounterError.clientRequestsMissing }
        guard swiftrex_lab_running_on_valgrind() != 0 else { throw InstructionCounterError.notUnderValgrind }
        // Installed before `main` when the output variable is set (see CValgrind.h): without it the
        // first asynchronous scenario would start a worker thread, and valgrind would crash.
        guard swiftrex_lab_jobs_run_on_main_thread() != 0 else { throw InstructionCounterError.jobsNotOnMainThread }
        self.outputBase = outputBase
    }

    /// Instructions per operation of `body` and the N they were differenced over: a warm-up, then
    /// (instrumented) a one-iteration probe that sets N unless `iterations` fixes it, and counts
    /// over N and 2N iterations, differenced.
    ///
    /// `settle` (``ScenarioBody/settle``) is awaited after the warm-up and after each counted run,
    /// outside the counts.
    public func instructionsPerOperation(label: String, iterations fixed: Int?, settle: (@MainActor () async -> Void)? = nil, _ body: Measured)
        async throws -> (perOp: Double, iterations: Int)
    {
        // A warm-up over 64 iterations, uninstrumented: the loops cycle through their inputs (64
        // actions, 64 projections), and a first visit may do one-time work the counts must not see.
        await body(Self.warmUpIterations)
        await settle?()
        // Instrumentation only around the counted runs: setups and warm-ups run at valgrind's
        // uninstrumented speed. (Left on for the whole pass, the pass is 2.5× slower and its
        // differenced figures stop repeating.)
        swiftrex_lab_callgrind_start_instrumentation()
        defer { swiftrex_lab_callgrind_stop_instrumentation() }
        let iterations: Int
        if let fixed {
            iterations = fixed
        } else {
            let probe = try await count(label: "\(label) probe") { await body(1) }
            await settle?()
            iterations = Self.iterations(probe: probe)
        }
        let single = try await count(label: "\(label) x\(iterations)") { await body(iterations) }
        await settle?()
        let double = try await count(label: "\(label) x\(2 * iterations)") { await body(2 * iterations) }
        await settle?()
        return ((Double(double) - Double(single)) / Double(iterations), iterations)
    }

    /// Runs `body` (a scenario's set-up and counts) with the calling thread allocating from a
    /// jemalloc arena of its own, created for it, and returns its result.
    ///
    /// A count that allocates walks the allocator's paths, and how long those are depends on
    /// what the heap already holds: how full the current slab of each size class is. In one shared
    /// arena that is the history of the process: every scenario counted before, and even the
    /// length of the environment variables Foundation copied at start-up. So a scenario's count
    /// moved by 2-4 % between two passes of one binary started from different shells. In its own
    /// arena, a scenario starts from empty slabs, whatever ran before it.
    ///
    /// Afterwards the thread allocates from its previous arena again, and the scenario's arena
    /// hands its freed pages back to the system (the pass never purges on the clock), so the
    /// pass's memory does not grow with the number of scenarios. Objects that outlive the
    /// scenario (runtime caches, say) stay valid: the arena is purged, never destroyed.
    public static func inFreshArena<T>(_ body: () async throws -> T) async rethrows -> T {
        guard let previous = Self.threadArena(), let fresh = Self.createArena(), Self.setThreadArena(fresh) else {
            return try await body()
        }
        // Objects the thread cache holds came from the previous arena: hand them back, so the
        // scenario's first allocations are served by its own arena.
        _ = mallctl("thread.tcache.flush", nil, nil, nil, 0)
        defer {
            _ = Self.setThreadArena(previous)
            _ = mallctl("thread.tcache.flush", nil, nil, nil, 0)
            _ = mallctl("arena.\(fresh).purge", nil, nil, nil, 0)
        }
        return try await body()
    }

    /// The arena the calling thread allocates from.
    nonisolated static func threadArena() -> UInt32? {
        AllocationCounter.readControl("thread.arena", as: UInt32.self)
    }

    /// Makes the calling thread allocate from `arena`; false when jemalloc refuses.
    nonisolated static func setThreadArena(_ arena: UInt32) -> Bool {
        var value = arena
        return mallctl("thread.arena", nil, nil, &value, MemoryLayout<UInt32>.size) == 0
    }

    /// A new, empty arena (jemalloc allows up to 4,095), or nil when none can be created.
    nonisolated static func createArena() -> UInt32? {
        AllocationCounter.readControl("arenas.create", as: UInt32.self)
    }

    /// Iterations of the uninstrumented warm-up: one cycle of the scenarios' input patterns.
    public nonisolated static let warmUpIterations = 64

    /// N for an operation whose one-iteration probe counted `probe` instructions: the largest
    /// power of two up to `cap` whose N-iteration run stays within `budget` instructions (at least
    /// 1). Powers of two keep N stable when the probe moves a little, and 256 is a multiple of the
    /// 64-action pattern the dispatch loops cycle.
    public nonisolated static func iterations(probe: UInt64, cap: Int = 256, budget: UInt64 = 1 << 22) -> Int {
        var iterations = 1
        while iterations * 2 <= cap && UInt64(iterations * 2) * max(probe, 1) <= budget { iterations *= 2 }
        return iterations
    }

    /// Instructions executed by `body` (plus the constant cost of the client requests).
    func count(label: String, _ body: () async -> Void) async throws -> UInt64 {
        // Every counted run starts with an empty thread cache, so how often the allocator refills
        // it inside the run does not depend on what earlier scenarios left in it.
        _ = mallctl("thread.tcache.flush", nil, nil, nil, 0)
        swiftrex_lab_callgrind_zero_stats()
        await body()
        label.withCString { swiftrex_lab_callgrind_dump_stats($0) }
        part += 1
        // One file per thread and dump (`--separate-threads=yes`): the main thread's is `-01`.
        return try Self.readTotal(path: "\(outputBase).\(part)-01", trigger: label)
    }

    /// The `totals:` (or `summary:`) figure of a callgrind output file whose trigger is `trigger`.
    public nonisolated static func readTotal(path: String, trigger: String?) throws -> UInt64 {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw InstructionCounterError.unreadableOutput(path: path, problem: "the file does not exist")
        }
        return try parseTotal(String(decoding: data, as: UTF8.self), path: path, trigger: trigger)
    }

    /// Parses callgrind's output text: the `Ir` figure of its `totals:` line (else `summary:`),
    /// checking the `desc: Trigger:` line names `trigger` when given.
    public nonisolated static func parseTotal(_ text: String, path: String, trigger: String?) throws -> UInt64 {
        var totals: UInt64?
        var summary: UInt64?
        var foundTrigger: String?
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            if line.hasPrefix("totals:") {
                totals = line.dropFirst("totals:".count).split(separator: " ").first.flatMap { UInt64($0) }
            } else if line.hasPrefix("summary:") {
                summary = line.dropFirst("summary:".count).split(separator: " ").first.flatMap { UInt64($0) }
            } else if line.hasPrefix("desc: Trigger:") {
                foundTrigger = String(line.dropFirst("desc: Trigger:".count)).trimmingCharacters(in: .whitespaces)
            }
        }
        if let trigger, foundTrigger != "Client Request: \(trigger)" {
            throw InstructionCounterError.unreadableOutput(
                path: path, problem: "expected the dump of '\(trigger)', found \(foundTrigger.map { "'\($0)'" } ?? "no trigger line")")
        }
        guard let figure = totals ?? summary else {
            throw InstructionCounterError.unreadableOutput(path: path, problem: "no 'totals:' or 'summary:' line")
        }
        return figure
    }
}

/// The run's side of the instruction pass: starts this executable under callgrind, reads the
/// figures it writes, and merges them into the records.
public enum InstructionPass {
    /// Environment of the pass: deterministic hashing (Swift seeds its hasher per process
    /// otherwise) and no time-based purging in jemalloc (its decay runs on the clock, which
    /// valgrind slows down).
    public static let environment = [
        "SWIFT_DETERMINISTIC_HASHING": "1",
        "MALLOC_CONF": "dirty_decay_ms:-1,muzzy_decay_ms:-1",
    ]

    /// The caller's variables the pass keeps: where the libraries are, and which regression
    /// `Scripts/plant-check` planted (a planted build reads it in the counted process too).
    public static let forwardedVariables = ["LD_LIBRARY_PATH", "VALGRIND_LIB", "SWIFTREX_LAB_PLANT"]

    /// The valgrind options of the pass (before the executable).
    public static func valgrindArguments(outputBase: String) -> [String] {
        [
            "--tool=callgrind", "--instr-atstart=no", "--separate-threads=yes", "--callgrind-out-file=\(outputBase)",
            "--dump-line=no", "--compress-strings=no", "--compress-pos=no", "--quiet",
        ]
    }

    /// Throws the reason the pass cannot run here (valgrind missing, or the lab built without its
    /// client-request header), before any time is spent measuring.
    public static func preflight(path: String? = ProcessInfo.processInfo.environment["PATH"]) throws {
        guard findExecutable("valgrind", path: path) != nil else { throw InstructionCounterError.valgrindMissing }
        guard swiftrex_lab_callgrind_compiled_in() != 0 else { throw InstructionCounterError.clientRequestsMissing }
    }

    /// `valgrind --version` (e.g. `valgrind-3.19.0`), or nil when valgrind is not on PATH.
    public static func valgrindVersion(path: String? = ProcessInfo.processInfo.environment["PATH"]) -> String? {
        guard let executable = findExecutable("valgrind", path: path) else { return nil }
        return MachineInfo.run(executable, ["--version"])
    }

    /// The first executable named `name` in the colon-separated `path`.
    public static func findExecutable(_ name: String, path: String?) -> String? {
        for directory in (path ?? "").split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// Runs `executable count-instructions` under callgrind for the scenarios `filter` selects;
    /// progress lines go to `log`. Returns the figures and the counter's name.
    public static func run(executable: String, filter: String?, log: @escaping @Sendable (String) -> Void) throws -> (
        measurements: [InstructionMeasurement], counter: String
    ) {
        guard let valgrind = findExecutable("valgrind", path: ProcessInfo.processInfo.environment["PATH"]) else {
            throw InstructionCounterError.valgrindMissing
        }
        let version = MachineInfo.run(valgrind, ["--version"]) ?? "valgrind"
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("swiftrex-lab-callgrind-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let outputBase = directory.appendingPathComponent("callgrind.out").path
        let figures = directory.appendingPathComponent("instructions.json").path
        let logPath = directory.appendingPathComponent("valgrind.log").path

        // valgrind 3.19 cannot read DWARF 5 debug information (clang's default for the C shims)
        // and gives up on the executable: run a copy without it when `strip` is there.
        var measured = executable
        if let strip = findExecutable("strip", path: ProcessInfo.processInfo.environment["PATH"]) {
            let copy = directory.appendingPathComponent(URL(fileURLWithPath: executable).lastPathComponent).path
            if MachineInfo.run(strip, ["--strip-debug", "-o", copy, executable]) != nil { measured = copy }
        }

        var arguments = valgrindArguments(outputBase: outputBase) + ["--log-file=\(logPath)", measured, "count-instructions", "--output", figures]
        if let filter { arguments += ["--filter", filter] }
        // The pass gets an environment and a working directory of its own, the same wherever the
        // lab runs: the heap's history, and with it the allocator's and the runtime's paths,
        // follows the environment's size and the working directory's path, so the caller's (a CI
        // runner's checkout, a shell's) moved some counts by percents.
        var environment = Self.environment
        for key in Self.forwardedVariables { environment[key] = ProcessInfo.processInfo.environment[key] }
        environment[CallgrindSession.outputEnvironmentKey] = outputBase
        // Relay the pass's progress lines as they come, with the time each took (measured here:
        // the pass itself prints nothing that depends on the clock).
        var last = monotonicNanoseconds()
        let status = try Subprocess.runLines(valgrind, arguments, environment: environment, workingDirectory: "/") { line in
            let now = monotonicNanoseconds()
            log(line + " (\(fixed(Double(now - last) / 1e9, digits: 1)) s)")
            last = now
        }
        guard status == 0 else {
            let text = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
            let tail = text.split(separator: "\n").suffix(15).joined(separator: "\n")
            throw InstructionCounterError.passFailed(status: status, log: tail)
        }
        guard let data = FileManager.default.contents(atPath: figures) else {
            throw InstructionCounterError.unreadableOutput(path: figures, problem: "the pass wrote no figures")
        }
        let measurements = try JSONDecoder().decode([InstructionMeasurement].self, from: data)
        return (measurements, "\(version) callgrind")
    }

    /// `records` with the figures of `measurements` filled in (by name and size).
    public static func merge(_ measurements: [InstructionMeasurement], into records: [BenchmarkRecord]) -> [BenchmarkRecord] {
        let byKey = Dictionary(measurements.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        return records.map { record in
            var record = record
            if let measurement = byKey[record.key] {
                record.instructionsPerOp = measurement.instructionsPerOp
                record.instructionIterations = measurement.iterations
            }
            return record
        }
    }
}
