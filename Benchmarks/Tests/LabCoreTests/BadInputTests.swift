import Foundation
import Testing

@testable import LabCore

// The lab's share of the bad-input catalogue (Tests/SwiftRexTests/BadInput/README.md): malformed
// results files and a missing jemalloc. Defined outcomes: `compare` exits 3 (`ExitCode.badInput`)
// with a message naming the role, the path and the problem; a missing jemalloc is installed by
// `ensure_jemalloc` or stops the scripts with a clear error and exit 1; a lab that cannot count
// allocations refuses to run (exit 1).

/// Writes `text` to a temporary results file.
private func file(_ text: String) throws -> String {
    try Fixture.temporaryFile(Data(text.utf8))
}

/// A valid results file as a JSON object, to break one piece at a time.
private func validObject() throws -> [String: Any] {
    try #require(JSONSerialization.jsonObject(with: ResultsIO.encode(Fixture.results())) as? [String: Any])
}

private func json(_ object: Any) throws -> String {
    String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
}

@Suite("Bad input: malformed results files")
struct MalformedResultsTests {
    /// Runs `compare` with `broken` as the baseline and a good current file.
    private func compareAgainst(_ broken: String) throws -> (output: String, exitCode: ExitCode) {
        let good = try Fixture.temporaryFile(ResultsIO.encode(Fixture.results()))
        return runCompare(currentPath: good, baselinePath: broken, options: CompareOptions())
    }

    @Test("an empty file is not valid JSON: exit 3")
    func emptyFile() throws {
        let path = try file("")
        let result = try compareAgainst(path)
        #expect(result.exitCode == .badInput)
        #expect(result.output == "error: baseline file '\(path)' is malformed: not valid JSON")
    }

    @Test("a truncated file is not valid JSON: exit 3")
    func truncatedFile() throws {
        let whole = String(decoding: try ResultsIO.encode(Fixture.results()), as: UTF8.self)
        let path = try file(String(whole.prefix(whole.count / 2)))
        let result = try compareAgainst(path)
        #expect(result.exitCode == .badInput)
        #expect(result.output.contains("baseline file '\(path)' is malformed: not valid JSON"))
    }

    @Test("JSON of the wrong shape is a wrong type at the top level: exit 3")
    func wrongShape() throws {
        let path = try file("[1, 2, 3]")
        let result = try compareAgainst(path)
        #expect(result.exitCode == .badInput)
        #expect(result.output.contains("is malformed: wrong type at top level"))
    }

    @Test("another schema version is named: exit 3")
    func otherSchemaVersion() throws {
        var object = try validObject()
        for version in [1, ResultsFile.currentSchemaVersion + 1] {
            object["schemaVersion"] = version
            let path = try file(json(object))
            let result = try compareAgainst(path)
            #expect(result.exitCode == .badInput)
            #expect(result.output.contains("has schemaVersion \(version); this lab reads version \(ResultsFile.currentSchemaVersion)"))
        }
    }

    @Test("a missing field is named with its path: exit 3", arguments: ["schemaVersion", "metadata", "benchmarks"])
    func missingTopLevelField(field: String) throws {
        var object = try validObject()
        object.removeValue(forKey: field)
        let result = try compareAgainst(file(json(object)))
        #expect(result.exitCode == .badInput)
        #expect(result.output.contains("missing field '\(field)'"))
    }

    @Test("a missing metadata field is named with its path: exit 3")
    func missingMetadataField() throws {
        var object = try validObject()
        var metadata = try #require(object["metadata"] as? [String: Any])
        metadata.removeValue(forKey: "host")
        object["metadata"] = metadata
        let result = try compareAgainst(file(json(object)))
        #expect(result.exitCode == .badInput)
        #expect(result.output.contains("missing field 'host' in metadata"))
    }

    @Test("a value of the wrong type is named with its path: exit 3")
    func wrongFieldType() throws {
        var object = try validObject()
        var benchmarks = try #require(object["benchmarks"] as? [[String: Any]])
        benchmarks[1]["allocsPerOp"] = "many"
        object["benchmarks"] = benchmarks
        let result = try compareAgainst(file(json(object)))
        #expect(result.exitCode == .badInput)
        #expect(result.output.contains("wrong type at benchmarks[1].allocsPerOp"))
    }

    @Test("a negative measurement is rejected: exit 3")
    func negativeMeasurement() throws {
        let broken = Fixture.results().modifying("reducer.single") { $0.allocsPerOp = -1 }
        let result = try compareAgainst(Fixture.temporaryFile(ResultsIO.encode(broken)))
        #expect(result.exitCode == .badInput)
        #expect(result.output.contains("negative or non-finite measurement in 'reducer.single'"))
    }

    @Test("a malformed current file is named as the current one: exit 3")
    func malformedCurrent() throws {
        let broken = try file("{")
        let good = try Fixture.temporaryFile(ResultsIO.encode(Fixture.results()))
        let result = runCompare(currentPath: broken, baselinePath: good, options: CompareOptions())
        #expect(result.exitCode == .badInput)
        #expect(result.output.hasPrefix("error: current file '\(broken)' is malformed"))
    }

    @Test("the bad-input exit code is 3, distinct from regression and usage")
    func exitCodeValues() {
        #expect(ExitCode.badInput.rawValue == 3)
        #expect(Set([ExitCode.success, .failure, .regression, .badInput, .improvement, .usage].map(\.rawValue)).count == 6)
    }
}

/// The shared script helpers, next to this file's package.
private let labEnvironmentScript = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("lab-env.sh").path

/// Runs `ensure_jemalloc` from `lab-env.sh` with a PATH holding only the given fake commands
/// (plus `dirname`, which the script needs); returns the exit status and stderr.
private func ensureJemalloc(fakes: [String: String]) throws -> (status: Int32, stderr: String) {
    try runLabEnvironment("ensure_jemalloc", fakes: fakes)
}

/// Writes an executable script through a descriptor closed on `exec`. Tests run in parallel and
/// other tests spawn processes: a descriptor inherited by one of those children keeps the file
/// open for writing, and running the script then fails with "Text file busy" (seen once in a
/// full test run).
private func writeExecutable(_ path: String, _ text: String) throws {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
    guard descriptor >= 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path]) }
    defer { close(descriptor) }
    let bytes = Array(text.utf8)
    let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    guard written == bytes.count else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path]) }
}

/// Runs `function` from `lab-env.sh` with a PATH holding only the given fake commands (plus
/// `dirname`); returns the exit status and stderr.
private func runLabEnvironment(_ function: String, fakes: [String: String]) throws -> (status: Int32, stderr: String) {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fake-bin-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    for (name, body) in fakes {
        try writeExecutable(directory.appendingPathComponent(name).path, "#!/bin/sh\n\(body)\n")
    }
    for tool in ["dirname"] {
        if let real = ["/usr/bin/\(tool)", "/bin/\(tool)"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) {
            try FileManager.default.createSymbolicLink(atPath: directory.appendingPathComponent(tool).path, withDestinationPath: real)
        }
    }
    let result = try Subprocess.capture(
        "/bin/bash", ["-c", "set -euo pipefail; source \"$1\"; \(function)", "bash", labEnvironmentScript],
        environment: ["PATH": directory.path], standardError: .captureInstead)
    return (result.status, String(decoding: result.output, as: UTF8.self))
}

@Suite("Bad input: missing jemalloc", .enabled(if: FileManager.default.isExecutableFile(atPath: "/bin/bash"), "needs bash"))
struct MissingJemallocTests {
    @Test("found by pkg-config: nothing to do")
    func present() throws {
        let result = try ensureJemalloc(fakes: ["pkg-config": "exit 0"])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
    }

    @Test("missing, not root and no sudo: a clear error and exit 1")
    func missingWithoutPrivileges() throws {
        let result = try ensureJemalloc(fakes: ["pkg-config": "exit 1", "id": "echo 1000"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("jemalloc not found by pkg-config"))
        #expect(result.stderr.contains("error: need root (or sudo) to install libjemalloc-dev"))
    }

    @Test("installed but still invisible to pkg-config: a clear error and exit 1")
    func stillMissingAfterInstall() throws {
        let result = try ensureJemalloc(fakes: ["pkg-config": "exit 1", "id": "echo 0", "apt-get": "exit 0"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("error: jemalloc still not visible to pkg-config"))
    }

    @Test("a lab that cannot count allocations explains why")
    func counterErrorsAreExplained() {
        #expect(AllocationCounterError.unavailable(name: "epoch", code: 2).description.contains("is libjemalloc (with stats) linked?"))
        #expect(AllocationCounterError.jemallocNotActive.description.contains("jemalloc is not the active allocator"))
        #expect(
            AllocationCounterError.calibrationMismatch(expected: 1000, measured: 7).description.contains(
                "made 1000 allocations but jemalloc reported 7"))
    }
}

@Suite("Bad input: missing valgrind", .enabled(if: FileManager.default.isExecutableFile(atPath: "/bin/bash"), "needs bash"))
struct MissingValgrindTests {
    @Test("missing, not root and no sudo: a clear error and exit 1")
    func missingWithoutPrivileges() throws {
        let result = try runLabEnvironment("ensure_valgrind", fakes: ["id": "echo 1000"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("valgrind not found"))
        #expect(result.stderr.contains("error: need root (or sudo) to install valgrind; or run the lab with --no-instructions"))
    }

    @Test("installed but still not on PATH: a clear error and exit 1")
    func stillMissingAfterInstall() throws {
        let result = try runLabEnvironment("ensure_valgrind", fakes: ["id": "echo 0", "apt-get": "exit 0"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("error: valgrind still not on PATH after installing it"))
    }

    @Test("a run that cannot count instructions stops before measuring, naming both ways out")
    func preflightExplains() {
        #expect(throws: InstructionCounterError.valgrindMissing) { try InstructionPass.preflight(path: "/nonexistent") }
        let message = InstructionCounterError.valgrindMissing.description
        #expect(message.contains("apt-get install valgrind") && message.contains("--no-instructions"))
        #expect(InstructionCounterError.clientRequestsMissing.description.contains("rebuild the lab"))
        #expect(InstructionCounterError.notUnderValgrind.description.contains("started without valgrind"))
    }
}

@Suite("Bad input: unusable callgrind output")
struct CallgrindOutputTests {
    private let dump = """
        version: 1
        creator: callgrind-3.19.0
        cmd:  swiftrex-lab count-instructions
        part: 3
        desc: Trigger: Client Request: store.dispatch.reducer x256
        events: Ir
        summary: 70144
        totals: 70144
        """

    @Test("the totals of the expected dump are read")
    func reads() throws {
        #expect(try CallgrindSession.parseTotal(dump, path: "cg.out.3", trigger: "store.dispatch.reducer x256") == 70_144)
    }

    @Test("a dump of another region is refused")
    func wrongTrigger() {
        #expect {
            try CallgrindSession.parseTotal(dump, path: "cg.out.3", trigger: "reducer.single x256")
        } throws: { error in
            "\(error)".contains(
                "callgrind output 'cg.out.3' is unusable: expected the dump of 'reducer.single x256', found 'Client Request: store.dispatch.reducer x256'"
            )
        }
    }

    @Test("a dump without totals is refused")
    func noTotals() {
        #expect(throws: InstructionCounterError.unreadableOutput(path: "cg.out.1", problem: "no 'totals:' or 'summary:' line")) {
            try CallgrindSession.parseTotal("events: Ir\n", path: "cg.out.1", trigger: nil)
        }
    }

    @Test("a missing dump file is refused")
    func missingFile() {
        #expect(throws: InstructionCounterError.unreadableOutput(path: "/nonexistent/cg.out.1", problem: "the file does not exist")) {
            try CallgrindSession.readTotal(path: "/nonexistent/cg.out.1", trigger: nil)
        }
    }
}
