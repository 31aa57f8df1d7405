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
    /// The case of `Action` the unit acts on, when its outermost action lane can tell (see
    /// ``CaseIndexable``); `nil` when it may act on any action.
    @usableFromInline
    let actionCase: Int?

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
        actionCase = nil
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

    /// Every field given (copies of a unit with one field changed).
    @inlinable
    init(
        applies: (@Sendable (Action, inout State) -> Bool)?,
        run: @escaping @Sendable (Action, inout State) -> Void,
        reduce: @escaping @Sendable (Action, inout State, _ willWrite: () -> Void) -> Bool,
        scope: MutationScope,
        footprint: UnitFootprint,
        actionCase: Int? = nil
    ) {
        self.applies = applies
        self.run = run
        self.reduce = reduce
        self.scope = scope
        self.footprint = footprint
        self.actionCase = actionCase
    }

    /// Whether the unit acts on `action`. Takes the state `inout` only to pass its address: a
    /// by-value (even `borrowing`) parameter makes the caller copy a large value-type state.
    @inlinable
    func willMutate(_ action: Action, _ state: inout State) -> Bool {
        guard let applies else { return true }
        return applies(action, &state)
    }
}

/// Asks reducer units, in order, to decide and mutate `state`: every unit, or the units at the
/// positions `group` of `routed` names. Merges the scope and mask of every unit that applied and
/// returns whether one did.
///
/// The units are read in place, not copied out of their array: no closure is retained and
/// released around each call (the caller holds the arrays for the whole call).
@inlinable
internal func askReducerUnits<Action, State>(
    _ units: [ReducerUnit<Action, State>], masks: [UInt64], routed: [Int], group: Range<Int>?,
    action: Action, state: inout State, scope: inout MutationScope, mask: inout UInt64, willWrite: () -> Void
) -> Bool {
    var applied = false
    units.withUnsafeBufferPointer { units in
        masks.withUnsafeBufferPointer { masks in
            func ask(_ index: Int) {
                guard units[index].reduce(action, &state, willWrite) else { return }
                applied = true
                scope = scope.merged(units[index].scope)
                mask |= masks[index]
            }
            guard let group else {
                for index in 0..<units.count { ask(index) }
                return
            }
            routed.withUnsafeBufferPointer { routed in
                for position in group { ask(routed[position]) }
            }
        }
    }
    return applied
}
