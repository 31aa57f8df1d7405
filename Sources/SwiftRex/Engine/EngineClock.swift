/// The effect engine's view of time: the duration since the engine started, and one-shot timers.
///
/// Built from any `Clock` whose duration is `Duration`. A ``ManualClock`` registers timers
/// synchronously (fired inside `advance(by:)`); any other clock sleeps in a main-actor `Task`.
///
/// No user duration can trap: deadlines are sums computed with ``Swift/Duration/saturatingAdding(_:)``,
/// and a real clock never sleeps past ``horizon`` (a deadline later than that, in practice never,
/// is waited for until the horizon).
@usableFromInline
internal struct EngineClock: Sendable {
    /// The longest a real clock's timer sleeps: 100 years from the engine's origin. Sleeping
    /// longer would make a clock's instant arithmetic trap (`Duration.components`).
    static let horizon = Duration.seconds(100 * 365 * 24 * 3600)

    /// Time elapsed since the engine's origin.
    @usableFromInline let now: @Sendable () -> Duration
    /// Starts a timer that fires at `deadline` (engine time) on the main actor; the token cancels it.
    @usableFromInline let startTimer:
        @MainActor @Sendable (_ deadline: Duration, _ fire: @escaping @MainActor @Sendable () -> Void) -> SubscriptionToken
    @usableFromInline
    init<C: Clock>(_ clock: C) where C.Duration == Duration {
        let origin = clock.now
        // A manual clock's timers fire inside `advance(by:)`. Time is read through the concrete
        // type for the two common clocks (every delay, debounce or channel pacing reads it; a
        // generic read goes through witness tables), from the timers' own origin.
        if let manual = clock as? ManualClock, let manualOrigin = origin as? ManualClock.Instant {
            now = { manual.now.offset - manualOrigin.offset }
            startTimer = { deadline, fire in
                manual.scheduleTimer(at: manualOrigin.advanced(by: deadline), fire)
            }
        } else {
            if let continuousOrigin = origin as? ContinuousClock.Instant {
                now = { continuousOrigin.duration(to: .now) }
            } else {
                now = { origin.duration(to: clock.now) }
            }
            startTimer = { deadline, fire in
                let task = Task { @MainActor in
                    do {
                        try await clock.sleep(until: origin.advanced(by: min(deadline, EngineClock.horizon)), tolerance: nil)
                    } catch {
                        return
                    }
                    fire()
                }
                return SubscriptionToken { task.cancel() }
            }
        }
    }
}

extension Duration {
    /// `self + other`, clamped to the largest or smallest representable duration instead of trapping
    /// on overflow: a delay plus a debounce near `Duration`'s limit waits as long as it can.
    @inlinable @inline(__always)
    internal func saturatingAdding(_ other: Duration) -> Duration {
        let (sum, overflow) = attoseconds.addingReportingOverflow(other.attoseconds)
        if !overflow { return Duration(attoseconds: sum) }
        return Duration(attoseconds: other.attoseconds > 0 ? .max : .min)
    }
}
