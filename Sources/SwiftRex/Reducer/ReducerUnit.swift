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
    /// Whether ``run`` has every effect ``reduce`` has, save the `willWrite` call and the returned
    /// flag: a Store with nobody to tell and nothing to reconcile may then run it instead. `false`
    /// when `reduce` does more (a collection lift reports a missing element only there).
    @usableFromInline
    let runIsComplete: Bool
    /// How the unit can be asked together with side-by-side units of the same shape, in one loop
    /// specialised for their types (see ``ReducerFusion``); `nil` for a unit asked on its own.
    ///
    /// Unowned, so that copying a unit (every iteration over a unit array does) retains nothing
    /// more: the unit's ``applies`` closure captures the fusion and keeps it alive, so a unit that
    /// carries a fusion always carries that closure with it.
    @usableFromInline
    let fusion: UnretainedReference<ReducerFusion<Action, State>>?
    /// The element the unit writes when its scope is ``MutationScope/addressed(_:)``, where the
    /// container can be located: a Store then calls that element's observers alone.
    @usableFromInline
    let address: ElementAddress<Action, State>?

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
        runIsComplete = true
        fusion = nil
        address = nil
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
        actionCase: Int? = nil,
        runIsComplete: Bool = false,
        fusion: UnretainedReference<ReducerFusion<Action, State>>? = nil,
        address: ElementAddress<Action, State>? = nil
    ) {
        self.applies = applies
        self.run = run
        self.reduce = reduce
        self.scope = scope
        self.footprint = footprint
        self.actionCase = actionCase
        self.runIsComplete = runIsComplete
        self.fusion = fusion
        self.address = address
    }

    /// This unit with `address` as the element it writes.
    @inlinable
    func addressing(_ address: ElementAddress<Action, State>?) -> ReducerUnit {
        ReducerUnit(
            applies: applies, run: run, reduce: reduce, scope: scope, footprint: footprint, actionCase: actionCase,
            runIsComplete: runIsComplete, fusion: fusion, address: address)
    }

    /// Whether the unit acts on `action`. Takes the state `inout` only to pass its address: a
    /// by-value (even `borrowing`) parameter makes the caller copy a large value-type state.
    @inlinable
    func willMutate(_ action: Action, _ state: inout State) -> Bool {
        guard let applies else { return true }
        return applies(action, &state)
    }
}

/// What lets side-by-side lifted units of one shape (the same action lane and local state types,
/// each with its own lane and focus) be asked in one loop: the loop is specialised for their
/// types, so asking a unit whose action does not extract costs a call to its extract and a `nil`
/// test, not a call through the unit's own closure as well.
///
/// Every unit is still asked, in order, and does exactly what its own ``ReducerUnit/reduce``
/// does: no unit is skipped because of what another one answered.
@usableFromInline
internal class ReducerFusion<Action, State>: @unchecked Sendable {
    // Immutable: subclasses hold only `let`s of sendable values.
    @inlinable
    init() {}

    /// Whether `other` has this fusion's shape.
    @usableFromInline
    func accepts(_ other: ReducerFusion<Action, State>) -> Bool { false }

    /// The decide-and-mutate of this unit followed by `others` (each of this shape), in order:
    /// returns whether any applied.
    @usableFromInline
    func reduce(with others: [ReducerFusion<Action, State>]) -> @Sendable (Action, inout State, _ willWrite: () -> Void) -> Bool {
        preconditionFailure("Internal inconsistency: a reducer fusion without a shape")
    }
}
