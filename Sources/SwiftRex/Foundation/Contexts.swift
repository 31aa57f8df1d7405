/// What a reaction sees in phase 1, before any mutation: the pre-mutation state and the action's source.
///
/// Deliberately not `Sendable`, so it cannot be captured into the `@Sendable` phase-3 effect
/// closures; copy ``stateBefore`` into a local `let` when an effect needs a before/after comparison.
@MainActor
public struct PreReducerContext<State> {
    /// Who dispatched the action.
    public let source: ActionSource
    /// Reads the state where it lies: calls the body with it (`inout` for its address only: it
    /// must not write) and returns whether there was a state to read. A lift narrows it through
    /// its lanes, so reading one feature's slice never copies the app's state, and testing
    /// whether a focus is present copies nothing.
    @usableFromInline
    internal let inspectState: @MainActor ((inout State) -> Void) -> Bool
    /// Hands out the store's generators (read when asked for).
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
        inspectState = { body in
            guard var state = stateBefore() else { return false }
            body(&state)
            return true
        }
        readGenerators = generators
    }

    /// A context over a reader of the state where it lies (see `inspectState`).
    @inlinable
    internal init(source: ActionSource, generators: @escaping @Sendable () -> StoreGenerators, inspectState: @escaping @MainActor ((inout State) -> Void) -> Bool) {
        self.source = source
        self.inspectState = inspectState
        readGenerators = generators
    }

    /// The state before this action's mutations, or `nil` when the store is gone or a lift's focus is absent.
    @inlinable
    public var stateBefore: State? {
        var state: State?
        _ = inspectState { state = $0 }
        return state
    }

    /// Whether there is a state to read (a lift's focus is present), reading nothing.
    @inlinable
    internal var hasState: Bool { inspectState { _ in } }

    /// The store's injected clock, date and UUID generators (a `TestStore`'s are deterministic):
    /// take a UUID or the date here to put it in the state and hand it to the effect.
    @inlinable
    public var generators: StoreGenerators { readGenerators() }

    /// Narrows the state through a total projection.
    @inlinable
    public func map<Local>(_ transform: @escaping @MainActor (State) -> Local) -> PreReducerContext<Local> {
        let inspect = inspectState
        return PreReducerContext<Local>(source: source, generators: readGenerators) { body in
            inspect { state in
                var local = transform(state)
                body(&local)
            }
        }
    }

    /// Narrows the state through a partial projection (`nil` when the focus is absent).
    @inlinable
    public func compactMap<Local>(_ transform: @escaping @MainActor (State) -> Local?) -> PreReducerContext<Local> {
        let inspect = inspectState
        return PreReducerContext<Local>(source: source, generators: readGenerators) { body in
            var found = false
            _ = inspect { state in
                guard var local = transform(state) else { return }
                found = true
                body(&local)
            }
            return found
        }
    }

    /// Narrows the state through a lane's in-place read (`focus` returns whether the focus is
    /// present): nothing is copied on the way down.
    @inlinable
    internal func focused<Local>(_ focus: @escaping @MainActor @Sendable (inout State, (inout Local) -> Void) -> Bool) -> PreReducerContext<Local> {
        let inspect = inspectState
        return PreReducerContext<Local>(source: source, generators: readGenerators) { body in
            var found = false
            _ = inspect { state in found = focus(&state, body) }
            return found
        }
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
