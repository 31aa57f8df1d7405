import Foundation
import CJemalloc
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
            case let .run(options):
                code = await runBenchmarks(options)
            case let .compare(current, baseline, options):
                code = compare(current: current, baseline: baseline, options: options)
            case let .profile(options):
                code = await profile(options)
            case let .soak(options):
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

    /// The repository root: from this source file's path when it still exists,
    /// else the first ancestor of the working directory holding `Benchmarks/Package.swift`.
    static func repositoryRoot() -> String? {
        let fileManager = FileManager.default
        let fromSource = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        if fileManager.fileExists(atPath: fromSource.appendingPathComponent("Benchmarks/Package.swift").path) {
            return fromSource.path
        }
        var directory = URL(fileURLWithPath: fileManager.currentDirectoryPath)
        while directory.path != "/" {
            if fileManager.fileExists(atPath: directory.appendingPathComponent("Benchmarks/Package.swift").path) {
                return directory.path
            }
            directory.deleteLastPathComponent()
        }
        return nil
    }

    static func runBenchmarks(_ options: RunOptions) async -> ExitCode {
        let counter: AllocationCounter
        do {
            counter = try AllocationCounter()
            try counter.calibrate(objects: 1000)
        } catch {
            return fail("\(error)\nRefusing to run: allocation figures would be wrong. Build with jemalloc linked (libjemalloc-dev, pkg-config jemalloc).")
        }
        let scenarios = ScenarioRegistry.all
        let jobs = Runner.jobs(scenarios, filter: options.filter)
        if let filter = options.filter, !jobs.contains(where: { !$0.0.isBaseline }) {
            return fail("no scenario matches --filter '\(filter)' (see --list)", .usage)
        }
        let configuration = options.quick ? RunConfiguration.quick : RunConfiguration.full
        let root = repositoryRoot()
        let metadata = MachineInfo.collect(mode: configuration.mode, filter: options.filter, repositoryRoot: root)
        print("swiftrex-lab: \(jobs.count) benchmarks, \(configuration.mode) mode (\(configuration.samples) samples × ~\(configuration.targetSampleNanoseconds / 1_000_000) ms; allocations over \(configuration.allocationIterations) iterations, min of \(configuration.allocationRepeats))")
        print("calibration: 1000 allocations counted exactly (\(metadata.allocator ?? "jemalloc")); revision \(metadata.gitRevision.prefix(12)); \(metadata.toolchain)")
        let runner = Runner(configuration: configuration, counter: counter, log: { print($0) })
        let records = await runner.run(scenarios, filter: options.filter)
        let file = ResultsFile(metadata: metadata, benchmarks: records)
        print("")
        print(Reports.table(file))
        guard options.writeFiles else { return .success }

        let directory = options.outputDirectory ?? (root.map { $0 + "/Results" } ?? FileManager.default.currentDirectoryPath + "/Results")
        do {
            try ResultsIO.write(file, to: directory + "/latest.json")
            let charts = SVGChart.chartedScenarios(file)
            try FileManager.default.createDirectory(atPath: directory + "/charts", withIntermediateDirectories: true)
            for chart in charts {
                try Data(SVGChart.chart(for: chart, in: file).utf8).write(to: URL(fileURLWithPath: directory + "/charts/\(chart).svg"))
            }
            try Data(Reports.markdown(file, charts: charts).utf8).write(to: URL(fileURLWithPath: directory + "/latest.md"))
            print("\nwrote \(directory)/latest.json, latest.md and \(charts.count) chart(s) in charts/")
        } catch {
            return fail("cannot write results to \(directory): \(error)")
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
        return report.passed ? .success : fail("resident memory grew by \(report.residentBytesEnd - report.residentBytesStart) bytes, more than the \(report.allowedGrowthBytes) allowed")
    }

    static func compare(current: String, baseline: String, options: CompareOptions) -> ExitCode {
        let result = runCompare(currentPath: current, baselinePath: baseline, options: options)
        if result.exitCode == .badInput {
            return fail(result.output, .badInput)
        }
        print(result.output)
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
            print("ran \(label): \(options.iterations) iterations (jemalloc heap profiling is off: \(HeapProfiler.isSupported ? "start with MALLOC_CONF=prof:true" : "this jemalloc lacks --enable-prof"))")
        }
        if let delta, delta.count > 0 || profiling {
            print("jemalloc counted \(delta.count) allocations in the loop (\(format(Double(delta.count) / Double(options.iterations))) per op), \(delta.bytes) bytes")
        }
        return .success
    }
}
