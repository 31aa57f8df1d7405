import CValgrind
import Foundation

/// One benchmark's allocation figures, as the allocation pass counted them.
public struct AllocationMeasurement: Codable, Sendable, Equatable {
    /// Scenario name.
    public var name: String
    /// Size, if sized.
    public var size: Int?
    /// Allocations per operation.
    public var allocsPerOp: Double
    /// Bytes (size classes) per operation.
    public var bytesPerOp: Double
    /// Operations counted.
    public var allocationIterations: Int

    /// Creates a measurement.
    public init(name: String, size: Int?, allocsPerOp: Double, bytesPerOp: Double, allocationIterations: Int) {
        self.name = name
        self.size = size
        self.allocsPerOp = allocsPerOp
        self.bytesPerOp = bytesPerOp
        self.allocationIterations = allocationIterations
    }

    /// The record this measurement belongs to.
    public var key: RecordKey { RecordKey(name: name, size: size) }
}

/// Why the allocation pass gave no figures.
public enum AllocationPassError: Error, CustomStringConvertible, Equatable {
    /// `count-allocations` ran with jemalloc's thread caches on, where other threads' requests
    /// reach the statistics late.
    case threadCachesOn
    /// `count-allocations` ran with the runtime's executors, where an asynchronous scenario's
    /// count depends on scheduling.
    case jobsNotSerialized
    /// The pass exited with `status`; `output` is the end of what it printed.
    case passFailed(status: Int32, output: String)
    /// The pass's figures could not be read.
    case unreadableOutput(path: String, problem: String)

    /// A human-readable explanation.
    public var description: String {
        switch self {
        case .threadCachesOn:
            return
                "count-allocations needs jemalloc's thread caches off (MALLOC_CONF=\(AllocationPass.mallocConfiguration); swiftrex-lab run sets it): with them on, other threads' allocations are counted late or not at all."
        case .jobsNotSerialized:
            return
                "count-allocations needs every job on the main thread (\(AllocationPass.serialJobsEnvironmentKey)=1; swiftrex-lab run sets it): with the runtime's executors, libdispatch's continuations are allocated or served from a thread's cache depending on scheduling."
        case .passFailed(let status, let output):
            return "the allocation pass failed (exit \(status)):\n\(output)"
        case .unreadableOutput(let path, let problem):
            return "cannot read the allocation pass's figures at \(path): \(problem)"
        }
    }
}

/// The allocation pass: a second process of the lab that counts every selected benchmark's
/// allocations and bytes with jemalloc's thread caches off and every job on the main thread, while
/// the run itself times with thread caches on and the runtime's executors, as an app runs.
///
/// Every job on one thread, in the order enqueued (the lab's C shim installs the runtime's executor
/// hooks, as for the instruction pass): an asynchronous scenario's tasks, hops and drains then
/// interleave the same way in every run, and its figures repeat exactly. With the runtime's
/// executors they did not: libdispatch serves a hop's continuation from a thread's cache or
/// allocates it depending on which thread runs what (an `Effect.task` round trip read 4.27 to 5.52
/// allocations per op), so the gate had to let a whole allocation per op through.
///
/// The statistics the counter reads take in another thread's requests only when that thread's
/// cache flushes, so the figures of work that allocates on other threads (effect tasks, channel
/// producers) are exact only without thread caches. Timed without them, though, every allocation
/// takes its arena's lock: that slows the reference scenarios that allocate (a `Task` per
/// action, four allocations each) more than the Store paths that barely allocate, and the Store's
/// effect tasks, whose memory is freed on another thread than the one that allocated it, more
/// than either. Counting in one process and timing in another gives exact counts and honest times.
public enum AllocationPass {
    /// jemalloc's settings in the pass: thread caches off.
    public static let mallocConfiguration = "tcache:false"

    /// The environment variable that makes the process run every job on its main thread, in the
    /// order enqueued (read by a constructor in the lab's C shim before `main`).
    public static let serialJobsEnvironmentKey = "SWIFTREX_LAB_SERIAL_ALLOCATIONS"

    /// Whether this process runs every job on its main thread, as the pass must.
    public static var jobsSerialized: Bool { swiftrex_lab_jobs_run_on_main_thread() == 2 }

    /// Runs `executable count-allocations` for the benchmarks `filter` selects, with thread caches
    /// off; progress lines go to `log`. Returns the figures.
    public static func run(executable: String, filter: String?, log: (String) -> Void) throws -> [AllocationMeasurement] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("swiftrex-lab-allocations-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let figures = directory.appendingPathComponent("allocations.json").path
        var arguments = ["count-allocations", "--output", figures]
        if let filter { arguments += ["--filter", filter] }
        var environment = ProcessInfo.processInfo.environment
        environment["MALLOC_CONF"] = mallocConfiguration
        environment[serialJobsEnvironmentKey] = "1"
        var output: [String] = []
        let status = try Subprocess.runLines(executable, arguments, environment: environment) { line in
            output.append(line)
            log(line)
        }
        guard status == 0 else {
            throw AllocationPassError.passFailed(status: status, output: output.suffix(15).joined(separator: "\n"))
        }
        guard let data = FileManager.default.contents(atPath: figures) else {
            throw AllocationPassError.unreadableOutput(path: figures, problem: "the pass wrote no figures")
        }
        do {
            return try JSONDecoder().decode([AllocationMeasurement].self, from: data)
        } catch {
            throw AllocationPassError.unreadableOutput(path: figures, problem: "\(error)")
        }
    }

    /// `records` with the figures of `measurements` filled in (by name and size). A record the
    /// pass did not count keeps its own figures.
    public static func merge(_ measurements: [AllocationMeasurement], into records: [BenchmarkRecord]) -> [BenchmarkRecord] {
        let byKey = Dictionary(measurements.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        return records.map { record in
            var record = record
            if let measurement = byKey[record.key] {
                record.allocsPerOp = measurement.allocsPerOp
                record.bytesPerOp = measurement.bytesPerOp
                record.allocationIterations = measurement.allocationIterations
            }
            return record
        }
    }
}
