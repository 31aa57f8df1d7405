// Reducer units lifted through an action lane and a state lane: the hot path of every lifted
// reducer. A focus reached in place is handed to the inner unit where it lies; any other lane is
// read to decide, then written.

extension FocusLift {
    /// A reducer unit lifted through an action lane and a state lane.
    ///
    /// Each action is extracted once per lift level. A lane that reaches its focus in place (a
    /// key path of stored properties) hands it straight to the inner unit, which decides and
    /// mutates in one pass, as a hand-written nested `switch` would; any other lane is first read
    /// to decide, then written.
    @inlinable
    static func lifted<AL: ExtractsAction, SL: WritesState>(
        _ inner: ReducerUnit<LA, LS>, action lane: AL, state focus: SL, footprint: UnitFootprint
    ) -> ReducerUnit<GA, GS> where AL.LocalAction == LA, AL.GlobalAction == GA, SL.LocalState == LS, SL.GlobalState == GS {
        // A prism lane's closures capture only its preview: the unit's closures then carry two
        // words for the action lane instead of four.
        if let prism = lane as? Relay.ActionPrism<GA, LA> {
            return lifted(inner, extract: Relay.ActionExtract(prism.prism.preview), case: lane.extractedCase, state: focus, footprint: footprint)
        }
        return lifted(inner, extract: lane, case: lane.extractedCase, state: focus, footprint: footprint)
    }

    @inlinable
    static func lifted<AL: ExtractsAction, SL: WritesState>(
        _ inner: ReducerUnit<LA, LS>, extract lane: AL, case actionCase: Int?, state focus: SL, footprint: UnitFootprint
    ) -> ReducerUnit<GA, GS> where AL.LocalAction == LA, AL.GlobalAction == GA, SL.LocalState == LS, SL.GlobalState == GS {
        if let inPlace = (focus as? any ReachesFocusInPlace)?.inPlaceFocus {
            return liftedInPlace(inner, extract: lane, focus: inPlace, isTotal: focus.isTotal, case: actionCase, footprint: footprint)
        }
        return liftedThroughLane(inner, extract: lane, state: focus, case: actionCase, footprint: footprint)
    }

    /// A reducer unit whose focus lies at a fixed offset: every closure captures one reference to
    /// what it reads (the lane, the offset, the inner unit), so it is called with a single context
    /// word instead of the unpacked captures, and runs specialised for the lanes' types.
    @inlinable
    static func liftedInPlace<AL: ExtractsAction>(
        _ inner: ReducerUnit<LA, LS>, extract lane: AL, focus inPlace: InPlaceFocus, isTotal: Bool, case actionCase: Int?,
        footprint: UnitFootprint
    ) -> ReducerUnit<GA, GS> where AL.LocalAction == LA, AL.GlobalAction == GA {
        let lifted = InPlaceLiftedReducer<AL, LS>(lane, focus: inPlace, isTotal: isTotal, inner: inner)
        // Side by side with units of the same lane and local state types, a Store asks them all in
        // one loop built here, specialised for those types.
        let fusion = InPlaceLiftFusion<AL, LS, GS>(member: lifted) { members in
            let group = InPlaceLiftGroup(members)
            return { action, state, willWrite in group.reduce(action, &state, willWrite) }
        }
        // The unit holds the fusion unowned; its pre-mutation test (off the Store's hot paths)
        // keeps it alive.
        let applies: @Sendable (GA, inout GS) -> Bool = { action, state in
            withExtendedLifetime(fusion) { lifted.applies(action, &state) }
        }
        if case .stored = inPlace {
            return liftedStored(inner, lifted: lifted, fusion: fusion, applies: applies, case: actionCase, footprint: footprint)
        }
        let reduce: @Sendable (GA, inout GS, () -> Void) -> Bool
        if inner.applies == nil {
            reduce = { action, state, willWrite in lifted.reduceAlwaysApplying(action, &state, willWrite) }
        } else {
            reduce = { action, state, willWrite in lifted.reduce(action, &state, willWrite) }
        }
        @inline(__always) @Sendable func run(_ action: GA, _ state: inout GS) { lifted.run(action, &state) }
        return ReducerUnit(
            applies: applies,
            run: run,
            reduce: reduce, scope: inner.scope, footprint: footprint, actionCase: actionCase,
            runIsComplete: inner.runIsComplete, fusion: fusion.unowned
        )
    }

    /// ``liftedInPlace(_:extract:focus:isTotal:case:footprint:)`` for a stored part: no test of
    /// the focus's kind; each closure reads the offset from the unit it captures.
    ///
    /// Functions forced inline, not closure literals: the forwarder that adapts the action's
    /// passing convention then holds the whole body instead of calling it. Each captures the
    /// fusion as well as the unit (keeping it alive, as `applies` does), so its forwarder unpacks
    /// a box of two references and holds the whole body; the lane and the offset are both read
    /// through the unit, which stays in one register across the extract's call.
    @inlinable
    static func liftedStored<AL: ExtractsAction>(
        _ inner: ReducerUnit<LA, LS>, lifted: InPlaceLiftedReducer<AL, LS>, fusion: InPlaceLiftFusion<AL, LS, GS>,
        applies: @escaping @Sendable (GA, inout GS) -> Bool, case actionCase: Int?, footprint: UnitFootprint
    ) -> ReducerUnit<GA, GS> where AL.LocalAction == LA, AL.GlobalAction == GA {
        @inline(__always) @Sendable func reduceAlwaysApplyingStored(_ action: GA, _ state: inout GS, _ willWrite: () -> Void) -> Bool {
            _ = fusion
            guard let local = lifted.lane.extract(action) else { return false }
            lifted.runStoredFocus(local, &state, willWrite)
            return true
        }
        @inline(__always) @Sendable func reduceStored(_ action: GA, _ state: inout GS, _ willWrite: () -> Void) -> Bool {
            _ = fusion
            guard let local = lifted.lane.extract(action) else { return false }
            return lifted.reduceStoredFocus(local, &state, willWrite)
        }
        let reduce: @Sendable (GA, inout GS, () -> Void) -> Bool = inner.applies == nil ? reduceAlwaysApplyingStored : reduceStored
        @inline(__always) @Sendable func runStored(_ action: GA, _ state: inout GS) {
            _ = fusion
            guard let local = lifted.lane.extract(action) else { return }
            lifted.runStoredFocus(local, &state)
        }
        return ReducerUnit(
            applies: applies,
            run: runStored,
            reduce: reduce, scope: inner.scope, footprint: footprint, actionCase: actionCase,
            runIsComplete: inner.runIsComplete, fusion: fusion.unowned
        )
    }

    /// A reducer unit whose focus is reached through the lane's own reads and writes: read to
    /// decide, then written (in one pass when the lane modifies in place).
    @inlinable
    static func liftedThroughLane<AL: ExtractsAction, SL: WritesState>(
        _ inner: ReducerUnit<LA, LS>, extract lane: AL, state focus: SL, case actionCase: Int?, footprint: UnitFootprint
    ) -> ReducerUnit<GA, GS> where AL.LocalAction == LA, AL.GlobalAction == GA, SL.LocalState == LS, SL.GlobalState == GS {
        let innerApplies = inner.applies
        let innerRun = inner.run
        let innerReduce = inner.reduce
        let isTotal = focus.isTotal
        // The pre-mutation test alone (for the APIs that ask before they run).
        let applies: @Sendable (GA, inout GS) -> Bool
        if let innerApplies {
            applies = { action, state in
                guard let local = lane.extract(action) else { return false }
                return focus.inspect(&state) { innerApplies(local, &$0) } ?? false
            }
        } else if isTotal {
            applies = { action, _ in lane.extract(action) != nil }
        } else {
            applies = { action, state in lane.extract(action) != nil && focus.inspect(&state) { _ in () } != nil }
        }
        let run: @Sendable (GA, inout GS) -> Void = { action, state in
            guard let local = lane.extract(action) else { return }
            _ = focus.tryModify(&state) { innerRun(local, &$0) }
        }
        let reduce: @Sendable (GA, inout GS, () -> Void) -> Bool
        if focus.modifiesInPlace {
            reduce = { action, state, willWrite in
                guard let local = lane.extract(action) else { return false }
                var applied = false
                _ = focus.tryModify(&state) { applied = innerReduce(local, &$0, willWrite) }
                return applied
            }
        } else {
            reduce = { action, state, willWrite in
                guard let local = lane.extract(action) else { return false }
                if let innerApplies {
                    guard focus.inspect(&state, { innerApplies(local, &$0) }) == true else { return false }
                } else if !isTotal {
                    guard focus.inspect(&state, { _ in () }) != nil else { return false }
                }
                willWrite()
                _ = focus.tryModify(&state) { innerRun(local, &$0) }
                return true
            }
        }
        return ReducerUnit(
            applies: applies, run: run, reduce: reduce, scope: inner.scope, footprint: footprint, actionCase: actionCase,
            runIsComplete: inner.runIsComplete
        )
    }
}
