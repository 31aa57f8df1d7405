/// State of the EndoMut zero-copy scenarios: a scalar and a large payload.
public struct PayloadState: Sendable, Equatable {
    /// Mutated on every operation.
    public var scalar: Int
    /// Large payload; its first element is mutated in place (must never be copied).
    public var payload: [Int]

    /// Creates a state with a `size`-element payload.
    public init(size: Int) {
        scalar = 0
        payload = [Int](repeating: 1, count: max(size, 1))
    }
}

/// The raw control of the zero-copy scenarios: the same mutation written as a
/// plain function on the caller's variable (no closure, no library). It is
/// `@inline(never)` so the loop below cannot be folded into one addition, which
/// would measure the optimiser rather than the mutation.
@inline(never)
public func rawPayloadMutate(_ state: inout PayloadState) {
    state.scalar &+= 1
    state.payload[0] &+= 1
}

/// Runs `rawPayloadMutate` `iterations` times on the caller's variable, in place.
@inline(never)
public func rawPayloadLoop(state: inout PayloadState, iterations: Int) {
    for _ in 0..<iterations { rawPayloadMutate(&state) }
}

/// 64 bytes of inline storage.
public struct Words8: Sendable {
    /// Eight words.
    public var a: UInt64 = 0, b: UInt64 = 0, c: UInt64 = 0, d: UInt64 = 0, e: UInt64 = 0, f: UInt64 = 0, g: UInt64 = 0, h: UInt64 = 0
    /// Zeroes.
    public init() {}
}

/// 512 bytes of inline storage.
public struct Words64: Sendable {
    /// Eight blocks of 64 bytes.
    public var a = Words8(), b = Words8(), c = Words8(), d = Words8(), e = Words8(), f = Words8(), g = Words8(), h = Words8()
    /// Zeroes.
    public init() {}
}

/// 4 KiB of inline storage.
public struct Words512: Sendable {
    /// Eight blocks of 512 bytes.
    public var a = Words64(), b = Words64(), c = Words64(), d = Words64(), e = Words64(), f = Words64(), g = Words64(), h = Words64()
    /// Zeroes.
    public init() {}
}

/// 32 KiB of inline storage.
public struct Words4096: Sendable {
    /// Eight blocks of 4 KiB.
    public var a = Words512(), b = Words512(), c = Words512(), d = Words512(), e = Words512(), f = Words512(), g = Words512(), h = Words512()
    /// Zeroes.
    public init() {}
}

/// A 64 KiB value-type state (no heap storage) for the stack scenarios: a layer that copies
/// the state onto the stack writes ≥ 64 KiB more of it.
public struct BigState: Sendable {
    /// First 32 KiB.
    public var low = Words4096()
    /// Second 32 KiB.
    public var high = Words4096()
    /// Mutated by the stack scenarios' reducers.
    public var count = 0
    /// Zeroes.
    public init() {}
}
