import Foundation

@testable import LabCore

/// Builders of in-memory results files for the tests.
enum Fixture {
    static let metadata = MachineMetadata(
        host: "lab", cores: 2, memoryBytes: 24 << 30, cpu: "Test CPU", kernel: "Linux 6.0",
        toolchain: "Swift version 6.3.1", allocator: "jemalloc 5.3.0", date: "2025-01-01T00:00:00Z",
        gitRevision: "abc123", gitDirty: false, mode: "quick", instructionCounter: "valgrind-3.19.0 callgrind"
    )

    static func record(_ name: String, size: Int? = nil, ns: Double, allocs: Double = 0, bytes: Double = 0) -> BenchmarkRecord {
        BenchmarkRecord(
            name: name, size: size, nsPerOp: Summary(min: ns * 0.9, median: ns, p90: ns * 1.1, max: ns * 1.2), allocsPerOp: allocs, bytesPerOp: bytes)
    }

    /// A plausible complete results file: baselines, an unsized and a flat sized scenario; with
    /// `instructions`, every record carries an instruction figure (40 × its ns).
    static func results(instructions: Bool = false) -> ResultsFile {
        var records = [
            record("raw.dispatch", ns: 1),
            record("naive.dispatch", ns: 10),
            record("reducer.single", ns: 3),
            record("behavior.react.produce", ns: 200, allocs: 4, bytes: 256),
        ]
        for size in [100, 1_000, 10_000, 100_000] {
            records.append(record("endomut.zerocopy", size: size, ns: 2))
        }
        if instructions {
            for index in records.indices { records[index].instructionsPerOp = 40 * records[index].nsPerOp.median }
        }
        return ResultsFile(metadata: metadata, benchmarks: records)
    }

    /// Writes `data` to a fresh temporary file and returns its path.
    static func temporaryFile(_ data: Data, name: String = "results.json") throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lab-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent(name)
        try data.write(to: url)
        return url.path
    }
}

extension ResultsFile {
    /// A copy with the record `name`/`size` changed by `change`.
    func modifying(_ name: String, size: Int? = nil, _ change: (inout BenchmarkRecord) -> Void) -> ResultsFile {
        var copy = self
        let index = copy.benchmarks.firstIndex { $0.name == name && $0.size == size }!
        change(&copy.benchmarks[index])
        return copy
    }
}
