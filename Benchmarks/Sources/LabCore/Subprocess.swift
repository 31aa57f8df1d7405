import CValgrind
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs child processes with `posix_spawn` and reaps them with `waitpid`.
///
/// Foundation's `Process` on Linux can miss the exit of a child that ends quickly: a CI run of the
/// lab's tests hung for twenty minutes in `waitUntilExit()` with the `git rev-parse` it had started
/// already a zombie. Here the parent reads the child's output to its end, then waits for that one
/// process id, so nothing depends on a signal being noticed.
public enum Subprocess {
    /// What becomes of the child's standard error.
    public enum StandardError: Sendable {
        /// Discarded (`/dev/null`).
        case discard
        /// Merged into the captured standard output.
        case merge
        /// Captured alone: standard output is discarded instead.
        case captureInstead
    }

    /// An error starting the child.
    public struct SpawnError: Error, CustomStringConvertible {
        /// The executable that could not be started.
        public var executable: String
        /// The `errno` value `posix_spawn` or `pipe` returned.
        public var code: Int32
        /// The executable and the system's reason.
        public var description: String { "cannot run \(executable): \(String(cString: strerror(code)))" }
    }

    /// Runs `executable` (a path) with `arguments` and `environment` (the parent's when `nil`;
    /// passed sorted by name, so the child's start-up is the same from run to run), in
    /// `workingDirectory` (the parent's when `nil`), standard input from `/dev/null`. What is
    /// captured (standard output, standard error or both, as `standardError` says) is handed to
    /// `onOutput` chunk by chunk as it arrives, until the child closes it; the child is then
    /// reaped. Returns its exit status, or 128 plus the signal that ended it.
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
        workingDirectory: String? = nil, standardError: StandardError = .discard, onOutput: (Data) -> Void
    ) throws -> Int32 {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw SpawnError(executable: executable, code: errno) }
        let readEnd = fds[0]
        let writeEnd = fds[1]

        #if canImport(Glibc)
        var actions = posix_spawn_file_actions_t()
        #else
        var actions: posix_spawn_file_actions_t?
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        switch standardError {
        case .merge:
            posix_spawn_file_actions_adddup2(&actions, writeEnd, 1)
            posix_spawn_file_actions_adddup2(&actions, writeEnd, 2)
        case .discard:
            posix_spawn_file_actions_adddup2(&actions, writeEnd, 1)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        case .captureInstead:
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_adddup2(&actions, writeEnd, 2)
        }
        posix_spawn_file_actions_addclose(&actions, readEnd)
        posix_spawn_file_actions_addclose(&actions, writeEnd)
        if let workingDirectory {
            let added = swiftrex_lab_spawn_add_chdir(&actions, workingDirectory)
            guard added == 0 else {
                close(readEnd)
                close(writeEnd)
                throw SpawnError(executable: executable, code: added)
            }
        }

        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let envp: [UnsafeMutablePointer<CChar>?]? = environment.map { variables in
            variables.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        }
        defer { for pointer in envp ?? [] { free(pointer) } }

        var pid: pid_t = 0
        let spawned: Int32 = argv.withUnsafeBufferPointer { arguments in
            if let envp {
                return envp.withUnsafeBufferPointer { posix_spawn(&pid, executable, &actions, nil, arguments.baseAddress!, $0.baseAddress!) }
            }
            return posix_spawn(&pid, executable, &actions, nil, arguments.baseAddress!, environ)
        }
        close(writeEnd)
        guard spawned == 0 else {
            close(readEnd)
            throw SpawnError(executable: executable, code: spawned)
        }

        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
            if count > 0 {
                onOutput(Data(buffer[0..<count]))
            } else if count == 0 || errno != EINTR {
                break
            }
        }
        close(readEnd)

        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            guard errno == EINTR else { return -1 }
        }
        // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import.
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }

    /// Runs `executable` like ``run(_:_:environment:workingDirectory:standardError:onOutput:)``, standard error
    /// merged into standard output, handing each line it writes (without its newline) to `line`
    /// as it arrives; a last line without a newline is handed over when the child ends.
    public static func runLines(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil, workingDirectory: String? = nil,
        line: (String) -> Void
    ) throws -> Int32 {
        var pending = Data()
        let status = try run(executable, arguments, environment: environment, workingDirectory: workingDirectory, standardError: .merge) {
            chunk in
            pending.append(chunk)
            while let newline = pending.firstIndex(of: 0x0A) {
                line(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self))
                pending.removeSubrange(pending.startIndex...newline)
            }
        }
        if !pending.isEmpty { line(String(decoding: pending, as: UTF8.self)) }
        return status
    }

    /// Runs `executable` like ``run(_:_:environment:workingDirectory:standardError:onOutput:)`` and returns its exit
    /// status with everything it wrote.
    public static func capture(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil, standardError: StandardError = .discard
    ) throws -> (status: Int32, output: Data) {
        var output = Data()
        let status = try run(executable, arguments, environment: environment, standardError: standardError) { output.append($0) }
        return (status, output)
    }
}
