/// What a reaction sees in phase 1, before any mutation: the pre-mutation state and the action's source.
///
/// Deliberately not `Sendable`, so it cannot be captured into the `@Sendable` phase-3 effect
/// closures; copy ``stateBefore`` into a local `let` when an effect needs a before/after comparison.
@MainActor
public struct PreReducerContext<State> {
    /// Reads the source, the state and the generators: one reference, so a Store's dispatch
    /// builds its context from the reader the Store keeps, without copying the source.
    @usableFromInline
    internal let reader: PreReducerStateReader<State>

    /// A context whose state is read through `stateBefore` (live: call it during phase 1 only),
    /// with live generators.
    @inlinable
    public init(source: ActionSource, stateBefore: @escaping @MainActor () -> State?) {
        self.init(source: source, stateBefore: stateBefore, generators: { .live })
    }

    /// A context whose generators are the store's (read when asked for).
    @inlinable
    public init(source: ActionSource, stateBefore: @escaping @MainActor () -> State?, generators: @escaping @Sendable () -> StoreGenerators) {
        reader = StateBeforeReader(source: source, stateBefore: stateBefore, generators: generators)
    }

    /// A context over a reader of the state where it lies (see `inspectState(_:)`).
    @inlinable
    internal init(
        source: ActionSource, generators: @escaping @Sendable () -> StoreGenerators,
        inspectState: @escaping @MainActor ((inout State) -> Void) -> Bool
    ) {
        reader = InspectingStateReader(source: source, inspectState: inspectState, generators: generators)
    }

    /// A context over `reader`.
    @inlinable
    internal init(reader: PreReducerStateReader<State>) {
        self.reader = reader
    }

    /// Who dispatched the action.
    @inlinable
    public var source: ActionSource { reader.source }

    /// Reads the state where it lies: calls `body` with it (`inout` for its address only: it must
    /// not write) and returns whether there was a state to read. A lift narrows it through its
    /// lanes, so reading one feature's slice never copies the app's state, and testing whether a
    /// focus is present copies nothing.
    @inlinable
    internal func inspectState(_ body: (inout State) -> Void) -> Bool {
        reader.inspect(body)
    }

    /// Hands out the store's generators (read when asked for).
    @inlinable
    internal var readGenerators: @Sendable () -> StoreGenerators { reader.readGenerators }

    /// The state before this action's mutations, or `nil` when the store is gone or a lift's focus is absent.
    @inlinable
    public var stateBefore: State? {
        var state: State?
        _ = reader.inspect { state = $0 }
        return state
    }

    /// Whether there is a state to read (a lift's focus is present), reading nothing.
    @inlinable
    internal var hasState: Bool { reader.inspect { _ in } }

    /// The store's injected clock, date and UUID generators (a `TestStore`'s are deterministic):
    /// take a UUID or the date here to put it in the state and hand it to the effect.
    @inlinable
    public var generators: StoreGenerators { reader.readGenerators() }

    /// Narrows the state through a total projection.
    @inlinable
    public func map<Local>(_ transform: @escaping @MainActor (State) -> Local) -> PreReducerContext<Local> {
        PreReducerContext<Local>(reader: NarrowedStateReader(parent: reader, narrowing: .total(transform)))
    }

    /// Narrows the state through a partial projection (`nil` when the focus is absent).
    @inlinable
    public func compactMap<Local>(_ transform: @escaping @MainActor (State) -> Local?) -> PreReducerContext<Local> {
        PreReducerContext<Local>(reader: NarrowedStateReader(parent: reader, narrowing: .partial(transform)))
    }

    /// Narrows the state through a lane's in-place read (`focus` returns whether the focus is
    /// present): nothing is copied on the way down.
    @inlinable
    internal func focused<Local>(_ focus: @escaping @MainActor @Sendable (inout State, (inout Local) -> Void) -> Bool) -> PreReducerContext<Local> {
        PreReducerContext<Local>(reader: NarrowedStateReader(parent: reader, narrowing: .focus(focus)))
    }
}

/// How a ``PreReducerContext`` reads its source, state and generators. Each way of reading is a
/// subclass (a Store's, a narrowing's), so a context is one reference and a narrowing allocates
/// one object, as a closure capturing its parent would.
@MainActor
@usableFromInline
internal class PreReducerStateReader<State> {
    /// Hands out the store's generators.
    @usableFromInline let readGenerators: @Sendable () -> StoreGenerators

    @inlinable
    init(generators: @escaping @Sendable () -> StoreGenerators) {
        readGenerators = generators
    }

    /// Who dispatched the action (every subclass overrides it).
    @inlinable
    var source: ActionSource { ActionSource(file: "", function: "", line: 0) }

    /// Calls `body` with the state where it lies; `false` when there is none (every subclass
    /// overrides it).
    @inlinable
    func inspect(_ body: (inout State) -> Void) -> Bool { false }
}

/// A reader with a source of its own (a context made outside a Store's dispatch).
@MainActor
@usableFromInline
internal class SourcedStateReader<State>: PreReducerStateReader<State> {
    @usableFromInline let ownSource: ActionSource

    @inlinable
    init(source: ActionSource, generators: @escaping @Sendable () -> StoreGenerators) {
        ownSource = source
        super.init(generators: generators)
    }

    @inlinable
    override var source: ActionSource { ownSource }
}

/// Reads the state through a closure that hands it over where it lies.
@MainActor
@usableFromInline
internal final class InspectingStateReader<State>: SourcedStateReader<State> {
    @usableFromInline let inspectState: @MainActor ((inout State) -> Void) -> Bool

    @inlinable
    init(
        source: ActionSource, inspectState: @escaping @MainActor ((inout State) -> Void) -> Bool,
        generators: @escaping @Sendable () -> StoreGenerators
    ) {
        self.inspectState = inspectState
        super.init(source: source, generators: generators)
    }

    @inlinable
    override func inspect(_ body: (inout State) -> Void) -> Bool { inspectState(body) }
}

/// Reads a snapshot it holds (`Behavior.step`'s phase 1): one object, where a reader over a
/// closure capturing the snapshot would be two.
@MainActor
@usableFromInline
internal final class SnapshotStateReader<State>: SourcedStateReader<State> {
    @usableFromInline let snapshot: State

    @inlinable
    init(source: ActionSource, snapshot: State, generators: @escaping @Sendable () -> StoreGenerators) {
        self.snapshot = snapshot
        super.init(source: source, generators: generators)
    }

    @inlinable
    override func inspect(_ body: (inout State) -> Void) -> Bool {
        var state = snapshot
        body(&state)
        return true
    }
}

/// Reads a copy of the state a closure returns.
@MainActor
@usableFromInline
internal final class StateBeforeReader<State>: SourcedStateReader<State> {
    @usableFromInline let stateBefore: @MainActor () -> State?

    @inlinable
    init(source: ActionSource, stateBefore: @escaping @MainActor () -> State?, generators: @escaping @Sendable () -> StoreGenerators) {
        self.stateBefore = stateBefore
        super.init(source: source, generators: generators)
    }

    @inlinable
    override func inspect(_ body: (inout State) -> Void) -> Bool {
        guard var state = stateBefore() else { return false }
        body(&state)
        return true
    }
}

/// A narrowing of its parent's reader: its parent's source and generators, a narrower state read
/// through a projection (`map`, `compactMap`) or a lane's in-place read (nothing is copied on the
/// way down).
@MainActor
@usableFromInline
internal final class NarrowedStateReader<Parent, State>: PreReducerStateReader<State> {
    /// How the narrower state is read from the parent's.
    @usableFromInline enum Narrowing {
        /// A total projection.
        case total(@MainActor (Parent) -> State)
        /// A partial projection (none when the focus is absent).
        case partial(@MainActor (Parent) -> State?)
        /// A lane's in-place read, returning whether the focus is present.
        case focus(@MainActor @Sendable (inout Parent, (inout State) -> Void) -> Bool)
    }

    @usableFromInline let parent: PreReducerStateReader<Parent>
    @usableFromInline let narrowing: Narrowing

    @inlinable
    init(parent: PreReducerStateReader<Parent>, narrowing: Narrowing) {
        self.parent = parent
        self.narrowing = narrowing
        super.init(generators: parent.readGenerators)
    }

    @inlinable
    override var source: ActionSource { parent.source }

    @inlinable
    override func inspect(_ body: (inout State) -> Void) -> Bool {
        var found = false
        switch narrowing {
        case .focus(let focus):
            _ = parent.inspect { found = focus(&$0, body) }
        case .total(let transform):
            _ = parent.inspect { found = Self.inspectProjection(transform($0), body) }
        case .partial(let transform):
            _ = parent.inspect { found = Self.inspectProjection(transform($0), body) }
        }
        return found
    }

    /// Runs `body` on a projection's result: in its own frame, so that the in-place focus's path
    /// holds no room for a copy of the state (everything `body` calls runs below that frame).
    @inlinable
    @inline(never)
    static func inspectProjection(_ projected: State?, _ body: (inout State) -> Void) -> Bool {
        guard var local = projected else { return false }
        body(&local)
        return true
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
