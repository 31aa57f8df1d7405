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

/// A misuse the library detected and handled with a defined outcome instead of crashing.
public struct StoreDiagnostic: Sendable, CustomStringConvertible {
    /// The kind of misuse.
    public enum Kind: Sendable, Equatable {
        /// An action addressed an element id that is not in the collection: it was dropped.
        case missingElement
        /// An identified collection holds the same id more than once: actions reach the first occurrence.
        case duplicateID
        /// A mutating unit writes a part of the state the library cannot locate, so every action
        /// it handles re-evaluates the supervision of a whole collection (reported once per Store).
        case broadInvalidation
        /// A channel's `dispatch` was called after the channel closed (cancelled, completed, its
        /// element removed or its Store gone): the action was dropped. Reported once per opening.
        case actionAfterClose
        /// A channel's body threw: the channel did not open (or, for a consumer, it closed).
        case channelFailed
        /// A runaway dispatch loop was cut off (what the default ``StoreHooks/onReentranceDetected``
        /// reports when no test is running).
        case runawayLoop
    }

    /// The kind of misuse.
    public let kind: Kind
    /// What happened, composed each time it is read: a diagnostic whose handler only looks at its
    /// ``kind`` costs no formatting (a late response for a removed row can be routine).
    public var message: String { composeMessage() }
    /// The source of the action involved, when known.
    public let source: ActionSource?
    /// What the misuse comes from beyond its kind, when one place causes it every time: the lift
    /// site of a missing element, the id of a failing channel. The default log
    /// (``StoreHooks/log(_:)``) reports each kind and cause once.
    public let cause: String?
    @usableFromInline let composeMessage: @Sendable () -> String

    /// A diagnostic whose `message` is evaluated when read, not here.
    @inlinable
    public init(kind: Kind, message: @autoclosure @escaping @Sendable () -> String, source: ActionSource?, cause: String? = nil) {
        self.kind = kind
        self.composeMessage = message
        self.source = source
        self.cause = cause
    }

    /// The message with its source.
    public var description: String {
        source.map { "\(message) (\($0))" } ?? message
    }
}

/// Reports a diagnostic: to the task-local ``StoreHooks/diagnosticHandler`` when one is set (tests),
/// else to ``StoreHooks/onDiagnostic`` on the main actor.
@usableFromInline
internal func reportDiagnostic(_ diagnostic: StoreDiagnostic) {
    if let handler = StoreHooks.diagnosticHandler {
        handler(diagnostic)
    } else if isOnMainActor() {
        // Called in place, through a closure that does not escape: nothing allocated. (Not
        // `onMainActor`: its escaping closure is an allocation, and a generic variant passing the
        // diagnostic executed 43 more instructions per missing-element report.)
        MainActor.assumeIsolated { StoreHooks.onDiagnostic(diagnostic) }
    } else {
        Task { @MainActor in StoreHooks.onDiagnostic(diagnostic) }
    }
}

/// Global defaults for Store diagnostics, modelled on RxSwift's `Hooks`. Each Store copies them at
/// initialisation and can override the runaway-loop ones (``Store/reentranceThreshold``,
/// ``Store/onReentranceDetected``).
@MainActor
public enum StoreHooks {
    /// The default runaway-loop threshold (clamped to at least 1 when a Store reads it).
    public static var reentranceThreshold: Int = 1_000

    /// The default handler for a runaway loop: ``reportRunaway(_:)``. The loop is cut off whatever
    /// the handler does; set ``trapOnRunaway(_:)`` to stop the process instead.
    public static var onReentranceDetected: @MainActor (StoreReentranceInfo) -> Void = { reportRunaway($0) }

    /// Reports a runaway loop without stopping anything: a task-local ``diagnosticHandler`` gets it
    /// as a `.runawayLoop` diagnostic; otherwise, while a Swift Testing test runs in a process that
    /// links `SwiftRexTesting`, it is an issue of that test; otherwise it goes to ``onDiagnostic``
    /// (which logs it).
    public static func reportRunaway(_ info: StoreReentranceInfo) {
        let diagnostic = StoreDiagnostic(kind: .runawayLoop, message: info.description, source: info.source)
        if let handler = diagnosticHandler {
            handler(diagnostic)
        } else if !recordTestIssue(info.description, source: info.source) {
            onDiagnostic(diagnostic)
        }
    }

    /// Stops the process with the runaway's description: opt in with
    /// `StoreHooks.onReentranceDetected = StoreHooks.trapOnRunaway` (or per Store).
    public static func trapOnRunaway(_ info: StoreReentranceInfo) {
        fatalError(info.description)
    }

    /// The handler for other detected misuse: ``log(_:)``. It never stops the process. Set your own
    /// to see every report (a dropped action for a removed row can repeat each dispatch).
    public static var onDiagnostic: @MainActor (StoreDiagnostic) -> Void = { log($0) }

    /// Logs a diagnostic the first time its kind and ``StoreDiagnostic/cause`` are seen in this
    /// process, saying that later ones are not logged; a diagnostic without a cause is logged each
    /// time. A duplicate id while a Swift Testing test runs in a process that links
    /// `SwiftRexTesting` is an issue of that test instead (<doc:Lifting#Duplicate-ids>).
    public static func log(_ diagnostic: StoreDiagnostic) {
        if diagnostic.kind == .duplicateID, recordTestIssue(diagnostic.message, source: diagnostic.source) { return }
        if let line = loggedDiagnostics.admit(diagnostic) { print(line) }
    }

    /// The kinds and causes ``log(_:)`` has logged.
    private static var loggedDiagnostics = DiagnosticLog()

    /// A task-local override of ``onDiagnostic``, called synchronously where the misuse is
    /// detected: scope it around a test with `DiagnosticOverride.$handler.withValue(…) { … }`.
    public nonisolated static var diagnosticHandler: (@Sendable (StoreDiagnostic) -> Void)? {
        DiagnosticOverride.handler?.handle
    }
}

/// Storage of the task-local diagnostic override (task-locals cannot live on a main-actor type).
public enum DiagnosticOverride {
    /// The override; see ``StoreHooks/diagnosticHandler``. Bind a handler for an operation (and the
    /// tasks it creates) with `DiagnosticOverride.$handler.withValue({ diagnostic in … }) { … }`.
    @TaskLocal public static var handler: DiagnosticHandler?
}

/// A diagnostic handler, as the task-local override holds it: a task-local whose value is a
/// function type crashes optimized builds when it is bound (Swift 6.3.1 on Linux passes the
/// runtime no type metadata for it), so the closure travels in a struct.
public struct DiagnosticHandler: Sendable {
    /// Called with each diagnostic.
    public let handle: @Sendable (StoreDiagnostic) -> Void

    /// A handler calling `handle`.
    public init(_ handle: @escaping @Sendable (StoreDiagnostic) -> Void) {
        self.handle = handle
    }
}

extension TaskLocal where Value == DiagnosticHandler? {
    /// Binds `handle` as the diagnostic override while the synchronous `operation` runs.
    @discardableResult
    public func withValue<R>(
        _ handle: @escaping @Sendable (StoreDiagnostic) -> Void, operation: () throws -> R, file: String = #fileID, line: UInt = #line
    ) rethrows -> R {
        try withValue(DiagnosticHandler(handle), operation: operation, file: file, line: line)
    }

    /// Binds `handle` as the diagnostic override while the asynchronous `operation` runs.
    @discardableResult
    public func withValue<R>(
        _ handle: @escaping @Sendable (StoreDiagnostic) -> Void, operation: () async throws -> R, isolation: isolated (any Actor)? = #isolation,
        file: String = #fileID, line: UInt = #line
    ) async rethrows -> R {
        try await withValue(DiagnosticHandler(handle), operation: operation, isolation: isolation, file: file, line: line)
    }
}

/// What the default diagnostic log has reported: each kind and cause once.
internal struct DiagnosticLog {
    private struct Key: Hashable {
        let kind: StoreDiagnostic.Kind
        let cause: String
    }

    private var logged: Set<Key> = []

    /// The line to log for `diagnostic`, or `nil` when its kind and cause were logged before.
    mutating func admit(_ diagnostic: StoreDiagnostic) -> String? {
        guard let cause = diagnostic.cause else { return "SwiftRex: \(diagnostic)" }
        guard logged.insert(Key(kind: diagnostic.kind, cause: cause)).inserted else { return nil }
        return "SwiftRex: \(diagnostic) [later \(diagnostic.kind) reports about \(cause) are not logged]"
    }
}
