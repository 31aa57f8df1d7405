import CJemalloc
import Foundation
import LabCore

/// Entry point of `swiftrex-lab`: benchmarks, compare and allocation profiling.
@main
@MainActor
struct SwiftRexLab {
    /// Parses the command line, runs the command, exits with its code.
    static func main() async {
        swiftrex_lab_unbuffer_stdout() // setbuf(stdout, nil): progress lines appear at once
        let code: ExitCode
        do {
            switch try parseCommandLine(Array(CommandLine.arguments.dropFirst())) {
            case .help:
                print(labUsage)
                code = .success
            case .list:
                for scenario in ScenarioRegistry.all {
                    print(scenario.name + (scenario.sizes.map { "  sizes: " + $0.map(String.init).joined(separator: ", ") } ?? ""))
                }
                code = .success
            case .run(let options):
                code = await runBenchmarks(options)
            case .compare(let current, let baseline, let options, let chart):
                code = compare(current: current, baseline: baseline, options: options, chart: chart)
            case .summary(let file, let output, let article):
                code = summarize(file, output: output, article: article)
            case .countInstructions(let filter, let output):
                code = await countInstructions(filter: filter, output: output)
            case .countAllocations(let filter, let output):
                code = await countAllocations(filter: filter, output: output)
            case .profile(let options):
                code = await profile(options)
            case .soak(let options):
                code = await soak(options)
            }
        } catch {
            FileHandle.standardError.write(Data("swiftrex-lab: \(error)\n\n\(labUsage)\n".utf8))
            code = .usage
        }
        exit(code.rawValue)
    }

    static func fail(_ message: String, _ code: ExitCode = .failure) -> ExitCode {
        FileHandle.standardError.write(Data("swiftrex-lab: \(message)\n".utf8))
        return code
    }

    /// The repository root: the first ancestor of this executable (it is built inside
    /// `Benchmarks/.build/`), else of the working directory, holding `Benchmarks/Package.swift`.
    /// (Not `#filePath`: a source path compiled into the binary would make its layout, and so
    /// the instruction counts of code that hashes addresses, depend on where it was built.)
    static func repositoryRoot() -> String? {
        let fileManager = FileManager.default
        func search(from start: URL) -> String? {
            var directory = start
            while directory.path != "/" && !directory.path.isEmpty {
                if fileManager.fileExists(atPath: directory.appendingPathComponent("Benchmarks/Package.swift").path) {
                    return directory.path
                }
                directory.deleteLastPathComponent()
            }
            return nil
        }
        return search(from: URL(fileURLWithPath: executablePath()).deletingLastPathComponent())
            ?? search(from: URL(fileURLWithPath: fileManager.currentDirectoryPath))
    }

    /// Runs the benchmarks: times them here, counts their allocations and instructions in second
    /// processes, prints the table and writes the results.
    static func runBenchmarks(_ options: RunOptions) async -> ExitCode {
        let counter: AllocationCounter
        let sizeClasses: SizeClassCalibration
        do {
            (counter, sizeClasses) = try calibratedCounter()
        } catch {
            return fail(
                "\(error)\nRefusing to run: allocation figures would be wrong. Build with jemalloc linked (libjemalloc-dev, pkg-config jemalloc).")
        }
        if options.countInstructions {
            do {
                try InstructionPass.preflight()
            } catch {
                return fail("\(error)")
            }
        }
        let scenarios = ScenarioRegistry.all
        let jobs = Runner.jobs(scenarios, filter: options.filter)
        if let filter = options.filter, !jobs.contains(where: { !$0.0.isBaseline }) {
            return fail("no scenario matches --filter '\(filter)' (prefixes of names, see --list)", .usage)
        }
        let started = monotonicNanoseconds()
        let configuration = options.quick ? RunConfiguration.quick : RunConfiguration.full
        let root = repositoryRoot()
        var metadata = MachineInfo.collect(mode: configuration.mode, filter: options.filter, repositoryRoot: root)
        print(
            "swiftrex-lab: \(jobs.count) benchmarks, \(configuration.mode) mode (up to \(configuration.samples) samples × ~\(formatDuration(Double(configuration.targetSampleNanoseconds))); allocations over \(configuration.allocationIterations) iterations, until a reading repeats)"
        )
        print(
            "calibration: 1000 objects and \(sizeClasses.summary) counted exactly (\(metadata.allocator ?? "jemalloc")); revision \(metadata.gitRevision.prefix(12)); \(metadata.toolchain)"
        )
        // Times are taken here, with the runtime's executors and whatever MALLOC_CONF says (thread
        // caches on by default, as an app runs); allocations are counted by a second process with
        // thread caches off and every job on the main thread, where they repeat exactly.
        metadata.allocatorSettings =
            "timed with MALLOC_CONF='\(ProcessInfo.processInfo.environment["MALLOC_CONF"] ?? "")'; allocations counted in a second process with MALLOC_CONF=\(AllocationPass.mallocConfiguration) and every job on the main thread"
        print("allocator: \(metadata.allocatorSettings!)")
        let runner = Runner(configuration: configuration, counter: counter, countsAllocations: false, log: { print($0) })
        var records = await runner.run(scenarios, filter: options.filter)
        print(
            "\npaired ratios: \(configuration.ratioRounds) rounds of ~\(formatDuration(Double(configuration.ratioSampleNanoseconds))) samples, the two scenarios alternating"
        )
        let ratios = options.measureRatios ? await runner.measureRatios(RatioRegistry.all, scenarios: scenarios, filter: options.filter) : []
        do {
            records = try countAllocationsInSecondProcess(filter: options.filter, merging: records)
        } catch {
            return fail("\(error)")
        }
        let nativeSeconds = Double(monotonicNanoseconds() - started) / 1e9

        if options.countInstructions {
            do {
                try countInstructionsUnderCallgrind(jobs: jobs, filter: options.filter, records: &records, metadata: &metadata)
            } catch {
                return fail("\(error)")
            }
        }
        let file = ResultsFile(metadata: metadata, benchmarks: records, ratios: ratios)
        print("")
        print(Reports.table(file))
        print(
            "\nmeasured in \(fixed(Double(monotonicNanoseconds() - started) / 1e9, digits: 1)) s (time, allocations, bytes, stack: \(fixed(nativeSeconds, digits: 1)) s)"
        )
        guard options.writeFiles else { return .success }
        return writeResults(file, to: options.outputDirectory, root: root)
    }

    /// A run's allocation pass: counts the selected scenarios again in a second process (thread
    /// caches off, every job on the main thread, where the counts repeat) and returns `records`
    /// with those counts.
    private static func countAllocationsInSecondProcess(filter: String?, merging records: [BenchmarkRecord]) throws -> [BenchmarkRecord] {
        let passStart = monotonicNanoseconds()
        print("\nallocations: counting in a second process with MALLOC_CONF=\(AllocationPass.mallocConfiguration), every job on the main thread")
        let measurements = try AllocationPass.run(executable: executablePath(), filter: filter, log: { print("  " + $0) })
        let merged = AllocationPass.merge(measurements, into: records)
        print("allocations: \(fixed(Double(monotonicNanoseconds() - passStart) / 1e9, digits: 1)) s")
        return merged
    }

    /// A run's instruction pass: counts the selected scenarios under valgrind's callgrind in a
    /// second process, merges the counts into `records` and names the counter in `metadata`.
    private static func countInstructionsUnderCallgrind(
        jobs: [(Scenario, Int?)], filter: String?, records: inout [BenchmarkRecord], metadata: inout MachineMetadata
    ) throws {
        let passStart = monotonicNanoseconds()
        print(
            "\ninstructions: counting under valgrind's callgrind (deterministic; \(jobs.filter { $0.0.countsInstructions(size: $0.1) }.count) of \(jobs.count) benchmarks)"
        )
        let pass = try InstructionPass.run(executable: executablePath(), filter: filter, log: { print("  " + $0) })
        records = InstructionPass.merge(pass.measurements, into: records)
        metadata.instructionCounter = pass.counter
        print("instructions: \(fixed(Double(monotonicNanoseconds() - passStart) / 1e9, digits: 1)) s under valgrind")
    }

    /// Writes a run's results: `latest.json`, `latest.md` and the charts (each drawn against the
    /// committed baseline when there is one) in `outputDirectory`, by default the repository's
    /// `Results/`.
    private static func writeResults(_ file: ResultsFile, to outputDirectory: String?, root: String?) -> ExitCode {
        let directory = outputDirectory ?? (root.map { $0 + "/Results" } ?? FileManager.default.currentDirectoryPath + "/Results")
        do {
            try ResultsIO.write(file, to: directory + "/latest.json")
            // The committed baseline, when there is one next to the results, is drawn on every chart.
            let baselinePath = (root.map { $0 + "/Results" } ?? directory) + "/baseline.json"
            let baseline = FileManager.default.fileExists(atPath: baselinePath) ? try? ResultsIO.load(path: baselinePath, role: "baseline") : nil
            let charts = SVGChart.chartedScenarios(file)
            try FileManager.default.createDirectory(atPath: directory + "/charts", withIntermediateDirectories: true)
            for chart in charts {
                try Data(SVGChart.chart(for: chart, in: file, baseline: baseline).utf8).write(
                    to: URL(fileURLWithPath: directory + "/charts/\(chart).svg"))
            }
            if let baseline {
                try Data(SVGChart.comparison(current: file, baseline: baseline).utf8).write(
                    to: URL(fileURLWithPath: directory + "/charts/\(Reports.comparisonChartName).svg"))
            }
            try Data(Reports.markdown(file, charts: charts, comparisonChart: baseline != nil).utf8).write(
                to: URL(fileURLWithPath: directory + "/latest.md"))
            print("\nwrote \(directory)/latest.json, latest.md and \(charts.count + (baseline == nil ? 0 : 1)) chart(s) in charts/")
        } catch {
            return fail("cannot write results to \(directory): \(error)")
        }
        return .success
    }

    /// Writes (or prints) the Markdown summary of a results file.
    static func summarize(_ path: String, output: String?, article: String?) -> ExitCode {
        do {
            let results = try ResultsIO.load(path: path, role: "results")
            if let article {
                let url = URL(fileURLWithPath: article)
                guard let text = try? String(contentsOf: url, encoding: .utf8) else { return fail("cannot read the article \(article)", .badInput) }
                try Data(ArticleFigures.updating(text, from: results).utf8).write(to: url)
                print("updated the figures of \(article)")
            }
            let summary = Reports.baselineSummary(results)
            guard let output else {
                print(summary, terminator: "")
                return .success
            }
            try Data(summary.utf8).write(to: URL(fileURLWithPath: output))
            print("wrote \(output)")
            return .success
        } catch let error as MissingFigures {
            return fail("\(error)", .badInput)
        } catch let error as ResultsInputError {
            return fail("\(error)", .badInput)
        } catch {
            return fail("cannot write \(output ?? "the summary"): \(error)")
        }
    }

    /// This executable's path (for the instruction pass, which runs it again under valgrind).
    static func executablePath() -> String {
        if let resolved = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return resolved }
        return URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.path
    }

    /// The instruction pass (runs under callgrind, started by `runBenchmarks`): counts every
    /// selected scenario whose ``InstructionCounting`` allows it and writes the figures as JSON.
    static func countInstructions(filter: String?, output: String) async -> ExitCode {
        guard let base = ProcessInfo.processInfo.environment[CallgrindSession.outputEnvironmentKey] else {
            return fail("count-instructions needs \(CallgrindSession.outputEnvironmentKey) (swiftrex-lab run sets it)", .usage)
        }
        let session: CallgrindSession
        do {
            session = try CallgrindSession(outputBase: base)
        } catch {
            return fail("\(error)")
        }
        let jobs = Runner.jobs(ScenarioRegistry.all, filter: filter).filter { $0.0.countsInstructions(size: $0.1) }
        var measurements: [InstructionMeasurement] = []
        let width = String(jobs.count).count
        // Progress lines carry no timings: what the pass allocates must not depend on the clock,
        // or the heap's history (and so the allocator's paths in later scenarios) would.
        for (index, (scenario, size)) in jobs.enumerated() {
            let key = RecordKey(name: scenario.name, size: size)
            do {
                // Set up and counted in an arena of its own: the count does not depend on what
                // earlier scenarios (or the process's start) left in the heap.
                let (perOp, iterations) = try await CallgrindSession.inFreshArena {
                    let body = scenario.setup(size)
                    return try await session.instructionsPerOperation(
                        label: key.description, iterations: scenario.fixedInstructionIterations, settle: body.settle, body.run)
                }
                measurements.append(InstructionMeasurement(name: scenario.name, size: size, instructionsPerOp: max(0, perOp), iterations: iterations))
                let position = String(index + 1).leftPaddedForLab(to: width) + "/\(jobs.count)"
                print("[\(position)] \(key): \(format(perOp)) instructions/op (N = \(iterations))")
            } catch {
                return fail("\(key): \(error)")
            }
        }
        do {
            try JSONEncoder().encode(measurements).write(to: URL(fileURLWithPath: output), options: .atomic)
        } catch {
            return fail("cannot write \(output): \(error)")
        }
        return .success
    }

    /// An allocation counter proven exact for 1,000 objects and every size class (throws when a
    /// reading disagrees): what a run and the allocation pass count with.
    static func calibratedCounter() throws -> (counter: AllocationCounter, sizeClasses: SizeClassCalibration) {
        let counter = try AllocationCounter()
        try counter.calibrate(objects: 1000)
        return (counter, try counter.calibrateSizeClasses())
    }

    /// The allocation pass (started by `runBenchmarks` with thread caches off): counts every
    /// selected scenario's allocations and bytes and writes the figures as JSON.
    static func countAllocations(filter: String?, output: String) async -> ExitCode {
        guard !AllocationCounter.threadCachesEnabled else { return fail("\(AllocationPassError.threadCachesOn)") }
        guard AllocationPass.jobsSerialized else { return fail("\(AllocationPassError.jobsNotSerialized)") }
        let counter: AllocationCounter
        do {
            counter = try calibratedCounter().counter
        } catch {
            return fail("\(error)\nRefusing to count: allocation figures would be wrong.")
        }
        let runner = Runner(configuration: .full, counter: counter, log: { print($0) })
        let jobs = Runner.jobs(ScenarioRegistry.all, filter: filter)
        var measurements: [AllocationMeasurement] = []
        let width = String(jobs.count).count
        for (index, (scenario, size)) in jobs.enumerated() {
            let start = monotonicNanoseconds()
            // Another setup first runs as many operations as are counted (a fixed number, so the
            // process's history, and with it the figure, is the same in every run): one-time work
            // of the process (runtime caches, lazily built tables) is then not counted against
            // the scenario.
            let warmUp = scenario.setup(size)
            await warmUp.run(max(scenario.allocationIterations ?? runner.configuration.allocationIterations, scenario.minimumIterations))
            await warmUp.settle?()
            let measurement = await runner.measureAllocations(scenario, size: size, body: scenario.setup(size))
            measurements.append(measurement)
            let position = String(index + 1).leftPaddedForLab(to: width) + "/\(jobs.count)"
            print(
                "[\(position)] \(measurement.key): \(format(measurement.allocsPerOp)) allocs/op, \(format(measurement.bytesPerOp)) B/op (\(fixed(Double(monotonicNanoseconds() - start) / 1e9, digits: 1)) s)"
            )
        }
        do {
            try JSONEncoder().encode(measurements).write(to: URL(fileURLWithPath: output), options: .atomic)
        } catch {
            return fail("cannot write \(output): \(error)")
        }
        return .success
    }

    /// Runs the soak, prints and writes its figures (`soak.json`), and fails when memory grew.
    static func soak(_ options: SoakOptions) async -> ExitCode {
        let counter: AllocationCounter
        do {
            counter = try AllocationCounter()
            try counter.calibrate(objects: 1000)
        } catch {
            return fail("\(error)\nRefusing to run: allocation figures would be wrong.")
        }
        let root = repositoryRoot()
        let metadata = MachineInfo.collect(mode: "soak", filter: nil, repositoryRoot: root)
        let report = await SoakWorkload.run(options, counter: counter, metadata: metadata, log: { print($0) })
        print(report.summary)
        if options.writeFiles {
            let directory = options.outputDirectory ?? (root.map { $0 + "/Results" } ?? FileManager.default.currentDirectoryPath + "/Results")
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
                try report.json().write(to: URL(fileURLWithPath: directory + "/soak.json"), options: .atomic)
                print("wrote \(directory)/soak.json")
            } catch {
                return fail("cannot write \(directory)/soak.json: \(error)")
            }
        }
        return report.passed
            ? .success
            : fail(
                "resident memory grew by \(report.residentBytesEnd - report.residentBytesStart) bytes, more than the \(report.allowedGrowthBytes) allowed"
            )
    }

    static func compare(current: String, baseline: String, options: CompareOptions, chart: String?) -> ExitCode {
        let result = runCompare(currentPath: current, baselinePath: baseline, options: options)
        if result.exitCode == .badInput {
            return fail(result.output, .badInput)
        }
        print(result.output)
        if let chart, let currentFile = try? ResultsIO.load(path: current, role: "current"),
            let baselineFile = try? ResultsIO.load(path: baseline, role: "baseline")
        {
            do {
                let url = URL(fileURLWithPath: chart)
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(SVGChart.comparison(current: currentFile, baseline: baselineFile, options: options).utf8).write(to: url)
                print("chart: \(chart)")
            } catch {
                print("warning: cannot write the chart \(chart): \(error)")
            }
        }
        return result.exitCode
    }

    static func profile(_ options: ProfileOptions) async -> ExitCode {
        guard let scenario = ScenarioRegistry.all.first(where: { $0.name == options.scenario }) else {
            return fail("unknown scenario '\(options.scenario)' (see --list)", .usage)
        }
        let size = options.size ?? scenario.sizes?.max()
        if let sizes = scenario.sizes, let size, !sizes.contains(size) {
            print("note: size \(size) is not one of the registered sizes \(sizes)")
        }
        let body = scenario.setup(size)
        await body.run(options.iterations) // warm-up: one-time lazy allocations are not profiled
        await body.settle?()
        let counter = try? AllocationCounter()
        let label = RecordKey(name: scenario.name, size: scenario.sizes == nil ? nil : size).description
        let profiling = HeapProfiler.isEnabled
        if profiling {
            HeapProfiler.reset()
            HeapProfiler.setActive(true)
        }
        let before = counter?.snapshot()
        await body.run(options.iterations)
        let delta = before.flatMap { before in counter?.snapshot().since(before) }
        if profiling {
            HeapProfiler.setActive(false)
            let path = options.dumpPath ?? "swiftrex-lab.\(scenario.name).heap"
            guard HeapProfiler.dump(to: path) else { return fail("prof.dump to '\(path)' failed") }
            print("profiled \(label): \(options.iterations) iterations; heap profile written to \(path)")
        } else {
            print(
                "ran \(label): \(options.iterations) iterations (jemalloc heap profiling is off: \(HeapProfiler.isSupported ? "start with MALLOC_CONF=prof:true" : "this jemalloc lacks --enable-prof"))"
            )
        }
        await body.settle?()
        if let delta, delta.count > 0 || profiling {
            print(
                "jemalloc counted \(delta.count) allocations in the loop (\(format(Double(delta.count) / Double(options.iterations))) per op), \(delta.bytes) bytes"
            )
        }
        return .success
    }
}

extension String {
    /// Pads with leading spaces to `width` characters.
    func leftPaddedForLab(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
