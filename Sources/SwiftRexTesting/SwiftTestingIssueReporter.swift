import SwiftRex
import Testing

/// Lets the library's default hooks (a runaway loop, a duplicate id) fail the Swift Testing test
/// that is running instead of stopping the process. The library finds this type by name at run
/// time; nothing calls it directly.
enum SwiftTestingIssueReporter: TestIssueReporting {
    static func recordIssue(_ message: String, source: ActionSource?) -> Bool {
        guard Test.current != nil else { return false }
        // `#fileID` is `Module/File.swift`; anything else cannot be a source location.
        if let source, source.file.contains("/"), source.line > 0 {
            let location = SourceLocation(fileID: source.file, filePath: source.file, line: Int(source.line), column: 1)
            Issue.record(Comment(rawValue: message), sourceLocation: location)
        } else {
            Issue.record(Comment(rawValue: message))
        }
        return true
    }
}
