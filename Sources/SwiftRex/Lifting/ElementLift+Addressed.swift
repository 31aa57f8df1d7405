// `liftCollection`'s unit lift: an addressed action (an `ElementAction`) reaches one element,
// located by the keyed lane; an action for an absent element is dropped and reported.

extension ElementLift {
    /// `unit` routed to the element an action addresses; `reportsMissing` for the one unit of the
    /// lift that reports an absent element.
    @inlinable func liftAddressed(
        _ unit: BehaviorUnit<LA, LS, LE>, _ extract: @escaping @Sendable (GA) -> ElementAction<ID, LA>?, reportsMissing: Bool
    ) -> BehaviorUnit<GA, GS, GE> {
        let lift = self
        let footprint = self.footprint(unit)
        switch unit {
        case .reducer(let inner):
            return .reducer(addressedReducer(inner, extract, reportsMissing: reportsMissing, footprint: footprint))

        case .producer(let produce, _):
            return .producer(
                .someActions { action, context in
                    // Plain `if`s and `guard`s: a closure handed to `Optional.map` here would inherit
                    // the main actor and check the executor at run time.
                    guard let addressed = extract(action) else { return nil }
                    let id = addressed.id
                    let local = addressed.action
                    let localContext = lift.elementContext(context, id: id)
                    guard localContext.hasState else {
                        if reportsMissing { lift.reportMissing(id, source: context.source) }
                        return nil
                    }
                    return lift.liftProducer(produce(local, localContext), id: id)
                }, footprint: footprint)

        case .reaction(let react, _, _):
            return .reaction(
                { action, context in
                    guard let addressed = extract(action) else { return .doNothing }
                    let id = addressed.id
                    let local = addressed.action
                    let localContext = lift.elementContext(context, id: id)
                    guard localContext.hasState else {
                        if reportsMissing { lift.reportMissing(id, source: context.source) }
                        return .doNothing
                    }
                    let reaction = react(local, localContext)
                    return Reaction(
                        mutation: lift.liftMutation(reaction.mutation, id: id), produce: lift.liftProducer(reaction.producer, id: id))
                }, scope: .addressed(token), footprint: footprint)

        case .supervision(let unit):
            return .supervision(liftSupervision(unit.supervise, footprint: footprint))
        }
    }

    /// A reducer unit routed to the addressed element: the element is read where the container
    /// lies to decide, then written through the container's own in-place write, at the place the
    /// decision found it (the id is resolved once).
    @inlinable func addressedReducer(
        _ inner: ReducerUnit<LA, LS>, _ extract: @escaping @Sendable (GA) -> ElementAction<ID, LA>?, reportsMissing: Bool,
        footprint: UnitFootprint
    ) -> ReducerUnit<GA, GS> {
        let modifyElement = self.modifyElement
        let lift = self
        let run = inner.run
        let innerApplies = inner.applies
        let locateElement = self.locateElement
        let inspectElement = self.inspectElement
        // Where the addressed element lies when it is present and its unit applies, read where
        // the container lies; a missing element is reported (by one unit of the lift).
        let decides: @Sendable (ID, LA, inout GS) -> Int? = { id, local, state in
            let located: (result: Bool, location: Int)?
            if let innerApplies {
                located = inspectElement(id, &state) { element in
                    var element = element
                    return innerApplies(local, &element)
                }
            } else {
                located = locateElement(id, &state).map { (true, $0) }
            }
            guard let located else {
                if reportsMissing { lift.reportMissing(id, source: nil) }
                return nil
            }
            return located.result ? located.location : nil
        }
        let token = self.token
        let address = elementContainer.map { container in
            ElementAddress<GA, GS>(token: token, container: container) { action in extract(action).map { AnyHashableSendable($0.id) } }
        }
        let parts = AddressedReducerParts(
            extract: extract, decides: decides, modifyElement: modifyElement, modifyLocatedElement: modifyLocatedElement, run: run)
        return ReducerUnit(
            applies: { action, state in
                guard let (id, local) = parts.extract(action).map({ ($0.id, $0.action) }) else { return false }
                return parts.decides(id, local, &state) != nil
            },
            run: { action, state in
                guard let (id, local) = parts.extract(action).map({ ($0.id, $0.action) }) else { return }
                _ = parts.modifyElement(id, &state) { parts.run(local, &$0) }
            },
            reduce: { action, state, willWrite in
                // Observers are told before the container's write opens; nothing writes the state
                // between the decision and the write, so the element is where the decision found it.
                guard let (id, local) = parts.extract(action).map({ ($0.id, $0.action) }), let location = parts.decides(id, local, &state) else {
                    return false
                }
                willWrite()
                _ = parts.modifyLocatedElement(id, location, &state) { parts.run(local, &$0) }
                return true
            }, scope: .addressed(token), footprint: footprint, actionCase: actionCase, address: address)
    }
}

/// What an addressed reducer unit's closures call, behind one reference: each closure captures
/// this alone, so a unit asked about an action of another case is handed one word of context
/// rather than four closures.
@usableFromInline
internal final class AddressedReducerParts<GA, GS, ID, LA, LS>: Sendable {
    /// The addressed element's id and action, when the action addresses one.
    @usableFromInline let extract: @Sendable (GA) -> ElementAction<ID, LA>?
    /// Where the element lies when it is present and its unit applies, else `nil` (a missing
    /// one is reported).
    @usableFromInline let decides: @Sendable (ID, LA, inout GS) -> Int?
    /// The container's in-place write of one element.
    @usableFromInline let modifyElement: @Sendable (ID, inout GS, (inout LS) -> Void) -> Bool
    /// The same write, at the place ``decides`` found the element.
    @usableFromInline let modifyLocatedElement: @Sendable (ID, Int, inout GS, (inout LS) -> Void) -> Bool
    /// The element's own reduce.
    @usableFromInline let run: @Sendable (LA, inout LS) -> Void

    @inlinable
    init(
        extract: @escaping @Sendable (GA) -> ElementAction<ID, LA>?, decides: @escaping @Sendable (ID, LA, inout GS) -> Int?,
        modifyElement: @escaping @Sendable (ID, inout GS, (inout LS) -> Void) -> Bool,
        modifyLocatedElement: @escaping @Sendable (ID, Int, inout GS, (inout LS) -> Void) -> Bool, run: @escaping @Sendable (LA, inout LS) -> Void
    ) {
        self.extract = extract
        self.decides = decides
        self.modifyElement = modifyElement
        self.modifyLocatedElement = modifyLocatedElement
        self.run = run
    }
}
