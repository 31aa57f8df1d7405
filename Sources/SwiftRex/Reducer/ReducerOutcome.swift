/// The mutation half of a reaction: `.unchanged` (nothing to do — the Store skips notification and
/// reconcile) or `.mutation` with the in-place change to run.
///
/// A ``Monoid`` with identity `.unchanged`; the fold is `.unchanged` **iff** every operand is (the
/// unchanged law, <doc:Composition#Unchanged-survives-composition>), and combining with
/// `.unchanged` returns the other operand without wrapping it.
public enum ReducerOutcome<State>: Sendable {
    /// Nothing to mutate.
    case unchanged
    /// A mutation to run in place (it may still leave the value equal: the Store never compares states).
    case mutation(EndoMut<State>)

    /// Whether there is a mutation to run.
    @inlinable
    public var isMutation: Bool {
        if case .mutation = self { return true }
        return false
    }

    /// Runs the mutation in place; does nothing for `.unchanged`.
    @inlinable
    public func runEndoMut(_ state: inout State) {
        if case .mutation(let endo) = self { endo.runEndoMut(&state) }
    }

    /// Transforms the mutation; `.unchanged` stays `.unchanged`, so the skip survives every lift.
    @inlinable
    public func map<Other>(_ transform: (EndoMut<State>) -> EndoMut<Other>) -> ReducerOutcome<Other> {
        switch self {
        case .unchanged: return .unchanged
        case .mutation(let endo): return .mutation(transform(endo))
        }
    }
}

extension ReducerOutcome: Monoid {
    /// `.unchanged`.
    @inlinable
    public static var identity: ReducerOutcome { .unchanged }

    /// `lhs`'s mutation, then `rhs`'s; `.unchanged` operands vanish.
    @inlinable
    public static func combine(_ lhs: ReducerOutcome, _ rhs: ReducerOutcome) -> ReducerOutcome {
        switch (lhs, rhs) {
        case (.unchanged, _): return rhs
        case (_, .unchanged): return lhs
        case (.mutation(let first), .mutation(let second)): return .mutation(.combine(first, second))
        }
    }

    /// Folds in one pass: `.unchanged` when every operand is, else one flat mutation.
    @inlinable
    public static func mconcat(_ values: [ReducerOutcome]) -> ReducerOutcome {
        var endos: [EndoMut<State>] = []
        for value in values {
            if case .mutation(let endo) = value { endos.append(endo) }
        }
        return endos.isEmpty ? .unchanged : .mutation(.mconcat(endos))
    }
}
