import Synchronization

// `liftEach`'s unit lift: one action reaches every present element, walking storage once, in
// place. Reactions and producers visit each id once (its first occurrence when ids repeat).

extension ElementLift {
    /// `unit` run on every present element for each action `extract` accepts.
    @inlinable func liftBroadcast(_ unit: BehaviorUnit<LA, LS, LE>, _ extract: @escaping @Sendable (GA) -> LA?) -> BehaviorUnit<GA, GS, GE> {
        let footprint = self.footprint(unit)
        switch unit {
        case .reducer(let inner):
            return .reducer(broadcastReducer(inner, extract, footprint: footprint))
        case .producer(let produce, _):
            return .producer(broadcastProducer(produce, extract), footprint: footprint)
        case .reaction(let react, _, _):
            return .reaction(broadcastReaction(react, extract), scope: .eachElement(token), footprint: footprint)
        case .supervision(let unit):
            return .supervision(liftSupervision(unit.supervise, footprint: footprint))
        }
    }

    /// A reducer unit run on every element with one action, no id read per element; it applies
    /// when some element's unit does, read where the container lies.
    @inlinable func broadcastReducer(
        _ inner: ReducerUnit<LA, LS>, _ extract: @escaping @Sendable (GA) -> LA?, footprint: UnitFootprint
    ) -> ReducerUnit<GA, GS> {
        let run = inner.run
        let isEmptyInPlace = self.isEmptyInPlace
        let forEachElementInPlace = self.forEachElementInPlace
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
        return ReducerUnit(
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
            }, scope: .eachElement(token), footprint: footprint)
    }

    /// A producer asked once per present element; their effects run side by side.
    @inlinable func broadcastProducer(
        _ produce: ProducerHandler<LA, LS, LE>, _ extract: @escaping @Sendable (GA) -> LA?
    ) -> ProducerHandler<GA, GS, GE> {
        let lift = self
        let uniqueIDs = forEachSlotted != nil
        return .someActions { action, context in
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
                if let reader = lift.liftProducer(produce(local, elementContext), id: id) { readers.append(reader) }
            }
            guard walked else { return nil }
            return readers.isEmpty ? nil : .mconcat(readers)
        }
    }

    /// A reaction asked once per present element, folded into one mutation (every element's body,
    /// in element order) and one producer: no closure, context or reaction is made per element.
    @inlinable func broadcastReaction(
        _ react: @escaping @MainActor @Sendable (LA, PreReducerContext<LS>) -> Reaction<LA, LS, LE>,
        _ extract: @escaping @Sendable (GA) -> LA?
    ) -> @MainActor @Sendable (GA, PreReducerContext<GS>) -> Reaction<GA, GS, GE> {
        let lift = self
        let uniqueIDs = forEachSlotted != nil
        let sizeHint = BroadcastSizeHint()
        return { action, context in
            guard let local = extract(action) else { return .doNothing }
            var bodies: [(id: ID, endo: EndoMut<LS>)] = []
            var readers: [Producer<GA, GS, GE>] = []
            var mutates = false
            var visited = Set<ID>()
            var duplicates: [ID] = []
            defer { lift.reportDuplicates(duplicates) }
            // Without a state to read, nothing is visited: `.unchanged`, no effect.
            _ = lift.forEachElementContext(context) { id, elementContext in
                // Reactions address their element by id: a duplicated id is visited once (its
                // first occurrence), never twice. A journaled container's ids are unique.
                guard uniqueIDs || visited.insert(id).inserted else {
                    duplicates.append(id)
                    return
                }
                let reaction = react(local, elementContext)
                if case .mutation(let endo) = reaction.mutation {
                    mutates = true
                    if endo.body != nil {
                        // Sized once, from the last broadcast, instead of grown by doubling.
                        if bodies.isEmpty { bodies.reserveCapacity(sizeHint.capacity) }
                        bodies.append((id, endo))
                    }
                }
                if let producer = lift.liftProducer(reaction.producer, id: id) { readers.append(producer) }
            }
            if !bodies.isEmpty { sizeHint.record(bodies.count) }
            let mutation: ReducerOutcome<GS> = mutates ? .mutation(lift.applying(bodies)) : .unchanged
            return Reaction(mutation: mutation, produce: readers.isEmpty ? nil : .mconcat(readers))
        }
    }

    /// One mutation applying each element's body: one walk over storage, the bodies in the same
    /// (container) order; a body whose element is not where the walk expects it (the container
    /// changed since phase 1) is applied by id afterwards. Each body touches only its own
    /// element, so the order between them does not matter.
    @inlinable func applying(_ bodies: [(id: ID, endo: EndoMut<LS>)]) -> EndoMut<GS> {
        guard !bodies.isEmpty else { return .identity }
        let modifyElement = self.modifyElement
        let modifyEachElement = self.modifyEachElement
        return EndoMut { global in
            var next = 0
            modifyEachElement(&global) { id, element in
                guard next < bodies.count, bodies[next].id == id else { return }
                bodies[next].endo.runEndoMut(&element)
                next &+= 1
            }
            while next < bodies.count {
                _ = modifyElement(bodies[next].id, &global) { bodies[next].endo.runEndoMut(&$0) }
                next &+= 1
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
