/// Why the Store cut a dispatch chain short.
public struct StoreReentranceInfo: Sendable, CustomStringConvertible {
    /// How the runaway loop ran.
    public enum Kind: Sendable, Equatable {
        /// Actions dispatched synchronously while processing (observers, reducers' captured stores):
        /// one drain reached the threshold.
        case synchronous
        /// Actions emitted by effects or channels, each caused by the previous: the causal chain
        /// reached the threshold.
        case throughEffects
    }

    /// How the loop ran.
    public let kind: Kind
    /// The count reached: the drained actions (synchronous) or the chain's depth (through effects), `threshold + 1`.
    public let drainedCount: Int
    /// The Store's threshold.
    public let threshold: Int
    /// The source of the first action that was dropped.
    public let source: ActionSource?
    /// `String(describing:)` of that action.
    public let actionDescription: String

    /// A description for logs.
    public var description: String {
        "Runaway dispatch loop (\(kind)): \(drainedCount) actions exceed the threshold of \(threshold); dropped \(actionDescription) from \(source.map(String.init(describing:)) ?? "unknown source")"
    }
}

/// Global defaults for Store diagnostics, modelled on RxSwift's `Hooks`. Each Store copies them at
/// initialisation and can override the runaway-loop ones (``Store/reentranceThreshold``,
/// ``Store/onReentranceDetected``).
@MainActor
public enum StoreHooks {
    /// The default runaway-loop threshold (clamped to at least 1 when a Store reads it).
    public static var reentranceThreshold: Int = 1_000

    /// The default handler for a runaway loop: logs the info (and asserts in debug builds).
    public static var onReentranceDetected: @MainActor (StoreReentranceInfo) -> Void = { info in
        print("SwiftRex: \(info)")
        assertionFailure(info.description)
    }

    /// The handler for other detected misuse: logs it; a duplicate id also asserts in debug builds
    /// (<doc:Lifting#Duplicate-ids>).
    public static var onDiagnostic: @MainActor (StoreDiagnostic) -> Void {
        get { DiagnosticHooks.onDiagnostic }
        set { DiagnosticHooks.onDiagnostic = newValue }
    }

    /// A task-local override of ``onDiagnostic``, called synchronously where the misuse is
    /// detected: scope it around a test with `DiagnosticOverride.$handler.withValue(…) { … }`.
    public nonisolated static var diagnosticHandler: (@Sendable (StoreDiagnostic) -> Void)? {
        DiagnosticOverride.handler
    }
}
