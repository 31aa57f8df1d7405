/// Something the Store's effect registry still holds: an effect running or waiting on the clock, or
/// a channel open or waiting. ``Store/pendingEffects`` lists them; the `TestStore` names each one
/// when a test finishes with work left.
public struct PendingEffect: Sendable, Equatable, CustomStringConvertible {
    /// What the entry is and what it waits for.
    public enum Kind: Sendable, Equatable {
        /// A one-shot effect that started and has not completed: an async task still running, or a
        /// subscription that has not called `complete`.
        case running
        /// A one-shot effect that waits on the clock before it starts: its `delay`, its debounce
        /// window, or both (`nil` for the knob it does not use).
        case waitingToStart(delay: Duration?, debounce: Duration?)
        /// A channel that is open: it stays open until it is cancelled, its consumer completes, or
        /// (for a supervised channel) the state stops wanting it.
        case openChannel
        /// A value waiting on the clock for the channel's debounce window before it is delivered.
        case pendingDelivery(debounce: Duration?)
        /// A channel whose re-creation waits on the clock for its settle time.
        case settling
    }

    /// The id the effect or channel was scheduled under; `nil` for an effect scheduled without one.
    public let id: AnyHashableSendable?
    /// What it is and what it waits for.
    public let kind: Kind

    /// An entry for `id` of the given kind.
    public init(id: AnyHashableSendable?, kind: Kind) {
        self.id = id
        self.kind = kind
    }

    /// Whether the entry waits on the clock (advancing time would move it on).
    public var waitsOnTheClock: Bool {
        switch kind {
        case .waitingToStart, .pendingDelivery, .settling: return true
        case .running, .openChannel: return false
        }
    }

    /// One line in plain English: the id, what it is, and what it waits for.
    ///
    /// For example: `"search": a one-shot effect debounced by 300 ms, waiting on the clock to start`.
    public var description: String {
        let name = id.map { "\"\($0)\"" } ?? "an effect with no id"
        switch kind {
        case .running:
            return
                "\(name): a one-shot effect that started and has not completed (an async task still running, or a subscription that has not called complete)"
        case .waitingToStart(let delay, let debounce):
            var timing: [String] = []
            if let debounce { timing.append("debounced by \(readable(debounce))") }
            if let delay, delay > .zero { timing.append("delayed by \(readable(delay))") }
            let how = timing.isEmpty ? "" : " " + timing.joined(separator: " and ")
            return "\(name): a one-shot effect\(how), waiting on the clock to start"
        case .openChannel:
            return "\(name): an open channel"
        case .pendingDelivery(let debounce):
            let window = debounce.map { " (debounced by \(readable($0)))" } ?? ""
            return "\(name): a channel with a value waiting on the clock to be delivered\(window)"
        case .settling:
            return "\(name): a channel waiting on the clock for its settle time before it is re-created"
        }
    }
}

/// A duration in the largest unit that keeps it readable: `300 ms`, `1.5 s`, `250 µs`, `40 ns`.
internal func readable(_ duration: Duration) -> String {
    // From attoseconds, not `components`: that traps beyond `Int64.max` seconds, and any user
    // duration is accepted (a saturated debounce plus delay, say).
    let nanoseconds = Double(duration.attoseconds) / 1e9
    let magnitude = abs(nanoseconds)
    func format(_ value: Double, _ unit: String) -> String {
        let rounded = (value * 100).rounded() / 100
        // Whole values print without a fraction; `Int(_:)` is only asked for one it can hold
        // (a saturated duration is about 9.2e18 s, beyond `Int.max`).
        let isWhole = rounded == rounded.rounded() && abs(rounded) < 9e15
        let text = isWhole ? String(Int(rounded)) : String(rounded)
        return "\(text) \(unit)"
    }
    if magnitude >= 1e9 { return format(nanoseconds / 1e9, "s") }
    if magnitude >= 1e6 { return format(nanoseconds / 1e6, "ms") }
    if magnitude >= 1e3 { return format(nanoseconds / 1e3, "µs") }
    return format(nanoseconds, "ns")
}
