// The core of `lift` and `liftOptional`, written once over flat units and shared by Reducer,
// Middleware and Behavior: each host converts its units to `BehaviorUnit`s, lifts them here, and
// keeps the kinds it holds. Every lift mutates in place through its lane, keeps `.unchanged`
// honest (a prism miss or an absent focus never reports a mutation), and carries the supervise
// axis. Reducer units are lifted in `FocusLift+Reducer.swift`.

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

    /// Lifts a post-mutation context and the effect it yields; `nil` for no producer or for the
    /// identity, which produces nothing (the Store then has no producer to run).
    @inlinable func liftProducer(_ reader: Producer<LA, LS, LE>?) -> Producer<GA, GS, GE>? {
        guard let reader, !reader.isIdentity else { return nil }
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
            let address: ElementAddress<GA, GS>? = inner.address.flatMap { $0.lifted(placement: placement, extract: extract) }
            return .reducer(liftReducer(inner, footprint).addressing(address))

        case .producer(let produce, _):
            let isStrict = self.isStrict
            let inspectFocus = self.inspectFocus
            return .producer(
                .someActions { action, context in
                    guard let local = extract(action) else { return nil }
                    let localContext = context.focused(inspectFocus)
                    if isStrict, !localContext.hasState { return nil }
                    return liftProducer(produce(local, localContext))
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
                    return Reaction(mutation: mutation, produce: liftProducer(reaction.producer))
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
