import SwiftRex
import Synchronization
import Testing

/// The task-local diagnostic override, bound in optimized code: `Scripts/test` runs this suite
/// against a release build as well. A task-local whose value was a function type crashed there as
/// soon as it was bound (the release run of the model-based test did, so it had stopped comparing
/// diagnostics).
@MainActor
@Suite("Diagnostic override, optimized")
struct DiagnosticOverrideOptimizedTests {
    @Test func bindingTheOverrideAroundSynchronousAndAsynchronousWorkCollectsDiagnostics() async {
        let seen = Mutex<[String]>([])
        let collect: @Sendable (StoreDiagnostic) -> Void = { diagnostic in seen.withLock { $0.append(diagnostic.message) } }
        DiagnosticOverride.$handler.withValue(collect) {
            StoreHooks.diagnosticHandler?(StoreDiagnostic(kind: .missingElement, message: "synchronous", source: nil))
        }
        await DiagnosticOverride.$handler.withValue(collect) {
            await Task.yield()
            StoreHooks.diagnosticHandler?(StoreDiagnostic(kind: .missingElement, message: "after an await", source: nil))
            await Task { StoreHooks.diagnosticHandler?(StoreDiagnostic(kind: .missingElement, message: "in a task", source: nil)) }.value
        }
        #expect(StoreHooks.diagnosticHandler == nil)
        #expect(seen.withLock { $0 } == ["synchronous", "after an await", "in a task"])
    }
}
