/// What `SwiftRexTesting` implements so that the library's default hooks can fail the running test
/// instead of stopping the process: the library itself never links a test framework.
package protocol TestIssueReporting: SendableMetatype {
    /// Records `message` as an issue of the test running in the current task, attributed to
    /// `source` when given; `false` when no test is running (nothing is recorded).
    static func recordIssue(_ message: String, source: ActionSource?) -> Bool
}

/// The reporter `SwiftRexTesting` provides, when the process links it (a test target does); found
/// once, by its mangled name, among the types every loaded image declares (the library cannot
/// name it: `SwiftRexTesting` depends on the library, not the other way round).
package let testIssueReporter: (any TestIssueReporting.Type)? =
    _typeByName(testIssueReporterMangledName) as? any TestIssueReporting.Type

/// The mangled name of `SwiftRexTesting.SwiftTestingIssueReporter` (a test proves it resolves).
package let testIssueReporterMangledName = "15SwiftRexTesting25SwiftTestingIssueReporterO"

/// Records `message` as an issue of the running test, when `SwiftRexTesting` is linked and a test
/// is running; `false` otherwise.
internal func recordTestIssue(_ message: String, source: ActionSource?) -> Bool {
    testIssueReporter?.recordIssue(message, source: source) ?? false
}
