import Foundation

// What the `TestStore` and the library's own tests reach: effect interception, phase 5's
// statistics and its reference mode, and draining on demand.
extension Store {
    /// A Store in phase 5's reference mode when `reconcilesChangedElementAlone` is `false`: every
    /// mutation re-evaluates every supervision and reconciles the full desired set, and every
    /// mutation of unknown scope checks every element's effects. The partial paths (the default)
    /// must agree with it.
    @_spi(Testing)
    @inlinable
    public convenience init<C: Clock>(
        initial: State,
        behavior: Behavior<Action, State, Environment>,
        environment: Environment,
        clock: (Environment) -> C,
        reconcilesChangedElementAlone: Bool
    ) where C.Duration == Duration {
        self.init(
            initial: initial, behavior: behavior, environment: environment, clock: clock, date: { Date() }, uuid: { UUID() },
            partialReconcile: reconcilesChangedElementAlone)
    }

    /// When set, effect and channel actions are handed to this closure (with their causal depth)
    /// instead of being processed: the `TestStore` collects them for `receive` assertions.
    @_spi(Testing)
    public var effectActionInterceptor: (@MainActor (DispatchedAction<Action>, Int) -> Void)? {
        get { interceptEffectActions }
        set { interceptEffectActions = newValue }
    }

    /// What phase 5 did since this Store was created: full reconciles, patches, evaluations.
    @_spi(Testing)
    public var supervisionStatistics: SupervisionStatistics { supervision?.statistics ?? SupervisionStatistics() }

    /// Whether an effect run is live or an effect action waits in the mailbox (pending timers and
    /// open channels aside): something may still arrive without a clock moving.
    @_spi(Testing)
    public var hasRunningEffects: Bool { engine.hasRunningWork || mailbox.count > 0 }

    /// Drains the mailbox now instead of on a later turn.
    @_spi(Testing)
    public func drainEffectActionsNow() {
        drainMailbox()
    }

    /// Processes an action that an effect emitted, with its causal depth (the `TestStore`'s receive path).
    @_spi(Testing)
    public func processEffectAction(_ action: DispatchedAction<Action>, depth: Int) {
        process(action.action, source: action.dispatcher, depth: depth)
    }
}
