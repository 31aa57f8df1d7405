/// How values are paced into a live channel. There is deliberately no per-value delay: sleep on the
/// injected clock inside the channel body instead.
public enum ChannelDelivery: Equatable, Sendable {
    /// Every value is delivered at once.
    case immediate
    /// The first value is delivered; values within the interval after it are dropped.
    case throttle(Duration)
    /// Only the last value of a burst is delivered, once the burst has been quiet for the duration.
    case debounce(Duration)

    /// The delivery matching an effect coalescing policy, or `nil` for none.
    @inlinable
    public init?(_ coalesce: EffectScheduling.Coalesce?) {
        switch coalesce {
        case .none: return nil
        case .debounce(let duration): self = .debounce(duration)
        case .throttle(let duration): self = .throttle(duration)
        }
    }
}

/// The live side of a channel, returned by its body: what to do with each delivered value, and how to stop.
public struct ChannelHandler<Value>: Sendable {
    /// Receives each delivered value.
    public let receive: @Sendable (Value) -> Void
    /// Tears the channel down; called exactly once.
    public let cancel: @Sendable () -> Void

    /// A handler from its two closures.
    @inlinable
    public init(receive: @escaping @Sendable (Value) -> Void, cancel: @escaping @Sendable () -> Void) {
        self.receive = receive
        self.cancel = cancel
    }
}

extension ChannelHandler where Value == Never {
    /// A handler for a channel that receives nothing: only a way to stop.
    @inlinable
    public static func cancelOnly(_ cancel: @escaping @Sendable () -> Void) -> ChannelHandler {
        ChannelHandler(receive: { _ in }, cancel: cancel)
    }
}
