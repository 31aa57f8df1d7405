/// An in-place endomorphism: a function that mutates a value through `inout`.
///
/// `EndoMut` is the currency of state change. Running it on a uniquely referenced value never
/// copies copy-on-write storage. It is a ``Monoid``: ``combine(_:_:)`` runs `lhs` then `rhs` on the
/// same value (so `rhs` sees `lhs`'s writes) and ``identity`` does nothing — and is not even a
/// closure, so identities vanish from compositions.
///
/// ```swift
/// let increment = EndoMut<Int> { $0 += 1 }
/// var n = 1
/// increment(&n)   // n == 2
/// ```
public struct EndoMut<Value>: Sendable {
    /// The mutation, or `nil` for the identity.
    @usableFromInline
    internal let body: (@Sendable (inout Value) -> Void)?

    /// Wraps an in-place mutation.
    @inlinable
    public init(_ body: @escaping @Sendable (inout Value) -> Void) {
        self.body = body
    }

    @inlinable
    internal init(optionalBody: (@Sendable (inout Value) -> Void)?) {
        self.body = optionalBody
    }

    /// Whether this is the identity (a mutation that does nothing and is skipped entirely).
    @inlinable
    public var isIdentity: Bool { body == nil }

    /// Runs the mutation on `value` in place.
    @inlinable
    public func runEndoMut(_ value: inout Value) {
        body?(&value)
    }

    /// Runs the mutation on `value` in place — `endo(&value)`.
    @inlinable
    public func callAsFunction(_ value: inout Value) {
        body?(&value)
    }

    /// Converts to a value-level ``Endo`` (one copy of the value per call, by construction).
    @inlinable
    public func toEndo() -> Endo<Value> {
        guard let body else { return .identity }
        return Endo { value in
            var copy = value
            body(&copy)
            return copy
        }
    }
}

extension EndoMut: Monoid {
    /// The mutation that does nothing.
    @inlinable
    public static var identity: EndoMut { EndoMut(optionalBody: nil) }

    /// Runs `lhs`, then `rhs`, on the same value. An identity operand returns the other unchanged.
    @inlinable
    public static func combine(_ lhs: EndoMut, _ rhs: EndoMut) -> EndoMut {
        guard let first = lhs.body else { return rhs }
        guard let second = rhs.body else { return lhs }
        return EndoMut { value in
            first(&value)
            second(&value)
        }
    }

    /// Flattens any number of mutations into one loop over a flat array (identities dropped).
    @inlinable
    public static func mconcat(_ values: [EndoMut]) -> EndoMut {
        let bodies = values.compactMap(\.body)
        switch bodies.count {
        case 0: return .identity
        case 1: return EndoMut(bodies[0])
        default:
            return EndoMut { value in
                for body in bodies { body(&value) }
            }
        }
    }

    /// Flattens a non-empty list in one pass.
    @inlinable
    public static func sconcat(_ first: EndoMut, _ rest: [EndoMut]) -> EndoMut {
        mconcat([first] + rest)
    }
}
