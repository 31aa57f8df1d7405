import Synchronization
import Testing

/// Counts live tracked objects so a test can assert that nothing outlives a scope.
///
/// Hand tracked instances to the code under test (capture them in closures, effects, channels),
/// drop every reference, then check ``liveCount`` or call ``expectAllReleased(sourceLocation:)``.
///
/// ```swift
/// let tracker = LifetimeTracker()
/// do {
///     let token = tracker.instance()
///     let effect = Effect<Int>.subscribe { _, _ in SubscriptionToken { _ = token } }
///     _ = effect.emittedActions()
/// }
/// tracker.expectAllReleased()
/// ```
public final class LifetimeTracker: Sendable {
    private let counts = Mutex<(live: Int, created: Int)>((0, 0))

    /// A tracker with nothing alive.
    public init() {}

    /// A new tracked object carrying `payload`; it counts as live until it is deinitialised.
    public func instance<Payload: Sendable>(_ payload: Payload) -> Tracked<Payload> {
        counts.withLock {
            $0.live += 1
            $0.created += 1
        }
        return Tracked(payload, tracker: self)
    }

    /// A new tracked object with no payload.
    public func instance() -> Tracked<Void> {
        instance(())
    }

    /// How many tracked objects are alive now.
    public var liveCount: Int { counts.withLock { $0.live } }

    /// How many tracked objects this tracker has handed out in total.
    public var createdCount: Int { counts.withLock { $0.created } }

    /// Whether every tracked object has been released.
    public var allReleased: Bool { liveCount == 0 }

    /// Records a test issue when any tracked object is still alive.
    public func expectAllReleased(sourceLocation: SourceLocation = #_sourceLocation) {
        let live = liveCount
        if live != 0 {
            Issue.record(
                "\(live) of \(createdCount) tracked objects are still alive",
                sourceLocation: sourceLocation
            )
        }
    }

    fileprivate func release() {
        counts.withLock { $0.live -= 1 }
    }
}

/// An object whose lifetime a ``LifetimeTracker`` counts: live from creation until deinit.
public final class Tracked<Payload: Sendable>: Sendable {
    /// The value it carries.
    public let payload: Payload
    private let tracker: LifetimeTracker

    fileprivate init(_ payload: Payload, tracker: LifetimeTracker) {
        self.payload = payload
        self.tracker = tracker
    }

    deinit {
        tracker.release()
    }
}
