import SwiftRex
import Synchronization

// Shared helpers of the bad-input catalogue. The domain is `LiftApp` (LiftingTests.swift): rows
// by id, configs by key, slots by position, an optional detail. Diagnostics are captured with
// `collectingDiagnostics` (the task-local `DiagnosticOverride.$handler`), so the debug assertion of
// the default `StoreHooks.onDiagnostic` never fires in these tests.

/// Builders shared by the bad-input suites.
enum BadInput {
    typealias App = LiftApp

    /// Rows `ids`, named `row <id>`.
    static func state(rows ids: [Int]) -> App.AppState {
        var state = App.AppState()
        state.payload = []
        state.rows = ids.map { App.Row(id: $0, name: "row \($0)") }
        return state
    }

    // The row feature routed by id (`.row`), by position (`.slot`) and by key (`.config`).
    // Built afresh on each read: an identified lane owns an id cache, and tests running in
    // parallel must not share one (a shared cache would hide a duplicate from another test).
    static var rowsByID: Behavior<App.AppAction, App.AppState, App.AppEnvironment> {
        App.row.liftCollection(.action(App.rowPrism).state(\App.AppState.rows).environment(\App.AppEnvironment.rowEnvironment), site: "rows")
    }
    static var rowsByPosition: Behavior<App.AppAction, App.AppState, App.AppEnvironment> {
        App.row.liftCollection(
            .action(App.slotPrism).state(indexed: \App.AppState.rows).environment(\App.AppEnvironment.rowEnvironment), site: "slots")
    }
    static var configsByKey: Behavior<App.AppAction, App.AppState, App.AppEnvironment> {
        App.row.liftCollection(
            .action(App.configPrism).state(dictionary: \App.AppState.configs).environment(\App.AppEnvironment.rowEnvironment), site: "configs")
    }
}

/// Collects diagnostics reported while the async `body` runs (tasks it creates inherit the override).
@MainActor
func collectingDiagnostics(_ body: @MainActor () async throws -> Void) async rethrows -> [StoreDiagnostic] {
    let collected = Mutex<[StoreDiagnostic]>([])
    try await DiagnosticOverride.$handler.withValue({ diagnostic in collected.withLock { $0.append(diagnostic) } }) {
        try await body()
    }
    return collected.withLock { $0 }
}
