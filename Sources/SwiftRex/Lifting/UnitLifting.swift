import Synchronization

// The lifting logic, written once over flat units and shared by Reducer, Middleware and
// Behavior: each host converts its units to `BehaviorUnit`s, lifts them here, and keeps the kinds
// it holds. Every lift mutates in place through its lane, keeps `.unchanged` honest (a prism miss
// or an absent focus never reports a mutation), and carries the supervise axis.

/// How a total or affine lift maps one feature into the app: the action lane, the state focus,
/// the environment narrowing, and whether an absent focus silences the unit entirely.
@usableFromInline
internal struct FocusLift<LA: Sendable, LS: Sendable, LE: Sendable, GA: Sendable, GS: Sendable, GE: Sendable>: Sendable {
    @usableFromInline let extract: @Sendable (GA) -> LA?
    @usableFromInline let embed: @Sendable (LA) -> GA
    @usableFromInline let isTotal: Bool
    @usableFromInline let preview: @Sendable (GS) -> LS?
    @usableFromInline let tryModify: @Sendable (inout GS, (inout LS) -> Void) -> Bool
    @usableFromInline let narrow: @Sendable (GE) -> LE
    /// `liftOptional`: while the focus is absent the unit is not even asked (no effect, no supervision).
    @usableFromInline let isStrict: Bool
    /// Where the state lane keeps the local state: maps each unit's footprint into the app's state.
    @usableFromInline let placement: FocusPlacement
    /// Lifts a reducer unit (with its footprint in the app's state) through code built where the
    /// lanes' types are known, so it runs specialised for them: the action lane's extract and the
    /// state lane's in-place access are direct calls, not calls through closures.
    @usableFromInline let liftReducer: @Sendable (ReducerUnit<LA, LS>, UnitFootprint) -> ReducerUnit<GA, GS>
    /// Reads the focus where it lies (the app's state is `inout` for its address only); returns
    /// whether the focus is present.
    @usableFromInline let inspectFocus: @Sendable (inout GS, (inout LS) -> Void) -> Bool
    /// Reads the focus where it lies when the lane reaches it in place (a copy otherwise);
    /// returns whether the focus is present. Supervision evaluates through it.
    @usableFromInline let readFocus: @Sendable (GS, (LS) -> Void) -> Bool

    /// A lift through an action lane that extracts (and `embed` for what the feature emits).
    @inlinable init<AL: ExtractsAction, SL: WritesState, EL: NarrowsEnvironment>(
        action: AL, embed: @escaping @Sendable (LA) -> GA,
        state: SL, environment: EL, isStrict: Bool = false
    )
    where
        AL.LocalAction == LA, AL.GlobalAction == GA, SL.LocalState == LS, SL.GlobalState == GS,
        EL.LocalEnvironment == LE, EL.GlobalEnvironment == GE
    {
        extract = { action.extract($0) }
        self.embed = embed
        isTotal = state.isTotal
        preview = { state.preview($0) }
        tryModify = { state.tryModify(&$0, $1) }
        narrow = { environment.narrow($0) }
        self.isStrict = isStrict
        placement = .of(state)
        liftReducer = { unit, footprint in Self.lifted(unit, action: action, state: state, footprint: footprint) }
        if let inPlace = (state as? any ReachesFocusInPlace)?.inPlaceFocus {
            // Its own closure, not the lane's `inspect`: a frame that also holds the lane's
            // fallback (a copy of the focus) reserves room for it, even when it never runs.
            inspectFocus = { global, body in inPlace.project(&global, as: LS.self, body) != nil }
            readFocus = { global, body in inPlace.read(global, as: LS.self, body) != nil }
        } else {
            inspectFocus = { global, body in state.inspect(&global, body) != nil }
            readFocus = { global, body in
                guard let local = state.preview(global) else { return false }
                body(local)
                return true
            }
        }
    }

    /// A lift through an extract closure (and `embed` for what the feature emits).
    @inlinable init<SL: WritesState, EL: NarrowsEnvironment>(
        extract: @escaping @Sendable (GA) -> LA?,
        embed: @escaping @Sendable (LA) -> GA,
        state: SL, environment: EL, isStrict: Bool = false
    ) where SL.LocalState == LS, SL.GlobalState == GS, EL.LocalEnvironment == LE, EL.GlobalEnvironment == GE {
        self.init(action: Relay.ActionExtract(extract), embed: embed, state: state, environment: environment, isStrict: isStrict)
    }

    /// A lift through a duplex action lane.
    @inlinable init<AL: ExtractsAction & EmbedsAction, SL: WritesState, EL: NarrowsEnvironment>(
        action: AL, state: SL, environment: EL, isStrict: Bool = false
    )
    where
        AL.LocalAction == LA, AL.GlobalAction == GA, SL.LocalState == LS, SL.GlobalState == GS,
        EL.LocalEnvironment == LE, EL.GlobalEnvironment == GE
    {
        self.init(action: action, embed: { action.embed($0) }, state: state, environment: environment, isStrict: isStrict)
    }

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
        let innerApplies = inner.applies
        let innerRun = inner.run
        let innerReduce = inner.reduce
        let isTotal = focus.isTotal
        if let inPlace = (focus as? any ReachesFocusInPlace)?.inPlaceFocus {
            // The focus lies at a fixed offset: every closure captures one reference to what it
            // reads (the lane, the offset, the inner unit), so it is called with a single context
            // word instead of the unpacked captures, and runs specialised for the lanes' types.
            let lifted = InPlaceLiftedReducer<AL, LS>(lane, focus: inPlace, isTotal: isTotal, inner: inner)
            // Side by side with units of the same lane and local state types, a Store asks them
            // all in one loop built here, specialised for those types.
            let fusion = InPlaceLiftFusion<AL, LS, GS>(member: lifted) { members in
                let group = InPlaceLiftGroup(members)
                return { action, state, willWrite in group.reduce(action, &state, willWrite) }
            }
            // The unit holds the fusion unowned; its pre-mutation test (off the Store's hot paths)
            // keeps it alive.
            let applies: @Sendable (GA, inout GS) -> Bool = { action, state in
                withExtendedLifetime(fusion) { lifted.applies(action, &state) }
            }
            let unownedFusion = Unmanaged<ReducerFusion<GA, GS>>.passUnretained(fusion)
            if case .stored = inPlace {
                // A stored part: no test of the focus's kind; each closure reads the offset from
                // the unit it captures.
                // Functions forced inline, not closure literals: the forwarder that adapts the
                // action's passing convention then holds the whole body instead of calling it.
                // Each captures the fusion as well as the unit (keeping it alive, as `applies`
                // does): its forwarder unpacks a box of two references and holds the whole body,
                // where the unit alone would be the context of a forwarder that calls the body.
                // The lane and the offset are both read through the unit, which stays in one
                // register across the extract's call: the box is not needed past its first load.
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
                let reduce: @Sendable (GA, inout GS, () -> Void) -> Bool = innerApplies == nil ? reduceAlwaysApplyingStored : reduceStored
                @inline(__always) @Sendable func runStored(_ action: GA, _ state: inout GS) {
                    _ = fusion
                    guard let local = lifted.lane.extract(action) else { return }
                    lifted.runStoredFocus(local, &state)
                }
                return ReducerUnit(
                    applies: applies,
                    run: runStored,
                    reduce: reduce, scope: inner.scope, footprint: footprint, actionCase: actionCase,
                    runIsComplete: inner.runIsComplete, fusion: unownedFusion
                )
            }
            let reduce: @Sendable (GA, inout GS, () -> Void) -> Bool
            if innerApplies == nil {
                reduce = { action, state, willWrite in lifted.reduceAlwaysApplying(action, &state, willWrite) }
            } else {
                reduce = { action, state, willWrite in lifted.reduce(action, &state, willWrite) }
            }
            @inline(__always) @Sendable func run(_ action: GA, _ state: inout GS) { lifted.run(action, &state) }
            return ReducerUnit(
                applies: applies,
                run: run,
                reduce: reduce, scope: inner.scope, footprint: footprint, actionCase: actionCase,
                runIsComplete: inner.runIsComplete, fusion: unownedFusion
            )
        }
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

    /// The focus's supervision seen from the app: its channels re-embed their actions; none while
    /// the focus is absent (`nil`).
    @inlinable
    static func lifted(
        _ evaluated: Supervision<LA, LE>?, narrow: @escaping @Sendable (GE) -> LE, embed: @escaping @Sendable (LA) -> GA
    ) -> Supervision<GA, GE> {
        guard let supervision = evaluated else { return Supervision { _ in [] } }
        return Supervision { environment in
            supervision.runReader(narrow(environment)).map { $0.mapAction(embed) }
        }
    }

    /// Lifts every unit, in order.
    @inlinable func lift(_ units: [BehaviorUnit<LA, LS, LE>]) -> [BehaviorUnit<GA, GS, GE>] {
        units.map(lift)
    }

    /// Lifts a post-mutation context and the effect it yields.
    @inlinable func liftProducer(_ reader: Producer<LA, LS, LE>) -> Producer<GA, GS, GE> {
        let preview = self.preview
        let narrow = self.narrow
        let embed = self.embed
        return Reader { context in
            reader.runReader(context.compactMap(preview).mapEnvironment(narrow)).map(embed)
                .reaimingOwners(from: GS.self, through: preview)
        }
    }

    @inlinable func lift(_ unit: BehaviorUnit<LA, LS, LE>) -> BehaviorUnit<GA, GS, GE> {
        let extract = self.extract
        let tryModify = self.tryModify
        let isTotal = self.isTotal
        let footprint = placement.embed(unit.footprint)
        switch unit {
        case .reducer(let inner):
            return .reducer(liftReducer(inner, footprint))

        case .producer(let produce, _):
            let isStrict = self.isStrict
            let inspectFocus = self.inspectFocus
            return .producer(
                .someActions { action, context in
                    guard let local = extract(action) else { return nil }
                    let localContext = context.focused(inspectFocus)
                    if isStrict, !localContext.hasState { return nil }
                    return produce(local, localContext).map(liftProducer)
                }, footprint: footprint)

        case .reaction(let react, let scope, _):
            let isStrict = self.isStrict
            let inspectFocus = self.inspectFocus
            return .reaction(
                { action, context in
                    guard let local = extract(action) else { return .doNothing }
                    let localContext = context.focused(inspectFocus)
                    let present = isTotal || localContext.hasState
                    if isStrict, !present { return .doNothing }
                    let reaction = react(local, localContext)
                    let mutation: ReducerOutcome<GS> =
                        present
                        ? reaction.mutation.map { endo in
                            guard let body = endo.body else { return .identity }
                            return EndoMut { state in _ = tryModify(&state) { body(&$0) } }
                        }
                        : .unchanged
                    return Reaction(mutation: mutation, produce: reaction.producer.map(liftProducer))
                }, scope: scope, footprint: footprint)

        case .supervision(let unit):
            let supervise = unit.supervise
            let read = unit.read
            let narrow = self.narrow
            let embed = self.embed
            let lift = self
            let readFocus = self.readFocus
            let inspectFocus = self.inspectFocus
            return .supervision(
                SupervisionUnit(
                    { state in
                        var evaluated: Supervision<LA, LE>?
                        _ = readFocus(state) { evaluated = supervise($0) }
                        return Self.lifted(evaluated, narrow: narrow, embed: embed)
                    },
                    keyed: unit.keyed.map { keyed in
                        KeyedSupervision(token: keyed.token) {
                            FocusedSupervisionTracker(
                                inner: keyed.makeTracker(), extract: lift.extract, embed: lift.embed, narrow: lift.narrow,
                                inspectFocus: lift.inspectFocus)
                        }
                    }, footprint: footprint,
                    read: { state in
                        // The focus is reached where it lies and handed on by address: a by-value read
                        // here would copy the whole state onto the stack at every level.
                        var evaluated: Supervision<LA, LE>?
                        _ = inspectFocus(&state) { evaluated = read(&$0) }
                        return Self.lifted(evaluated, narrow: narrow, embed: embed)
                    }))
        }
    }
}

/// What a reducer unit lifted through a focus reached in place reads on every action: the action
/// lane, where the focus lies and the inner unit. Its closures capture this one reference.
@usableFromInline
internal final class InPlaceLiftedReducer<AL: ExtractsAction, LS>: Sendable {
    /// The action lane.
    @usableFromInline let lane: AL
    /// Where the focus lies in the app's state.
    @usableFromInline let focus: InPlaceFocus
    /// Whether the focus is always present (a stored part, not an optional's payload).
    @usableFromInline let isTotal: Bool
    /// The inner unit's closures.
    @usableFromInline let innerApplies: (@Sendable (AL.LocalAction, inout LS) -> Bool)?
    @usableFromInline let innerRun: @Sendable (AL.LocalAction, inout LS) -> Void
    @usableFromInline let innerReduce: @Sendable (AL.LocalAction, inout LS, () -> Void) -> Bool
    /// The focus's byte offset when it is a stored part (`.stored`; `0`, unread, otherwise): the
    /// closures of such a unit read it here instead of capturing it, so they capture one reference.
    @usableFromInline let storedOffset: Int

    @inlinable
    init(_ lane: AL, focus: InPlaceFocus, isTotal: Bool, inner: ReducerUnit<AL.LocalAction, LS>) {
        self.lane = lane
        self.focus = focus
        if case .stored(let offset) = focus { storedOffset = offset } else { storedOffset = 0 }
        self.isTotal = isTotal
        innerApplies = inner.applies
        innerRun = inner.run
        innerReduce = inner.reduce
    }

    /// The pre-mutation test: the action extracts, the focus is present and the inner unit applies.
    @inlinable @inline(__always)
    func applies<GS>(_ action: AL.GlobalAction, _ state: inout GS) -> Bool {
        guard let local = lane.extract(action) else { return false }
        guard let innerApplies else { return isTotal || focus.project(&state, as: LS.self) { _ in } != nil }
        return focus.project(&state, as: LS.self) { innerApplies(local, &$0) } ?? false
    }

    /// Runs the inner unit on the focus, where it lies, when the action extracts.
    @inlinable @inline(__always)
    func run<GS>(_ action: AL.GlobalAction, _ state: inout GS) {
        guard let local = lane.extract(action) else { return }
        _ = focus.project(&state, as: LS.self) { innerRun(local, &$0) }
    }

    /// Runs `body` on the focus stored at ``storedOffset`` of `state`, where it lies.
    @inlinable @inline(__always)
    func withStoredFocus<GS, Result>(_ state: inout GS, _ body: (inout LS) -> Result) -> Result {
        withUnsafeMutablePointer(to: &state) { whole in
            body(&UnsafeMutableRawPointer(whole).advanced(by: storedOffset).assumingMemoryBound(to: LS.self).pointee)
        }
    }

    /// Runs the inner unit on the focus stored at ``storedOffset``, the action extracted.
    @inlinable @inline(__always)
    func runStoredFocus<GS>(_ local: AL.LocalAction, _ state: inout GS) {
        withStoredFocus(&state) { innerRun(local, &$0) }
    }

    /// Tells `willWrite`, then runs the inner unit on the focus stored at ``storedOffset``, the
    /// action extracted (``reduceAlwaysApplying(_:_:_:)`` for a stored focus, past its extract).
    @inlinable @inline(__always)
    func runStoredFocus<GS>(_ local: AL.LocalAction, _ state: inout GS, _ willWrite: () -> Void) {
        withStoredFocus(&state) { (focus: inout LS) -> Void in
            willWrite()
            innerRun(local, &focus)
        }
    }

    /// The inner unit's decide-and-mutate on the focus stored at ``storedOffset``, the action
    /// extracted (``reduce(_:_:_:)`` for a stored focus, past its extract).
    @inlinable @inline(__always)
    func reduceStoredFocus<GS>(_ local: AL.LocalAction, _ state: inout GS, _ willWrite: () -> Void) -> Bool {
        withStoredFocus(&state) { innerReduce(local, &$0, willWrite) }
    }

    /// Decides and mutates in one pass, the inner unit always applying: observers are told, then
    /// it runs directly.
    @inlinable @inline(__always)
    func reduceAlwaysApplying<GS>(_ action: AL.GlobalAction, _ state: inout GS, _ willWrite: () -> Void) -> Bool {
        guard let local = lane.extract(action) else { return false }
        return focus.project(&state, as: LS.self) { (focus: inout LS) -> Void in
            willWrite()
            innerRun(local, &focus)
        } != nil
    }

    /// Decides and mutates in one pass, the inner unit deciding for itself.
    @inlinable @inline(__always)
    func reduce<GS>(_ action: AL.GlobalAction, _ state: inout GS, _ willWrite: () -> Void) -> Bool {
        guard let local = lane.extract(action) else { return false }
        return focus.project(&state, as: LS.self) { innerReduce(local, &$0, willWrite) } ?? false
    }

    /// What the unit's own decide-and-mutate does (``reduceAlwaysApplying(_:_:_:)`` or
    /// ``reduce(_:_:_:)``), as a fused loop asks it: the extract inline, the rest out of line, so
    /// that asking a unit whose action does not extract stays a call and a test.
    @inlinable @inline(__always)
    func reduceInGroup<GS>(_ action: AL.GlobalAction, _ state: inout GS, _ willWrite: () -> Void) -> Bool {
        guard let local = lane.extract(action) else { return false }
        return reduceExtracted(local, &state, willWrite)
    }

    /// The rest of ``reduceInGroup(_:_:_:)`` once the action extracted.
    @inlinable @inline(never)
    func reduceExtracted<GS>(_ local: AL.LocalAction, _ state: inout GS, _ willWrite: () -> Void) -> Bool {
        guard innerApplies != nil else {
            return focus.project(&state, as: LS.self) { (focus: inout LS) -> Void in
                willWrite()
                innerRun(local, &focus)
            } != nil
        }
        return focus.project(&state, as: LS.self) { innerReduce(local, &$0, willWrite) } ?? false
    }
}

/// The fusion shape of units lifted through a focus reached in place: the action lane's type
/// `AL` and the local state's type `LS` (each unit has its own lane value, focus and inner unit).
@usableFromInline
internal final class InPlaceLiftFusion<AL: ExtractsAction, LS, State>: ReducerFusion<AL.GlobalAction, State>, @unchecked Sendable {
    /// The unit's lifted parts.
    @usableFromInline let member: InPlaceLiftedReducer<AL, LS>
    /// Builds the loop over members in order; made where the types are known, so it runs
    /// specialised for them.
    @usableFromInline let makeReduce: @Sendable ([InPlaceLiftedReducer<AL, LS>]) -> @Sendable (AL.GlobalAction, inout State, () -> Void) -> Bool

    @inlinable
    init(
        member: InPlaceLiftedReducer<AL, LS>,
        makeReduce: @escaping @Sendable ([InPlaceLiftedReducer<AL, LS>]) -> @Sendable (AL.GlobalAction, inout State, () -> Void) -> Bool
    ) {
        self.member = member
        self.makeReduce = makeReduce
        super.init()
    }

    @usableFromInline
    override func accepts(_ other: ReducerFusion<AL.GlobalAction, State>) -> Bool {
        other is InPlaceLiftFusion<AL, LS, State>
    }

    @usableFromInline
    override func reduce(with others: [ReducerFusion<AL.GlobalAction, State>]) -> @Sendable (AL.GlobalAction, inout State, () -> Void) -> Bool {
        var members = [member]
        members.reserveCapacity(others.count + 1)
        for other in others {
            guard let other = other as? InPlaceLiftFusion<AL, LS, State> else {
                preconditionFailure("Internal inconsistency: a reducer fusion of another shape")
            }
            members.append(other.member)
        }
        return makeReduce(members)
    }
}

/// Side-by-side units lifted through foci reached in place, asked in one loop: every member in
/// order, each doing what its own unit's decide-and-mutate does.
@usableFromInline
internal final class InPlaceLiftGroup<AL: ExtractsAction, LS>: Sendable {
    /// The members, in order (they keep the references below alive).
    @usableFromInline let members: [InPlaceLiftedReducer<AL, LS>]
    /// Unowned references to `members`: the loop reads them without retaining.
    @usableFromInline let references: [Unmanaged<InPlaceLiftedReducer<AL, LS>>]

    @inlinable
    init(_ members: [InPlaceLiftedReducer<AL, LS>]) {
        self.members = members
        references = members.map { Unmanaged.passUnretained($0) }
    }

    /// Asks every member, in order; returns whether any applied.
    @inlinable @inline(__always)
    func reduce<GS>(_ action: AL.GlobalAction, _ state: inout GS, _ willWrite: () -> Void) -> Bool {
        var applied = false
        references.withUnsafeBufferPointer { references in
            for reference in references {
                if reference._withUnsafeGuaranteedRef({ $0.reduceInGroup(action, &state, willWrite) }) { applied = true }
            }
        }
        return applied
    }
}

/// How a collection lift maps one element feature into the app: the element address of an
/// action (one element for `liftCollection`, every element for `liftEach`), the keyed container,
/// the environment narrowing and the lift site that stamps element effect ids.
@usableFromInline
internal struct ElementLift<LA: Sendable, LS: Sendable, LE: Sendable, GA: Sendable, GS: Sendable, GE: Sendable, ID: Hashable & Sendable>: Sendable {
    /// `liftCollection`: the addressed element and its action (the action lane's own preview, so
    /// a unit asked about an action of another case calls one closure, not two).
    @usableFromInline let extractAddressed: (@Sendable (GA) -> ElementAction<ID, LA>?)?
    /// `liftEach`: the action every element receives.
    @usableFromInline let extractBroadcast: (@Sendable (GA) -> LA?)?
    @usableFromInline let embed: @Sendable (ID, LA) -> GA
    @usableFromInline let element: @Sendable (ID, GS) -> LS?
    @usableFromInline let modifyElement: @Sendable (ID, inout GS, (inout LS) -> Void) -> Bool
    @usableFromInline let forEachElement: @Sendable (GS, (ID, LS) -> Void) -> Void
    /// Runs a reducer on every element with one action (no id read per element).
    @usableFromInline let reduceEach: @Sendable (inout GS, LA, @Sendable (LA, inout LS) -> Void) -> Void
    /// Mutates every element in place with its id, walking storage once.
    @usableFromInline let modifyEachElement: @Sendable (inout GS, (ID, inout LS) -> Void) -> Void
    @usableFromInline let narrow: @Sendable (GE) -> LE
    @usableFromInline let site: LiftSite
    /// This lift's identity, matching its units' mutation scopes with its supervision (incremental
    /// reconcile: <doc:SupervisionAndChannels#Reconcile-cost>).
    @usableFromInline let token: LiftToken
    /// Where the container lies in the app's state: every element unit touches it, and the
    /// elements owning its effects live there.
    @usableFromInline let container: FocusPlacement
    /// The container's edit journal, when it keeps one (an `IdentifiedArray`): supervision then
    /// re-evaluates only the elements an edit touched.
    @usableFromInline let journal: LaneJournal<GS, ID>?
    /// The walk over a journaled container's elements with their slots (its ids are unique).
    @usableFromInline let forEachSlotted: (@Sendable (GS, (ID, Int, LS) -> Void) -> Void)?
    // Reads made before any mutation, reaching the container where it lies (the app's state is
    // `inout` for its address only): a large app state is not copied to answer them.
    @usableFromInline let containsElement: @Sendable (ID, inout GS) -> Bool
    @usableFromInline let inspectElement: @Sendable (ID, inout GS, (LS) -> Bool) -> Bool?
    @usableFromInline let isEmptyInPlace: @Sendable (inout GS) -> Bool
    @usableFromInline let forEachElementInPlace: @Sendable (inout GS, (ID, LS) -> Void) -> Void
    /// The case of the app's action the addressed element actions come in (see ``CaseIndexable``).
    @usableFromInline let actionCase: Int?

    @inlinable init<SL: KeyedState, EL: NarrowsEnvironment>(
        addressed: (@Sendable (GA) -> ElementAction<ID, LA>?)?,
        broadcast: (@Sendable (GA) -> LA?)?,
        embed: @escaping @Sendable (ID, LA) -> GA,
        state: SL, environment: EL, site: LiftSite, actionCase: Int? = nil
    ) where SL.GlobalState == GS, SL.Element == LS, SL.ID == ID, EL.LocalEnvironment == LE, EL.GlobalEnvironment == GE {
        extractAddressed = addressed
        extractBroadcast = broadcast
        self.embed = embed
        element = { state.element($0, in: $1) }
        modifyElement = { state.modifyElement($0, in: &$1, $2) }
        forEachElement = { state.forEachElement(in: $0, $1) }
        reduceEach = { global, action, run in state.modifyEach(in: &global, applying: run, with: action) }
        modifyEachElement = { global, body in state.modifyEach(in: &global, body) }
        narrow = { environment.narrow($0) }
        self.site = site
        token = .next()
        container = .of(state)
        journal = laneJournal(of: state)
        forEachSlotted = laneSlottedForEach(of: state)
        containsElement = { state.containsElement($0, in: &$1) }
        inspectElement = { state.inspectElement($0, in: &$1, $2) }
        isEmptyInPlace = { state.isEmpty(inPlace: &$0) }
        forEachElementInPlace = { state.forEachElement(inPlace: &$0, $1) }
        self.actionCase = actionCase
    }

    /// An element unit's footprint in the app's state: it touches the container, and its effects
    /// belong to elements that live there.
    @inlinable func footprint(_ unit: BehaviorUnit<LA, LS, LE>) -> UnitFootprint {
        var embedded = container.embed(unit.footprint)
        embedded.containers = embedded.containers.union(container.embed(UnitFootprint(touches: .whole)).touches)
        return embedded
    }

    /// The effect of one element: its context narrowed to the element, its actions addressed back
    /// to it, its ids stamped with the element and the lift site.
    @inlinable func liftProducer(_ reader: Producer<LA, LS, LE>, id: ID) -> Producer<GA, GS, GE> {
        let element = self.element
        let narrow = self.narrow
        let embed = self.embed
        let site = self.site
        let token = self.token
        return Reader { context in
            reader.runReader(context.compactMap { element(id, $0) }.mapEnvironment(narrow))
                .map { embed(id, $0) }
                .scopedToElement(id, site: site)
                .owned(by: id, lift: token, site: site, in: GS.self, element: element)
        }
    }

    @inlinable func liftMutation(_ outcome: ReducerOutcome<LS>, id: ID) -> ReducerOutcome<GS> {
        let modifyElement = self.modifyElement
        return outcome.map { endo in
            guard let body = endo.body else { return .identity }
            return EndoMut { state in _ = modifyElement(id, &state) { body(&$0) } }
        }
    }

    /// Reports the ids a broadcast found more than once (each visited at its first occurrence only).
    @inlinable func reportDuplicates(_ ids: [ID]) {
        guard !ids.isEmpty else { return }
        let site = self.site
        reportDiagnostic(
            StoreDiagnostic(
                kind: .duplicateID,
                message:
                    "Duplicate ids in an identified collection: \(ids.prefix(10).map { "\($0)" }.joined(separator: ", ")) (lift \(site)). A broadcast reaches each id's first occurrence only.",
                source: nil
            ))
    }

    @inlinable func reportMissing(_ id: ID, source: ActionSource?) {
        // The message captures the id and the site, not this lift (its closures would be retained).
        let site = self.site
        reportDiagnostic(
            StoreDiagnostic(
                kind: .missingElement,
                message: "An action addressed element \(id), which is not in the collection (lift \(site)): dropped.",
                source: source
            ))
    }

    /// Lifts every unit, in order. Only the first action-clock unit reports a missing element, so
    /// one dropped action gives one diagnostic.
    @inlinable func lift(_ units: [BehaviorUnit<LA, LS, LE>]) -> [BehaviorUnit<GA, GS, GE>] {
        let reporter = units.firstIndex { $0.isActionClock }
        return units.indices.map { index in
            if let extractAddressed { return liftAddressed(units[index], extractAddressed, reportsMissing: index == reporter) }
            return liftBroadcast(units[index], extractBroadcast!)
        }
    }

    /// A context over the element with `id`, read where the container lies.
    @MainActor @inlinable func elementContext(_ context: PreReducerContext<GS>, id: ID) -> PreReducerContext<LS> {
        let inspectElement = self.inspectElement
        return context.focused { state, body in
            inspectElement(id, &state) { element in
                var element = element
                body(&element)
                return true
            } != nil
        }
    }

    /// Walks every element of the state `context` reads, where the container lies, handing `body`
    /// each element's id and a context over that element; `false` when there is no state to read.
    ///
    /// Phase 1 reads each element now: one context serves the whole walk, reading the element the
    /// walk is at, so nothing is allocated per element. A context kept past its element reads
    /// the element the walk moved on to, or nothing once the walk is over.
    @MainActor @inlinable func forEachElementContext(_ context: PreReducerContext<GS>, _ body: (ID, PreReducerContext<LS>) -> Void) -> Bool {
        var current: LS?
        let elementContext = PreReducerContext<LS>(source: context.source, generators: context.readGenerators) { read in
            guard current != nil else { return false }
            read(&current!)
            return true
        }
        let forEach = forEachElementInPlace
        let walked = context.inspectState { state in
            forEach(&state) { id, slice in
                current = slice
                body(id, elementContext)
            }
        }
        current = nil
        return walked
    }

    @inlinable func liftAddressed(
        _ unit: BehaviorUnit<LA, LS, LE>, _ extract: @escaping @Sendable (GA) -> ElementAction<ID, LA>?, reportsMissing: Bool
    ) -> BehaviorUnit<GA, GS, GE> {
        let modifyElement = self.modifyElement
        let lift = self
        let footprint = self.footprint(unit)
        switch unit {
        case .reducer(let inner):
            let run = inner.run
            let innerApplies = inner.applies
            let containsElement = self.containsElement
            let inspectElement = self.inspectElement
            // Whether the addressed element is present and its unit applies, read where the
            // container lies; a missing element is reported (by one unit of the lift).
            let decides: @Sendable (ID, LA, inout GS) -> Bool = { id, local, state in
                let applies: Bool?
                if let innerApplies {
                    applies = inspectElement(id, &state) { element in
                        var element = element
                        return innerApplies(local, &element)
                    }
                } else {
                    applies = containsElement(id, &state) ? true : nil
                }
                guard let applies else {
                    if reportsMissing { lift.reportMissing(id, source: nil) }
                    return false
                }
                return applies
            }
            return .reducer(
                ReducerUnit(
                    applies: { action, state in
                        guard let (id, local) = extract(action).map({ ($0.id, $0.action) }) else { return false }
                        return decides(id, local, &state)
                    },
                    run: { action, state in
                        guard let (id, local) = extract(action).map({ ($0.id, $0.action) }) else { return }
                        _ = modifyElement(id, &state) { run(local, &$0) }
                    },
                    reduce: { action, state, willWrite in
                        // The element is read to decide, then written through the container's own
                        // in-place write (observers are told before it opens).
                        guard let (id, local) = extract(action).map({ ($0.id, $0.action) }), decides(id, local, &state) else { return false }
                        willWrite()
                        _ = modifyElement(id, &state) { run(local, &$0) }
                        return true
                    }, scope: .addressed(token), footprint: footprint, actionCase: actionCase))

        case .producer(let produce, _):
            return .producer(
                .someActions { action, context in
                    guard let (id, local) = extract(action).map({ ($0.id, $0.action) }) else { return nil }
                    let localContext = lift.elementContext(context, id: id)
                    guard localContext.hasState else {
                        if reportsMissing { lift.reportMissing(id, source: context.source) }
                        return nil
                    }
                    return produce(local, localContext).map { lift.liftProducer($0, id: id) }
                }, footprint: footprint)

        case .reaction(let react, _, _):
            return .reaction(
                { action, context in
                    guard let (id, local) = extract(action).map({ ($0.id, $0.action) }) else { return .doNothing }
                    let localContext = lift.elementContext(context, id: id)
                    guard localContext.hasState else {
                        if reportsMissing { lift.reportMissing(id, source: context.source) }
                        return .doNothing
                    }
                    let reaction = react(local, localContext)
                    return Reaction(
                        mutation: lift.liftMutation(reaction.mutation, id: id), produce: reaction.producer.map { lift.liftProducer($0, id: id) })
                }, scope: .addressed(token), footprint: footprint)

        case .supervision(let unit):
            return .supervision(liftSupervision(unit.supervise, footprint: footprint))
        }
    }

    @inlinable func liftBroadcast(_ unit: BehaviorUnit<LA, LS, LE>, _ extract: @escaping @Sendable (GA) -> LA?) -> BehaviorUnit<GA, GS, GE> {
        let lift = self
        let footprint = self.footprint(unit)
        let uniqueIDs = forEachSlotted != nil
        switch unit {
        case .reducer(let inner):
            let run = inner.run
            let isEmptyInPlace = self.isEmptyInPlace
            let forEachElementInPlace = self.forEachElementInPlace
            // Whether some element's unit applies, read where the container lies.
            let decides: @Sendable (LA, inout GS) -> Bool
            if let innerApplies = inner.applies {
                decides = { local, state in
                    var any = false
                    forEachElementInPlace(&state) { _, slice in
                        guard !any else { return }
                        var slice = slice
                        any = innerApplies(local, &slice)
                    }
                    return any
                }
            } else {
                decides = { _, state in !isEmptyInPlace(&state) }
            }
            let reduceEach = self.reduceEach
            return .reducer(
                ReducerUnit(
                    applies: { action, state in
                        guard let local = extract(action) else { return false }
                        return decides(local, &state)
                    },
                    run: { action, state in
                        guard let local = extract(action) else { return }
                        reduceEach(&state, local, run)
                    },
                    reduce: { action, state, willWrite in
                        guard let local = extract(action), decides(local, &state) else { return false }
                        willWrite()
                        reduceEach(&state, local, run)
                        return true
                    }, scope: .eachElement(token), footprint: footprint))

        case .producer(let produce, _):
            return .producer(
                .someActions { action, context in
                    guard let local = extract(action) else { return nil }
                    var readers: [Producer<GA, GS, GE>] = []
                    var visited = Set<ID>()
                    var duplicates: [ID] = []
                    defer { lift.reportDuplicates(duplicates) }
                    let walked = lift.forEachElementContext(context) { id, elementContext in
                        guard uniqueIDs || visited.insert(id).inserted else {
                            duplicates.append(id)
                            return
                        }
                        if let reader = produce(local, elementContext) {
                            readers.append(lift.liftProducer(reader, id: id))
                        }
                    }
                    guard walked else { return nil }
                    return readers.isEmpty ? nil : .mconcat(readers)
                }, footprint: footprint)

        case .reaction(let react, _, _):
            let modifyElement = self.modifyElement
            let modifyEachElement = self.modifyEachElement
            let sizeHint = BroadcastSizeHint()
            return .reaction(
                { action, context in
                    guard let local = extract(action) else { return .doNothing }
                    // One mutation for all elements (their bodies in element order) and one producer:
                    // no closure, context or reaction is made per element.
                    var bodies: [(id: ID, endo: EndoMut<LS>)] = []
                    var readers: [Producer<GA, GS, GE>] = []
                    var mutates = false
                    var visited = Set<ID>()
                    var duplicates: [ID] = []
                    defer { lift.reportDuplicates(duplicates) }
                    // Without a state to read, nothing is visited: `.unchanged`, no effect.
                    _ = lift.forEachElementContext(context) { id, elementContext in
                        // Reactions address their element by id: a duplicated id is visited once
                        // (its first occurrence), never twice. A journaled container's ids are unique.
                        guard uniqueIDs || visited.insert(id).inserted else {
                            duplicates.append(id)
                            return
                        }
                        let reaction = react(local, elementContext)
                        if case .mutation(let endo) = reaction.mutation {
                            mutates = true
                            if endo.body != nil {
                                // Sized once from the last broadcast: growing by doubling to 100k
                                // bodies allocates (and frees) megabytes per broadcast.
                                if bodies.isEmpty { bodies.reserveCapacity(sizeHint.capacity) }
                                bodies.append((id, endo))
                            }
                        }
                        if let producer = reaction.producer { readers.append(lift.liftProducer(producer, id: id)) }
                    }
                    if !bodies.isEmpty { sizeHint.record(bodies.count) }
                    let mutation: ReducerOutcome<GS>
                    if !mutates {
                        mutation = .unchanged
                    } else if bodies.isEmpty {
                        mutation = .mutation(.identity)
                    } else {
                        let all = bodies
                        mutation = .mutation(
                            EndoMut { global in
                                // One walk over storage, the bodies in the same (container) order; a body
                                // whose element is not where the walk expects it (the container changed
                                // since phase 1) is applied by id afterwards. Each body touches only its
                                // own element, so the order between them does not matter.
                                var next = 0
                                modifyEachElement(&global) { id, element in
                                    guard next < all.count, all[next].id == id else { return }
                                    all[next].endo.runEndoMut(&element)
                                    next &+= 1
                                }
                                while next < all.count {
                                    _ = modifyElement(all[next].id, &global) { all[next].endo.runEndoMut(&$0) }
                                    next &+= 1
                                }
                            })
                    }
                    return Reaction(mutation: mutation, produce: readers.isEmpty ? nil : .mconcat(readers))
                }, scope: .eachElement(token), footprint: footprint)

        case .supervision(let unit):
            return .supervision(liftSupervision(unit.supervise, footprint: footprint))
        }
    }

    /// Fans the element supervisor out over every present element, walking storage once:
    /// channels re-embed their actions and are stamped with the element and the lift site. The
    /// keyed form lets a store re-evaluate one element only.
    @inlinable func liftSupervision(
        _ supervise: @escaping @MainActor @Sendable (LS) -> Supervision<LA, LE>, footprint: UnitFootprint
    ) -> SupervisionUnit<GS, GA, GE> {
        let forEachElement = self.forEachElement
        let narrow = self.narrow
        let embed = self.embed
        let site = self.site
        let lift = self
        return SupervisionUnit(
            { state in
                var collected: [(ID, Supervision<LA, LE>)] = []
                forEachElement(state) { id, slice in collected.append((id, supervise(slice))) }
                let perElement = collected
                return Supervision { environment in
                    let local = narrow(environment)
                    var channels: Keep<GA> = []
                    for (id, supervision) in perElement {
                        for channel in supervision.runReader(local) {
                            channels.append(channel.liftedToElement(id, site: site) { embed(id, $0) })
                        }
                    }
                    return channels
                }
            }, keyed: KeyedSupervision(token: token) { lift.makeTracker(supervise) }, footprint: footprint)
    }

    /// The per-store tracker of this lift's supervision: the element's channels, re-embedded and
    /// stamped with the element and the lift site, for the tracker's per-element work.
    @MainActor @inlinable func makeTracker(
        _ supervise: @escaping @MainActor @Sendable (LS) -> Supervision<LA, LE>
    ) -> ElementSupervisionTracker<GA, GS, GE, ID> {
        let embed = self.embed
        let site = self.site
        let extractAddressed = self.extractAddressed
        return .make(
            element: element, forEachElement: forEachElement, forEachSlotted: forEachSlotted, journal: journal,
            addressedID: { extractAddressed?($0)?.id }, narrow: narrow
        ) { id, slice, environment, keep in
            for channel in supervise(slice).runReader(environment) {
                keep.append(channel.liftedToElement(id, site: site) { embed(id, $0) })
            }
        }
    }
}

/// How many element bodies a broadcast reaction collected last time, so that the next one sizes
/// its list once instead of growing it by doubling (a broadcast to a large collection would
/// otherwise allocate and free several large buffers every time).
@usableFromInline
internal final class BroadcastSizeHint: Sendable {
    @usableFromInline let last = Atomic<Int>(0)

    @inlinable init() {}

    /// The capacity to reserve: the last count with room for some growth.
    @inlinable var capacity: Int {
        let count = last.load(ordering: .relaxed)
        return count &+ count >> 4
    }

    /// Remembers the count of a broadcast's bodies.
    @inlinable func record(_ count: Int) {
        last.store(count, ordering: .relaxed)
    }
}
