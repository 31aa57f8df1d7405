// One of the library's files with unsafe code: a mutation record's fields skip the runtime's
// exclusivity checks, since one dispatch at a time touches a record, in phase order. Exercised
// under TSan and ASan by MutateAndProduceTests.

import Foundation
import Synchronization

/// What the one-closure `Behavior.reduce { action, state, context in … }` form sees while it
/// mutates (phase 2): the store's generators.
public struct MutationContext: Sendable {
    @usableFromInline let readGenerators: @Sendable () -> StoreGenerators

    /// A context reading the given generators.
    @inlinable
    public init(generators: @escaping @Sendable () -> StoreGenerators) {
        self.readGenerators = generators
    }

    /// The store's injected clock, date and UUID generators (a `TestStore`'s are deterministic).
    @inlinable
    public var generators: StoreGenerators { readGenerators() }

    /// A new UUID from the store's generator.
    @inlinable
    public func uuid() -> UUID { readGenerators().uuid() }

    /// The current date from the store's generator.
    @inlinable
    public func date() -> Date { readGenerators().date() }
}

extension Behavior {
    /// Mutates the state and says what to do about it in one closure: the body mutates `state` in
    /// place (phase 2, with the store's generators at hand) and returns the action's effect
    /// producer, which runs after every mutation (phase 3) like any other.
    ///
    /// ```swift
    /// Behavior<ChatAction, ChatState, ChatEnvironment>.reduce { action, state, context in
    ///     guard case .send(let text) = action else { return .doNothing }
    ///     let id = context.uuid()
    ///     state.messages.append(Message(id: id, text: text, status: .sending))
    ///     return .produce { ctx in
    ///         .task { send in send(await ctx.environment.post(text) ? .delivered(id) : .failed(id)) }
    ///     }
    /// }
    /// ```
    ///
    /// Like the two-parameter `reduce { action, state in … }`, it counts as a mutation for every
    /// action (lift it to have it skip actions that are not its own). It costs no more than the
    /// two-closure `react { … .reduce { … }.produce { … } }`: one reusable record per behavior
    /// carries the action from phase 1 to the producer, so only the closure the body returns is
    /// allocated.
    @inlinable
    public static func reduce(
        _ body: @escaping @Sendable (Action, inout State, MutationContext) -> Producer<Action, State, Environment>
    ) -> Behavior {
        let spare = MutationRecord<Action, State, Environment>(body, isSpare: true)
        return Behavior(units: [
            .reaction(
                { action, context in
                    let record = spare.claim() ? spare : MutationRecord(body, isSpare: false)
                    record.action = action
                    record.readGenerators = context.readGenerators
                    return Reaction(
                        mutation: .mutation(EndoMut { state in record.mutate(&state) }),
                        produce: Reader { post in record.produce(post) }
                    )
                }, scope: .anything)
        ])
    }

    /// `self <> reduce(…)`, the one-closure mutate-and-produce form.
    @inlinable
    public func reduce(
        _ body: @escaping @Sendable (Action, inout State, MutationContext) -> Producer<Action, State, Environment>
    ) -> Behavior {
        .combine(self, .reduce(body))
    }
}

/// Carries one action of the one-closure form from phase 1 (the action and its context) through
/// phase 2 (the body runs and leaves its producer) to phase 3 (the producer runs, the record is
/// cleared). Each behavior keeps one spare record that every dispatch reuses; a dispatch that finds
/// it claimed (a store dispatching inside another's phases, a broadcast over many elements) gets a
/// fresh one. A record is touched by one dispatch at a time, in phase order.
@usableFromInline
internal final class MutationRecord<Action: Sendable, State: Sendable, Environment: Sendable>: @unchecked Sendable {
    @usableFromInline let body: @Sendable (Action, inout State, MutationContext) -> Producer<Action, State, Environment>
    @usableFromInline let isSpare: Bool
    @usableFromInline let claimed = Atomic<Bool>(false)
    // Unchecked: one dispatch at a time touches a record, in phase order (see the type's comment);
    // checked, each access would cost a runtime exclusivity record.
    @exclusivity(unchecked) @usableFromInline var action: Action?
    @exclusivity(unchecked) @usableFromInline var readGenerators: @Sendable () -> StoreGenerators = { .live }
    @exclusivity(unchecked) @usableFromInline var producer: Producer<Action, State, Environment>?

    @inlinable
    init(_ body: @escaping @Sendable (Action, inout State, MutationContext) -> Producer<Action, State, Environment>, isSpare: Bool) {
        self.body = body
        self.isSpare = isSpare
    }

    /// Claims the spare record; `false` when a dispatch already holds it.
    @inlinable
    func claim() -> Bool {
        claimed.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged
    }

    /// Phase 2: runs the body on the state, keeping what it returns for phase 3.
    @inlinable
    func mutate(_ state: inout State) {
        guard let action else { return }
        producer = body(action, &state, MutationContext(generators: readGenerators))
    }

    /// Phase 3: runs the producer (nothing when the body never ran), then frees the record.
    @inlinable
    func produce(_ post: PostReducerContext<State, Environment>) -> Effect<Action> {
        let producer = self.producer.take()
        action = nil
        if isSpare { claimed.store(false, ordering: .releasing) }
        return producer?.runReader(post) ?? .empty
    }
}
