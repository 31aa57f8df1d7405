/// The primary composition unit: a pure description of how a feature responds to actions (reduce
/// and produce) and to state (supervise).
///
/// A behavior is a monoid of ``Consequence``s — a flat list, concatenated by ``combine(_:_:)``, with
/// the empty list as ``identity``. It only describes; the Store mutates, performs and keeps.
///
/// ```swift
/// let feature = Behavior<AppAction, AppState, AppEnvironment>
///     .reduce { action, state in if case .tap = action { state.taps += 1 } }
///     .produce { action, _ in
///         guard case .load(let id) = action else { return .doNothing }
///         return Producer { ctx in ctx.environment.fetch(id) }
///     }
///     .supervise { state in Supervision { env in state.isLive ? [env.feed()] : [] } }
/// ```
///
/// Every reaction sees the same pre-mutation state; mutations run in list order; effects keep list
/// order; supervisions concatenate in list order. An action no unit acts on folds to
/// `.unchanged`, so the Store notifies nobody.
public struct Behavior<Action: Sendable, State: Sendable, Environment: Sendable>: Sendable {
    @usableFromInline
    internal let units: [BehaviorUnit<Action, State, Environment>]

    /// The action side: folds every reaction into one ``Reaction``, all seeing the same
    /// pre-mutation context. Precomputed at construction so the hot path never rescans.
    public let handle: @MainActor @Sendable (Action, PreReducerContext<State>) -> Reaction<Action, State, Environment>

    /// The state side: every supervision evaluated in list order, their channels concatenated;
    /// `nil` when nothing supervises. Precomputed at construction.
    public let supervisor: (@MainActor @Sendable (State) -> Supervision<Action, Environment>)?

    /// Whether every action-clock unit is an in-place reducer (no reaction or producer), so a
    /// dispatch needs no context and builds no closure.
    @usableFromInline
    internal let isReducerOnly: Bool

    /// Each reducer unit's one-pass decide-and-mutate, in list order, when the behavior is
    /// reducer-only (else empty): ``step(_:state:environment:file:function:line:)`` calls these
    /// closures instead of copying each unit out of ``units``.
    @usableFromInline
    internal let reducerPasses: [@Sendable (Action, inout State, () -> Void) -> Bool]

    @inlinable
    internal init(units: [BehaviorUnit<Action, State, Environment>]) {
        self.units = units
        var reactions: [@MainActor @Sendable (Action, PreReducerContext<State>) -> Reaction<Action, State, Environment>] = []
        var supervisions: [@MainActor @Sendable (State) -> Supervision<Action, Environment>] = []
        var reducerOnly = true
        for unit in units {
            switch unit.consequence {
            case .reaction(let react): reactions.append(react)
            case .supervision(let supervise): supervisions.append(supervise)
            }
            switch unit {
            case .producer, .reaction: reducerOnly = false
            case .reducer, .supervision: break
            }
        }
        isReducerOnly = reducerOnly
        reducerPasses = reducerOnly ? units.compactMap { $0.reducer?.reduce } : []
        switch reactions.count {
        case 0: handle = { _, _ in .doNothing }
        case 1: handle = reactions[0]
        default:
            handle = { action, context in
                var folded = Reaction<Action, State, Environment>.doNothing
                for react in reactions { folded = .combine(folded, react(action, context)) }
                return folded
            }
        }
        switch supervisions.count {
        case 0: supervisor = nil
        case 1: supervisor = supervisions[0]
        default:
            supervisor = { state in .mconcat(supervisions.map { $0(state) }) }
        }
    }

    /// A behavior from a list of consequences, in order.
    @inlinable
    public init(consequences: [Consequence<Action, State, Environment>]) {
        self.init(
            units: consequences.map { consequence in
                switch consequence {
                case .reaction(let react): return .reaction(react, scope: .anything)
                case .supervision(let supervise): return .supervision(SupervisionUnit(supervise))
                }
            })
    }

    /// A behavior from one grouped reaction closure.
    @inlinable
    public init(handle: @escaping @MainActor @Sendable (Action, PreReducerContext<State>) -> Reaction<Action, State, Environment>) {
        self.init(units: [.reaction(handle, scope: .anything)])
    }

    /// The consequences, in order (the free-monoid view of this behavior).
    @inlinable
    public var consequences: [Consequence<Action, State, Environment>] {
        units.map(\.consequence)
    }

    /// Whether the behavior supervises anything; the Store skips reconcile entirely when it does not.
    @inlinable
    public var supervises: Bool { supervisor != nil }

    // MARK: Building

    /// A behavior from a grouped reaction: the closure gets the action and the pre-mutation
    /// context and returns a whole ``Reaction`` (mutation and/or effect).
    ///
    /// ```swift
    /// Behavior.react { action, _ in
    ///     guard case .load(let id) = action else { return .doNothing }
    ///     return .reduce { $0.isLoading = true }
    ///            .produce { ctx in ctx.environment.api.fetch(id) }
    /// }
    /// ```
    @inlinable
    public static func react(_ react: @escaping @MainActor @Sendable (Action, PreReducerContext<State>) -> Reaction<Action, State, Environment>)
        -> Behavior
    {
        Behavior(units: [.reaction(react, scope: .anything)])
    }

    /// Alias for ``react(_:)-type.method``.
    @inlinable
    public static func handle(_ react: @escaping @MainActor @Sendable (Action, PreReducerContext<State>) -> Reaction<Action, State, Environment>)
        -> Behavior
    {
        Behavior(units: [.reaction(react, scope: .anything)])
    }

    /// A behavior that mutates state in place for each action (the reducer concern). It always
    /// counts as a mutation; lift it to have it skip actions that are not its own.
    @inlinable
    public static func reduce(_ reduce: @escaping @Sendable (Action, inout State) -> Void) -> Behavior {
        Behavior(units: [.reducer(ReducerUnit(run: reduce))])
    }

    /// A behavior that produces an effect for each action (the effect-producer concern), reading the
    /// pre-mutation context in phase 1 and returning a reader run after the mutations.
    @inlinable
    public static func produce(_ produce: @escaping @MainActor @Sendable (Action, PreReducerContext<State>) -> Producer<Action, State, Environment>)
        -> Behavior
    {
        Behavior(units: [.producer(.everyAction(produce))])
    }

    /// A behavior that keeps channels alive while the state holds (the effect-supervisor concern).
    @inlinable
    public static func supervise(_ supervise: @escaping @MainActor @Sendable (State) -> Supervision<Action, Environment>) -> Behavior {
        Behavior(units: [.supervision(SupervisionUnit(supervise))])
    }

    /// `self <> react(…)`.
    @inlinable
    public func react(_ react: @escaping @MainActor @Sendable (Action, PreReducerContext<State>) -> Reaction<Action, State, Environment>) -> Behavior
    {
        .combine(self, .react(react))
    }

    /// `self <> reduce(…)`.
    @inlinable
    public func reduce(_ reduce: @escaping @Sendable (Action, inout State) -> Void) -> Behavior {
        .combine(self, .reduce(reduce))
    }

    /// `self <> produce(…)`.
    @inlinable
    public func produce(_ produce: @escaping @MainActor @Sendable (Action, PreReducerContext<State>) -> Producer<Action, State, Environment>)
        -> Behavior
    {
        .combine(self, .produce(produce))
    }

    /// `self <> supervise(…)`.
    @inlinable
    public func supervise(_ supervise: @escaping @MainActor @Sendable (State) -> Supervision<Action, Environment>) -> Behavior {
        .combine(self, .supervise(supervise))
    }
}

extension Behavior: Monoid {
    /// The empty behavior: reacts to nothing and supervises nothing.
    @inlinable
    public static var identity: Behavior { Behavior(units: []) }

    /// Concatenates the consequence lists, `lhs` first.
    @inlinable
    public static func combine(_ lhs: Behavior, _ rhs: Behavior) -> Behavior {
        if lhs.units.isEmpty { return rhs }
        if rhs.units.isEmpty { return lhs }
        return Behavior(units: lhs.units + rhs.units)
    }

    /// Flattens any number of behaviors in one O(total) pass.
    @inlinable
    public static func mconcat(_ values: [Behavior]) -> Behavior {
        Behavior(units: values.flatMap(\.units))
    }

    /// Flattens a non-empty list in one pass.
    @inlinable
    public static func sconcat(_ first: Behavior, _ rest: [Behavior]) -> Behavior {
        mconcat([first] + rest)
    }

    /// Combines a list of behaviors in one pass (``mconcat(_:)``).
    @inlinable
    public static func combine(_ behaviors: [Behavior]) -> Behavior {
        mconcat(behaviors)
    }

    /// Combines behaviors in one pass: `Behavior.combine(a, b, c)`.
    @inlinable
    public static func combine(_ first: Behavior, _ second: Behavior, _ others: Behavior...) -> Behavior {
        mconcat([first, second] + others)
    }
}

extension Reducer {
    /// This reducer as a behavior with no effect. An action no unit acts on stays `.unchanged`.
    @inlinable
    public func asBehavior<Environment: Sendable>(_ environment: Environment.Type = Environment.self) -> Behavior<ActionType, StateType, Environment>
    {
        Behavior(units: units.map { .reducer($0) })
    }
}
