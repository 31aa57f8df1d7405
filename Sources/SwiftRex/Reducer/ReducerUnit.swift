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
    let fusion: Unmanaged<ReducerFusion<Action, State>>?

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
        fusion: Unmanaged<ReducerFusion<Action, State>>? = nil
    ) {
        self.applies = applies
        self.run = run
        self.reduce = reduce
        self.scope = scope
        self.footprint = footprint
        self.actionCase = actionCase
        self.runIsComplete = runIsComplete
        self.fusion = fusion
    }

    /// Whether the unit acts on `action`. Takes the state `inout` only to pass its address: a
    /// by-value (even `borrowing`) parameter makes the caller copy a large value-type state.
    @inlinable
    func willMutate(_ action: Action, _ state: inout State) -> Bool {
        guard let applies else { return true }
        return applies(action, &state)
    }
}

/// What a Store's reducer-only path needs of one reducer unit: its decide-and-mutate closure, its
/// mutation scope and its supervision mask.
///
/// A class, reached through `Unmanaged` references while the Store owns it: the hot loop calls
/// the closure of a guaranteed instance's `let`, so nothing is retained or released per unit
/// (a `ReducerUnit` read out of an array retains three closures and its footprint).
@usableFromInline
internal final class ReducerStep<Action, State>: Sendable {
    /// The unit's ``ReducerUnit/reduce``.
    @usableFromInline let reduce: @Sendable (Action, inout State, _ willWrite: () -> Void) -> Bool
    /// The unit's ``ReducerUnit/run``: what a dispatch whose units all apply calls.
    @usableFromInline let run: @Sendable (Action, inout State) -> Void
    /// The unit's ``ReducerUnit/scope``.
    @usableFromInline let scope: MutationScope
    /// The supervision segments the unit's writes can reach.
    @usableFromInline let mask: UInt64

    /// The step of `unit`, whose writes reach the segments in `mask`.
    @inlinable
    init(_ unit: ReducerUnit<Action, State>, mask: UInt64) {
        reduce = unit.reduce
        run = unit.run
        scope = unit.scope
        self.mask = mask
    }

    /// A step from its parts (a fused run of units).
    @inlinable
    init(
        reduce: @escaping @Sendable (Action, inout State, _ willWrite: () -> Void) -> Bool,
        run: @escaping @Sendable (Action, inout State) -> Void,
        scope: MutationScope, mask: UInt64
    ) {
        self.reduce = reduce
        self.run = run
        self.scope = scope
        self.mask = mask
    }

    /// One step per unit, except that each run of side-by-side units of one shape (see
    /// ``ReducerFusion``) with the same scope and mask becomes one step asking them all, in order.
    ///
    /// Only for a dispatch that asks every unit: the steps no longer line up with the units.
    @inlinable
    static func fused(_ units: [ReducerUnit<Action, State>], masks: [UInt64]) -> [ReducerStep] {
        var steps: [ReducerStep] = []
        var start = 0
        while start < units.count {
            let first = units[start]
            var end = start + 1
            // The units are alive for this whole call, and with them their fusions.
            if let fusion = first.fusion?.takeUnretainedValue() {
                while end < units.count, let next = units[end].fusion?.takeUnretainedValue(), fusion.accepts(next),
                    units[end].scope == first.scope, masks[end] == masks[start]
                {
                    end += 1
                }
                if end - start > 1 {
                    let others = units[(start + 1)..<end].map { $0.fusion!.takeUnretainedValue() }
                    let runs = units[start..<end].map(\.run)
                    steps.append(
                        ReducerStep(
                            reduce: fusion.reduce(with: others),
                            run: { action, state in for run in runs { run(action, &state) } },
                            scope: first.scope, mask: masks[start]
                        ))
                    start = end
                    continue
                }
            }
            steps.append(ReducerStep(first, mask: masks[start]))
            start = end
        }
        return steps
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

/// Runs every step's ``ReducerStep/run``, in order, on `state` (a dispatch whose units all
/// apply): one reference read per step, where iterating the units would copy (retain and release)
/// every field of each.
///
/// `steps` are unowned references: the caller keeps every step alive for the whole call.
@inlinable
internal func runReducerSteps<Action, State>(_ steps: [Unmanaged<ReducerStep<Action, State>>], action: Action, state: inout State) {
    steps.withUnsafeBufferPointer { steps in
        for step in steps {
            step._withUnsafeGuaranteedRef { $0.run(action, &state) }
        }
    }
}

/// Asks reducer units, in order, to decide and mutate `state`: every unit, or the units at the
/// positions `group` of `routed` names. Merges the scope and mask of every unit that applied and
/// returns whether one did.
///
/// `steps` are unowned references: the caller keeps every step alive for the whole call.
@inlinable
internal func askReducerUnits<Action, State>(
    _ steps: [Unmanaged<ReducerStep<Action, State>>], routed: [Int], group: Range<Int>?,
    action: Action, state: inout State, scope: inout MutationScope, mask: inout UInt64, willWrite: () -> Void
) -> Bool {
    var applied = false
    steps.withUnsafeBufferPointer { steps in
        func ask(_ index: Int) {
            steps[index]._withUnsafeGuaranteedRef { step in
                guard step.reduce(action, &state, willWrite) else { return }
                applied = true
                scope = scope.merged(step.scope)
                mask |= step.mask
            }
        }
        guard let group else {
            for index in 0..<steps.count { ask(index) }
            return
        }
        routed.withUnsafeBufferPointer { routed in
            for position in group { ask(routed[position]) }
        }
    }
    return applied
}
