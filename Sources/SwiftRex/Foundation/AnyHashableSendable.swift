/// A type-erased `Hashable & Sendable` key: the key type of every effect id, channel id, reset key
/// and broadcast value.
///
/// Two keys are equal only when they hold the **same dynamic type** and equal values: there is no
/// bridging, so `1` (Int), `1.0` (Double), `true` and `"1"` are four different keys on every
/// platform. The hash mixes the type identity with the value's hash.
public struct AnyHashableSendable: Hashable, Sendable, CustomStringConvertible {
    /// The wrapped value.
    public let base: any Hashable & Sendable

    /// Wraps a value. Wrapping an `AnyHashableSendable` returns it unchanged (no double wrapping).
    @inlinable
    public init(_ base: some Hashable & Sendable) {
        if let already = base as? AnyHashableSendable {
            self = already
        } else {
            self.base = base
        }
    }

    /// Same dynamic type and equal values.
    public static func == (lhs: AnyHashableSendable, rhs: AnyHashableSendable) -> Bool {
        guard type(of: lhs.base) == type(of: rhs.base) else { return false }
        return Self.isEqual(lhs.base, rhs.base)
    }

    private static func isEqual<T: Hashable>(_ lhs: T, _ rhs: any Hashable) -> Bool {
        guard let rhs = rhs as? T else { return false }
        return lhs == rhs
    }

    /// Mixes the dynamic type's identity with the value's hash.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(type(of: base)))
        base.hash(into: &hasher)
    }

    /// The wrapped value's description.
    public var description: String { String(describing: base) }
}
