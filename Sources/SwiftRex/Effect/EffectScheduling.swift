/// How the Store schedules one effect component: independent knobs for an id, a delay, coalescing
/// (debounce or throttle) and exclusivity.
///
/// The id namespace is one per Store and is shared by one-shot effects and channels. Ids are
/// compared with ``AnyHashableSendable`` semantics (same dynamic type and equal values).
///
/// Any duration is accepted: a delay plus a debounce that would overflow `Duration` saturates at
/// its largest value, and a timer on a real clock sleeps at most 100 years (in practice the
/// effect stays pending, and cancellable, for ever); on a ``ManualClock`` it fires once the clock
/// is advanced that far.
public struct EffectScheduling: Equatable, Sendable {
    /// How bursts of components under one id are coalesced.
    public enum Coalesce: Equatable, Sendable {
        /// Only the last component of a burst runs, `Duration` after the burst goes quiet.
        case debounce(Duration)
        /// The first component runs; others within `Duration` of it are dropped (leading edge only).
        case throttle(Duration)
    }

    /// The key a component registers under; `nil` gives it a fresh anonymous key.
    public var id: AnyHashableSendable? {
        @inlinable get { storedID }
        @inlinable set {
            self = EffectScheduling(storedID: newValue, delay: delay, coalesce: coalesce, exclusive: exclusive, isCancelSentinel: isCancelSentinel)
        }
    }
    /// The id, a constant: had the only field that needs releasing been a variable, building a
    /// scheduling would have copied and destroyed it once through its value witnesses.
    @usableFromInline
    internal let storedID: AnyHashableSendable?
    /// Waits this long before starting; `nil` or a non-positive value starts at once.
    public var delay: Duration?
    /// Debounce or throttle per ``id``.
    public var coalesce: Coalesce?
    /// Cancels whatever runs under ``id`` before starting.
    public var exclusive: Bool
    /// A cancel-only sentinel: the engine cancels ``id`` and never subscribes the component.
    @inlinable public var cancelsOnly: Bool { isCancelSentinel }
    @usableFromInline
    internal var isCancelSentinel: Bool

    /// Builds a scheduling from its knobs.
    @inlinable
    public init(id: AnyHashableSendable? = nil, delay: Duration? = nil, coalesce: Coalesce? = nil, exclusive: Bool = false) {
        self.init(storedID: id, delay: delay, coalesce: coalesce, exclusive: exclusive, isCancelSentinel: false)
    }

    /// A scheduling from every stored field.
    @inlinable
    internal init(storedID: AnyHashableSendable?, delay: Duration?, coalesce: Coalesce?, exclusive: Bool, isCancelSentinel: Bool) {
        self.storedID = storedID
        self.delay = delay
        self.coalesce = coalesce
        self.exclusive = exclusive
        self.isCancelSentinel = isCancelSentinel
    }

    /// Starts at once, anonymously; runs are independent and cannot be cancelled by id.
    ///
    /// Built where it is used, not read from a global: no lazy-global check and no copy.
    @inlinable
    public static var immediately: EffectScheduling { EffectScheduling() }

    /// Whether this is ``immediately``: no id, no delay, no coalescing, not exclusive, not a
    /// cancel sentinel.
    @inlinable
    internal var isImmediately: Bool { Self.isImmediately(self) }

    /// Whether `scheduling` is ``immediately``, each knob tested by case where it lies: a
    /// `consuming` scheduling asked through the property was copied first.
    @inlinable @inline(__always)
    internal static func isImmediately(_ scheduling: borrowing EffectScheduling) -> Bool {
        if case .some = scheduling.id { return false }
        if case .some = scheduling.delay { return false }
        if case .some = scheduling.coalesce { return false }
        return !scheduling.exclusive && !scheduling.isCancelSentinel
    }

    /// Whether `scheduling` is exactly ``keyed(id:)-swift.type.method`` or
    /// ``replacing(id:)-swift.type.method`` (given an id): no delay, no coalescing, not a cancel
    /// sentinel. Tested in place.
    @inlinable @inline(__always)
    internal static func isPlainKeyed(_ scheduling: borrowing EffectScheduling) -> Bool {
        if case .some = scheduling.delay { return false }
        if case .some = scheduling.coalesce { return false }
        return !scheduling.isCancelSentinel
    }

    // The factories take their id `consuming` and move it in: borrowed, it was copied into the
    // scheduling and the caller's destroyed, each through the id's value witnesses.

    /// Registers under `id`; a newer run under the same id replaces (cancels) the older one.
    @inlinable
    public static func keyed(id: consuming AnyHashableSendable) -> EffectScheduling {
        EffectScheduling(id: consume id)
    }

    /// Cancels whatever runs under `id`, then starts.
    @inlinable
    public static func replacing(id: consuming AnyHashableSendable) -> EffectScheduling {
        EffectScheduling(id: consume id, exclusive: true)
    }

    /// Starts `delay` after the last call in a burst under `id`; earlier ones are cancelled, even if started.
    @inlinable
    public static func debounce(id: consuming AnyHashableSendable, delay: Duration) -> EffectScheduling {
        EffectScheduling(id: consume id, coalesce: .debounce(delay))
    }

    /// Starts at most once per `interval` under `id` (leading edge; calls inside the window are dropped).
    @inlinable
    public static func throttle(id: consuming AnyHashableSendable, interval: Duration) -> EffectScheduling {
        EffectScheduling(id: consume id, coalesce: .throttle(interval))
    }

    /// Cancels everything under `id` (runs, timers, throttle stamps, channels); starts nothing.
    @inlinable
    public static func cancelInFlight(id: consuming AnyHashableSendable) -> EffectScheduling {
        var scheduling = EffectScheduling(id: consume id)
        scheduling.isCancelSentinel = true
        return scheduling
    }

    /// ``keyed(id:)-swift.type.method`` with any hashable id.
    @_disfavoredOverload @inlinable
    public static func keyed(id: some Hashable & Sendable) -> EffectScheduling { keyed(id: AnyHashableSendable(id)) }

    /// ``replacing(id:)-swift.type.method`` with any hashable id.
    @_disfavoredOverload @inlinable
    public static func replacing(id: some Hashable & Sendable) -> EffectScheduling { replacing(id: AnyHashableSendable(id)) }

    /// ``debounce(id:delay:)-swift.type.method`` with any hashable id.
    @_disfavoredOverload @inlinable
    public static func debounce(id: some Hashable & Sendable, delay: Duration) -> EffectScheduling {
        debounce(id: AnyHashableSendable(id), delay: delay)
    }

    /// ``throttle(id:interval:)-swift.type.method`` with any hashable id.
    @_disfavoredOverload @inlinable
    public static func throttle(id: some Hashable & Sendable, interval: Duration) -> EffectScheduling {
        throttle(id: AnyHashableSendable(id), interval: interval)
    }

    /// ``cancelInFlight(id:)-swift.type.method`` with any hashable id.
    @_disfavoredOverload @inlinable
    public static func cancelInFlight(id: some Hashable & Sendable) -> EffectScheduling {
        cancelInFlight(id: AnyHashableSendable(id))
    }

    /// A copy of this scheduling that waits `delay` before starting.
    @inlinable
    public func delayed(by delay: Duration) -> EffectScheduling {
        var copy = self
        copy.delay = delay
        return copy
    }
}
