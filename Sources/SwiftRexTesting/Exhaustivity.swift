import Testing

/// How much of a test a ``TestStore`` checks.
///
/// ```swift
/// let store = TestStore(initial: AppState(), behavior: app, environment: .test, exhaustivity: .off(showSkippedAssertions: true))
/// store.send(.search(.query("swift"))) { $0.search.query = "swift" }   // only `query` is checked
/// await store.advance(by: .milliseconds(300))
/// await store.receive(\.search.results) { results, state in state.search.results = results }
/// ```
public enum Exhaustivity: Sendable, Equatable {
    /// Every state change must be asserted, every action effects send must be received, and nothing
    /// may be left running at `finish` (the default).
    case on
    /// Only what the test asserts is checked:
    /// - a state assertion checks what its closure sets, against the actual state (so write the
    ///   value a field must have, `$0.count = 1`, not how it changed, `$0.count += 1`);
    /// - `send` first processes the actions effects sent meanwhile, unasserted;
    /// - `receive` processes, unasserted, the actions before the first one that matches;
    /// - `finish` accepts received actions, running effects and open channels.
    ///
    /// With `showSkippedAssertions`, each check it skipped (a state change nobody asserted, an
    /// action received unasserted, work left at `finish`) is recorded as a known issue: listed in
    /// the test report with its difference, never failing the test.
    case off(showSkippedAssertions: Bool)

    /// Non-exhaustive, without listing what it skips.
    public static let off = Exhaustivity.off(showSkippedAssertions: false)
}

/// Where a non-exhaustive ``TestStore`` reports a check it skipped: by default a known issue, which
/// the test report lists without failing the test.
@_spi(Testing)
public typealias SkippedAssertionReporter = @MainActor (_ text: String, _ location: SourceLocation?) -> Void

/// Records a skipped check as a known issue: shown in the test report, never a failure.
@MainActor
func recordSkippedAssertion(_ text: String, at location: SourceLocation?) {
    withKnownIssue {
        if let location {
            Issue.record(Comment(rawValue: text), sourceLocation: location)
        } else {
            Issue.record(Comment(rawValue: text))
        }
    }
}
