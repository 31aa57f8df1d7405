/// One flat unit of a reducer fold: an in-place reduce that decides by itself whether it acts on
/// an action (a lifted unit whose prism misses does not), and, for the APIs that ask first, the
/// test alone.
///
/// Units are what composition concatenates: a composed reducer or behavior is one flat array of
/// them, built once, run with a plain loop and no closure built per action.
@usableFromInline
internal struct ReducerUnit<Action, State>: Sendable {
    /// Whether the unit acts on this action in this (pre-mutation) state; `nil` means always.
    ///
    /// Takes the state `inout` only to pass its address: it writes nothing, and a by-value (even
    /// `borrowing`) parameter would make the caller copy a large value-type state.
    @usableFromInline
    let applies: (@Sendable (Action, inout State) -> Bool)?
    /// The in-place reduce. It skips by itself when the unit does not apply.
    @usableFromInline
    let run: @Sendable (Action, inout State) -> Void
    /// The unit as the Store runs it: decides and mutates in one pass, reading the action once per
    /// lift level. When it applies it calls `willWrite` exactly once, just before its first write
    /// (never while a copy-on-write container or a moved-out value is open), then mutates in
    /// place; it returns whether it applied. When it does not apply it neither calls `willWrite`
    /// nor writes.
    @usableFromInline
    let reduce: @Sendable (Action, inout State, _ willWrite: () -> Void) -> Bool
    /// What the unit may mutate when it applies (``MutationScope/anything`` unless a collection
    /// lift knows better): lets the Store reconcile only the element an action changed
    /// (<doc:SupervisionAndChannels#Reconcile-cost>).
    @usableFromInline
    let scope: MutationScope
    /// The part of the state the unit may write: a Store skips every supervision that reads
    /// none of it (see `StateFootprint`).
    @usableFromInline
    let footprint: UnitFootprint

    /// A unit from a test and a reduce that runs when the test passes (`applies == nil`: always).
    @inlinable
    init(
        applies: (@Sendable (Action, inout State) -> Bool)? = nil,
        scope: MutationScope = .anything,
        footprint: UnitFootprint = .whole,
        run: @escaping @Sendable (Action, inout State) -> Void
    ) {
        self.applies = applies
        self.scope = scope
        self.footprint = footprint
        if let applies {
            self.run = { action, state in if applies(action, &state) { run(action, &state) } }
            reduce = { action, state, willWrite in
                guard applies(action, &state) else { return false }
                willWrite()
                run(action, &state)
                return true
            }
        } else {
            self.run = run
            reduce = { action, state, willWrite in
                willWrite()
                run(action, &state)
                return true
            }
        }
    }

    /// A unit from its test and its fused reduce (a lifted unit).
    @inlinable
    init(
        applies: @escaping @Sendable (Action, inout State) -> Bool,
        scope: MutationScope,
        footprint: UnitFootprint,
        reduce: @escaping @Sendable (Action, inout State, _ willWrite: () -> Void) -> Bool
    ) {
        self.applies = applies
        self.scope = scope
        self.footprint = footprint
        self.reduce = reduce
        run = { action, state in _ = reduce(action, &state) {} }
    }

    /// Every field given (copies of a unit with one field changed).
    @inlinable
    init(
        applies: (@Sendable (Action, inout State) -> Bool)?,
        run: @escaping @Sendable (Action, inout State) -> Void,
        reduce: @escaping @Sendable (Action, inout State, _ willWrite: () -> Void) -> Bool,
        scope: MutationScope,
        footprint: UnitFootprint
    ) {
        self.applies = applies
        self.run = run
        self.reduce = reduce
        self.scope = scope
        self.footprint = footprint
    }

    /// Whether the unit acts on `action`. Takes the state `inout` only to pass its address: a
    /// by-value (even `borrowing`) parameter makes the caller copy a large value-type state.
    @inlinable
    func willMutate(_ action: Action, _ state: inout State) -> Bool {
        guard let applies else { return true }
        return applies(action, &state)
    }
}
