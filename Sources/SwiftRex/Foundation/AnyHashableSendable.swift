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
    /// The value itself when it is an `Int` or a `String` (the usual ids): two such keys compare
    /// directly, without `AnyHashable`'s dynamic unboxing (hundreds of instructions a comparison).
    @usableFromInline let direct: Direct

    @usableFromInline
    enum Direct: Sendable {
        case none
        case int(Int)
        case string(String)
    }

    /// Wraps a value. Wrapping an `AnyHashableSendable` returns it unchanged (no double wrapping).
    @inlinable
    public init(_ base: some Hashable & Sendable) {
        if let already = base as? AnyHashableSendable {
            self = already
        } else {
            // A value larger than an existential's inline buffer is held by reference: see
            // `LargeHashableKey`. The size test folds to a constant for the concrete type.
            let erased = MemoryLayout.size(ofValue: base) > LargeHashableKeyThreshold.bytes
                ? AnyHashable(LargeHashableKey(base))
                : AnyHashable(base)
            let type = ObjectIdentifier(Swift.type(of: base))
            var hasher = Hasher()
            hasher.combine(type)
            // The value's own hash, not `erased`'s: hashing an `AnyHashable` first casts its value
            // to find a custom representation, which allocates a box for any value larger than
            // three words (an element-scoped id), on every creation. Equal keys have the same
            // dynamic type, whose own `==` and `hash(into:)` agree.
            hasher.combine(base)
            self.erased = erased
            self.type = type
            cachedHash = hasher.finalize()
            // Specialised at the call site: each cast folds to a constant for the concrete type.
            if let value = base as? Int {
                direct = .int(value)
            } else if let value = base as? String {
                direct = .string(value)
            } else {
                direct = .none
            }
        }
    }

    /// The wrapped value.
    public var base: any Hashable & Sendable {
        let value = erased.base
        if let large = value as? any LargeKeyUnwrapping { return large.unwrapped }
        // Only Sendable values are ever wrapped.
        return value as! any Hashable & Sendable
    }

    /// Same dynamic type and equal values.
    @inlinable
    public static func == (lhs: AnyHashableSendable, rhs: AnyHashableSendable) -> Bool {
        guard lhs.cachedHash == rhs.cachedHash, lhs.type == rhs.type else { return false }
        switch (lhs.direct, rhs.direct) {
        case (.int(let left), .int(let right)): return left == right
        case (.string(let left), .string(let right)): return left == right
        default: return lhs.erased == rhs.erased
        }
    }

    /// Whether the keys at `lhs` and `rhs` are equal (`==`), compared in place: no copy of either
    /// key, so a loop over stored keys does no reference counting for `Int` and `String` keys.
    @inlinable
    static func equal(_ lhs: UnsafePointer<AnyHashableSendable>, _ rhs: UnsafePointer<AnyHashableSendable>) -> Bool {
        guard lhs.pointee.cachedHash == rhs.pointee.cachedHash, lhs.pointee.type == rhs.pointee.type else { return false }
        if case .int(let left) = lhs.pointee.direct, case .int(let right) = rhs.pointee.direct { return left == right }
        return lhs.pointee == rhs.pointee
    }

    /// Whether the optional keys at `lhs` and `rhs` are equal, compared in place.
    @inlinable
    static func equal(_ lhs: UnsafePointer<AnyHashableSendable?>, _ rhs: UnsafePointer<AnyHashableSendable?>) -> Bool {
        switch (lhs.pointee == nil, rhs.pointee == nil) {
        case (true, true): return true
        case (false, false):
            return UnsafeRawPointer(lhs).withMemoryRebound(to: AnyHashableSendable.self, capacity: 1) { left in
                UnsafeRawPointer(rhs).withMemoryRebound(to: AnyHashableSendable.self, capacity: 1) { right in equal(left, right) }
            }
        default: return false
        }
    }

    /// Feeds the hash computed at creation (the dynamic type's identity mixed with the value's hash).
    @inlinable
    public func hash(into hasher: inout Hasher) {
        hasher.combine(cachedHash)
    }

    /// The wrapped value's description.
    public var description: String { String(describing: base) }
}

/// The size above which a key's value is held by reference inside `AnyHashableSendable.erased`:
/// an existential's inline buffer (three words).
@usableFromInline
internal enum LargeHashableKeyThreshold {
    @inlinable static var bytes: Int { 3 &* MemoryLayout<Int>.size }
}

/// Unwraps a `LargeHashableKey` without knowing its value type.
@usableFromInline
internal protocol LargeKeyUnwrapping {
    /// The wrapped value.
    var unwrapped: any Hashable & Sendable { get }
}

/// A key value too large for an existential's inline buffer (an element-scoped id), held by
/// reference inside `AnyHashable`. `AnyHashable` looks for a custom representation each time it
/// compares or hashes its value, by casting the value to an existential: for a value larger than
/// three words that cast allocates a heap box, twice per comparison. A reference fits inline, so
/// comparing two such keys allocates nothing; the price is this one object when the key is made
/// (where `AnyHashable` would have boxed the value anyway).
@usableFromInline
internal final class LargeHashableKey<Value: Hashable & Sendable>: Hashable, Sendable, LargeKeyUnwrapping {
    @usableFromInline let value: Value

    @inlinable init(_ value: Value) { self.value = value }

    @inlinable static func == (lhs: LargeHashableKey, rhs: LargeHashableKey) -> Bool {
        lhs === rhs || lhs.value == rhs.value
    }

    @inlinable func hash(into hasher: inout Hasher) { hasher.combine(value) }

    @usableFromInline var unwrapped: any Hashable & Sendable { value }
}
