/// The effect engine's view of time: the duration since the engine started, and one-shot timers.
///
/// Built from any `Clock` whose duration is `Duration`. A ``ManualClock`` registers timers
/// synchronously (fired inside `advance(by:)`); any other clock sleeps in a main-actor `Task`.
@usableFromInline
internal struct EngineClock: Sendable {
    /// Time elapsed since the engine's origin.
    let now: @Sendable () -> Duration
    /// Starts a timer that fires at `deadline` (engine time) on the main actor; the token cancels it.
    let startTimer: @MainActor @Sendable (_ deadline: Duration, _ fire: @escaping @MainActor @Sendable () -> Void) -> SubscriptionToken
    @usableFromInline
    init<C: Clock>(_ clock: C) where C.Duration == Duration {
        let origin = clock.now
        now = { origin.duration(to: clock.now) }
        if let manual = clock as? ManualClock {
            let manualOrigin = manual.now
            startTimer = { deadline, fire in
                manual.scheduleTimer(at: manualOrigin.advanced(by: deadline), fire)
            }
        } else {
            startTimer = { deadline, fire in
                let task = Task { @MainActor in
                    do {
                        try await clock.sleep(until: origin.advanced(by: deadline), tolerance: nil)
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
