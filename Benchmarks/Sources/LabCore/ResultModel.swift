import Foundation

/// One benchmark measurement, as stored in `Results/*.json`.
public struct BenchmarkRecord: Codable, Equatable, Sendable {
    /// Stable dotted scenario name, e.g. `reducer.combine64`.
    public var name: String
    /// Problem size for sized scenarios; absent (key omitted) otherwise.
    public var size: Int?
    /// Nanoseconds per operation over the timed samples.
    public var nsPerOp: Summary
    /// Heap allocations per operation (exact; fixed iteration count, min of repeats; asynchronous
    /// work counted with every job on the main thread, so the figure does not depend on scheduling).
    public var allocsPerOp: Double
    /// Bytes allocated per operation by every thread, in jemalloc size classes (each class's
    /// request count times its size).
    public var bytesPerOp: Double
    /// Iterations per timed sample after loop scaling.
    public var iterations: Int?
    /// Number of timed samples.
    public var samples: Int?
    /// Iterations the allocation figures were measured over.
    public var allocationIterations: Int?
    /// The scenario's own relative tolerance on instructions per op (0.05 = ±5 %), when it is
    /// wider than `compare`'s: for a count that depends on what ran before it in the pass.
    public var instructionTolerance: Double?
    /// Instructions executed per operation, counted by callgrind (valgrind) and differenced
    /// over two iteration counts; absent when not counted (asynchronous scenarios, sizes above
    /// the scenario's limit, or a run with `--no-instructions`).
    public var instructionsPerOp: Double?
    /// The smaller of the two iteration counts the instruction figure was differenced over.
    public var instructionIterations: Int?
    /// Stack high-water of one operation (stack scenarios only): bytes between the dispatching
    /// call and the deepest stack byte written, the stack painted first.
    public var stackBytes: Int?
    /// Stack scenarios: bytes between the dispatching call and the reducer body's frame.
    public var stackMarkBytes: Int?
    /// Resident set size of the process after the benchmark, in bytes.
    public var residentBytes: Int?

    /// Creates a record.
    public init(
        name: String, size: Int? = nil, nsPerOp: Summary, allocsPerOp: Double, bytesPerOp: Double, iterations: Int? = nil, samples: Int? = nil,
        allocationIterations: Int? = nil, instructionTolerance: Double? = nil, instructionsPerOp: Double? = nil, instructionIterations: Int? = nil,
        stackBytes: Int? = nil,
        stackMarkBytes: Int? = nil, residentBytes: Int? = nil
    ) {
        self.name = name
        self.size = size
        self.nsPerOp = nsPerOp
        self.allocsPerOp = allocsPerOp
        self.bytesPerOp = bytesPerOp
        self.iterations = iterations
        self.samples = samples
        self.allocationIterations = allocationIterations
        self.instructionTolerance = instructionTolerance
        self.instructionsPerOp = instructionsPerOp
        self.instructionIterations = instructionIterations
        self.stackBytes = stackBytes
        self.stackMarkBytes = stackMarkBytes
        self.residentBytes = residentBytes
    }

    /// Identity of the record: name plus size.
    public var key: RecordKey { RecordKey(name: name, size: size) }
}

/// Identifies a record across files: `name` or `name/size`.
public struct RecordKey: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Scenario name.
    public var name: String
    /// Size, if sized.
    public var size: Int?

    /// Creates a key.
    public init(name: String, size: Int?) {
        self.name = name
        self.size = size
    }

    /// `name` or `name/size`.
    public var description: String { size.map { "\(name)/\($0)" } ?? name }

    /// The key a ``description`` names (`name` or `name/size`); nil for an empty name.
    public init?(parsing text: String) {
        if let slash = text.lastIndex(of: "/"), let size = Int(text[text.index(after: slash)...]) {
            self.init(name: String(text[..<slash]), size: size)
        } else {
            self.init(name: text, size: nil)
        }
        if name.isEmpty { return nil }
    }

    /// Orders by name, then size (unsized first).
    public static func < (lhs: RecordKey, rhs: RecordKey) -> Bool {
        if lhs.name != rhs.name { return lhs.name < rhs.name }
        return (lhs.size ?? -1) < (rhs.size ?? -1)
    }
}

/// Where and how a results file was produced.
public struct MachineMetadata: Codable, Equatable, Sendable {
    /// Host name.
    public var host: String
    /// Active processor count.
    public var cores: Int
    /// Physical memory in bytes.
    public var memoryBytes: UInt64
    /// CPU model name, when known.
    public var cpu: String?
    /// Kernel name and release (`uname -sr`).
    public var kernel: String
    /// Toolchain (`swift --version` first line, or the compiler version it was built with).
    public var toolchain: String
    /// Allocator and version, e.g. `jemalloc 5.3.0`.
    public var allocator: String?
    /// ISO 8601 date of the run.
    public var date: String
    /// `git rev-parse HEAD` of the repository, or `unknown`.
    public var gitRevision: String
    /// Whether the work tree had uncommitted changes.
    public var gitDirty: Bool?
    /// `quick` or `full`.
    public var mode: String
    /// The `--filter` of the run, if any (compare then ignores non-matching baseline records).
    public var filter: String?
    /// What counted instructions, e.g. `valgrind-3.19.0 callgrind`; absent when the run did not
    /// count them (`--no-instructions`).
    public var instructionCounter: String?
    /// How jemalloc was set while timing and while counting allocations (absent in runs that
    /// predate the allocation pass: both with thread caches off).
    public var allocatorSettings: String?

    /// Creates metadata.
    public init(
        host: String, cores: Int, memoryBytes: UInt64, cpu: String? = nil, kernel: String, toolchain: String, allocator: String? = nil, date: String,
        gitRevision: String, gitDirty: Bool? = nil, mode: String, filter: String? = nil, instructionCounter: String? = nil
    ) {
        self.host = host
        self.cores = cores
        self.memoryBytes = memoryBytes
        self.cpu = cpu
        self.kernel = kernel
        self.toolchain = toolchain
        self.allocator = allocator
        self.date = date
        self.gitRevision = gitRevision
        self.gitDirty = gitDirty
        self.mode = mode
        self.filter = filter
        self.instructionCounter = instructionCounter
    }
}

/// A results file: metadata plus the list of benchmark records.
public struct ResultsFile: Codable, Equatable, Sendable {
    /// Format version of the file.
    public var schemaVersion: Int
    /// Machine and run metadata.
    public var metadata: MachineMetadata
    /// All records, baselines (`raw.dispatch`, `naive.dispatch`) included.
    public var benchmarks: [BenchmarkRecord]
    /// Paired time ratios (see ``PairedRatio``); absent in files from before they were measured.
    public var ratios: [RatioRecord]?

    /// The current format version. Version 2 added instruction counts and made `stackBytes` the
    /// stack high-water (version 1 recorded the distance to the reducer body).
    public static let currentSchemaVersion = 2

    /// Creates a results file.
    public init(
        schemaVersion: Int = ResultsFile.currentSchemaVersion, metadata: MachineMetadata, benchmarks: [BenchmarkRecord], ratios: [RatioRecord]? = nil
    ) {
        self.schemaVersion = schemaVersion
        self.metadata = metadata
        self.benchmarks = benchmarks
        self.ratios = ratios
    }

    /// The paired ratio of `numerator` over `denominator` (record keys), if measured.
    public func ratio(_ numerator: String, over denominator: String) -> RatioRecord? {
        ratios?.first { $0.numerator == numerator && $0.denominator == denominator }
    }

    /// The record named `name` (with `size`), if present.
    public func record(_ name: String, size: Int? = nil) -> BenchmarkRecord? {
        benchmarks.first { $0.name == name && $0.size == size }
    }
}

/// A results file could not be read; carries a message naming the file and the problem.
public struct ResultsInputError: Error, CustomStringConvertible, Equatable {
    /// Human-readable message.
    public var message: String
    /// Creates an error.
    public init(_ message: String) { self.message = message }
    /// The message.
    public var description: String { message }
}

/// Encoding, decoding and validation of results files.
public enum ResultsIO {
    /// Pretty, key-sorted JSON (stable diffs).
    public static func encode(_ file: ResultsFile) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(file)
        data.append(0x0A)
        return data
    }

    /// Decodes and validates `data`; `role` (e.g. "baseline") and `path` name it in errors.
    public static func decode(_ data: Data, role: String, path: String) throws -> ResultsFile {
        let file: ResultsFile
        do {
            file = try JSONDecoder().decode(ResultsFile.self, from: data)
        } catch let error as DecodingError {
            throw ResultsInputError("\(role) file '\(path)' is malformed: \(describe(error))")
        } catch {
            throw ResultsInputError("\(role) file '\(path)' is malformed: \(error)")
        }
        try validate(file, role: role, path: path)
        return file
    }

    /// Reads, decodes and validates the file at `path`.
    public static func load(path: String, role: String) throws -> ResultsFile {
        guard FileManager.default.fileExists(atPath: path) else {
            throw ResultsInputError("\(role) file '\(path)' does not exist")
        }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw ResultsInputError("\(role) file '\(path)' cannot be read: \(error.localizedDescription)")
        }
        return try decode(data, role: role, path: path)
    }

    /// Writes `file` as JSON to `path`, creating directories as needed.
    public static func write(_ file: ResultsFile, to path: String) throws {
        let url = URL(fileURLWithPath: path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try encode(file).write(to: url, options: .atomic)
    }

    private static func validate(_ file: ResultsFile, role: String, path: String) throws {
        guard file.schemaVersion == ResultsFile.currentSchemaVersion else {
            throw ResultsInputError(
                "\(role) file '\(path)' has schemaVersion \(file.schemaVersion); this lab reads version \(ResultsFile.currentSchemaVersion)")
        }
        var seen = Set<RecordKey>()
        for (index, record) in file.benchmarks.enumerated() {
            let problem: String?
            if record.name.isEmpty {
                problem = "empty name"
            } else if !seen.insert(record.key).inserted {
                problem = "duplicate record '\(record.key)'"
            } else if ![
                record.nsPerOp.min, record.nsPerOp.median, record.nsPerOp.p90, record.nsPerOp.max, record.allocsPerOp, record.bytesPerOp,
                record.instructionsPerOp ?? 0,
            ].allSatisfy({ $0.isFinite && $0 >= 0 })
                || (record.stackBytes ?? 0) < 0 || (record.stackMarkBytes ?? 0) < 0
            {
                problem = "negative or non-finite measurement in '\(record.key)'"
            } else if !(record.nsPerOp.min <= record.nsPerOp.median && record.nsPerOp.median <= record.nsPerOp.max) {
                problem = "nsPerOp of '\(record.key)' is not ordered (min ≤ median ≤ max)"
            } else {
                problem = nil
            }
            if let problem {
                throw ResultsInputError("\(role) file '\(path)' is malformed: benchmarks[\(index)]: \(problem)")
            }
        }
        for (index, ratio) in (file.ratios ?? []).enumerated() {
            let values = [ratio.ratio.min, ratio.ratio.median, ratio.ratio.p90, ratio.ratio.max, ratio.limit ?? 1]
            if !values.allSatisfy({ $0.isFinite && $0 >= 0 }) || !(ratio.ratio.min <= ratio.ratio.median && ratio.ratio.median <= ratio.ratio.max)
                || ratio.rounds < 1
            {
                throw ResultsInputError(
                    "\(role) file '\(path)' is malformed: ratios[\(index)]: negative, non-finite or unordered ratio '\(ratio.label)'")
            }
        }
    }

    private static func describe(_ error: DecodingError) -> String {
        func path(_ codingPath: [any CodingKey]) -> String {
            let text = codingPath.map { key in key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)" }.joined()
            return text.isEmpty ? "top level" : String(text.drop { $0 == "." })
        }
        switch error {
        case .keyNotFound(let key, let context):
            let at = context.codingPath.isEmpty ? "" : " in \(path(context.codingPath))"
            return "missing field '\(key.stringValue)'\(at)"
        case .typeMismatch(let type, let context):
            return "wrong type at \(path(context.codingPath)) (expected \(type))"
        case .valueNotFound(let type, let context):
            return "null value at \(path(context.codingPath)) (expected \(type))"
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty { return "not valid JSON" }
            return "invalid value at \(path(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }
}
