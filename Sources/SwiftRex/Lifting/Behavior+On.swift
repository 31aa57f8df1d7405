// Declarative routing: `.on(trigger, when:, dispatch:, reduce:)`. Every `.on` is
// `combine(self, routing)`; the routed action travels the effect path (processed on a later turn,
// after the trigger has committed), stamped with the `.on` declaration's source.

extension Behavior {
    /// When `trigger` extracts a payload (and `when` holds on the pre-mutation state), dispatches
    /// `dispatch`'s embedding of it — and, with `reduce`, mutates state with it in the same action.
    /// A routing-only `.on` never touches state (`.unchanged`).
    ///
    /// ```swift
    /// behavior.on(.action(AppAction.prism.didLoad), dispatch: .action(AppAction.prism.renderItems))
    /// ```
    @inlinable
    public func on<Trigger: ExtractsAction, Target: EmbedsAction>(
        _ trigger: Relay.Scope<Trigger, Relay.Identity<State>, Relay.Identity<Environment>>,
        when predicate: (@Sendable (State) -> Bool)? = nil,
        dispatch target: Relay.Scope<Target, Relay.Identity<State>, Relay.Identity<Environment>>,
        reduce: (@Sendable (Trigger.LocalAction, inout State) -> Void)? = nil,
        file: String = #fileID, function: String = #function, line: UInt = #line
    ) -> Behavior
    where Trigger.GlobalAction == Action, Target.GlobalAction == Action, Target.LocalAction == Trigger.LocalAction, Trigger.LocalAction: Sendable {
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
        return .combine(
            self,
            Behavior(units: [
                .reaction(
                    { action, context in
                        guard let payload = routed(action, context) else { return .doNothing }
                        let out = DispatchedAction(embed.embed(payload), dispatcher: source)
                        return Reaction(mutation: .mutation(EndoMut { reduce(payload, &$0) }), produce: Reader { _ in .just(out) })
                    }, scope: .anything)
            ]))
    }

    /// When `trigger` extracts a payload (and `when` holds on the pre-mutation state), mutates
    /// state with it; nothing is dispatched.
    @inlinable
    public func on<Trigger: ExtractsAction>(
        _ trigger: Relay.Scope<Trigger, Relay.Identity<State>, Relay.Identity<Environment>>,
        when predicate: (@Sendable (State) -> Bool)? = nil,
        reduce: @escaping @Sendable (Trigger.LocalAction, inout State) -> Void
    ) -> Behavior where Trigger.GlobalAction == Action {
        let extract = trigger.action
        return .combine(
            self,
            Behavior(units: [
                .reducer(
                    ReducerUnit(
                        applies: { action, state in
                            guard extract.extract(action) != nil else { return false }
                            return predicate?(state) ?? true
                        },
                        run: { action, state in
                            guard let payload = extract.extract(action), predicate?(state) ?? true else { return }
                            reduce(payload, &state)
                        },
                        reduce: { action, state, willWrite in
                            guard let payload = extract.extract(action), predicate?(state) ?? true else { return false }
                            willWrite()
                            reduce(payload, &state)
                            return true
                        }, scope: .anything, footprint: .whole))
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
