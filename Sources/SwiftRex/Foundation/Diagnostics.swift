import Foundation
import Synchronization

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

/// What one misuse is about: who detected it (a lift, a lane), its kind and the value it concerns
/// (an id, a set of duplicate ids). A Store reports each cause once.
@usableFromInline
internal struct DiagnosticCause<Value: Hashable & Sendable>: Hashable, Sendable {
    @usableFromInline let origin: UInt64
    @usableFromInline let kind: StoreDiagnostic.Kind
    @usableFromInline let value: Value

    @inlinable
    init(origin: UInt64, kind: StoreDiagnostic.Kind, value: Value) {
        self.origin = origin
        self.kind = kind
        self.value = value
    }
}

/// The causes one Store has reported. Remembers the most recent ones only, so memory stays
/// bounded.
@usableFromInline
internal final class ReportedCauses: Sendable {
    /// How many causes are remembered.
    @usableFromInline static var capacity: Int { 256 }

    @usableFromInline let causes = Mutex<(set: Set<AnyHashableSendable>, order: [AnyHashableSendable])>(([], []))

    @inlinable init() {}

    /// Whether `cause` is reported for the first time (it is remembered from now on).
    @inlinable
    func isNew(_ cause: AnyHashableSendable) -> Bool {
        causes.withLock { remembered in
            guard remembered.set.insert(cause).inserted else { return false }
            remembered.order.append(cause)
            if remembered.order.count > Self.capacity { remembered.set.remove(remembered.order.removeFirst()) }
            return true
        }
    }
}

/// The Stores' states by address: a Store registers the bytes of its state when it is made, so a
/// misuse detected while reading or writing that state (a lift's `inout` state, a context's) is
/// reported once per Store and cause. Held weakly: a Store gone, its entry is dropped.
@usableFromInline
internal enum DiagnosticScopes {
    @usableFromInline
    struct Entry: @unchecked Sendable {
        @usableFromInline let start: UInt
        @usableFromInline let end: UInt
        @usableFromInline weak var causes: ReportedCauses?
    }

    @usableFromInline static let entries = Mutex<[Entry]>([])

    /// Registers a Store's `state` (`inout` for its address only), with the causes it reports.
    @inlinable
    static func register<State>(_ causes: ReportedCauses, state: inout State) {
        register(causes, start: diagnosticScope(of: &state), size: MemoryLayout<State>.size)
    }

    @usableFromInline
    static func register(_ causes: ReportedCauses, start: UInt, size: Int) {
        let entry = Entry(start: start, end: start + UInt(max(size, 1)), causes: causes)
        entries.withLock { entries in
            entries.removeAll { $0.causes == nil || ($0.start < entry.end && entry.start < $0.end) }
            entries.append(entry)
        }
    }

    /// The causes of the Store whose state holds `address`, if any.
    @usableFromInline
    static func causes(at address: UInt) -> ReportedCauses? {
        entries.withLock { entries in
            entries.last { $0.start <= address && address < $0.end }?.causes
        }
    }
}

/// Reports `diagnostic` once per Store and `cause` when `scope` (see ``diagnosticScope(of:)``)
/// lies in a Store's state, and every time otherwise (a lane or a behavior step run by hand, a
/// collection nested in a collection).
@usableFromInline
internal func reportDiagnostic<Value: Hashable & Sendable>(
    _ diagnostic: @autoclosure () -> StoreDiagnostic, cause: DiagnosticCause<Value>, scope: UInt?
) {
    if let scope, let causes = DiagnosticScopes.causes(at: scope), !causes.isNew(AnyHashableSendable(cause)) { return }
    reportDiagnostic(diagnostic())
}

/// ``reportDiagnostic(_:cause:scope:)`` for a misuse found in `state` (`inout` for its address only).
@inlinable
internal func reportDiagnostic<Value: Hashable & Sendable, State>(
    _ diagnostic: @autoclosure () -> StoreDiagnostic, cause: DiagnosticCause<Value>, in state: inout State
) {
    reportDiagnostic(diagnostic(), cause: cause, scope: diagnosticScope(of: &state))
}

/// The address of `state`, which names the Store whose state holds it when a misuse is found
/// there (`inout` for its address only; never read or written through).
@inlinable
internal func diagnosticScope<State>(of state: inout State) -> UInt {
    withUnsafeMutablePointer(to: &state) { UInt(bitPattern: $0) }
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
