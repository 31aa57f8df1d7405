/// Options of a benchmark run.
public struct RunOptions: Sendable, Equatable {
    /// `--quick`: fewer, shorter timing samples (allocation, byte, stack and instruction figures
    /// are unchanged).
    public var quick = false
    /// `--filter PREFIX[,PREFIX…]`: only scenarios whose name (or `name/size`) starts with one of
    /// the prefixes (baselines always run).
    public var filter: String?
    /// `--no-instructions`: skip the instruction counts (no valgrind pass).
    public var countInstructions = true
    /// `--output DIR`: results directory (default: `Results/` of the repository root).
    public var outputDirectory: String?
    /// `--no-write`: print the table only.
    public var writeFiles = true
    /// `--no-ratios`: skip the paired time ratios (a plant check's runs, which only compare counts).
    public var measureRatios = true

    /// Default options.
    public init() {}
}

/// Options of `--profile-scenario`.
public struct ProfileOptions: Sendable, Equatable {
    /// Scenario name (exact).
    public var scenario: String
    /// Size for sized scenarios (default: the largest).
    public var size: Int?
    /// Iterations of the measured closure to profile.
    public var iterations: Int
    /// Where to write the jemalloc heap profile.
    public var dumpPath: String?
}

/// A parsed command line.
public enum LabCommand: Sendable, Equatable {
    /// Run the benchmarks.
    case run(RunOptions)
    /// Compare two results files; `chart` is where to draw the latest-against-baseline chart.
    case compare(current: String, baseline: String, options: CompareOptions, chart: String?)
    /// Run one scenario's measured loop under the heap profiler.
    case profile(ProfileOptions)
    /// Run the soak: a long mixed workload, checking that resident memory does not grow.
    case soak(SoakOptions)
    /// The instruction pass, run under callgrind by `run`: counts the selected scenarios and
    /// writes the figures as JSON to `output`.
    case countInstructions(filter: String?, output: String)
    /// The allocation pass, run with thread caches off by `run` when it times with them on:
    /// counts the selected scenarios' allocations and writes the figures as JSON to `output`.
    case countAllocations(filter: String?, output: String)
    /// Write the Markdown summary of a results file (the committed baseline's, `Results/baseline.md`)
    /// to `output`, or print it.
    case summary(file: String, output: String?, article: String? = nil)
    /// List scenario names.
    case list
    /// Print usage.
    case help
}

/// A command-line error (exit 64).
public struct UsageError: Error, CustomStringConvertible, Equatable {
    /// What is wrong.
    public var message: String
    /// Creates an error.
    public init(_ message: String) { self.message = message }
    /// The message.
    public var description: String { message }
}

/// Parses the lab's arguments (without the program name).
public func parseCommandLine(_ arguments: [String]) throws -> LabCommand {
    var cursor = ArgumentCursor(arguments)
    switch cursor.next {
    case "compare":
        cursor.skip()
        return try parseCompare(&cursor)
    case "summary":
        cursor.skip()
        return try parseSummary(&cursor)
    case let pass? where pass == "count-instructions" || pass == "count-allocations":
        cursor.skip()
        return try parseCountingPass(pass, &cursor)
    default:
        if cursor.contains("--soak") { return try parseSoak(&cursor) }
        if cursor.next == "run" { cursor.skip() }
        return try parseRun(&cursor)
    }
}

/// The arguments not read yet, and how a flag reads its value: the reading helpers of every
/// subcommand's parser, which share one position in the list.
private struct ArgumentCursor {
    private var rest: ArraySlice<String>

    init(_ arguments: [String]) { rest = arguments[...] }

    /// The next argument, not consumed.
    var next: String? { rest.first }

    /// Whether `argument` is among the arguments not read yet.
    func contains(_ argument: String) -> Bool { rest.contains(argument) }

    /// Drops the next argument (a subcommand's name, already read with `next`).
    mutating func skip() { rest.removeFirst() }

    /// Consumes and returns the next argument, or nil at the end.
    mutating func pop() -> String? { rest.popFirst() }

    /// The value after `flag`: the next argument, which must not be another flag.
    mutating func value(for flag: String) throws -> String {
        guard let next = rest.popFirst(), !next.hasPrefix("--") else { throw UsageError("\(flag) needs a value") }
        return next
    }

    /// The value after `flag` as a finite, non-negative number.
    mutating func number(for flag: String) throws -> Double {
        let text = try value(for: flag)
        guard let number = Double(text), number.isFinite, number >= 0 else { throw UsageError("\(flag) needs a non-negative number, got '\(text)'") }
        return number
    }

    /// The value after `flag` as a positive integer.
    mutating func integer(for flag: String) throws -> Int {
        let text = try value(for: flag)
        guard let number = Int(text), number > 0 else { throw UsageError("\(flag) needs a positive integer, got '\(text)'") }
        return number
    }

    /// The value after `flag` as a non-negative integer.
    mutating func nonNegativeInteger(for flag: String) throws -> Int {
        let text = try value(for: flag)
        guard let number = Int(text), number >= 0 else { throw UsageError("\(flag) needs a non-negative integer, got '\(text)'") }
        return number
    }
}

/// `compare CURRENT BASELINE [options]`: the two files and the gates' settings.
private func parseCompare(_ cursor: inout ArgumentCursor) throws -> LabCommand {
    var positional: [String] = []
    var options = CompareOptions()
    var chart: String?
    while let argument = cursor.pop() {
        switch argument {
        case "--time-tolerance": options.timeTolerance = try cursor.number(for: argument)
        case "--time-advisory": options.timeAdvisory = true
        case "--scaling-factor": options.scalingFactor = try cursor.number(for: argument)
        case "--instruction-growth-tolerance": options.instructionGrowthTolerance = try cursor.number(for: argument)
        case "--alloc-tolerance": options.allocationTolerance = try cursor.number(for: argument)
        case "--bytes-tolerance": options.bytesTolerance = try cursor.number(for: argument)
        case "--instruction-tolerance": options.instructionTolerance = try cursor.number(for: argument)
        case "--stack-tolerance": options.stackTolerance = try cursor.nonNegativeInteger(for: argument)
        case "--chart": chart = try cursor.value(for: argument)
        case "--filter": options.filter = try cursor.value(for: argument)
        case "--help", "-h": return .help
        default:
            if argument.hasPrefix("--") { throw UsageError("unknown compare option '\(argument)'") }
            positional.append(argument)
        }
    }
    guard positional.count == 2 else { throw UsageError("compare needs CURRENT and BASELINE files") }
    return .compare(current: positional[0], baseline: positional[1], options: options, chart: chart)
}

/// `summary FILE [--output FILE.md] [--article ARTICLE.md]`.
private func parseSummary(_ cursor: inout ArgumentCursor) throws -> LabCommand {
    var positional: [String] = []
    var output: String?
    var article: String?
    while let argument = cursor.pop() {
        switch argument {
        case "--output": output = try cursor.value(for: argument)
        case "--article": article = try cursor.value(for: argument)
        case "--help", "-h": return .help
        default:
            if argument.hasPrefix("--") { throw UsageError("unknown summary option '\(argument)'") }
            positional.append(argument)
        }
    }
    guard positional.count == 1 else { throw UsageError("summary needs one results file") }
    return .summary(file: positional[0], output: output, article: article)
}

/// `count-instructions` or `count-allocations` (`pass`), the passes a run starts in a second
/// process: `--output FILE [--filter …]`.
private func parseCountingPass(_ pass: String, _ cursor: inout ArgumentCursor) throws -> LabCommand {
    var filter: String?
    var output: String?
    while let argument = cursor.pop() {
        switch argument {
        case "--filter": filter = try cursor.value(for: argument)
        case "--output": output = try cursor.value(for: argument)
        default: throw UsageError("unknown \(pass) option '\(argument)'")
        }
    }
    guard let output else { throw UsageError("\(pass) needs --output FILE") }
    return pass == "count-instructions" ? .countInstructions(filter: filter, output: output) : .countAllocations(filter: filter, output: output)
}

/// `--soak [--actions N] [--elements N] [--output DIR] [--no-write]`, the flag anywhere.
private func parseSoak(_ cursor: inout ArgumentCursor) throws -> LabCommand {
    var options = SoakOptions()
    while let argument = cursor.pop() {
        switch argument {
        case "--soak": break
        case "--actions": options.actions = try cursor.integer(for: argument)
        case "--elements": options.elements = try cursor.integer(for: argument)
        case "--output": options.outputDirectory = try cursor.value(for: argument)
        case "--no-write": options.writeFiles = false
        case "--help", "-h": return .help
        default: throw UsageError("unknown soak option '\(argument)'")
        }
    }
    return .soak(options)
}

/// A run's options, or `--profile-scenario` with its own (which only it may take), or `--list`.
private func parseRun(_ cursor: inout ArgumentCursor) throws -> LabCommand {
    var options = RunOptions()
    var profile: ProfileOptions?
    var size: Int?
    var iterations: Int?
    var dump: String?
    while let argument = cursor.pop() {
        switch argument {
        case "--quick": options.quick = true
        case "--filter":
            options.filter = try cursor.value(for: argument)
            if filterPrefixes(options.filter).isEmpty { throw UsageError("--filter needs at least one prefix") }
        case "--output": options.outputDirectory = try cursor.value(for: argument)
        case "--no-write": options.writeFiles = false
        case "--no-instructions": options.countInstructions = false
        case "--no-ratios": options.measureRatios = false
        case "--list": return .list
        case "--help", "-h": return .help
        case "--profile-scenario": profile = ProfileOptions(scenario: try cursor.value(for: argument), size: nil, iterations: 1000, dumpPath: nil)
        case "--size": size = try cursor.integer(for: argument)
        case "--iterations": iterations = try cursor.integer(for: argument)
        case "--actions", "--elements": throw UsageError("\(argument) goes with --soak")
        case "--profile-output": dump = try cursor.value(for: argument)
        default: throw UsageError("unknown argument '\(argument)'")
        }
    }
    if var profile {
        profile.size = size
        profile.iterations = iterations ?? profile.iterations
        profile.dumpPath = dump
        return .profile(profile)
    }
    if size != nil || iterations != nil || dump != nil {
        throw UsageError("--size, --iterations and --profile-output go with --profile-scenario")
    }
    return .run(options)
}

/// Usage text.
public let labUsage = """
    usage:
      swiftrex-lab [run] [--quick] [--filter PREFIX[,PREFIX…]] [--no-instructions] [--no-ratios] [--output DIR] [--no-write]
      swiftrex-lab --list
      swiftrex-lab compare CURRENT.json BASELINE.json [--time-tolerance 0.5] [--time-advisory]
                           [--scaling-factor 4] [--instruction-growth-tolerance 0.15]
                           [--alloc-tolerance 0] [--bytes-tolerance 0]
                           [--instruction-tolerance 0.02] [--stack-tolerance 256]
                           [--filter PREFIX[,PREFIX…]] [--chart FILE.svg]
      swiftrex-lab summary BASELINE.json [--output FILE.md] [--article ARTICLE.md]
                                                (Results/baseline.md; the article's generated figures)
      swiftrex-lab --profile-scenario NAME [--size N] [--iterations N] [--profile-output FILE]
      swiftrex-lab --soak [--actions N] [--elements N] [--output DIR] [--no-write]

    A run counts instructions by re-running itself under valgrind's callgrind (valgrind must be on
    PATH; --no-instructions skips it). `count-instructions --output FILE [--filter …]` is that pass.
    A run times with the runtime's executors and counts allocations in a second process with
    jemalloc's thread caches off (MALLOC_CONF=tcache:false) and every job on the main thread
    (SWIFTREX_LAB_SERIAL_ALLOCATIONS=1), where every figure repeats exactly:
    `count-allocations --output FILE [--filter …]` is that pass.

    exit codes: 0 ok/equal, 1 run failure (calibration, jemalloc inactive, valgrind missing or failing;
                soak: memory grew), 2 regression, 3 missing or malformed results file,
                4 improvement only, 64 usage error
    """
