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
        var noInstructions = RunOptions()
        noInstructions.countInstructions = false
        noInstructions.filter = "store.,stack."
        #expect(try parseCommandLine(["--no-instructions", "--filter", "store.,stack."]) == .run(noInstructions))
    }

    @Test("the summary's command")
    func summary() throws {
        #expect(try parseCommandLine(["summary", "b.json", "--output", "b.md"]) == .summary(file: "b.json", output: "b.md"))
        #expect(try parseCommandLine(["summary", "b.json"]) == .summary(file: "b.json", output: nil))
        #expect(throws: UsageError.self) { try parseCommandLine(["summary"]) }
        #expect(throws: UsageError.self) { try parseCommandLine(["summary", "a.json", "b.json"]) }
    }

    @Test("the instruction pass's command")
    func countInstructions() throws {
        #expect(
            try parseCommandLine(["count-instructions", "--output", "/tmp/i.json", "--filter", "store."])
                == .countInstructions(filter: "store.", output: "/tmp/i.json"))
        #expect(throws: UsageError.self) { try parseCommandLine(["count-instructions"]) }
    }

    @Test("the allocation pass's command")
    func countAllocations() throws {
        #expect(
            try parseCommandLine(["count-allocations", "--output", "/tmp/a.json", "--filter", "effects."])
                == .countAllocations(filter: "effects.", output: "/tmp/a.json"))
        #expect(try parseCommandLine(["count-allocations", "--output", "/tmp/a.json"]) == .countAllocations(filter: nil, output: "/tmp/a.json"))
        #expect(throws: UsageError("count-allocations needs --output FILE")) { try parseCommandLine(["count-allocations"]) }
        #expect(throws: UsageError("unknown count-allocations option '--quick'")) { try parseCommandLine(["count-allocations", "--quick"]) }
    }

    @Test("compare options")
    func compare() throws {
        let command = try parseCommandLine(["compare", "a.json", "b.json", "--time-tolerance", "0.25", "--time-advisory"])
        #expect(
            command == .compare(current: "a.json", baseline: "b.json", options: CompareOptions(timeTolerance: 0.25, timeAdvisory: true), chart: nil))
        let gates = try parseCommandLine([
            "compare", "a.json", "b.json", "--bytes-tolerance", "16", "--instruction-tolerance", "0.05", "--stack-tolerance", "1024", "--chart",
            "c.svg",
        ])
        #expect(
            gates
                == .compare(
                    current: "a.json", baseline: "b.json",
                    options: CompareOptions(bytesTolerance: 16, instructionTolerance: 0.05, stackTolerance: 1024), chart: "c.svg"))
    }

    @Test("profile options")
    func profile() throws {
        let command = try parseCommandLine(["--profile-scenario", "reducer.single", "--iterations", "50"])
        #expect(command == .profile(ProfileOptions(scenario: "reducer.single", size: nil, iterations: 50, dumpPath: nil)))
    }

    @Test("soak options")
    func soak() throws {
        #expect(try parseCommandLine(["--soak"]) == .soak(SoakOptions()))
        var expected = SoakOptions()
        expected.actions = 5_000
        expected.elements = 1_000
        expected.outputDirectory = "/tmp/out"
        expected.writeFiles = false
        #expect(try parseCommandLine(["--soak", "--actions", "5000", "--elements", "1000", "--output", "/tmp/out", "--no-write"]) == .soak(expected))
        #expect(
            try parseCommandLine(["--actions", "10", "--soak"])
                == .soak(
                    {
                        var options = SoakOptions()
                        options.actions = 10
                        return options
                    }()))
    }

    @Test("soak memory tolerance")
    func soakTolerance() {
        let start = 400 << 20
        #expect(SoakReport.allowedGrowth(start: start) == 8 << 20)
        #expect(SoakReport.allowedGrowth(start: 10 << 20) == 8 << 20)
        #expect(SoakReport.memoryHeld(start: start, end: start + (8 << 20)))
        #expect(SoakReport.memoryHeld(start: start, end: start - (100 << 20)))
        #expect(!SoakReport.memoryHeld(start: start, end: start + (8 << 20) + 1))
    }

    @Test(
        "usage errors",
        arguments: [
            ["--bogus"], ["--filter"], ["compare", "a.json"], ["compare", "a", "b", "--time-tolerance", "x"], ["--size", "3"],
            ["--soak", "--actions", "0"], ["--soak", "--quick"], ["--actions", "5"], ["--filter", ","],
            ["compare", "a", "b", "--stack-tolerance", "-1"],
        ])
    func errors(arguments: [String]) {
        #expect(throws: UsageError.self) { try parseCommandLine(arguments) }
    }
}
