// The lift hosts of `Reducer`: the same lifting logic as `Behavior` and `Middleware`
// (`FocusLift` and `ElementLift`), keeping only the reducer units. A reducer carries no environment, so its
// scopes leave the environment lane unset.

extension Reducer {
    @inlinable
    internal var behaviorUnits: [BehaviorUnit<ActionType, StateType, Void>] {
        units.map { .reducer($0) }
    }

    @inlinable
    internal init(lifted: [BehaviorUnit<ActionType, StateType, Void>]) {
        self.init(
            units: lifted.compactMap { unit in
                if case .reducer(let reducer) = unit { return reducer }
                return nil
            })
    }

    @inlinable
    internal static func neverEmbeds<Local, Global>(_: Local) -> Global {
        preconditionFailure("Internal inconsistency: a reducer unit never emits actions")
    }

    /// Lifts this reducer into the app's types: the action lane extracts (a miss mutates nothing
    /// and reports `.unchanged`), the state lane mutates the slice in place (an absent affine focus
    /// is skipped).
    ///
    /// ```swift
    /// counter.lift(.action(AppAction.prism.counter).state(\.counter))
    /// ```
    @inlinable
    public func lift<AL: ExtractsAction, SL: WritesState>(
        _ scope: Relay.Scope<AL, SL, Relay.Identity<Void>>
    ) -> Reducer<AL.GlobalAction, SL.GlobalState> where AL.LocalAction == ActionType, SL.LocalState == StateType {
        let lift = FocusLift<ActionType, StateType, Void, AL.GlobalAction, SL.GlobalState, Void>(
            action: scope.action, embed: Self.neverEmbeds, state: scope.state, environment: scope.environment
        )
        return Reducer<AL.GlobalAction, SL.GlobalState>(lifted: lift.lift(behaviorUnits))
    }

    /// Lifts action and state through a prism and a writable key path.
    @available(*, deprecated, message: "Use the scope: lift(.action(prism).state(…)).")
    @inlinable
    public func lift<GlobalAction: Sendable, GlobalState: Sendable>(
        action: Prism<GlobalAction, ActionType>, state: WritableKeyPath<GlobalState, StateType>
    ) -> Reducer<GlobalAction, GlobalState> {
        lift(.action(action).state(state))
    }

    /// Lifts action and state through a prism and a lens.
    @available(*, deprecated, message: "Use the scope: lift(.action(prism).state(…)).")
    @inlinable
    public func lift<GlobalAction: Sendable, GlobalState: Sendable>(
        action: Prism<GlobalAction, ActionType>, state: Lens<GlobalState, StateType>
    ) -> Reducer<GlobalAction, GlobalState> {
        lift(.action(action).state(state))
    }

    /// Lifts action and state through a prism and an affine traversal (skipped while absent).
    @available(*, deprecated, message: "Use the scope: lift(.action(prism).state(…)).")
    @inlinable
    public func lift<GlobalAction: Sendable, GlobalState: Sendable>(
        action: Prism<GlobalAction, ActionType>, state: AffineTraversal<GlobalState, StateType>
    ) -> Reducer<GlobalAction, GlobalState> {
        lift(.action(action).state(state))
    }

    /// Routes an addressed action to one element of a collection, located in O(1) amortised and
    /// mutated in place. An action for an absent element is dropped and reported.
    ///
    /// ```swift
    /// item.liftCollection(.action(AppAction.prism.row).state(\.rows))
    /// ```
    @inlinable
    public func liftCollection<GlobalAction: Sendable, ID: Hashable & Sendable, SL: KeyedState>(
        _ scope: Relay.Scope<Relay.ActionElement<GlobalAction, ID, ActionType>, SL, Relay.Identity<Void>>,
        site: LiftSite? = nil,
        file: String = #fileID, line: UInt = #line, column: UInt = #column
    ) -> Reducer<GlobalAction, SL.GlobalState> where SL.Element == StateType, SL.ID == ID, SL.GlobalState: Sendable {
        let preview = scope.action.preview
        let lift = ElementLift<ActionType, StateType, Void, GlobalAction, SL.GlobalState, Void, ID>(
            addressed: preview,
            broadcast: nil,
            embed: scope.action.review,
            state: scope.state, environment: scope.environment,
            site: site ?? LiftSite(file: file, line: line, column: column),
            actionCase: scope.action.extractedCase
        )
        return Reducer<GlobalAction, SL.GlobalState>(lifted: lift.lift(behaviorUnits))
    }

    /// Applies one broadcast action to every present element, walking storage once, in place.
    @inlinable
    public func liftEach<GlobalAction: Sendable, ID: Hashable & Sendable, SL: KeyedState>(
        _ scope: Relay.Scope<Relay.ActionBroadcast<GlobalAction, ID, ActionType>, SL, Relay.Identity<Void>>,
        site: LiftSite? = nil,
        file: String = #fileID, line: UInt = #line, column: UInt = #column
    ) -> Reducer<GlobalAction, SL.GlobalState> where SL.Element == StateType, SL.ID == ID, SL.GlobalState: Sendable {
        let lift = ElementLift<ActionType, StateType, Void, GlobalAction, SL.GlobalState, Void, ID>(
            addressed: nil,
            broadcast: scope.action.preview,
            embed: scope.action.review,
            state: scope.state, environment: scope.environment,
            site: site ?? LiftSite(file: file, line: line, column: column)
        )
        return Reducer<GlobalAction, SL.GlobalState>(lifted: lift.lift(behaviorUnits))
    }

    /// The primitive collection lift: `action` picks the local action and an affine traversal to
    /// the element it addresses inside the container, which `stateContainer` focuses. A reducer
    /// emits no actions, so nothing re-embeds them and no element id is needed: the traversal
    /// alone says where to write. An action `action` rejects, or whose element is absent, mutates
    /// nothing. For identified collections prefer the scope form, `liftCollection(_:site:)`,
    /// which locates elements by id in O(1) and reports a missing one.
    ///
    /// ```swift
    /// let rows = row.liftCollection(
    ///     action: { (global: AppAction) in
    ///         guard case .row(let index, let action) = global else { return nil }
    ///         return (action, AffineTraversal(preview: { $0.indices.contains(index) ? $0[index] : nil }, set: { $0[index] = $1 }))
    ///     },
    ///     stateContainer: Lens(\AppState.rows)
    /// )
    /// ```
    @inlinable
    public func liftCollection<GlobalAction: Sendable, GlobalState: Sendable, Container: Sendable>(
        action: @escaping @Sendable (GlobalAction) -> (action: ActionType, element: AffineTraversal<Container, StateType>)?,
        stateContainer: Lens<GlobalState, Container>
    ) -> Reducer<GlobalAction, GlobalState> {
        let routed = Reducer<RoutedElementAction<ActionType, Container, StateType>, Container>(
            units: units.map { unit in
                ReducerUnit(
                    applies: { routed, container in
                        routed.element.inspect(&container) { unit.willMutate(routed.action, &$0) } ?? false
                    },
                    footprint: FocusPlacement.within(nil).embed(unit.footprint),
                    run: { routed, container in
                        _ = routed.element.tryModify(&container) { unit.run(routed.action, &$0) }
                    })
            })
        return routed.lift(
            .action(preview: { (global: GlobalAction) in action(global).map { RoutedElementAction(action: $0.action, element: $0.element) } })
                .state(stateContainer))
    }
}

/// A local action paired with the traversal to the element it addresses (the primitive
/// collection lift's routed action).
@usableFromInline
internal struct RoutedElementAction<Action: Sendable, Container, Element>: Sendable {
    @usableFromInline let action: Action
    @usableFromInline let element: AffineTraversal<Container, Element>

    @inlinable
    init(action: Action, element: AffineTraversal<Container, Element>) {
        self.action = action
        self.element = element
    }
}
