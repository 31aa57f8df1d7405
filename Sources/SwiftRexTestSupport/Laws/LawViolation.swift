/// One failed instance of an algebraic law, naming the law and the sample indices that broke it.
public struct LawViolation: Sendable, Equatable, CustomStringConvertible {
    /// The laws the checkers in ``MonoidLaws`` test.
    public enum Law: String, Sendable, Equatable, CaseIterable {
        /// `combine(combine(a, b), c) == combine(a, combine(b, c))`.
        case associativity
        /// `combine(identity, a) == a`.
        case leftIdentity
        /// `combine(a, identity) == a`.
        case rightIdentity
        /// `mconcat(values) == values.reduce(identity, combine)` (the one-pass fold agrees with the pairwise one).
        case mconcatMatchesFold
        /// `sconcat(first, rest) == rest.reduce(first, combine)`.
        case sconcatMatchesFold
        /// The unchanged law: a fold of ``SwiftRex/ReducerOutcome`` values is `.unchanged` iff every operand is.
        case unchangedIffEveryOperandUnchanged
    }

    /// The law that failed.
    public let law: Law
    /// The indices, into the checked samples, of the operands that broke it.
    public let operands: [Int]

    /// A violation of `law` by the samples at `operands`.
    public init(law: Law, operands: [Int]) {
        self.law = law
        self.operands = operands
    }

    /// `associativity violated by samples [0, 2, 1]`.
    public var description: String {
        "\(law.rawValue) violated by samples \(operands)"
    }
}
