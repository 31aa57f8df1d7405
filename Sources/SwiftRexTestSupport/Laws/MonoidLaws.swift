import SwiftRex

/// Generic checkers for the ``SwiftRex/Monoid`` laws, by observational equality
/// (<doc:Composition#Observational-equality-and-the-laws>).
///
/// Each checker returns every violation it finds (an empty array means the laws hold on the
/// samples). Associativity is checked on every ordered triple of samples, identities on every
/// sample, and the one-pass `mconcat`/`sconcat` overrides against the pairwise fold.
///
/// ```swift
/// var rng = SplitMix64(seed: 7)
/// let samples = (0..<6).map { _ in randomEndoMut(using: &rng) }
/// #expect(MonoidLaws.check(endoMuts: samples, on: [0, 1, -3]).isEmpty)
/// ```
public enum MonoidLaws {
    /// Checks associativity, both identities and the `mconcat`/`sconcat` folds, comparing values with `equal`.
    public static func check<M: Monoid>(_ samples: [M], equal: (M, M) -> Bool) -> [LawViolation] {
        checkAssociativity(samples, equal: equal)
            + checkIdentity(samples, equal: equal)
            + checkFolds(samples, equal: equal)
    }

    /// Checks the laws, comparing values by an `Equatable` observation of each.
    public static func check<M: Monoid, Observation: Equatable>(_ samples: [M], observe: (M) -> Observation) -> [LawViolation] {
        check(samples) { observe($0) == observe($1) }
    }

    /// Checks `combine(combine(a, b), c) == combine(a, combine(b, c))` for every ordered triple.
    public static func checkAssociativity<M: Semigroup>(_ samples: [M], equal: (M, M) -> Bool) -> [LawViolation] {
        var violations: [LawViolation] = []
        for i in samples.indices {
            for j in samples.indices {
                let leftPair = M.combine(samples[i], samples[j])
                for k in samples.indices {
                    let left = M.combine(leftPair, samples[k])
                    let right = M.combine(samples[i], M.combine(samples[j], samples[k]))
                    if !equal(left, right) { violations.append(LawViolation(law: .associativity, operands: [i, j, k])) }
                }
            }
        }
        return violations
    }

    /// Checks `combine(identity, a) == a` and `combine(a, identity) == a` for every sample.
    public static func checkIdentity<M: Monoid>(_ samples: [M], equal: (M, M) -> Bool) -> [LawViolation] {
        var violations: [LawViolation] = []
        for i in samples.indices {
            if !equal(M.combine(.identity, samples[i]), samples[i]) {
                violations.append(LawViolation(law: .leftIdentity, operands: [i]))
            }
            if !equal(M.combine(samples[i], .identity), samples[i]) {
                violations.append(LawViolation(law: .rightIdentity, operands: [i]))
            }
        }
        return violations
    }

    /// Checks that `mconcat` and `sconcat` agree with the pairwise left fold, on the empty list, on
    /// every prefix of the samples, and on the samples with an identity between every two of them.
    public static func checkFolds<M: Monoid>(_ samples: [M], equal: (M, M) -> Bool) -> [LawViolation] {
        var violations: [LawViolation] = []
        if !equal(M.mconcat([]), .identity) {
            violations.append(LawViolation(law: .mconcatMatchesFold, operands: []))
        }
        for end in samples.indices {
            let prefix = Array(samples[...end])
            let fold = prefix.reduce(M.identity, M.combine)
            if !equal(M.mconcat(prefix), fold) {
                violations.append(LawViolation(law: .mconcatMatchesFold, operands: Array(prefix.indices)))
            }
            if !equal(M.sconcat(prefix[0], Array(prefix.dropFirst())), fold) {
                violations.append(LawViolation(law: .sconcatMatchesFold, operands: Array(prefix.indices)))
            }
        }
        let interleaved = samples.flatMap { [$0, M.identity] }
        if !equal(M.mconcat(interleaved), samples.reduce(M.identity, M.combine)) {
            violations.append(LawViolation(law: .mconcatMatchesFold, operands: Array(samples.indices)))
        }
        return violations
    }
}
