/// How the actions effects emit, and the registered runs that end, leave the engine: three posting
/// closures, callable from any thread, which a Store builds over its mailbox (so they are
/// specialised for its action type). One object, shared: an `Effect.task` run holds one reference
/// to it, where three closures would be three retains when it starts and three releases, on
/// whichever thread, when it ends. It also holds the list of anonymous runs, which a run leaves
/// when its task ends: reached through this reference, the list outlives every run in it.
@usableFromInline
internal final class EffectOutlet<Action: Sendable>: Sendable {
    /// Posts an action with its source and causal depth.
    @usableFromInline let action: @Sendable (Action, ActionSource, Int) -> Void
    /// Posts an already stamped action with its causal depth.
    @usableFromInline let letter: @Sendable (DispatchedAction<Action>, Int) -> Void
    /// Posts a registered run that ended, after the actions it sent.
    @usableFromInline let finished: @Sendable (EffectRun) -> Void
    /// The anonymous `Effect.task` runs whose task has not ended.
    @usableFromInline let anonymousRuns = AnonymousTaskRuns<Action>()

    /// An outlet from its three posting closures.
    @inlinable
    init(
        action: @escaping @Sendable (Action, ActionSource, Int) -> Void,
        letter: @escaping @Sendable (DispatchedAction<Action>, Int) -> Void,
        finished: @escaping @Sendable (EffectRun) -> Void
    ) {
        self.action = action
        self.letter = letter
        self.finished = finished
    }

    /// Links an anonymous run about to start (main actor). Reached through this object, which
    /// its caller holds, the list is not retained and released around the call.
    @inlinable
    func linkAnonymous(_ run: EffectTaskRun<Action>) {
        anonymousRuns.link(run)
    }

    /// Unlinks an anonymous run whose task is ending (any thread).
    @inlinable
    func unlinkAnonymous(_ run: EffectTaskRun<Action>) {
        anonymousRuns.unlink(run)
    }
}
