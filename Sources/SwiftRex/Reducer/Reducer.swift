/// A pure function that calculates how state changes in response to an action — the only place
/// allowed to mutate state.
///
/// A reducer maps an action to an in-place ``EndoMut``. Internally it is a flat list of units built
/// once at composition time; ``combine(_:_:)`` runs `lhs` then `rhs` on the same state (rhs sees
/// lhs's writes) and ``identity`` (the empty list) vanishes from every fold.
///
/// ```swift
/// let counter = Reducer<CounterAction, Int>.reduce { action, state in
///     switch action {
///     case .increment: state += 1
///     case .decrement: state -= 1
///     case .reset:     state = 0
///     }
/// }
/// ```
public struct Reducer<ActionType: Sendable, StateType: Sendable>: Sendable {
    @usableFromInline
    internal let units: [ReducerUnit<ActionType, StateType>]

    /// Given an action, the in-place mutation it causes (the identity for an empty reducer).
    ///
    /// This builds one closure per call; the Store uses the allocation-free ``apply(_:to:)`` instead.
    public let reduce: @Sendable (ActionType) -> EndoMut<StateType>

    @inlinable
    internal init(units: [ReducerUnit<ActionType, StateType>]) {
        self.units = units
        switch units.count {
        case 0:
            reduce = { _ in .identity }
        case 1:
            let run = units[0].run
            reduce = { action in EndoMut { run(action, &$0) } }
        default:
            let runs = units.map(\.run)
            reduce = { action in
                EndoMut { state in
                    for run in runs { run(action, &state) }
                }
            }
        }
    }

    /// Applies the action to `state` in place, running every unit in order — the Store's direct
    /// path: no closure is built and no copy of `state` is made.
    @inlinable
    public func apply(_ action: ActionType, to state: inout StateType) {
        // Each unit's `run` read where it lies: iterating the units would copy (retain and
        // release) every field of each.
        for index in units.indices { units[index].run(action, &state) }
    }

    /// Whether applying `action` to `state` would run any mutation (`false` only when every unit is a
    /// lifted unit that does not match, or the reducer is the identity).
    @inlinable
    public func willMutate(_ action: ActionType, in state: StateType) -> Bool {
        var state = state
        for index in units.indices {
            // A unit without a test always applies.
            guard let applies = units[index].applies else { return true }
            if applies(action, &state) { return true }
        }
        return false
    }

    /// The outcome of `action` on `state`: `.unchanged` when no unit applies, else the mutation.
    @inlinable
    public func outcome(_ action: ActionType, in state: StateType) -> ReducerOutcome<StateType> {
        willMutate(action, in: state) ? .mutation(reduce(action)) : .unchanged
    }

    /// Whether this is the identity reducer (no units).
    @inlinable
    public var isIdentity: Bool { units.isEmpty }

    // MARK: Factories

    /// A reducer from an idiomatic in-place function (the preferred, zero-copy form).
    ///
    /// Disfavoured only to break a tie: a closure whose body is a state-valued expression
    /// (`{ action, state in switch action { case .toggle: !state } }`) type-checks as both forms, and
    /// as this one its value would be silently discarded; the pure-return overload is meant.
    @_disfavoredOverload
    @inlinable
    public static func reduce(_ reduce: @escaping @Sendable (ActionType, inout StateType) -> Void) -> Reducer {
        Reducer(units: [ReducerUnit(run: reduce)])
    }

    /// A reducer from a pure function returning the new state (assigned back, so it copies).
    @inlinable
    public static func reduce(_ reduce: @escaping @Sendable (ActionType, StateType) -> StateType) -> Reducer {
        Reducer(units: [ReducerUnit(run: { action, state in state = reduce(action, state) })])
    }

    /// A reducer from a function returning an in-place ``EndoMut`` per action.
    @inlinable
    public static func reduce(_ reduce: @escaping @Sendable (ActionType) -> EndoMut<StateType>) -> Reducer {
        Reducer(units: [ReducerUnit(run: { action, state in reduce(action).runEndoMut(&state) })])
    }

    /// A reducer from a function returning a value-level ``Endo`` per action (bridged with `toEndoMut()`).
    @inlinable
    public static func reduce(_ reduce: @escaping @Sendable (ActionType) -> Endo<StateType>) -> Reducer {
        Reducer(units: [ReducerUnit(run: { action, state in reduce(action).toEndoMut().runEndoMut(&state) })])
    }
}

extension Reducer: Monoid {
    /// The reducer that mutates nothing; it vanishes from every fold.
    @inlinable
    public static var identity: Reducer { Reducer(units: []) }

    /// Runs `lhs`, then `rhs`, on the same state.
    @inlinable
    public static func combine(_ lhs: Reducer, _ rhs: Reducer) -> Reducer {
        if lhs.units.isEmpty { return rhs }
        if rhs.units.isEmpty { return lhs }
        return Reducer(units: lhs.units + rhs.units)
    }

    /// Flattens any number of reducers into one flat unit list in one pass.
    @inlinable
    public static func mconcat(_ values: [Reducer]) -> Reducer {
        Reducer(units: values.flatMap(\.units))
    }

    /// Flattens a non-empty list in one pass.
    @inlinable
    public static func sconcat(_ first: Reducer, _ rest: [Reducer]) -> Reducer {
        mconcat([first] + rest)
    }

    /// Composes reducers in order (each sees the previous ones' writes).
    @inlinable
    public static func compose(_ first: Reducer, _ others: Reducer...) -> Reducer {
        sconcat(first, others)
    }

    /// Composes the reducers listed in the builder block, in order.
    ///
    /// ```swift
    /// let app = Reducer.compose {
    ///     counterReducer
    ///     historyReducer   // runs after counterReducer, sees its mutation
    /// }
    /// ```
    @inlinable
    public static func compose(@ReducerBuilder<ActionType, StateType> _ build: () -> Reducer) -> Reducer {
        build()
    }
}

/// Builds a ``Reducer`` from a block of reducers, composed in order with `mconcat`.
@resultBuilder
public enum ReducerBuilder<ActionType: Sendable, StateType: Sendable> {
    /// Each reducer of the block, typed by the block: a lift inside it infers its key paths' roots
    /// (`.state(\.auth)`) from the reducer the block builds.
    @inlinable
    public static func buildExpression(_ reducer: Reducer<ActionType, StateType>) -> Reducer<ActionType, StateType> {
        reducer
    }

    /// Composes the block's reducers in order.
    @inlinable
    public static func buildBlock(_ reducers: Reducer<ActionType, StateType>...) -> Reducer<ActionType, StateType> {
        .mconcat(reducers)
    }

    /// Composes the reducers of a `for` loop in order.
    @inlinable
    public static func buildArray(_ reducers: [Reducer<ActionType, StateType>]) -> Reducer<ActionType, StateType> {
        .mconcat(reducers)
    }

    /// An `if` without `else` contributes the identity when false.
    @inlinable
    public static func buildOptional(_ reducer: Reducer<ActionType, StateType>?) -> Reducer<ActionType, StateType> {
        reducer ?? .identity
    }

    /// The taken branch of an `if`/`else`.
    @inlinable
    public static func buildEither(first reducer: Reducer<ActionType, StateType>) -> Reducer<ActionType, StateType> {
        reducer
    }

    /// The taken branch of an `if`/`else`.
    @inlinable
    public static func buildEither(second reducer: Reducer<ActionType, StateType>) -> Reducer<ActionType, StateType> {
        reducer
    }
}
