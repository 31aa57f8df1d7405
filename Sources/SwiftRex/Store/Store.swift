// One of the library's files with unsafe code: the Store's fields skip the runtime's exclusivity
// checks (each is touched on the main actor only, never inside another access to it), and the
// removed-element check hands the engine the state's address for the duration of one call.
// Exercised under TSan and ASan by the Store's dispatch, effect and supervision tests.

import Foundation

/// The sole owner of mutable state and the interpreter of every effect: the only place state
/// mutates and effects run.
///
/// For each dispatched action the Store runs five phases (<doc:DispatchPipeline#The-five-phases>):
/// 1. **handle** — every reaction sees the pre-mutation state;
/// 2. **mutate** — only when some unit mutates: every observer's `willChange`, the mutations in
///    place (no copy of the state), every observer's `didChange`; an `.unchanged` fold notifies nobody;
/// 3. **resolve** — effect readers run against the post-mutation state;
/// 4. **schedule** — each effect component is scheduled by its policy;
/// 5. **reconcile** — only when state changed and something supervises.
///
/// Processing is FIFO and never nested: actions dispatched synchronously while an action is being
/// processed (by an observer, say) run in the same turn, after it. Actions from effects and
/// channels go to one mailbox drained on a later main-actor turn.
///
/// ```swift
/// let store = Store(initial: AppState(), behavior: appBehavior, environment: env)
/// let token = store.observe(didChange: { render(store.state) })
/// store.dispatch(.load(42))
/// ```
@MainActor
public final class Store<Action: Sendable, State: Sendable, Environment: Sendable>: StoreType {
    // The mutable stored properties below are not checked for exclusivity at run time (a checked
    // access is a runtime call on every dispatch): only the main actor touches them, and
    // processing never nests, so no two accesses overlap. Reducers get the state `inout`;
    // observers read it between writes.

    /// The state.
    @exclusivity(unchecked) @usableFromInline internal var storage: State

    /// The environment effects and supervisions receive.
    public let environment: Environment

    /// The clock, date and UUID generators effects receive through ``PostReducerContext/generators``.
    public let generators: StoreGenerators

    /// How each action runs, chosen from the behavior's shape when the Store is made.
    @usableFromInline let program: DispatchProgram<Action, State, Environment>
    /// The parts of the state the units write, which slice observers are registered against.
    @usableFromInline let observerRegions: ObserverRegions
    /// The elements the collection lifts' addressed units write, by lift: what picks the
    /// observers of one element after a dispatch that wrote that element alone.
    @usableFromInline let elementRoutes: [ElementRoute<Action>]
    /// Phase 5: the supervisions and what they last wanted; `nil` when nothing supervises.
    @usableFromInline let supervision: SupervisionPlan<State, Action, Environment>?
    /// Runs, times and keeps the effects (phase 4) and the supervised channels (phase 5).
    @usableFromInline let engine: EffectEngine<Action>
    /// Where effects and channels send their actions, drained on a later main-actor turn.
    @usableFromInline let mailbox: Mailbox<Action>
    /// Phase 3's context, built once (environment, live-state reader and generators never change).
    @usableFromInline let postContext: PostReducerContext<State, Environment>
    /// Phase 1's reader of the live state and the dispatch's source, lent to each dispatch's
    /// context and taken back.
    @exclusivity(unchecked) @usableFromInline var phaseOneReader: PhaseOneReader<State>

    @exclusivity(unchecked) @usableFromInline var observers = ObserverList()
    /// What `withObservationTracking` clients read (Store+ObservationTracking); `nil` until one reads.
    @exclusivity(unchecked) var tracking: SliceTracker?
    /// The regions the dispatch being notified wrote, for the tracker's observer.
    @exclusivity(unchecked) @usableFromInline var lastWrittenRegions = ObserverRegions.all
    @exclusivity(unchecked) @usableFromInline var isProcessing = false
    /// Actions dispatched while the Store processes one, moved in and out (never copied).
    @exclusivity(unchecked) @usableFromInline var queue = MoveBuffer<Letter<Action>>()

    // Reusable phase buffers (processing never nests, so no two dispatches share one).
    @exclusivity(unchecked) @usableFromInline var reactionMutations: [EndoMut<State>] = []
    @exclusivity(unchecked) @usableFromInline var producers: [Producer<Action, State, Environment>] = []
    @exclusivity(unchecked) @usableFromInline var effects: [Effect<Action>] = []
    @exclusivity(unchecked) @usableFromInline var mailboxBuffer = MailboxBuffer<Action>()

    var streamContinuations: [UInt64: AsyncStream<State>.Continuation] = [:]
    var streamTokens: [UInt64: SubscriptionToken] = [:]
    var nextStreamID: UInt64 = 0

    /// When set, effect actions go to this closure instead of being processed (the `TestStore`).
    @exclusivity(unchecked) @usableFromInline var interceptEffectActions: (@MainActor (DispatchedAction<Action>, Int) -> Void)?

    /// The runaway-loop threshold of this Store (default ``StoreHooks/reentranceThreshold``),
    /// clamped to at least 1: a synchronous drain, or a causal chain of effect actions, longer than
    /// this is cut off and ``onReentranceDetected`` is called.
    public var reentranceThreshold: Int {
        get { threshold }
        set { threshold = max(1, newValue) }
    }
    @exclusivity(unchecked) @usableFromInline var threshold: Int

    /// Called when a runaway loop is cut off (default ``StoreHooks/onReentranceDetected``).
    @exclusivity(unchecked) public var onReentranceDetected: @MainActor (StoreReentranceInfo) -> Void

    /// Creates a Store scheduling effects on `clock`, extracted from the environment once, and
    /// handing effects the injected `date` and `uuid` generators.
    ///
    /// If the behavior supervises, the initial state's channels are reconciled at once.
    /// Inlinable so the mailbox drain it sets up runs code specialised for your types.
    @inlinable
    public convenience init<C: Clock>(
        initial: State,
        behavior: Behavior<Action, State, Environment>,
        environment: Environment,
        clock: (Environment) -> C,
        date: @escaping @Sendable () -> Date = { Date() },
        uuid: @escaping @Sendable () -> UUID = { UUID() }
    ) where C.Duration == Duration {
        self.init(
            initial: initial, behavior: behavior, environment: environment, clock: clock, date: date, uuid: uuid, partialReconcile: true)
    }

    /// The designated initialiser. `partialReconcile` off is a test's reference mode: phase 5
    /// evaluates every supervision after every mutation, and every mutation of unknown scope
    /// checks every element's effects. Inlined into the public initialisers, so the behavior's
    /// closures are built into the Store where the app builds them.
    @inlinable
    @inline(__always)
    internal init<C: Clock>(
        initial: State,
        behavior: Behavior<Action, State, Environment>,
        environment: Environment,
        clock: (Environment) -> C,
        date: @escaping @Sendable () -> Date,
        uuid: @escaping @Sendable () -> UUID,
        partialReconcile: Bool
    ) where C.Duration == Duration {
        storage = initial
        self.environment = environment
        let schedulingClock = clock(environment)
        let generators = StoreGenerators(clock: schedulingClock, date: date, uuid: uuid)
        self.generators = generators
        let supervisions = behavior.units.compactMap(\.supervision)
        let plan =
            supervisions.isEmpty ? nil : SupervisionPlan<State, Action, Environment>(units: supervisions, allowsPartial: partialReconcile)
        supervision = plan
        let regions = ObserverRegions(writes: behavior.units.map(\.writes.writes))
        observerRegions = regions
        elementRoutes = observers.routes(of: behavior.units.compactMap { $0.reducer?.address })
        program = DispatchProgram(behavior, plan: plan, regions: regions, partialReconcile: partialReconcile)
        threshold = max(1, StoreHooks.reentranceThreshold)
        onReentranceDetected = StoreHooks.onReentranceDetected
        // The readers are built before `self` is complete, so they reach the store through a weak box.
        let box = WeakStoreBox<Action, State, Environment>()
        postContext = PostReducerContext(environment: environment, liveState: { box.store?.storage }, generators: generators)
        phaseOneReader = PhaseOneReader(
            StoreStateReader(
                inspectState: { body in
                    guard let store = box.store else { return false }
                    body(&store.storage)
                    return true
                },
                generators: { generators }
            ))
        // One main-actor drain per burst, enqueued on the main actor directly from any thread.
        let mailbox = Mailbox<Action>(scheduleDrain: {
            Task { @MainActor in box.store?.drainMailbox() }
        })
        self.mailbox = mailbox
        engine = EffectEngine(clock: EngineClock(schedulingClock), outlet: EffectOutlet(mailbox))
        box.store = self
        reconcileAll()
    }

    /// Creates a Store with an environment, scheduling effects on a `ContinuousClock`.
    @inlinable
    public convenience init(initial: State, behavior: Behavior<Action, State, Environment>, environment: Environment) {
        self.init(initial: initial, behavior: behavior, environment: environment, clock: { _ in ContinuousClock() })
    }

    /// Creates a Store from a reducer and a middleware (the reducer runs first).
    @inlinable
    public convenience init(
        initial: State,
        reducer: Reducer<Action, State>,
        middleware: Middleware<Action, State, Environment>,
        environment: Environment
    ) {
        self.init(initial: initial, behavior: Behavior(reducer: reducer, middleware: middleware), environment: environment)
    }

    isolated deinit {
        engine.cancelAll()
        mailbox.close()
        for continuation in streamContinuations.values { continuation.finish() }
        phaseOneReader.release()
    }

    /// The current state.
    @inlinable
    public var state: State { storage }

    // MARK: Dispatch

    /// Dispatches an action: processed at once, or — when called while the Store is processing —
    /// queued and processed in this turn after the current action (FIFO, never nested).
    @inlinable
    public func dispatch(_ action: Action, source: ActionSource) {
        process(action, source: source, depth: 0)
    }

    /// Dispatches an action stamped with the call site; returns the store so calls chain. The
    /// same as ``StoreType/dispatch(_:file:function:line:)``, but the source is built here and
    /// lent to the dispatch, so it is neither copied nor destroyed anywhere else.
    @inlinable
    @discardableResult
    public func dispatch(_ action: Action, file: String = #fileID, function: String = #function, line: UInt = #line) -> Self {
        process(action, source: ActionSource(file: file, function: function, line: line), depth: 0)
        return self
    }

    // MARK: Effects inspection

    /// Cancels every effect, timer and channel registered under `id`.
    public func cancelEffects(id: some Hashable & Sendable) {
        engine.cancel(key: AnyHashableSendable(id))
    }

    /// The ids of the channels currently open.
    public var openChannelIDs: [AnyHashableSendable] { engine.openChannelKeys }

    /// Whether no effect run or timer is pending (live channels aside) and the mailbox is empty.
    public var isIdle: Bool { engine.isQuiescent && mailbox.count == 0 }

    /// The number of keys the effect registry holds (runs, timers, channels, throttle windows).
    public var registeredEffectCount: Int { engine.liveKeyCount }

    /// Every effect still running or waiting on the clock and every channel open or waiting, each
    /// with its id and what it waits for (throttle windows aside).
    public var pendingEffects: [PendingEffect] { engine.pendingEffects }
}

extension Store where Environment == Void {
    /// Creates a Store from a behavior with no environment.
    @inlinable
    public convenience init(initial: State, behavior: Behavior<Action, State, Void>) {
        self.init(initial: initial, behavior: behavior, environment: ())
    }

    /// Creates a Store from a reducer only (no effects).
    @inlinable
    public convenience init(initial: State, reducer: Reducer<Action, State>) {
        self.init(initial: initial, behavior: reducer.asBehavior(), environment: ())
    }
}

extension Store {
    /// Cancels the effects of collection elements that are no longer in the state.
    @usableFromInline
    internal func cancelEffectsOfRemovedElements() {
        LentState.lend(&storage) { engine.cancelEffectsOfAbsentElements(state: $0) }
    }
}

/// A weak reference to a store, set once the store is initialised. Not checked for exclusivity
/// at run time: set in the store's initialiser before anything reads it, then only read, on the
/// main actor.
@MainActor
@usableFromInline
internal final class WeakStoreBox<Action: Sendable, State: Sendable, Environment: Sendable>: Sendable {
    @exclusivity(unchecked) @usableFromInline weak var store: Store<Action, State, Environment>?

    @inlinable
    init() {}
}
