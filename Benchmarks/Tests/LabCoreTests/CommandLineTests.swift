import Testing
@testable import LabCore

@Suite("Command line")
struct CommandLineTests {
    @Test("run options")
    func run() throws {
        var expected = RunOptions()
        expected.quick = true
        expected.filter = "endomut"
        expected.outputDirectory = "/tmp/out"
        #expect(try parseCommandLine(["--quick", "--filter", "endomut", "--output", "/tmp/out"]) == .run(expected))
        #expect(try parseCommandLine([]) == .run(RunOptions()))
        #expect(try parseCommandLine(["--list"]) == .list)
    }

    @Test("compare options")
    func compare() throws {
        let command = try parseCommandLine(["compare", "a.json", "b.json", "--time-tolerance", "0.25", "--time-advisory"])
        #expect(command == .compare(current: "a.json", baseline: "b.json", options: CompareOptions(timeTolerance: 0.25, timeAdvisory: true)))
    }

    @Test("profile options")
    func profile() throws {
        let command = try parseCommandLine(["--profile-scenario", "reducer.single", "--iterations", "50"])
        #expect(command == .profile(ProfileOptions(scenario: "reducer.single", size: nil, iterations: 50, dumpPath: nil)))
    }

    @Test("usage errors", arguments: [["--bogus"], ["--filter"], ["compare", "a.json"], ["compare", "a", "b", "--time-tolerance", "x"], ["--size", "3"]])
    func errors(arguments: [String]) {
        #expect(throws: UsageError.self) { try parseCommandLine(arguments) }
    }
}
