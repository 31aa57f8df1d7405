import Synchronization

/// A handle on something that can be cancelled: an observation, a running effect, a channel.
///
/// Cancelling is **idempotent**: the wrapped closure runs exactly once, on the first ``cancel()``
/// or when the token is released, whichever comes first. Keep the token alive for as long as the
/// subscription should last.
public final class SubscriptionToken: Sendable {
    private let onCancel: Mutex<(@Sendable () -> Void)?>

    /// A token that runs `cancel` once when cancelled or released.
    public init(_ cancel: @escaping @Sendable () -> Void) {
        self.onCancel = Mutex(cancel)
    }

    private init(nothing: Void) {
        self.onCancel = Mutex(nil)
    }

    /// A token that cancels nothing.
    public static let empty = SubscriptionToken(nothing: ())

    /// Whether the token has been cancelled (or never had anything to cancel).
    public var isCancelled: Bool {
        onCancel.withLock { $0 == nil }
    }

    /// Runs the cancel closure if it has not run yet.
    public func cancel() {
        let action = onCancel.withLock { slot -> (@Sendable () -> Void)? in
            let action = slot
            slot = nil
            return action
        }
        action?()
    }

    deinit {
        cancel()
    }
}
