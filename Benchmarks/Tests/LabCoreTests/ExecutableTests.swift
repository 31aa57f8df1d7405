import Foundation
import Testing
@testable import LabCore

/// The `swiftrex-lab` executable next to the test bundle (SwiftPM builds it with the tests).
private let labExecutable: URL? = {
    let directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    let candidates = [directory, directory.deletingLastPathComponent()].map { $0.appendingPathComponent("swiftrex-lab") }
    return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
}()

/// Runs the lab with `arguments`; returns its exit status and combined output.
private func runLab(_ arguments: [String]) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = labExecutable
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}

@Suite("Executable end to end", .enabled(if: labExecutable != nil, "swiftrex-lab is not built next to the tests"))
struct ExecutableTests {
    @Test("compare exit codes: 0 identical, 2 planted regression, 4 improvement, 3 missing or malformed")
    func compareExitCodes() throws {
        let good = try Fixture.temporaryFile(ResultsIO.encode(Fixture.results()))
        let worse = try Fixture.temporaryFile(ResultsIO.encode(Fixture.results().modifying("reducer.single") { $0.allocsPerOp += 1 }))
        let broken = try Fixture.temporaryFile(Data("{".utf8))
        #expect(try runLab(["compare", good, good]).status == 0)
        #expect(try runLab(["compare", worse, good, "--time-advisory"]).status == 2)
        #expect(try runLab(["compare", good, worse]).status == 4)
        let missing = try runLab(["compare", good, "/nonexistent/baseline.json"])
        #expect(missing.status == 3)
        #expect(missing.output.contains("baseline file '/nonexistent/baseline.json' does not exist"))
        #expect(try runLab(["compare", good, broken]).status == 3)
        #expect(try runLab(["--bogus"]).status == 64)
    }

    @Test("--list names the baselines")
    func list() throws {
        let result = try runLab(["--list"])
        #expect(result.status == 0)
        #expect(result.output.contains("naive.dispatch") && result.output.contains("raw.dispatch"))
    }
}
