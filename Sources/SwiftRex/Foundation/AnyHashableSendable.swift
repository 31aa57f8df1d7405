/// A type-erased `Hashable & Sendable` key: the key type of every effect id, channel id, reset key
/// and broadcast value.
///
/// Two keys are equal only when they hold the **same dynamic type** and equal values: there is no
/// bridging, so `1` (Int), `1.0` (Double), `true` and `"1"` are four different keys on every
/// platform. The hash mixes the type identity with the value's hash.
///
/// The hash is computed once, when the key is made: a dictionary lookup hashes one integer, and
/// equality compares hashes and type identities before it reaches the `AnyHashable` box (whose
/// comparison instantiates generic metadata at run time), so reconciling thousands of channel
/// keys stays cheap.
public struct AnyHashableSendable: Hashable, @unchecked Sendable, CustomStringConvertible {
    // `@unchecked`: `erased` only ever wraps a `Sendable` value (see the initialiser).
    @usableFromInline let erased: AnyHashable
    @usableFromInline let type: ObjectIdentifier
    /// The type identity and value hash, mixed once at creation (per-process seed, like `Hasher`).
    @usableFromInline let cachedHash: Int

    /// Wraps a value. Wrapping an `AnyHashableSendable` returns it unchanged (no double wrapping).
    @inlinable
    public init(_ base: some Hashable & Sendable) {
        if let already = base as? AnyHashableSendable {
            self = already
        } else {
            let erased = AnyHashable(base)
            let type = ObjectIdentifier(Swift.type(of: base))
            var hasher = Hasher()
            hasher.combine(type)
            hasher.combine(erased)
            self.erased = erased
            self.type = type
            cachedHash = hasher.finalize()
        }
    }

    /// The wrapped value.
    public var base: any Hashable & Sendable {
        // Only Sendable values are ever wrapped.
        erased.base as! any Hashable & Sendable
    }

    /// Same dynamic type and equal values.
    @inlinable
    public static func == (lhs: AnyHashableSendable, rhs: AnyHashableSendable) -> Bool {
        lhs.cachedHash == rhs.cachedHash && lhs.type == rhs.type && lhs.erased == rhs.erased
    }

    /// Feeds the hash computed at creation (the dynamic type's identity mixed with the value's hash).
    @inlinable
    public func hash(into hasher: inout Hasher) {
        hasher.combine(cachedHash)
    }

    /// The wrapped value's description.
    public var description: String { String(describing: erased.base) }
}
