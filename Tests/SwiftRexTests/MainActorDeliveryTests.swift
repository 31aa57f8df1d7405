import SwiftRex
import Testing

/// Main-actor work the Store does "at once when already on the main actor" must do so wherever the
/// main actor runs: once the process's main thread is parked in `dispatchMain()` (the test runner's
/// async entry point on Linux), main-actor jobs run on whichever thread drains the main queue.
@MainActor
@Suite("Main-actor delivery", .serialized)
struct MainActorDeliveryTests {
    @MainActor
    final class Seen {
        var diagnostics: [StoreDiagnostic] = []
    }

    @Test func aDiagnosticReachesTheGlobalHandlerWithinTheDispatch() async {
        // A hop off the main actor and back: the rest of the test runs as a main-actor job.
        await Task.detached {}.value
        let store = Store(initial: BadInput.state(rows: [1, 2]), behavior: BadInput.rowsByID, environment: LiftApp.AppEnvironment())
        let seen = Seen()
        let previous = StoreHooks.onDiagnostic
        StoreHooks.onDiagnostic = { seen.diagnostics.append($0) }
        defer { StoreHooks.onDiagnostic = previous }
        store.dispatch(.row(ElementAction(424_242, action: .autosave)))
        // Reported synchronously, not by a task that runs after this test has moved on.
        #expect(seen.diagnostics.contains { $0.kind == .missingElement && $0.message.contains("424242") })
    }
}
