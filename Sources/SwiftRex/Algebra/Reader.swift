/// A computation that reads an environment: a wrapped `(Environment) -> Output`.
///
/// `map` transforms the output, ``contramapEnvironment(_:)`` adapts the environment. When the output
/// is a ``Monoid`` so is the reader: ``combine(_:_:)`` runs both with the same environment, `lhs`
/// first, and combines the outputs.
public struct Reader<Environment, Output>: Sendable {
    /// The wrapped function.
    public let runReader: @Sendable (Environment) -> Output
    /// Whether this is ``identity`` (of a monoid output): a Store skips such an effect producer
    /// instead of running it for an empty effect and scheduling nothing.
    @usableFromInline
    internal let isIdentity: Bool

    /// Wraps a function of the environment.
    @inlinable
    public init(_ run: @escaping @Sendable (Environment) -> Output) {
        self.runReader = run
        isIdentity = false
    }

    /// Wraps a function of the environment, saying whether it returns the identity of its monoid
    /// output.
    @inlinable
    internal init(run: @escaping @Sendable (Environment) -> Output, isIdentity: Bool) {
        self.runReader = run
        self.isIdentity = isIdentity
    }

    /// Runs the reader — `reader(environment)`.
    @inlinable
    public func callAsFunction(_ environment: Environment) -> Output {
        runReader(environment)
    }

    /// Runs the reader and ends it: a Store's phase 4 calls the producer it owns once, releasing
    /// it after the call instead of retaining a copy around it.
    @inlinable
    internal consuming func runConsumed(_ environment: Environment) -> Output {
        runReader(environment)
    }

    /// A reader that ignores the environment and returns `value`.
    @inlinable
    public static func pure(_ value: Output) -> Reader where Output: Sendable {
        Reader { _ in value }
    }

    /// Transforms the output.
    @inlinable
    public func map<NewOutput>(_ transform: @escaping @Sendable (Output) -> NewOutput) -> Reader<Environment, NewOutput> {
        let run = runReader
        return Reader<Environment, NewOutput> { transform(run($0)) }
    }

    /// Adapts the reader to a wider environment by projecting it down first.
    @inlinable
    public func contramapEnvironment<Wider>(_ project: @escaping @Sendable (Wider) -> Environment) -> Reader<Wider, Output> {
        let run = runReader
        return Reader<Wider, Output> { run(project($0)) }
    }
}

extension Reader: Semigroup where Output: Monoid {
    /// Runs both readers with the same environment, `lhs` first, and combines the outputs (an
    /// ``identity`` side is dropped).
    @inlinable
    public static func combine(_ lhs: Reader, _ rhs: Reader) -> Reader {
        if lhs.isIdentity { return rhs }
        if rhs.isIdentity { return lhs }
        let first = lhs.runReader
        let second = rhs.runReader
        return Reader { environment in Output.combine(first(environment), second(environment)) }
    }
}

extension Reader: Monoid where Output: Monoid {
    /// The reader returning `Output.identity`.
    @inlinable
    public static var identity: Reader { Reader(run: { _ in Output.identity }, isIdentity: true) }

    /// A synonym for ``identity``.
    @inlinable
    public static var doNothing: Reader { identity }

    /// Runs every reader with the same environment, in order, and combines the outputs in one pass
    /// (``identity`` readers are dropped).
    @inlinable
    public static func mconcat(_ values: [Reader]) -> Reader {
        let kept = values.contains(where: \.isIdentity) ? values.filter { !$0.isIdentity } : values
        let runs = kept.map(\.runReader)
        switch runs.count {
        case 0: return identity
        case 1: return kept[0]
        default:
            return Reader { environment in Output.mconcat(runs.map { $0(environment) }) }
        }
    }
}
