/// A behavior made of producers and reducers alone: every producer against the pre-mutation
/// state, then the reducer phase; the producers' effects are resolved and scheduled after it.
@usableFromInline
internal final class ProducerPhase<Action: Sendable, State: Sendable, Environment: Sendable> {
    /// The producer units, in order.
    @usableFromInline let steps: StepList<PhaseStep<Action, State, Environment>>
    /// What runs after the producers.
    @usableFromInline let reducers: ReducerPhase<Action, State>

    @inlinable
    init(_ units: [BehaviorUnit<Action, State, Environment>], then reducers: consuming ReducerPhase<Action, State>) {
        self.reducers = reducers
        steps = StepList(
            units.compactMap { unit in
                guard case .producer = unit else { return nil }
                return PhaseStep(unit, mask: UnitMask(supervision: 0, regions: 0))
            })
    }
}

extension Store {
    /// Every producer against the pre-mutation state, then the reducer phase (which notifies
    /// observers around the first write), then the producers' effects, resolved against the
    /// post-mutation state and scheduled in order.
    @inlinable
    @inline(never)
    internal func run(
        _ producers: ProducerPhase<Action, State, Environment>, _ action: Action, source: LentSource, depth: Int
    ) {
        var firstProducer: Producer<Action, State, Environment>?
        phaseOneReader.lend(to: source) { context in
            for index in 0..<producers.steps.count {
                keep(producers.steps.withStep(at: index) { $0.producer(action, context) }, first: &firstProducer)
            }
        }
        run(producers.reducers, action, depth: depth)
        scheduleProduced(consume firstProducer, depth: depth)
    }
}
