import Foundation
import Testing

@testable import LabCore

@Suite("Subprocess", .enabled(if: FileManager.default.isExecutableFile(atPath: "/bin/sh"), "needs /bin/sh"))
struct SubprocessTests {
    static let script = "echo out; echo err >&2; exit 3"

    @Test("the exit status and what the child wrote, standard error discarded, merged or alone")
    func statusAndOutput() throws {
        let discarded = try Subprocess.capture("/bin/sh", ["-c", Self.script])
        #expect(discarded.status == 3)
        #expect(String(decoding: discarded.output, as: UTF8.self) == "out\n")
        let merged = try Subprocess.capture("/bin/sh", ["-c", Self.script], standardError: .merge)
        #expect(String(decoding: merged.output, as: UTF8.self) == "out\nerr\n")
        let alone = try Subprocess.capture("/bin/sh", ["-c", Self.script], standardError: .captureInstead)
        #expect(String(decoding: alone.output, as: UTF8.self) == "err\n")
    }

    @Test("lines as they come, standard error merged, and a last line without its newline")
    func lines() throws {
        var lines: [String] = []
        let status = try Subprocess.runLines("/bin/sh", ["-c", "echo one; echo two >&2; printf three; exit 5"]) { lines.append($0) }
        #expect(status == 5)
        #expect(lines == ["one", "two", "three"])
    }

    @Test("the environment given is the child's whole environment")
    func environment() throws {
        let result = try Subprocess.capture("/bin/sh", ["-c", "echo \"$ONLY:${HOME:-none}\""], environment: ["ONLY": "this"])
        #expect(String(decoding: result.output, as: UTF8.self) == "this:none\n")
    }

    @Test("the environment reaches the child in name order, whatever the dictionary's order")
    func environmentOrder() throws {
        let variables = Dictionary(uniqueKeysWithValues: (0..<20).map { ("V\(String($0, radix: 36))", "\($0)") })
        var lines: [String] = []
        _ = try Subprocess.runLines("/usr/bin/env", [], environment: variables) { lines.append($0) }
        #expect(lines == variables.keys.sorted().map { "\($0)=\(variables[$0]!)" })
    }

    @Test("the child runs in the working directory given, or in the parent's")
    func workingDirectory() throws {
        var lines: [String] = []
        _ = try Subprocess.runLines("/bin/sh", ["-c", "pwd"], workingDirectory: "/") { lines.append($0) }
        _ = try Subprocess.runLines("/bin/sh", ["-c", "pwd -P"]) { lines.append($0) }
        #expect(lines == ["/", URL(fileURLWithPath: FileManager.default.currentDirectoryPath).resolvingSymlinksInPath().path])
        #expect(throws: Subprocess.SpawnError.self) {
            try Subprocess.runLines("/bin/sh", ["-c", "pwd"], workingDirectory: "/nonexistent/directory") { _ in }
        }
    }

    @Test("a child ended by a signal reports 128 plus the signal")
    func signal() throws {
        #expect(try Subprocess.capture("/bin/sh", ["-c", "kill -KILL $$"]).status == 128 + SIGKILL)
    }

    @Test("an executable that does not exist is an error naming it")
    func missing() {
        #expect(throws: Subprocess.SpawnError.self) { try Subprocess.capture("/nonexistent/tool", []) }
    }

    @Test("many children that end at once are all reaped (Process could wait forever for one)")
    func quickChildren() throws {
        for _ in 0..<200 {
            #expect(try Subprocess.capture("/bin/sh", ["-c", "exit 0"]).status == 0)
        }
    }
}
