import LabCore

/// The time ratios the lab measures by interleaving two scenarios (see ``PairedRatio``): every
/// time target of the project, with its limit, and the headline comparisons.
enum RatioRegistry {
    private static func key(_ name: String, _ size: Int? = nil) -> RecordKey { RecordKey(name: name, size: size) }

    /// All paired ratios, in report order.
    static let all: [PairedRatio] = listed + StackMatrixScenarios.ratios

    private static let listed: [PairedRatio] = [
        // The method's own noise: a scenario against a second setup of itself (ideally 1).
        PairedRatio("store.dispatch.reducer", over: "store.dispatch.reducer"),
        // The dispatch floor against a naive closure store in another module.
        PairedRatio("store.dispatch.reducer", over: "naive.dispatch"),
        // Supervision at scale: an unrelated change costs what a dispatch costs, at any size.
        PairedRatio(key("supervision.siblingMutation", 100_000), over: key("store.dispatch.reducer"), limit: 2),
        PairedRatio(key("supervision.siblingMutation", 100_000), over: key("supervision.siblingMutation", 100), limit: 1.5),
        PairedRatio(key("supervision.insertRemove", 100_000), over: key("supervision.insertRemove", 1_000), limit: 2),
        PairedRatio(key("lift.collection.missingId", 100_000), over: key("lift.collection.missingId", 100), limit: 1.5),
        // The chat app against the same app without supervision.
        PairedRatio("app.chat", over: "app.chat.unsupervised", limit: 3),
        // A one-row reconcile against the row's own supervision evaluated and compared by hand.
        PairedRatio(key("reconcile.oneRowChanged", 1_000), over: key("reconcile.oneRowChanged.raw", 1_000), limit: 2),
        PairedRatio(key("reconcile.oneRowChanged", 100_000), over: key("reconcile.oneRowChanged.raw", 100_000), limit: 2),
        // Routing by id against a raw `[ID: Int]` index and an array write, at both ends.
        PairedRatio(key("lift.collection.byId", 100), over: key("lift.collection.byId.rawDictionary", 100), limit: 2),
        PairedRatio(key("lift.collection.byId", 100_000), over: key("lift.collection.byId.rawDictionary", 100_000), limit: 2),
        PairedRatio(key("lift.collection.missingId.twoStores"), over: key("lift.collection.missingId", 100)),
        // Effects against the Task they wrap; the unlimited ones are the floors under the targets
        // (a plain Task per action on the global executor, where an effect's body runs; the two
        // synchronous dispatches of a round trip, which no mailbox can remove).
        PairedRatio("effects.task.roundtrip", over: "effects.roundtrip.taskPerAction", limit: 1.2),
        PairedRatio("effects.task.roundtrip.raw", over: "effects.roundtrip.taskPerAction"),
        PairedRatio("effects.task.roundtrip", over: "effects.task.roundtrip.raw"),
        PairedRatio("effects.task.keyed", over: "effects.task.roundtrip", limit: 1.5),
        PairedRatio("effects.task.keyed.raw", over: "effects.task.roundtrip"),
        PairedRatio("effects.task.keyed", over: "effects.task.keyed.raw"),
        // Restarting one debounce among 10,000 pending costs about what it costs among 100.
        PairedRatio(key("effects.debounce.pending", 10_000), over: key("effects.debounce.pending", 100), limit: 1.5),
        PairedRatio("effects.roundtrip.burst", over: "effects.roundtrip.taskPerAction", limit: 0.1),
        PairedRatio("effects.roundtrip.dispatches", over: "effects.roundtrip.taskPerAction"),
        PairedRatio("effects.roundtrip.burst.drained", over: "effects.roundtrip.taskPerAction"),
        PairedRatio("effects.roundtrip.single", over: "effects.roundtrip.taskPerAction", limit: 1.0),
        PairedRatio("effects.roundtrip.single", over: "effects.roundtrip.taskPerAction.single"),
        // Lifts against hand-written code and the unlifted reducer.
        PairedRatio("lift.nested3", over: "naive.nested3", limit: 2),
        PairedRatio("lift.payload", over: "lift.payload.unlifted", limit: 1.5),
        // The floors under the two lift targets with closure prisms: the same calls written by
        // hand (a preview, then the counter), and the fifty previews alone in a plain loop.
        PairedRatio("lift.payload.byHand", over: "lift.payload.unlifted"),
        PairedRatio("lift.payload", over: "lift.payload.byHand"),
        // The same lift through an action lane whose extract the compiler sees (a type, not a
        // closure): one indirect call fewer per dispatch.
        PairedRatio("lift.payload.staticLane", over: "lift.payload.unlifted"),
        PairedRatio("store.dispatch.wide50", over: "store.dispatch.reducer", limit: 3),
        PairedRatio("store.dispatch.wide50.previews", over: "store.dispatch.reducer"),
        PairedRatio("store.dispatch.wide50.caseIndexed", over: "store.dispatch.reducer", limit: 3),
        // Fifty slice observers, one called per dispatch, against the same app with one observer
        // of the whole state; and the same fifty on closure projections, all called.
        PairedRatio("store.observe.slices", over: "store.dispatch.wide50.caseIndexed"),
        PairedRatio("store.observe.slices.closures", over: "store.observe.slices"),
        // One observer per row, one row edited per dispatch: flat in the number of rows, and
        // about a dispatch with one observer.
        PairedRatio(key("store.observe.rows", 10_000), over: key("store.observe.rows", 100), limit: 1.5),
        PairedRatio(key("store.observe.rows", 100), over: key("store.dispatch.reducer"), limit: 3),
        PairedRatio(key("store.observe.rows", 100_000), over: key("store.dispatch.reducer"), limit: 3),
        // A SwiftUI-style tracked read, told of each change and tracking again, against one
        // observer; and the same client of a plain Observable class (what Observation costs).
        PairedRatio("store.observe.tracking", over: "store.dispatch.reducer", limit: 5),
        PairedRatio("store.observe.tracking", over: "store.observe.tracking.raw"),
    ]
}
