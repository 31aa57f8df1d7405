precedencegroup SemigroupCombinePrecedence {
    associativity: left
    higherThan: AssignmentPrecedence
    lowerThan: AdditionPrecedence
}

/// Combines two values of a ``Semigroup`` with ``Semigroup/combine(_:_:)`` — `a <> b`.
infix operator <> : SemigroupCombinePrecedence

/// A type with an associative binary operation: `combine(combine(a, b), c) == combine(a, combine(b, c))`.
public protocol Semigroup: SendableMetatype {
    /// Combines two values; `lhs` comes first wherever order matters.
    static func combine(_ lhs: Self, _ rhs: Self) -> Self

    /// Combines a non-empty list left to right in one pass.
    ///
    /// Conforming types override it to flatten in one O(total) pass instead of folding pairwise.
    static func sconcat(_ first: Self, _ rest: [Self]) -> Self
}

extension Semigroup {
    /// Default: a left fold with ``combine(_:_:)``.
    @inlinable
    public static func sconcat(_ first: Self, _ rest: [Self]) -> Self {
        rest.reduce(first, combine)
    }

    /// `lhs <> rhs` is `combine(lhs, rhs)`.
    @inlinable
    public static func <> (lhs: Self, rhs: Self) -> Self {
        combine(lhs, rhs)
    }
}

/// A ``Semigroup`` with a neutral element: `combine(identity, a) == a == combine(a, identity)`.
public protocol Monoid: Semigroup {
    /// The neutral element of ``Semigroup/combine(_:_:)``.
    static var identity: Self { get }

    /// Combines any number of values left to right; the empty list gives ``identity``.
    ///
    /// Conforming types override it to flatten in one O(total) pass.
    static func mconcat(_ values: [Self]) -> Self
}

extension Monoid {
    /// Default: a left fold from ``identity``.
    @inlinable
    public static func mconcat(_ values: [Self]) -> Self {
        values.reduce(identity, combine)
    }

    /// Variadic spelling of ``mconcat(_:)``.
    @inlinable
    public static func mconcat(_ first: Self, _ rest: Self...) -> Self {
        mconcat([first] + rest)
    }
}
