import Foundation

// What the library reports when it detects misuse, and where the report goes: below every layer
// that detects misuse (lifts, lanes, supervision, effects), so none of them names the Store.

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
    }

    /// The kind of misuse.
    public let kind: Kind
    /// What happened, composed each time it is read: a diagnostic whose handler only looks at its
    /// ``kind`` costs no formatting (a late response for a removed row can be routine).
    public var message: String { composeMessage() }
    /// The source of the action involved, when known.
    public let source: ActionSource?
    @usableFromInline let composeMessage: @Sendable () -> String

    /// A diagnostic whose `message` is evaluated when read, not here.
    @inlinable
    public init(kind: Kind, message: @autoclosure @escaping @Sendable () -> String, source: ActionSource?) {
        self.kind = kind
        self.composeMessage = message
        self.source = source
    }

    /// The message with its source.
    public var description: String {
        source.map { "\(message) (\($0))" } ?? message
    }
}

/// Storage of the task-local diagnostic override (task-locals cannot live on a main-actor type).
public enum DiagnosticOverride {
    /// The override; see ``StoreHooks/diagnosticHandler``.
    @TaskLocal public static var handler: (@Sendable (StoreDiagnostic) -> Void)?
}

/// Where a diagnostic goes when no task-local override is set: ``StoreHooks/onDiagnostic`` reads
/// and writes this handler.
@MainActor
@usableFromInline
internal enum DiagnosticHooks {
    /// Logs the diagnostic; a duplicate id also asserts in debug builds.
    @usableFromInline static var onDiagnostic: @MainActor (StoreDiagnostic) -> Void = { diagnostic in
        print("SwiftRex: \(diagnostic)")
        if diagnostic.kind == .duplicateID { assertionFailure(diagnostic.description) }
    }
}

/// Reports a diagnostic: to the task-local ``DiagnosticOverride/handler`` when one is set (tests),
/// else to ``StoreHooks/onDiagnostic`` on the main actor.
@usableFromInline
internal func reportDiagnostic(_ diagnostic: StoreDiagnostic) {
    if let handler = DiagnosticOverride.handler {
        handler(diagnostic)
    } else if isOnMainActor() {
        // Called in place, through a closure that does not escape: nothing allocated.
        MainActor.assumeIsolated { DiagnosticHooks.onDiagnostic(diagnostic) }
    } else {
        Task { @MainActor in DiagnosticHooks.onDiagnostic(diagnostic) }
    }
}

/// Runs `body` on the main actor: at once when already on it, else after a hop.
internal func onMainActor(_ body: @escaping @MainActor @Sendable () -> Void) {
    if isOnMainActor() {
        MainActor.assumeIsolated(body)
    } else {
        Task { @MainActor in body() }
    }
}

/// A tag on the main dispatch queue, set once: the main actor's work runs on that queue.
private let mainQueueTag: DispatchSpecificKey<UInt8> = {
    let key = DispatchSpecificKey<UInt8>()
    DispatchQueue.main.setSpecific(key: key, value: 1)
    return key
}()

/// Whether the caller runs on the main actor. The main thread is not enough to tell: once a
/// process parks its main thread in `dispatchMain()` (an async `main` on Linux does), the main
/// queue, and with it every main-actor job, is drained by whichever worker thread libdispatch
/// picks, where `Thread.isMainThread` is `false`.
internal func isOnMainActor() -> Bool {
    Thread.isMainThread || DispatchQueue.getSpecific(key: mainQueueTag) != nil
}
