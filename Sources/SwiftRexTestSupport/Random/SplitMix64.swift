/// A small, fast, seeded random number generator (Steele, Lea & Flood's SplitMix64).
///
/// The same seed always yields the same sequence on every platform, so generated test inputs are
/// reproducible: report the seed with a failure and the failure replays.
///
/// ```swift
/// var rng = SplitMix64(seed: 42)
/// let n = Int.random(in: 0..<10, using: &rng)
/// ```
public struct SplitMix64: RandomNumberGenerator, Sendable {
    /// The internal state; advancing it is the whole algorithm.
    public private(set) var state: UInt64

    /// A generator whose sequence is fully determined by `seed`.
    public init(seed: UInt64) {
        self.state = seed
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed &>> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed &>> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed &>> 31)
    }
}
