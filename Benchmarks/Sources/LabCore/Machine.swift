import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Process memory figures.
public enum ProcessMemory {
    /// Resident set size from `/proc/self/statm` (second field × page size), or nil.
    public static func residentBytes() -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}

/// Collects machine metadata for results files.
public enum MachineInfo {
    /// Metadata for this machine and run. `repositoryRoot` is used for the git revision.
    public static func collect(mode: String, filter: String?, repositoryRoot: String?) -> MachineMetadata {
        let process = ProcessInfo.processInfo
        var uts = utsname()
        uname(&uts)
        let sysname = withUnsafeBytes(of: &uts.sysname) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let release = withUnsafeBytes(of: &uts.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let revision = repositoryRoot.flatMap { run("/usr/bin/env", ["git", "-C", $0, "rev-parse", "HEAD"]) } ?? "unknown"
        let dirty = repositoryRoot.flatMap { run("/usr/bin/env", ["git", "-C", $0, "status", "--porcelain", "--untracked-files=no"]) }.map {
            !$0.isEmpty
        }
        let formatter = ISO8601DateFormatter()
        return MachineMetadata(
            host: process.hostName,
            cores: process.activeProcessorCount,
            memoryBytes: process.physicalMemory,
            cpu: cpuModel(),
            kernel: "\(sysname) \(release)",
            toolchain: toolchain(),
            allocator: AllocationCounter.jemallocVersion.map { "jemalloc \($0.split(separator: "-").first.map(String.init) ?? $0)" },
            date: formatter.string(from: Date()),
            gitRevision: revision.isEmpty ? "unknown" : revision,
            gitDirty: dirty,
            mode: mode,
            filter: filter
        )
    }

    /// First "model name" of /proc/cpuinfo.
    static func cpuModel() -> String? {
        guard let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("model name") {
            if let colon = line.firstIndex(of: ":") {
                return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
        }
        return nil
    }

    /// `swift --version` first line, else the compiler version the lab was built with.
    static func toolchain() -> String {
        if let output = run("/usr/bin/env", ["swift", "--version"]),
            let line = output.split(separator: "\n").first(where: { $0.contains("Swift version") })
        {
            return String(line).trimmingCharacters(in: .whitespaces)
        }
        return compilerVersion
    }

    /// The compiler version this binary was built with.
    static var compilerVersion: String {
        #if compiler(>=6.3)
        return "Swift compiler >= 6.3"
        #elseif compiler(>=6.2)
        return "Swift compiler 6.2"
        #elseif compiler(>=6.1)
        return "Swift compiler 6.1"
        #else
        return "Swift compiler 6.0"
        #endif
    }

    /// Runs a command, returning trimmed stdout on success (see ``Subprocess``).
    static func run(_ executable: String, _ arguments: [String]) -> String? {
        guard let result = try? Subprocess.capture(executable, arguments), result.status == 0 else { return nil }
        return String(decoding: result.output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
