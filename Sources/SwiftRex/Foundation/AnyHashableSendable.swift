// One of the library's files with unsafe code: a short string's bytes are copied into two words
// in one move (`words(ofShortASCII:)`), from a buffer valid for the call, or read as the string's
// own two words when it is stored inline (`words(ofSmallASCII:)`).

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
    // `@unchecked`: `Direct.other` only ever wraps a `Sendable` value (see the initialiser).
    @usableFromInline let type: ObjectIdentifier
    /// The type identity and value hash, mixed once at creation (per-process seed, like `Hasher`).
    @usableFromInline let cachedHash: Int
    /// The value: `Int`, `String` and the library's own ids as they are, any other value behind a
    /// reference. Every case is a plain value or a reference, so a key copies with at most one
    /// retain and compares without reaching `AnyHashable`'s dynamic unboxing (costly on every
    /// comparison).
    @usableFromInline let direct: Direct

    @usableFromInline
    enum Direct: Sendable {
        case int(Int)
        case string(String)
        /// A collection element's effect or channel id, held by reference: comparing two of them
        /// compares their fields directly, where `AnyHashable` would unbox and copy the whole id
        /// (on every comparison in a dictionary of element channels).
        case scoped(ScopedKey)
        /// The private registration of an id-less effect.
        case anonymous(UInt64)
        /// Any other value, as an `AnyHashable` behind a reference.
        case other(ErasedKey)
    }

    /// An `ElementEffectID` behind a reference: copying the key copies one reference, and equal
    /// references are equal ids without looking inside.
    @usableFromInline
    final class ScopedKey: Hashable, Sendable {
        @usableFromInline let value: ElementEffectID

        @inlinable init(_ value: ElementEffectID) { self.value = value }

        @inlinable static func == (lhs: ScopedKey, rhs: ScopedKey) -> Bool { lhs === rhs || lhs.value == rhs.value }

        @inlinable func hash(into hasher: inout Hasher) { hasher.combine(value) }

        /// Whether this is the key of effect `inner` under `site`, whatever the element: the
        /// fields are compared where they lie, not copied out.
        @inlinable func names(_ inner: AnyHashableSendable, site: LiftSite) -> Bool { value.inner == inner && value.site == site }
    }

    /// Any other key's value behind a reference: an `AnyHashable` is an existential, which would
    /// make every copy of a key go through the runtime's generic value witnesses.
    @usableFromInline
    final class ErasedKey: @unchecked Sendable {
        // `@unchecked`: it only ever wraps a `Sendable` value (see the initialiser).
        @usableFromInline let value: AnyHashable

        @inlinable init(_ value: AnyHashable) { self.value = value }
    }

    /// Wraps a value. Wrapping an `AnyHashableSendable` returns it unchanged (no double wrapping).
    ///
    /// `Int`, `String` and element ids are held as they are, without an `AnyHashable`: making one
    /// asks the runtime for a custom representation, a costly call per key. Specialised
    /// at the call site, each cast below folds to a constant for the concrete type.
    @inlinable
    public init(_ base: some Hashable & Sendable) {
        if let already = base as? AnyHashableSendable {
            self = already
            return
        }
        // The dynamic type, even when a cast succeeds: no bridging (an `NSNumber` is not an `Int` key).
        type = ObjectIdentifier(Swift.type(of: base))
        if let value = base as? Int {
            cachedHash = KeyMixing.hash(UInt64(UInt(bitPattern: value)), 0, type: type)
            direct = .int(value)
            return
        }
        if let value = base as? String, let hash = KeyMixing.hash(ofShortASCII: value, type: type) {
            cachedHash = hash
            direct = .string(value)
            return
        }
        if let value = base as? String, let hash = KeyMixing.hash(ofASCIIEquivalent: value, type: type) {
            // Equal (canonically equivalent) to a short ASCII string: hashed as that string is.
            cachedHash = hash
            direct = .string(value)
            return
        }
        var hasher = Hasher()
        hasher.combine(type)
        if let value = base as? String {
            hasher.combine(value)
            direct = .string(value)
        } else if let value = base as? ElementEffectID {
            hasher.combine(value)
            direct = .scoped(ScopedKey(value))
        } else if let value = base as? AnonymousEffectKey {
            hasher.combine(value.value)
            direct = .anonymous(value.value)
        } else {
            let erased = AnyHashable(base)
            hasher.combine(erased)
            direct = .other(ErasedKey(erased))
        }
        cachedHash = hasher.finalize()
    }

    /// The wrapped value.
    public var base: any Hashable & Sendable {
        switch direct {
        case .int(let value): return value
        case .string(let value): return value
        case .scoped(let key): return key.value
        case .anonymous(let value): return AnonymousEffectKey(value: value)
        // Only Sendable values are ever wrapped.
        case .other(let key): return key.value.base as! any Hashable & Sendable
        }
    }

    /// Same dynamic type and equal values.
    @inlinable
    public static func == (lhs: AnyHashableSendable, rhs: AnyHashableSendable) -> Bool {
        guard lhs.cachedHash == rhs.cachedHash, lhs.type == rhs.type else { return false }
        switch (lhs.direct, rhs.direct) {
        case (.int(let left), .int(let right)): return left == right
        case (.string(let left), .string(let right)): return left == right
        case (.scoped(let left), .scoped(let right)): return left == right
        case (.anonymous(let left), .anonymous(let right)): return left == right
        case (.other(let left), .other(let right)): return left === right || left.value == right.value
        // Equal types hold the same case.
        default: return false
        }
    }

    /// Feeds the hash computed at creation (the dynamic type's identity mixed with the value's hash).
    @inlinable
    public func hash(into hasher: inout Hasher) {
        hasher.combine(cachedHash)
    }

    /// The hash a dictionary or set places this key by: the hash computed at creation, already
    /// mixed, keyed with the table's seed in one multiply instead of a whole `Hasher` pass (every
    /// lookup in the effect registry and the channel tables hashes a key).
    @inlinable
    public func _rawHashValue(seed: Int) -> Int {
        KeyMixing.rehash(cachedHash, seed: seed)
    }

    /// The wrapped value's description.
    public var description: String { String(describing: base) }
}

/// A key that never equals a user id: the private registration of an id-less component.
@usableFromInline
internal struct AnonymousEffectKey: Hashable, Sendable {
    @usableFromInline let value: UInt64

    @inlinable
    init(value: UInt64) { self.value = value }
}

/// The hash of an `Int` key or a short ASCII `String` key, mixed from its bits with a seed drawn
/// once per process (from `Hasher`, so `SWIFT_DETERMINISTIC_HASHING` fixes it too): `Hasher`
/// costs far more for such a key, which a search-style effect recreates with every
/// query. A dictionary keys the cached hash with its own seed in `rehash(_:seed:)`.
@usableFromInline
internal enum KeyMixing {
    /// The per-process seed.
    @usableFromInline static let seed: UInt64 = {
        var hasher = Hasher()
        hasher.combine(0x5EED_5EED as UInt64)
        return UInt64(UInt(bitPattern: hasher.finalize()))
    }()

    /// A key's cached hash keyed with a hash table's `seed`, for the table's buckets: one
    /// full-width multiply, folded. The cached hash is already mixed; the seed keeps tables of
    /// different seeds from ordering their buckets alike.
    @inlinable
    static func rehash(_ hash: Int, seed: Int) -> Int {
        let product = (UInt64(UInt(bitPattern: hash)) ^ UInt64(UInt(bitPattern: seed))).multipliedFullWidth(by: 0x9E37_79B9_7F4A_7C15)
        return Int(bitPattern: UInt(product.high ^ product.low))
    }

    /// Two words and the key's type mixed into a hash: two rounds of a full-width multiply of
    /// the words, each folded and keyed with the seed. The words are folded in again after the
    /// first product, which is zero whenever one factor is, whatever the other word holds.
    @inlinable
    static func hash(_ first: UInt64, _ second: UInt64, type: ObjectIdentifier) -> Int {
        let seed = Self.seed
        let typeBits = UInt64(UInt(bitPattern: type))
        let once = (first ^ seed ^ 0xA076_1D64_78BD_642F).multipliedFullWidth(by: second ^ typeBits ^ 0xE703_7ED1_A0B4_28DB)
        let folded = once.high ^ once.low ^ first ^ second
        let twice = (folded ^ seed).multipliedFullWidth(by: 0x8EBC_6AF0_9C88_C6E3)
        return Int(bitPattern: UInt(twice.high ^ twice.low))
    }

    /// The hash of a string of at most 15 ASCII bytes, from its bytes and length; `nil` for any
    /// other string. ASCII only: two such strings are equal exactly when their bytes are
    /// (`String` equality is Unicode canonical equivalence, which other bytes can satisfy with
    /// different bytes). A non-ASCII string equal to such a string goes through
    /// ``hash(ofASCIIEquivalent:type:)``; every other string through `Hasher`.
    @inlinable
    static func hash(ofShortASCII string: String, type: ObjectIdentifier) -> Int? {
        if let words = words(ofSmallASCII: string) { return hash(words.0, words.1, type: type) }
        // Every other string is read through the same path whatever its storage (one not stored
        // contiguously is copied first), so equal strings always get equal hashes.
        let words =
            string.utf8.withContiguousStorageIfAvailable(words(ofShortASCII:))
            ?? {
                var copy = string
                return copy.withUTF8(words(ofShortASCII:))
            }()
        guard let words else { return nil }
        return hash(words.0, words.1, type: type)
    }

    /// The hash of a non-ASCII string canonically equivalent to a string of at most 15 ASCII
    /// bytes (the same value as that string's), or `nil`. A string equals an ASCII string exactly
    /// when its canonical decomposition is that ASCII string, and decomposition works scalar by
    /// scalar: only three non-ASCII scalars decompose to ASCII, each to one byte (U+037E GREEK
    /// QUESTION MARK to `;`, U+1FEF GREEK VARIA to a backtick, U+212A KELVIN SIGN to `K`). So the
    /// string is read scalar by scalar, those three replaced, and given up at the first other
    /// non-ASCII scalar or the 16th byte. Only strings `hash(ofShortASCII:type:)` refused get here.
    @usableFromInline
    static func hash(ofASCIIEquivalent string: String, type: ObjectIdentifier) -> Int? {
        var words: (UInt64, UInt64) = (0, 0)
        var count = 0
        for scalar in string.unicodeScalars {
            let byte: UInt8
            switch scalar.value {
            case 0..<0x80: byte = UInt8(scalar.value)
            case 0x037E: byte = UInt8(ascii: ";")
            case 0x1FEF: byte = UInt8(ascii: "`")
            case 0x212A: byte = UInt8(ascii: "K")
            default: return nil
            }
            guard count < 15 else { return nil }
            place(byte, at: count, in: &words)
            count += 1
        }
        return hash(words.0, words.1 | UInt64(count) << 56, type: type)
    }

    /// The words ``words(ofShortASCII:)`` gives for `string` when it is stored inline (a small
    /// ASCII string: at most 15 bytes, kept in its own two words, zero-filled, the top byte
    /// holding its form and count), read without copying its bytes; `nil` for any other storage.
    /// Invariant: the standard library's string layout on 64-bit little-endian platforms, where
    /// a top nibble of `0xE` marks exactly the small ASCII form.
    @inlinable @inline(__always)
    static func words(ofSmallASCII string: String) -> (UInt64, UInt64)? {
        #if _pointerBitWidth(_64) && _endian(little)
        let raw = unsafeBitCast(string, to: (UInt64, UInt64).self)
        let top = raw.1 &>> 56
        guard top & 0xF0 == 0xE0 else { return nil }
        return (raw.0, (raw.1 & 0x00FF_FFFF_FFFF_FFFF) | (top & 0x0F) &<< 56)
        #else
        return nil
        #endif
    }

    /// The bytes of a UTF-8 string of at most 15 bytes in two words (zero-filled, as ``place(_:at:in:)``
    /// lays them out), its length in the last byte (which no such string fills), or `nil` when it is
    /// longer or not ASCII. Copied in one move: byte by byte, hashing an id cost several times more.
    /// Invariant: `bytes` is valid for the call, and at most 16 bytes are written into `words`.
    @inlinable
    static func words(ofShortASCII bytes: UnsafeBufferPointer<UInt8>) -> (UInt64, UInt64)? {
        guard bytes.count <= 15 else { return nil }
        var words: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &words) { $0.copyMemory(from: UnsafeRawBufferPointer(bytes)) }
        #if _endian(big)
        words = (words.0.byteSwapped, words.1.byteSwapped)
        #endif
        guard (words.0 | words.1) & 0x8080_8080_8080_8080 == 0 else { return nil }
        return (words.0, words.1 | UInt64(bytes.count) << 56)
    }

    /// Puts `byte` as byte `index` (0 to 14) of two words: the first eight in the first word, the
    /// rest in the second, lowest byte first. The last byte of the second word is left for the length.
    @inlinable @inline(__always)
    static func place(_ byte: UInt8, at index: Int, in words: inout (UInt64, UInt64)) {
        if index < 8 {
            words.0 |= UInt64(byte) &<< UInt64(index &* 8)
        } else {
            words.1 |= UInt64(byte) &<< UInt64((index &- 8) &* 8)
        }
    }
}
