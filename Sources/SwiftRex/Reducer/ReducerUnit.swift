/// One flat unit of a reducer fold: an in-place reduce and, optionally, a test that tells before any
/// mutation whether the unit will act on an action (a lifted unit whose prism misses will not).
///
/// Units are what composition concatenates: a composed reducer or behavior is one flat array of
/// them, built once, run with a plain loop and no closure built per action.
@usableFromInline
internal struct ReducerUnit<Action, State>: Sendable {
    /// Whether the unit acts on this action in this (pre-mutation) state; `nil` means always.
    @usableFromInline
    let applies: (@Sendable (Action, borrowing State) -> Bool)?
    /// The in-place reduce. It must itself skip when the unit does not apply.
    @usableFromInline
    let run: @Sendable (Action, inout State) -> Void
    /// What the unit may mutate when it applies (``MutationScope/anything`` unless a collection
    /// lift knows better): lets the Store reconcile only the element an action changed
    /// (<doc:SupervisionAndChannels#Reconcile-cost>).
    @usableFromInline
    let scope: MutationScope
    /// The part of the state the unit may write: a Store skips every supervision that reads
    /// none of it (see `StateFootprint`).
    @usableFromInline
    let footprint: UnitFootprint

    @inlinable
    init(
        applies: (@Sendable (Action, borrowing State) -> Bool)? = nil,
        scope: MutationScope = .anything,
        footprint: UnitFootprint = .whole,
        run: @escaping @Sendable (Action, inout State) -> Void
    ) {
        self.applies = applies
        self.scope = scope
        self.footprint = footprint
        self.run = run
    }

    /// Whether the unit acts on `action`. Takes the state `inout` only to pass its address: a
    /// by-value (even `borrowing`) parameter makes the caller copy a large value-type state.
    @inlinable
    func willMutate(_ action: Action, _ state: inout State) -> Bool {
        guard let applies else { return true }
        return applies(action, state)
    }
}
