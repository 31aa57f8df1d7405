// Declarative routing: `.on(trigger, when:, dispatch:, reduce:)`. Every `.on` is
// `combine(self, routing)`; the routed action travels the effect path (processed on a later turn,
// after the trigger has committed), stamped with the `.on` declaration's source. A `reduce`
// writes through the trigger's state lane, so the Store knows what it may touch.

extension Behavior {
    /// When `trigger` extracts a payload (and `when` holds on the pre-mutation state), dispatches
    /// `dispatch`'s embedding of it — and, with `reduce`, mutates the part of the state the
    /// trigger's state lane focuses (the whole state when it names none) in the same action. A
    /// routing-only `.on` never touches state (`.unchanged`).
    ///
    /// Naming the part (`.action(\.loaded).state(\.feed)`) tells the Store what `reduce` may
    /// write, so supervisions that read none of it are not re-evaluated after the action.
    ///
    /// ```swift
    /// behavior.on(.action(AppAction.prism.didLoad), dispatch: .action(AppAction.prism.renderItems))
    /// ```
    @inlinable
    public func on<Trigger: ExtractsAction, Lane: WritesState, Target: EmbedsAction>(
        _ trigger: Relay.Scope<Trigger, Lane, Relay.Identity<Environment>>,
        when predicate: (@Sendable (State) -> Bool)? = nil,
        dispatch target: Relay.Scope<Target, Relay.Identity<State>, Relay.Identity<Environment>>,
        reduce: (@Sendable (Trigger.LocalAction, inout Lane.LocalState) -> Void)? = nil,
        file: String = #fileID, function: String = #function, line: UInt = #line
    ) -> Behavior
    where
        Trigger.GlobalAction == Action, Lane.GlobalState == State, Target.GlobalAction == Action,
        Target.LocalAction == Trigger.LocalAction, Trigger.LocalAction: Sendable
    {
        let source = ActionSource(file: file, function: function, line: line)
        let extract = trigger.action
        let embed = target.action
        let routed: @MainActor @Sendable (Action, PreReducerContext<State>) -> Trigger.LocalAction? = { action, context in
            guard let payload = extract.extract(action) else { return nil }
            if let predicate {
                guard let state = context.stateBefore, predicate(state) else { return nil }
            }
            return payload
        }
        guard let reduce else {
            return .combine(
                self,
                Behavior(units: [
                    .producer(
                        .someActions { action, context in
                            guard let payload = routed(action, context) else { return nil }
                            let out = DispatchedAction(embed.embed(payload), dispatcher: source)
                            return Reader { _ in .just(out) }
                        })
                ]))
        }
        let lane = trigger.state
        return .combine(
            self,
            Behavior(units: [
                .reaction(
                    { action, context in
                        guard let payload = routed(action, context) else { return .doNothing }
                        let out = DispatchedAction(embed.embed(payload), dispatcher: source)
                        let mutation = EndoMut<State> { state in _ = lane.tryModify(&state) { reduce(payload, &$0) } }
                        return Reaction(mutation: .mutation(mutation), produce: Reader { _ in .just(out) })
                    }, scope: .anything, footprint: FocusPlacement.of(lane).embed(.whole))
            ]))
    }

    /// When `trigger` extracts a payload (and `when` holds on the pre-mutation state), mutates the
    /// part of the state the trigger's state lane focuses (the whole state when it names none);
    /// nothing is dispatched. An absent focus (an optional lane holding `nil`) is left alone.
    ///
    /// ```swift
    /// behavior.on(.action(\.clearFeed).state(\.feed), reduce: { _, feed in feed.items = [] })
    /// ```
    @inlinable
    public func on<Trigger: ExtractsAction, Lane: WritesState>(
        _ trigger: Relay.Scope<Trigger, Lane, Relay.Identity<Environment>>,
        when predicate: (@Sendable (State) -> Bool)? = nil,
        reduce: @escaping @Sendable (Trigger.LocalAction, inout Lane.LocalState) -> Void
    ) -> Behavior where Trigger.GlobalAction == Action, Lane.GlobalState == State {
        let extract = trigger.action
        let lane = trigger.state
        let holds: @Sendable (inout State) -> Bool = { state in
            guard predicate?(state) ?? true else { return false }
            return lane.isTotal || lane.inspect(&state, { _ in }) != nil
        }
        return .combine(
            self,
            Behavior(units: [
                .reducer(
                    ReducerUnit(
                        applies: { action, state in extract.extract(action) != nil && holds(&state) },
                        run: { action, state in
                            guard let payload = extract.extract(action), predicate?(state) ?? true else { return }
                            _ = lane.tryModify(&state) { reduce(payload, &$0) }
                        },
                        reduce: { action, state, willWrite in
                            guard let payload = extract.extract(action), holds(&state) else { return false }
                            willWrite()
                            _ = lane.tryModify(&state) { reduce(payload, &$0) }
                            return true
                        }, scope: .anything, footprint: FocusPlacement.of(lane).embed(.whole)))
            ]))
    }
}

extension Middleware {
    /// When `trigger` extracts a payload (and `when` holds on the pre-mutation state), dispatches
    /// `dispatch`'s embedding of it. A middleware never mutates.
    @inlinable
    public func on<Trigger: ExtractsAction, Target: EmbedsAction>(
        _ trigger: Relay.Scope<Trigger, Relay.Identity<State>, Relay.Identity<Environment>>,
        when predicate: (@Sendable (State) -> Bool)? = nil,
        dispatch target: Relay.Scope<Target, Relay.Identity<State>, Relay.Identity<Environment>>,
        file: String = #fileID, function: String = #function, line: UInt = #line
    ) -> Middleware where Trigger.GlobalAction == Action, Target.GlobalAction == Action, Target.LocalAction == Trigger.LocalAction {
        let source = ActionSource(file: file, function: function, line: line)
        let extract = trigger.action
        let embed = target.action
        return .combine(
            self,
            Middleware(units: [
                .producer(
                    .someActions { action, context in
                        guard let payload = extract.extract(action) else { return nil }
                        if let predicate {
                            guard let state = context.stateBefore, predicate(state) else { return nil }
                        }
                        let out = DispatchedAction(embed.embed(payload), dispatcher: source)
                        return Reader { _ in .just(out) }
                    })
            ]))
    }
}
