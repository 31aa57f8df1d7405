/// What an effect producer returns: a reader of the post-mutation context that yields an ``Effect``.
public typealias Producer<Action: Sendable, State, Environment> = Reader<PostReducerContext<State, Environment>, Effect<Action>>

extension Reader {
    /// Sugar for `Reader(f)` when the output is an effect.
    @inlinable
    public static func produce<Action: Sendable, State, Env>(
        _ run: @escaping @Sendable (PostReducerContext<State, Env>) -> Effect<Action>
    ) -> Reader where Environment == PostReducerContext<State, Env>, Output == Effect<Action> {
        Reader(run)
    }
}

/// A reaction to one action: the product of a mutation (``ReducerOutcome``) and an effect producer.
///
/// A ``Monoid`` componentwise: mutations run lhs then rhs, effects concatenate (lhs first), and
/// ``doNothing`` is the identity. Chain it either way:
///
/// ```swift
/// .reduce { $0.isLoading = true }.produce { ctx in ctx.environment.fetch(id) }
/// .produce { _ in .just(.started) }.reduce { $0.count += 1 }
/// ```
public struct Reaction<Action: Sendable, State: Sendable, Environment: Sendable>: Sendable {
    /// The mutation to run in phase 2.
    public var mutation: ReducerOutcome<State>
    /// The effect producer, `nil` when there is none (no closure is kept for "no effect").
    @usableFromInline
    internal var producer: Producer<Action, State, Environment>?

    /// A reaction from a mutation and an optional producer.
    @inlinable
    public init(mutation: ReducerOutcome<State>, produce: Producer<Action, State, Environment>? = nil) {
        self.mutation = mutation
        self.producer = produce
    }

    /// The effect producer run in phase 3 (the empty effect when there is none).
    @inlinable
    public var produce: Producer<Action, State, Environment> {
        producer ?? Reader { _ in .empty }
    }

    /// Whether the reaction produces an effect.
    @inlinable
    public var hasEffect: Bool { producer != nil }

    /// Resolves the effect against a post-mutation context (empty when there is no producer).
    @inlinable
    public func resolveEffect(_ context: PostReducerContext<State, Environment>) -> Effect<Action> {
        producer?.runReader(context) ?? .empty
    }

    /// No mutation (`.unchanged`) and no effect — the identity.
    @inlinable
    public static var doNothing: Reaction { Reaction(mutation: .unchanged) }

    /// A mutation with no effect.
    @inlinable
    public static func reduce(_ mutate: @escaping @Sendable (inout State) -> Void) -> Reaction {
        Reaction(mutation: .mutation(EndoMut(mutate)))
    }

    /// An effect with no mutation (`.unchanged`).
    @inlinable
    public static func produce(_ produce: @escaping @Sendable (PostReducerContext<State, Environment>) -> Effect<Action>) -> Reaction {
        Reaction(mutation: .unchanged, produce: Reader(produce))
    }

    /// This reaction plus a mutation that runs after its own.
    @inlinable
    public func reduce(_ mutate: @escaping @Sendable (inout State) -> Void) -> Reaction {
        .combine(self, .reduce(mutate))
    }

    /// This reaction plus an effect produced after its own.
    @inlinable
    public func produce(_ produce: @escaping @Sendable (PostReducerContext<State, Environment>) -> Effect<Action>) -> Reaction {
        .combine(self, .produce(produce))
    }
}

extension Reaction: Monoid {
    /// ``doNothing``.
    @inlinable
    public static var identity: Reaction { .doNothing }

    /// Mutations lhs then rhs; effects concatenated, lhs first.
    @inlinable
    public static func combine(_ lhs: Reaction, _ rhs: Reaction) -> Reaction {
        let producer: Producer<Action, State, Environment>?
        switch (lhs.producer, rhs.producer) {
        case (.none, let only), (let only, .none): producer = only
        case (.some(let first), .some(let second)): producer = .combine(first, second)
        }
        return Reaction(mutation: .combine(lhs.mutation, rhs.mutation), produce: producer)
    }

    /// Folds in one pass: one flat mutation and one reader that concatenates the effects.
    @inlinable
    public static func mconcat(_ values: [Reaction]) -> Reaction {
        let producers = values.compactMap(\.producer)
        let producer: Producer<Action, State, Environment>? = producers.isEmpty ? nil : .mconcat(producers)
        return Reaction(mutation: .mconcat(values.map(\.mutation)), produce: producer)
    }
}

/// One consequence of a behavior: a reaction to each action (the action clock), or a supervision of
/// the state (the state clock).
public enum Consequence<Action: Sendable, State: Sendable, Environment: Sendable>: Sendable {
    /// Evaluated once per dispatched action in phase 1, against the pre-mutation state.
    case reaction(@MainActor @Sendable (Action, PreReducerContext<State>) -> Reaction<Action, State, Environment>)
    /// Evaluated with the post-mutation state after every state change: the channels to keep.
    case supervision(@MainActor @Sendable (State) -> Supervision<Action, Environment>)
}
