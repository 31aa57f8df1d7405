import Foundation

/// Options of `--soak`: a long run of mixed traffic against a large supervised collection.
public struct SoakOptions: Sendable, Equatable {
    /// `--actions N`: actions dispatched in the measured run (default 64,000, as `Scripts/soak`).
    public var actions = 64_000
    /// `--elements N`: size of the supervised collection, kept about constant (default 100,000).
    public var elements = 100_000
    /// `--output DIR`: where `soak.json` goes (default: `Results/` of the repository root).
    public var outputDirectory: String?
    /// `--no-write`: print the figures only.
    public var writeFiles = true

    /// Default options.
    public init() {}
}

/// The figures of one soak run, written to `Results/soak.json`.
public struct SoakReport: Codable, Equatable, Sendable {
    /// The machine and revision it ran on.
    public var metadata: MachineMetadata
    /// Elements in the collection at the start of the measured run.
    public var elements: Int
    /// Elements at the end (inserts and removals keep it near ``elements``).
    public var elementsAtEnd: Int
    /// Actions dispatched in the measured run (effect and channel actions not included).
    public var actions: Int
    /// Actions sent back by effects and channels and processed through the mailbox.
    public var effectActions: Int
    /// Wall time of the measured run, in seconds.
    public var seconds: Double
    /// Dispatched actions per second.
    public var actionsPerSecond: Double
    /// jemalloc allocations per dispatched action (every allocation in the run, effects included).
    public var allocationsPerAction: Double
    /// Bytes allocated per dispatched action.
    public var bytesPerAction: Double?
    /// Resident set size after setup and warm-up, at the start of the measured run.
    public var residentBytesStart: Int
    /// Resident set size at the end of the measured run.
    public var residentBytesEnd: Int
    /// The growth ``residentBytesEnd`` may show over ``residentBytesStart`` (see ``SoakReport/allowedGrowth(start:)``).
    public var allowedGrowthBytes: Int
    /// Channels open at the start and at the end of the measured run.
    public var openChannelsStart: Int
    /// Channels open at the end of the measured run.
    public var openChannelsEnd: Int
    /// Keys in the effect registry at the start of the measured run.
    public var registeredEffectsStart: Int
    /// Keys in the effect registry at the end of the measured run.
    public var registeredEffectsEnd: Int
    /// Channel bodies opened and cancelled during the measured run.
    public var channelOpens: Int
    /// Channel bodies cancelled during the measured run.
    public var channelCloses: Int
    /// Whether memory stayed within the tolerance.
    public var passed: Bool

    /// Creates a report; ``passed`` and ``allowedGrowthBytes`` follow from the resident figures.
    public init(
        metadata: MachineMetadata, elements: Int, elementsAtEnd: Int, actions: Int, effectActions: Int,
        seconds: Double, allocations: UInt64, bytes: UInt64?, residentBytesStart: Int, residentBytesEnd: Int,
        openChannelsStart: Int, openChannelsEnd: Int, registeredEffectsStart: Int, registeredEffectsEnd: Int,
        channelOpens: Int, channelCloses: Int
    ) {
        self.metadata = metadata
        self.elements = elements
        self.elementsAtEnd = elementsAtEnd
        self.actions = actions
        self.effectActions = effectActions
        self.seconds = seconds
        actionsPerSecond = seconds > 0 ? Double(actions) / seconds : 0
        allocationsPerAction = actions > 0 ? Double(allocations) / Double(actions) : 0
        bytesPerAction = bytes.map { actions > 0 ? Double($0) / Double(actions) : 0 }
        self.residentBytesStart = residentBytesStart
        self.residentBytesEnd = residentBytesEnd
        allowedGrowthBytes = Self.allowedGrowth(start: residentBytesStart)
        self.openChannelsStart = openChannelsStart
        self.openChannelsEnd = openChannelsEnd
        self.registeredEffectsStart = registeredEffectsStart
        self.registeredEffectsEnd = registeredEffectsEnd
        self.channelOpens = channelOpens
        self.channelCloses = channelCloses
        passed = Self.memoryHeld(start: residentBytesStart, end: residentBytesEnd)
    }

    /// The tolerance on resident memory growth: 8 MiB, whatever the start. Allocator caches, array
    /// capacity rounding and page-granular RSS move the figure by a few MiB in a steady state; a
    /// leak of a 128-byte object per action over the default 64,000 actions exceeds it (smaller
    /// leaks are the leak tests' job, which track objects one by one).
    public static func allowedGrowth(start: Int) -> Int {
        8 << 20
    }

    /// Whether `end` stays within ``allowedGrowth(start:)`` of `start` (shrinking is fine).
    public static func memoryHeld(start: Int, end: Int) -> Bool {
        end - start <= allowedGrowth(start: start)
    }

    /// The report as pretty-printed JSON with sorted keys.
    public func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(self)
    }

    /// A short human-readable summary.
    public var summary: String {
        func mib(_ bytes: Int) -> String { String(format: "%.1f MiB", Double(bytes) / 1_048_576) }
        return """
            soak: \(actions) actions (+\(effectActions) from effects and channels) over \(elements) elements (\(elementsAtEnd) at the end) in \(String(format: "%.1f", seconds)) s
              throughput: \(String(format: "%.0f", actionsPerSecond)) actions/s
              allocations: \(String(format: "%.2f", allocationsPerAction)) per action, \(bytesPerAction.map { String(format: "%.0f", $0) + " bytes per action" } ?? "bytes per action not measured (the run moved between threads)")
              resident: \(mib(residentBytesStart)) → \(mib(residentBytesEnd)) (growth allowed: \(mib(allowedGrowthBytes))) — \(passed ? "held" : "GREW")
              channels open: \(openChannelsStart) → \(openChannelsEnd); registry keys: \(registeredEffectsStart) → \(registeredEffectsEnd); opened \(channelOpens), closed \(channelCloses)
            """
    }
}
