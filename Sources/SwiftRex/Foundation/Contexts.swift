/// What a reaction sees in phase 1, before any mutation: the pre-mutation state and the action's source.
///
/// Deliberately not `Sendable`, so it cannot be captured into the `@Sendable` phase-3 effect
/// closures; copy ``stateBefore`` into a local `let` when an effect needs a before/after comparison.
@MainActor
public struct PreReducerContext<State> {
    /// Who dispatched the action.
    public let source: ActionSource
    @usableFromInline
    internal let readState: (@MainActor () -> State?)?
    /// The state itself, when the context was made from a value (no reader to call).
    @usableFromInline
    internal let storedState: State?
    @usableFromInline
    internal let readGenerators: @Sendable () -> StoreGenerators

    /// A context whose state is read through `stateBefore` (live: call it during phase 1 only),
    /// with live generators.
    @inlinable
    public init(source: ActionSource, stateBefore: @escaping @MainActor () -> State?) {
        self.init(source: source, stateBefore: stateBefore, generators: { .live })
    }

    /// A context whose generators are the store's (read when asked for).
    @inlinable
    public init(source: ActionSource, stateBefore: @escaping @MainActor () -> State?, generators: @escaping @Sendable () -> StoreGenerators) {
        self.source = source
        self.readState = stateBefore
        storedState = nil
        readGenerators = generators
    }

    /// A context over a state value already read: phase 1 reads nothing later than now, so a
    /// collection lift hands each element's reaction its element this way, with no closure made
    /// per element.
    @inlinable
    internal init(source: ActionSource, state: State?, generators: @escaping @Sendable () -> StoreGenerators) {
        self.source = source
        readState = nil
        storedState = state
        readGenerators = generators
    }

    /// The state before this action's mutations, or `nil` when the store is gone or a lift's focus is absent.
    @inlinable
    public var stateBefore: State? { readState.map { $0() } ?? storedState }

    /// The store's injected clock, date and UUID generators (a `TestStore`'s are deterministic):
    /// take a UUID or the date here to put it in the state and hand it to the effect.
    @inlinable
    public var generators: StoreGenerators { readGenerators() }

    /// Narrows the state through a total projection.
    @inlinable
    public func map<Local>(_ transform: @escaping @MainActor (State) -> Local) -> PreReducerContext<Local> {
        guard let read = readState else { return PreReducerContext<Local>(source: source, state: storedState.map(transform), generators: readGenerators) }
        return PreReducerContext<Local>(source: source, stateBefore: { read().map(transform) }, generators: readGenerators)
    }

    /// Narrows the state through a partial projection (`nil` when the focus is absent).
    @inlinable
    public func compactMap<Local>(_ transform: @escaping @MainActor (State) -> Local?) -> PreReducerContext<Local> {
        guard let read = readState else { return PreReducerContext<Local>(source: source, state: storedState.flatMap(transform), generators: readGenerators) }
        return PreReducerContext<Local>(source: source, stateBefore: { read().flatMap(transform) }, generators: readGenerators)
    }
}

// A main-actor-isolated struct is implicitly `Sendable` (SE-0434); opt out explicitly so the
// compiler really does reject capturing the pre-context into a `@Sendable` phase-3 closure.
@available(*, unavailable)
extension PreReducerContext: Sendable {}

/// What an effect reader sees in phase 3, after the mutations: the environment and the committed state.
public struct PostReducerContext<State, Environment> {
    /// The store's environment (dependencies).
    public let environment: Environment
    /// The store's injected clock, date and UUID generators.
    public let generators: StoreGenerators
    @usableFromInline
    internal let readState: @MainActor @Sendable () -> State?

    /// A context over an environment, a live state reader and the store's generators.
    @inlinable
    public init(environment: Environment, liveState: @escaping @MainActor @Sendable () -> State?, generators: StoreGenerators = .live) {
        self.environment = environment
        self.readState = liveState
        self.generators = generators
    }

    /// The store's current state: this action's post-mutation state when read synchronously inside
    /// the reader, whatever the store holds later after an async hop, `nil` once the store is gone.
    @MainActor
    @inlinable
    public var liveState: State? { readState() }

    /// Narrows the state through a total projection.
    @inlinable
    public func map<Local>(_ transform: @escaping @MainActor @Sendable (State) -> Local) -> PostReducerContext<Local, Environment> {
        let read = readState
        return PostReducerContext<Local, Environment>(environment: environment, liveState: { read().map(transform) }, generators: generators)
    }

    /// Narrows the state through a partial projection.
    @inlinable
    public func compactMap<Local>(_ transform: @escaping @MainActor @Sendable (State) -> Local?) -> PostReducerContext<Local, Environment> {
        let read = readState
        return PostReducerContext<Local, Environment>(environment: environment, liveState: { read().flatMap(transform) }, generators: generators)
    }

    /// Narrows the environment.
    @inlinable
    public func mapEnvironment<Local>(_ transform: (Environment) -> Local) -> PostReducerContext<State, Local> {
        PostReducerContext<State, Local>(environment: transform(environment), liveState: readState, generators: generators)
    }
}

extension PostReducerContext: Sendable where Environment: Sendable {}
