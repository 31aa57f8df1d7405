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

    /// A reducer unit routed to the addressed element: the element is read where the container
    /// lies to decide, then written through the container's own in-place write.
    @inlinable func addressedReducer(
        _ inner: ReducerUnit<LA, LS>, _ extract: @escaping @Sendable (GA) -> ElementAction<ID, LA>?, reportsMissing: Bool,
        footprint: UnitFootprint
    ) -> ReducerUnit<GA, GS> {
        let modifyElement = self.modifyElement
        let lift = self
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
        return ReducerUnit(
            applies: { action, state in
                guard let (id, local) = extract(action).map({ ($0.id, $0.action) }) else { return false }
                return decides(id, local, &state)
            },
            run: { action, state in
                guard let (id, local) = extract(action).map({ ($0.id, $0.action) }) else { return }
                _ = modifyElement(id, &state) { run(local, &$0) }
            },
            reduce: { action, state, willWrite in
                // Observers are told before the container's write opens.
                guard let (id, local) = extract(action).map({ ($0.id, $0.action) }), decides(id, local, &state) else { return false }
                willWrite()
                _ = modifyElement(id, &state) { run(local, &$0) }
                return true
            }, scope: .addressed(token), footprint: footprint, actionCase: actionCase)
    }
}
