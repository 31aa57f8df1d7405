/// The side-effecting half of a feature: produces effects for actions and supervises channels for
/// states, but never mutates state.
///
/// A monoid of consequences (``combine(_:_:)`` runs both on the same action and concatenates their
/// effects and supervisions; ``identity`` does nothing). Pair it with a ``Reducer`` through
/// `Behavior(reducer:middleware:)`.
///
/// ```swift
/// let logger = Middleware<AppAction, AppState, Logger>.handle { action, context in
///     let before = context.stateBefore
///     return Producer { ctx in
///         ctx.environment.log(action, before: before)
///         return .empty
///     }
/// }
/// ```
public struct Middleware<Action: Sendable, State: Sendable, Environment: Sendable>: Sendable {
    @usableFromInline
    internal let units: [BehaviorUnit<Action, State, Environment>]

    /// Calls every producer in phase 1 and returns one reader that, in phase 3, runs them in order
    /// and concatenates their effects. Precomputed at construction.
    public let handle: @MainActor @Sendable (Action, PreReducerContext<State>) -> Producer<Action, State, Environment>

    /// Every supervision evaluated in list order, channels concatenated; `nil` when nothing supervises.
    public let supervisor: (@MainActor @Sendable (State) -> Supervision<Action, Environment>)?

    @inlinable
    internal init(units: [BehaviorUnit<Action, State, Environment>]) {
        self.units = units
        var producers: [ProducerHandler<Action, State, Environment>] = []
        var supervisions: [@MainActor @Sendable (State) -> Supervision<Action, Environment>] = []
        for unit in units {
            switch unit {
            case .producer(let produce, _): producers.append(produce)
            case .supervision(let unit): supervisions.append(unit.supervise)
            case .reducer, .reaction: preconditionFailure("Internal inconsistency: a middleware holds only producers and supervisions")
            }
        }
        switch producers.count {
        case 0: handle = { _, _ in Reader { _ in .empty } }
        case 1:
            switch producers[0] {
            case .everyAction(let produce): handle = produce
            case .someActions(let produce): handle = { action, context in produce(action, context) ?? Reader { _ in .empty } }
            }
        default:
            handle = { action, context in
                let readers = producers.compactMap { $0(action, context) }
                return readers.count == 1 ? readers[0] : .mconcat(readers)
            }
        }
        switch supervisions.count {
        case 0: supervisor = nil
        case 1: supervisor = supervisions[0]
        default: supervisor = { state in .mconcat(supervisions.map { $0(state) }) }
        }
    }

    /// A middleware from a producer and an optional supervisor.
    @inlinable
    public init(
        handle: @escaping @MainActor @Sendable (Action, PreReducerContext<State>) -> Producer<Action, State, Environment>,
        supervisor: (@MainActor @Sendable (State) -> Supervision<Action, Environment>)? = nil
    ) {
        var units: [BehaviorUnit<Action, State, Environment>] = [.producer(.everyAction(handle))]
        if let supervisor { units.append(.supervision(SupervisionUnit(supervisor))) }
        self.init(units: units)
    }

    /// Whether the middleware supervises anything.
    @inlinable
    public var supervises: Bool { supervisor != nil }

    /// The consequences, in order; every reaction's mutation is `.unchanged`.
    @inlinable
    public var consequences: [Consequence<Action, State, Environment>] {
        units.map(\.consequence)
    }

    /// A middleware producing an effect per action: read the pre-mutation context now, return the
    /// reader the Store runs after the mutations.
    @inlinable
    public static func produce(_ produce: @escaping @MainActor @Sendable (Action, PreReducerContext<State>) -> Producer<Action, State, Environment>)
        -> Middleware
    {
        Middleware(units: [.producer(.everyAction(produce))])
    }

    /// Alias for ``produce(_:)-swift.type.method``.
    @inlinable
    public static func handle(_ produce: @escaping @MainActor @Sendable (Action, PreReducerContext<State>) -> Producer<Action, State, Environment>)
        -> Middleware
    {
        Middleware(units: [.producer(.everyAction(produce))])
    }

    /// A middleware keeping channels alive while the state holds.
    @inlinable
    public static func supervise(_ supervise: @escaping @MainActor @Sendable (State) -> Supervision<Action, Environment>) -> Middleware {
        Middleware(units: [.supervision(SupervisionUnit(supervise))])
    }

    /// `self <> produce(…)`.
    @inlinable
    public func produce(_ produce: @escaping @MainActor @Sendable (Action, PreReducerContext<State>) -> Producer<Action, State, Environment>)
        -> Middleware
    {
        .combine(self, .produce(produce))
    }

    /// `self <> supervise(…)`.
    @inlinable
    public func supervise(_ supervise: @escaping @MainActor @Sendable (State) -> Supervision<Action, Environment>) -> Middleware {
        .combine(self, .supervise(supervise))
    }

    /// This middleware as a behavior whose mutation is always `.unchanged`; its supervise axis carries through.
    @inlinable
    public var asBehavior: Behavior<Action, State, Environment> {
        Behavior(units: units)
    }
}

extension Middleware: Monoid {
    /// The middleware that produces nothing and keeps nothing.
    @inlinable
    public static var identity: Middleware { Middleware(units: []) }

    /// Both on the same action: effects concatenated (lhs first), supervisions concatenated.
    @inlinable
    public static func combine(_ lhs: Middleware, _ rhs: Middleware) -> Middleware {
        if lhs.units.isEmpty { return rhs }
        if rhs.units.isEmpty { return lhs }
        return Middleware(units: lhs.units + rhs.units)
    }

    /// Flattens any number of middlewares in one pass.
    @inlinable
    public static func mconcat(_ values: [Middleware]) -> Middleware {
        Middleware(units: values.flatMap(\.units))
    }
}
