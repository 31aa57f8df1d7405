// The core of `liftCollection` and `liftEach`, written once over flat units and shared by
// Reducer, Middleware and Behavior: the element address of an action, the keyed container, the
// element's context and effects. The two hosts' unit lifts are in `ElementLift+Addressed.swift`
// and `ElementLift+Broadcast.swift`, the supervision fan-out in `ElementLift+Supervision.swift`.

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
    /// Reads the element with an id where it lies; `false` when it is absent.
    @usableFromInline let withElement: @Sendable (ID, GS, (LS) -> Void) -> Bool
    @usableFromInline let modifyElement: @Sendable (ID, inout GS, (inout LS) -> Void) -> Bool
    /// Mutates the element a read before it located (see ``locateElement``), in the same state.
    @usableFromInline let modifyLocatedElement: @Sendable (ID, Int, inout GS, (inout LS) -> Void) -> Bool
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
    /// Where the container lies and how the lane identifies elements, when the lane can tell:
    /// the address of the element an addressed unit writes.
    @usableFromInline let elementContainer: ElementContainer?
    /// The container's edit journal, when it keeps one (an `IdentifiedArray`): supervision then
    /// re-evaluates only the elements an edit touched.
    @usableFromInline let journal: LaneJournal<GS, ID>?
    /// Makes a Store's watch over the container when it is a plain array: supervision then
    /// re-evaluates only the elements a bracketed write changed.
    @usableFromInline let makeWatch: WatchFactory<GS, ID>?
    /// The element at an offset of a watched plain array, read where it lies.
    @usableFromInline let elementAtOffset: (@Sendable (Int, GS, (LS) -> Void) -> Bool)?
    /// The walk over a journaled container's elements with their slots (its ids are unique).
    @usableFromInline let forEachSlotted: (@Sendable (GS, (ID, Int, LS) -> Void) -> Void)?
    // Reads made before any mutation, reaching the container where it lies (the app's state is
    // `inout` for its address only): a large app state is not copied to answer them.
    // Each hands back where the element lies, so that a write that follows resolves no id.
    @usableFromInline let locateElement: @Sendable (ID, inout GS) -> Int?
    @usableFromInline let inspectElement: @Sendable (ID, inout GS, (LS) -> Bool) -> (result: Bool, location: Int)?
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
        withElement = { id, global, body in
            LentPart.lend(global) { global in
                state.inspectElement(
                    id, in: &global,
                    locating: { (element: LS) -> Bool in
                        body(element)
                        return true
                    })
            } != nil
        }
        modifyElement = { state.modifyElement($0, in: &$1, $2) }
        modifyLocatedElement = { state.modifyElement($0, at: $1, in: &$2, $3) }
        forEachElement = { state.forEachElement(in: $0, $1) }
        reduceEach = { global, action, run in state.modifyEach(in: &global, applying: run, with: action) }
        modifyEachElement = { global, body in state.modifyEach(in: &global, body) }
        narrow = { environment.narrow($0) }
        self.site = site
        token = .next()
        container = .of(state)
        elementContainer = SwiftRex.elementContainer(of: state)
        journal = laneJournal(of: state)
        makeWatch = laneWatchFactory(of: state)
        elementAtOffset = laneElementAtOffset(of: state)
        forEachSlotted = laneSlottedForEach(of: state)
        locateElement = { state.locateElement($0, in: &$1) }
        inspectElement = { state.inspectElement($0, in: &$1, locating: $2) }
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
    /// to it, its ids stamped with the element and the lift site; `nil` for no producer or for the
    /// identity, which produces nothing.
    @inlinable func liftProducer(_ reader: Producer<LA, LS, LE>?, id: ID) -> Producer<GA, GS, GE>? {
        guard let reader, !reader.isIdentity else { return nil }
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
                source: nil, cause: site.name
            ))
    }

    /// Reports an action for an element absent from the collection.
    @inlinable func reportMissing(_ id: ID, source: ActionSource?) {
        // The message captures the id and the site, not this lift (its closures would be retained).
        let site = self.site
        reportDiagnostic(
            StoreDiagnostic(
                kind: .missingElement,
                message: "An action addressed element \(id), which is not in the collection (lift \(site)): dropped.",
                source: source, cause: site.name
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
                LentPart.lend(element, body)
                return true
            } != nil
        }
    }

    /// Walks every element of the state `context` reads, where the container lies, handing `body`
    /// each element's id and a context over that element; `false` when there is no state to read.
    ///
    /// Phase 1 reads each element now: one context serves the whole walk, reading the element the
    /// walk is at where it lies, so nothing is allocated or copied per element. A context kept
    /// past its element reads nothing.
    @MainActor @inlinable func forEachElementContext(_ context: PreReducerContext<GS>, _ body: (ID, PreReducerContext<LS>) -> Void) -> Bool {
        let current = LentCursor<LS>()
        let elementContext = PreReducerContext<LS>(source: context.source, generators: context.readGenerators) { read in
            current.read(read)
        }
        let forEach = forEachElementInPlace
        return context.inspectState { state in
            forEach(&state) { id, slice in
                current.lending(slice) { body(id, elementContext) }
            }
        }
    }
}
