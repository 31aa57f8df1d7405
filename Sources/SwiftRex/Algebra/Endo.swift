/// A value-level endomorphism `(Value) -> Value`.
///
/// A ``Monoid`` under left-to-right composition: ``combine(_:_:)`` applies `lhs` first, then `rhs`
/// (not Haskell's `.` order). Prefer ``EndoMut`` on hot paths: ``toEndoMut()`` assigns the result
/// back, which copies copy-on-write storage when the function builds a new value.
public struct Endo<Value>: Sendable {
    /// The function, or `nil` for the identity.
    @usableFromInline
    internal let body: (@Sendable (Value) -> Value)?

    /// Wraps a pure function from a value to a new value.
    @inlinable
    public init(_ body: @escaping @Sendable (Value) -> Value) {
        self.body = body
    }

    @inlinable
    internal init(optionalBody: (@Sendable (Value) -> Value)?) {
        self.body = optionalBody
    }

    /// Applies the function.
    @inlinable
    public func runEndo(_ value: Value) -> Value {
        guard let body else { return value }
        return body(value)
    }

    /// Applies the function — `endo(value)`.
    @inlinable
    public func callAsFunction(_ value: Value) -> Value {
        runEndo(value)
    }

    /// Converts to an in-place ``EndoMut`` that assigns the result back. The identity stays the identity.
    @inlinable
    public func toEndoMut() -> EndoMut<Value> {
        guard let body else { return .identity }
        return EndoMut { value in value = body(value) }
    }
}

extension Endo: Monoid {
    /// The function `{ $0 }`.
    @inlinable
    public static var identity: Endo { Endo(optionalBody: nil) }

    /// Applies `lhs`, then `rhs`.
    @inlinable
    public static func combine(_ lhs: Endo, _ rhs: Endo) -> Endo {
        guard let first = lhs.body else { return rhs }
        guard let second = rhs.body else { return lhs }
        return Endo { second(first($0)) }
    }

    /// Flattens any number of functions into one loop (identities dropped).
    @inlinable
    public static func mconcat(_ values: [Endo]) -> Endo {
        let bodies = values.compactMap(\.body)
        switch bodies.count {
        case 0: return .identity
        case 1: return Endo(bodies[0])
        default:
            return Endo { value in
                var result = value
                for body in bodies { result = body(result) }
                return result
            }
        }
    }
}
