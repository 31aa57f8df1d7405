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
    /// The state storage. Exclusivity is not checked dynamically: every access happens on the main
    /// actor and the pipeline never nests, so accesses cannot overlap (reducers must not read the
    /// store they run in — they get the state as `inout`).
    @exclusivity(unchecked)
    @usableFromInline
    internal var storage: State

    /// The environment effects and supervisions receive.
    public let environment: Environment

    /// The clock, date and UUID generators effects receive through ``PostReducerContext/generators``.
    public let generators: StoreGenerators

    @usableFromInline let behavior: Behavior<Action, State, Environment>
    /// The reducer units of a reducer-only behavior (or of one of producers and reducers alone,
    /// see `producersThenReducers`), for the allocation-free fast path.
    @usableFromInline let reducerUnits: [ReducerUnit<Action, State>]
    /// Whether every reducer unit always applies (no pre-mutation test to run).
    @usableFromInline let reducersAlwaysApply: Bool
    /// Whether the behavior has reducer units (phase 2 asks them even when no reaction mutates).
    @usableFromInline let hasReducerUnits: Bool
    /// The reducer units to ask for each case of a ``CaseIndexable`` action (indices into
    /// `reducerUnits`), and how to read the case.
    @usableFromInline let routes: ActionRoutes<Action>
    /// The only reducer unit of a one-unit reducer-only behavior (else a no-op): held in a `let`
    /// so the hot path calls its closures without copying (retaining) them out of an array.
    @usableFromInline let soleReducer: ReducerUnit<Action, State>
    @usableFromInline let hasSoleReducer: Bool
    /// Whether, while nobody observes, `soleReducer.run` alone does all a dispatch needs: the unit
    /// always applies, or its `run` does all its `reduce` does and nothing supervises (so whether
    /// it applied changes nothing).
    @usableFromInline let soleReducerRunsBare: Bool
    /// Whether, while nobody observes, a reducer-only dispatch is `soleReducer.run` and nothing
    /// else: one unit that runs bare and no supervision to reconcile after it.
    @usableFromInline let soleReducerRunsAlone: Bool
    @usableFromInline let supervisor: (@MainActor @Sendable (State) -> Supervision<Action, Environment>)?
    /// Phase 5's segments and collection trackers; `nil` when nothing supervises.
    @usableFromInline var supervision: SupervisionPlan<State, Action, Environment>?
    /// The union of every reducer unit's mutation scope (what an always-applying fold may change).
    @usableFromInline let reducersScope: MutationScope
    /// Per unit of `reducerUnits`: its reduce, scope and mask, what a dispatch that asks every
    /// unit reads (without routes, a run of side-by-side units of one shape is one step asking
    /// them all, see `ReducerFusion`). Owns the steps `reducerStepRefs` points to.
    @usableFromInline let reducerSteps: [ReducerStep<Action, State>]
    /// Unowned references to `reducerSteps`: the hot loop reads them without retaining.
    @usableFromInline let reducerStepRefs: [Unmanaged<ReducerStep<Action, State>>]
    /// Every unit of `behavior.units`, in order, as the full dispatch reads it (one reference
    /// each, where a unit copied out of `behavior.units` retains every closure it holds), with its
    /// mask: the supervision segments its mutation can reach, plus `SupervisionPlan.removalBit`
    /// when it may remove collection elements that own effects. A dispatch ORs the masks of what
    /// mutated.
    @usableFromInline let phaseSteps: [PhaseStep<Action, State, Environment>]
    /// Unowned references to `phaseSteps`: the full dispatch reads them without retaining.
    @usableFromInline let phaseStepRefs: [Unmanaged<PhaseStep<Action, State, Environment>>]
    /// Whether the behavior's units are producers and reducers alone, none of which can remove
    /// collection elements that own effects, and nothing supervises: a dispatch runs the
    /// producers (phase 1), then the reducer-only path (phase 2), then schedules.
    @usableFromInline let producersThenReducers: Bool
    /// The producer steps of `phaseSteps`, in order (filled when `producersThenReducers`).
    @usableFromInline let producerStepRefs: [Unmanaged<PhaseStep<Action, State, Environment>>]
    /// The union of the reducer units' masks (what an always-applying fold may reach).
    @usableFromInline let reducersMask: UInt64
    /// `soleReducer`'s mask.
    @usableFromInline let soleReducerMask: UInt64

    @exclusivity(unchecked) @usableFromInline var observers = ObserverList()
    @exclusivity(unchecked) @usableFromInline var isProcessing = false
    /// Actions dispatched while the Store processes one, moved in and out (never copied).
    @exclusivity(unchecked) @usableFromInline var queue = MoveBuffer<Letter<Action>>()

    // Reusable phase buffers (never nested, so never shared by two dispatches).
    @exclusivity(unchecked) @usableFromInline var reactionMutations: [EndoMut<State>] = []
    @exclusivity(unchecked) @usableFromInline var producers: [Producer<Action, State, Environment>] = []
    @exclusivity(unchecked) @usableFromInline var effects: [Effect<Action>] = []
    @exclusivity(unchecked) @usableFromInline var mailboxBuffer = MailboxBuffer<Action>()

    /// Constants, not optionals: every dispatch reads them, and reading a stored `var` of a class
    /// costs a dynamic exclusivity check.
    @usableFromInline let engine: EffectEngine<Action>
    @usableFromInline let mailbox: Mailbox<Action>
    /// Reads the live state (weakly): the getter behind `stateBefore` and `liveState`.
    @usableFromInline let stateReader: @MainActor @Sendable () -> State?
    /// The phase-3 context, built once (environment, live state reader and generators never change).
    @usableFromInline let postContext: PostReducerContext<State, Environment>
    /// Phase 1's reader: it reads the live state where it lies (weakly), so a lifted feature reads
    /// its slice without a copy of the whole state, the dispatch's source where the dispatch keeps
    /// it, and hands out the generators. A dispatch's context is this one reference, moved out of
    /// this property for phase 1 and back, so no dispatch retains and releases it. Replaced only
    /// when a context outlives its phase 1 (see `successor(of:source:)`). Held unmanaged (the one
    /// reference this Store owns, released by `deinit`): an optional emptied for phase 1 had its
    /// `nil` released when the reader was stored back, a runtime call per dispatch.
    @exclusivity(unchecked) @usableFromInline var phaseOneReader: Unmanaged<StoreStateReader<State>>

    private var streamContinuations: [UInt64: AsyncStream<State>.Continuation] = [:]
    private var streamTokens: [UInt64: SubscriptionToken] = [:]
    private var nextStreamID: UInt64 = 0

    /// The runaway-loop threshold of this Store (default ``StoreHooks/reentranceThreshold``),
    /// clamped to at least 1: a synchronous drain, or a causal chain of effect actions, longer than
    /// this is cut off and ``onReentranceDetected`` is called.
    public var reentranceThreshold: Int {
        get { threshold }
        set { threshold = max(1, newValue) }
    }
    @exclusivity(unchecked) @usableFromInline var threshold: Int

    /// Called when a runaway loop is cut off (default ``StoreHooks/onReentranceDetected``).
    // Unchecked: only the main actor touches it, and the mailbox's drain reads it once per drain
    // (hoisted out of its loop): checked, that read cost a dynamic exclusivity check, about 76
    // instructions, on every drain.
    @exclusivity(unchecked) public var onReentranceDetected: @MainActor (StoreReentranceInfo) -> Void

    /// Creates a Store scheduling effects on `clock`, extracted from the environment once, and
    /// handing effects the injected `date` and `uuid` generators.
    ///
    /// If the behavior supervises, the initial state's channels are reconciled at once.
    /// Inlinable so the mailbox drain it sets up runs code specialised for your types.
    @inlinable
    public init<C: Clock>(
        initial: State,
        behavior: Behavior<Action, State, Environment>,
        environment: Environment,
        clock: (Environment) -> C,
        date: @escaping @Sendable () -> Date = { Date() },
        uuid: @escaping @Sendable () -> UUID = { UUID() }
    ) where C.Duration == Duration {
        storage = initial
        self.environment = environment
        let schedulingClock = clock(environment)
        generators = StoreGenerators(clock: schedulingClock, date: date, uuid: uuid)
        self.behavior = behavior
        var reducerUnits: [ReducerUnit<Action, State>] = []
        for unit in behavior.units {
            if case .reducer(let reducer) = unit { reducerUnits.append(reducer) }
        }
        let plan =
            behavior.supervisor == nil
            ? nil
            : SupervisionPlan<State, Action, Environment>(
                units: behavior.units.compactMap { unit in
                    if case .supervision(let supervision) = unit { return supervision }
                    return nil
                })
        let masks = Self.masks(of: behavior.units, plan: plan)
        var reducerMasks: [UInt64] = []
        for (index, unit) in behavior.units.enumerated() {
            if case .reducer = unit { reducerMasks.append(masks[index]) }
        }
        // Producers and reducers alone (no reaction, nothing supervising, no reducer that may
        // remove elements owning effects): phase 2 is the reducer-only path's, after phase 1's
        // producers. Else the full dispatch asks every unit in `phaseSteps` order.
        let hasReactions = behavior.units.contains { unit in
            if case .reaction = unit { return true }
            return false
        }
        producersThenReducers =
            !behavior.isReducerOnly && !hasReactions && behavior.supervisor == nil
            && reducerMasks.allSatisfy { $0 & SupervisionPlan<State, Action, Environment>.removalBit == 0 }
        let runsReducerPath = behavior.isReducerOnly || producersThenReducers
        self.reducerUnits = runsReducerPath ? reducerUnits : []
        reducersAlwaysApply = !reducerUnits.isEmpty && reducerUnits.allSatisfy { $0.applies == nil }
        hasReducerUnits = !reducerUnits.isEmpty
        routes = ActionRoutes(cases: reducerUnits.map(\.actionCase))
        hasSoleReducer = runsReducerPath && reducerUnits.count == 1
        soleReducer = hasSoleReducer ? reducerUnits[0] : ReducerUnit(applies: { _, _ in false }, scope: .nothing, run: { _, _ in })
        supervisor = behavior.supervisor
        soleReducerRunsBare = soleReducer.applies == nil || (soleReducer.runIsComplete && behavior.supervisor == nil)
        soleReducerRunsAlone = hasSoleReducer && soleReducerRunsBare && behavior.supervisor == nil
        reducersScope = reducerUnits.reduce(MutationScope.nothing) { $0.merged($1.scope) }
        // Without routes every unit is asked: side-by-side lifted units of one shape become one
        // step. With routes the steps line up with the units the routes name.
        let reducerSteps =
            !runsReducerPath
            ? []
            : routes.caseOf == nil
                ? ReducerStep.fused(reducerUnits, masks: reducerMasks)
                : zip(reducerUnits, reducerMasks).map { ReducerStep($0, mask: $1) }
        self.reducerSteps = reducerSteps
        reducerStepRefs = reducerSteps.map { Unmanaged.passUnretained($0) }
        let phaseSteps = behavior.isReducerOnly ? [] : zip(behavior.units, masks).map { PhaseStep($0, mask: $1) }
        self.phaseSteps = phaseSteps
        phaseStepRefs = phaseSteps.map { Unmanaged.passUnretained($0) }
        producerStepRefs = producersThenReducers ? phaseStepRefs.filter { $0.takeUnretainedValue().kind == .producer } : []
        reducersMask = reducerMasks.reduce(0, |)
        soleReducerMask = hasSoleReducer ? reducerMasks[0] : 0
        threshold = max(1, StoreHooks.reentranceThreshold)
        onReentranceDetected = StoreHooks.onReentranceDetected
        let engineClock = EngineClock(schedulingClock)
        // The reader is built before `self` is complete, so it reaches the store through a weak box.
        let box = WeakStoreBox<Action, State, Environment>()
        stateReader = { box.store?.storage }
        postContext = PostReducerContext(environment: environment, liveState: stateReader, generators: generators)
        phaseOneReader = Unmanaged.passRetained(
            StoreStateReader(
                inspectState: { body in
                    guard let store = box.store else { return false }
                    body(&store.storage)
                    return true
                },
                generators: { [generators] in generators }
            ))
        // One main-actor drain per burst, enqueued on the main actor directly from any thread.
        let mailbox = Mailbox<Action>(scheduleDrain: {
            Task { @MainActor in box.store?.drainMailbox() }
        })
        self.mailbox = mailbox
        engine = EffectEngine(clock: engineClock, outlet: EffectOutlet(mailbox))
        box.store = self
        if let plan {
            supervision = plan
            reconcile()
        }
    }

    /// Each unit's mask: the supervision segments of `plan` its writes overlap, and the
    /// removal bit when it is not scoped to collection elements yet writes where elements owning
    /// effects live. Reports, once, a catch-all unit that makes a collection's supervision re-run.
    @usableFromInline
    static func masks(of units: [BehaviorUnit<Action, State, Environment>], plan: SupervisionPlan<State, Action, Environment>?) -> [UInt64] {
        var ownerContainers = StateFootprint.none
        for unit in units {
            switch unit {
            case .producer, .reaction: ownerContainers = ownerContainers.union(unit.footprint.containers)
            case .reducer, .supervision: break
            }
        }
        var catchAll = 0
        let masks = units.map { unit -> UInt64 in
            let scope: MutationScope
            switch unit {
            case .reducer(let reducer): scope = reducer.scope
            case .reaction(_, let reactionScope, _): scope = reactionScope
            case .producer, .supervision: return 0
            }
            let writes = unit.footprint.touches
            if writes.isWhole { catchAll += 1 }
            var mask = plan?.mask(writing: writes) ?? 0
            if scope == .anything, writes.overlaps(ownerContainers) { mask |= SupervisionPlan<State, Action, Environment>.removalBit }
            return mask
        }
        if catchAll > 0, plan?.hasCollectionSegment == true {
            let broadUnits = catchAll
            reportDiagnostic(
                StoreDiagnostic(
                    kind: .broadInvalidation,
                    message:
                        "\(broadUnits) mutating unit(s) of this behavior write a part of the state the library cannot locate (an unlifted reduce or react, a closure lens, a computed key path): every action they handle re-evaluates the supervision of every collection element. Lift them through a key-path state lane, or declare what they touch with `confined(to:)`.",
                    source: nil
                ))
        }
        return masks
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
        if behavior.isReducerOnly {
            processReducerOnly(action, source: ActionSource(file: file, function: function, line: line), depth: 0)
        } else {
            processAllPhases(action, source: ActionSource(file: file, function: function, line: line), depth: 0)
        }
        return self
    }

    /// ``process(_:source:depth:)`` for a reducer-only behavior (already known to be one).
    @inlinable
    internal func processReducerOnly(_ action: Action, source: ActionSource, depth: Int) {
        if queuedWhileProcessing(action, source: source, depth: depth) { return }
        isProcessing = true
        runReducerPhases(action, depth: depth)
        finishProcessing()
    }

    /// ``process(_:source:depth:)`` for a behavior with reactions or producers (already known to
    /// be one).
    @inlinable
    internal func processAllPhases(_ action: Action, source: borrowing ActionSource, depth: Int) {
        if queuedWhileProcessing(action, source: source, depth: depth) { return }
        isProcessing = true
        withLentSource(source) { runBehaviorPhases(action, source: $0, depth: depth) }
        finishProcessing()
    }

    @inlinable
    internal func process(_ action: Action, source: ActionSource, depth: Int) {
        if queuedWhileProcessing(action, source: source, depth: depth) { return }
        isProcessing = true
        runPhases(action, source: source, depth: depth)
        finishProcessing()
    }

    /// Queues the action when the Store is already processing one (it runs in this turn, after
    /// the current action: FIFO, never nested); `false` when the Store is idle.
    @inlinable
    internal func queuedWhileProcessing(_ action: Action, source: borrowing ActionSource, depth: Int) -> Bool {
        guard isProcessing else { return false }
        queue.append(Letter(action: DispatchedAction(action, dispatcher: copy source), depth: depth))
        return true
    }

    /// Ends a processing turn: the actions queued meanwhile run, then the Store is idle.
    @inlinable
    internal func finishProcessing() {
        // `drainQueue` always leaves the queue reset (`end` 0), so a nonzero end means letters.
        if queue.end != 0 { drainQueue() }
        isProcessing = false
    }

    @inlinable
    internal func runPhases(_ action: Action, source: ActionSource, depth: Int) {
        guard behavior.isReducerOnly else {
            withLentSource(source) { runBehaviorPhases(action, source: $0, depth: depth) }
            return
        }
        runReducerPhases(action, depth: depth)
    }

    /// The phases of a reducer-only behavior: no context, no effect.
    ///
    /// Only tests and calls, inlined where the dispatch is: the paths behind it set up their
    /// frames before their first test, so the common one (one unit that runs bare, nobody
    /// observing) calls the unit from here.
    @inlinable
    @inline(__always)
    internal func runReducerPhases(_ action: Action, depth: Int) {
        if soleReducerRunsAlone, observers.isEmpty {
            soleReducer.run(action, &storage)
        } else if hasSoleReducer {
            runSoleReducer(action, depth: depth)
        } else {
            runReducerUnits(action, depth: depth)
        }
    }

    /// The reducer-only path for several units (or none).
    @inlinable
    internal func runReducerUnits(_ action: Action, depth: Int) {
        var scope = reducersScope
        var mask = reducersMask
        if reducersAlwaysApply {
            if observers.isEmpty {
                runReducerSteps(reducerStepRefs, action: action, state: &storage)
            } else {
                notify(willChange: true)
                runReducerSteps(reducerStepRefs, action: action, state: &storage)
                notify(willChange: false)
            }
        } else {
            // Every unit that may act on the action is asked, in order (no early exit, so each
            // lifted unit can report a missing element): with a case-indexed action, the units of
            // its case and those that name none; else every unit. Each decides and mutates in one
            // pass, and observers hear `willChange` just before the first write.
            scope = .nothing
            mask = 0
            var applied = false
            var group: Range<Int>?
            if let caseOf = routes.caseOf { group = routes.group(of: caseOf(action)) }
            func askEveryUnit(_ willWrite: () -> Void) {
                applied = askReducerUnits(
                    reducerStepRefs, routed: routes.units, group: group,
                    action: action, state: &storage, scope: &scope, mask: &mask, willWrite: willWrite
                )
            }
            if observers.willChangeCount == 0 {
                askEveryUnit {}
            } else {
                var notified = false
                askEveryUnit {
                    if !notified {
                        notified = true
                        notify(willChange: true)
                    }
                }
            }
            guard applied else { return }
            notify(willChange: false)
        }
        if supervisor != nil, reachesSupervision(mask) { reconcile(after: scope, mask: mask, action: action, depth: depth) }
    }

    /// Whether a mutation reaching `mask` needs phase 5: some supervision reads what it wrote
    /// (or the partial paths are switched off).
    @inlinable
    internal func reachesSupervision(_ mask: UInt64) -> Bool {
        mask & ~SupervisionPlan<State, Action, Environment>.removalBit != 0 || !scopesInvalidation
    }

    /// The reducer-only path for a single unit.
    @inlinable
    internal func runSoleReducer(_ action: Action, depth: Int) {
        if soleReducerRunsBare, observers.isEmpty {
            // Nobody to tell: the unit runs alone (a lifted one skips by itself when it does not
            // apply, and then nothing supervises).
            soleReducer.run(action, &storage)
        } else if soleReducer.applies != nil {
            // A lifted unit decides and mutates in one pass; observers hear `willChange` just
            // before its first write.
            if observers.willChangeCount == 0 {
                guard soleReducer.reduce(action, &storage, {}) else { return }
            } else {
                guard soleReducer.reduce(action, &storage, { notify(willChange: true) }) else { return }
            }
            notify(willChange: false)
        } else {
            notify(willChange: true)
            soleReducer.run(action, &storage)
            notify(willChange: false)
        }
        if supervisor != nil, reachesSupervision(soleReducerMask) {
            reconcile(after: soleReducer.scope, mask: soleReducerMask, action: action, depth: depth)
        }
    }

    /// Calls every observer's `willChange` (or `didChange`), in subscription order, skipping those
    /// cancelled meanwhile and those added during this notification. Reads each callback in place
    /// (no copy of the whole entry) and skips a side nobody observes.
    @inlinable
    internal func notify(willChange: Bool) {
        guard willChange ? observers.willChangeCount > 0 : observers.didChangeCount > 0 else { return }
        observers.notifying &+= 1
        let count = observers.entries.count
        var index = 0
        while index < count {
            if observers.entries[index].cancellation.isCancelled {
                observers.hasTombstones = true
            } else if willChange {
                observers.entries[index].willChange?()
            } else {
                observers.entries[index].didChange?()
            }
            index &+= 1
        }
        observers.notifying &-= 1
        if observers.hasTombstones { compactObservers() }
    }

    @usableFromInline
    internal func compactObservers() {
        observers.compact()
    }

    /// The phases of a behavior with producers or reactions: `runProducerPhases` when its units
    /// are producers and reducers alone (see `producersThenReducers`), else `runAllPhases`.
    @inlinable
    @inline(__always)
    internal func runBehaviorPhases(_ action: Action, source: UnsafePointer<ActionSource>, depth: Int) {
        // With the partial paths switched off (a test's reference mode), every unscoped mutation
        // checks every element's effects: the full dispatch does that.
        if producersThenReducers, scopesInvalidation {
            runProducerPhases(action, source: source, depth: depth)
        } else {
            runAllPhases(action, source: source, depth: depth)
        }
    }

    /// The phases of a behavior of producers and reducers alone: every producer against the
    /// pre-mutation state, then the reducer-only path (which notifies observers around the first
    /// write and skips units lifted through other cases), then the producers' effects, resolved
    /// against the post-mutation state and scheduled in order. Nothing supervises, there is no
    /// reaction and no reducer may remove elements owning effects, so there is no mask to gather:
    /// `runAllPhases` would do the same, walking every unit twice.
    @inlinable
    @inline(never)
    internal func runProducerPhases(_ action: Action, source: UnsafePointer<ActionSource>, depth: Int) {
        var firstProducer: Producer<Action, State, Environment>?
        let producerCount = producerStepRefs.count
        withPhaseOneContext(source: source) { context in
            for index in 0..<producerCount {
                keep(withGuaranteedStep(producerStepRefs[index]) { $0.producer(action, context) }, first: &firstProducer)
            }
        }
        if hasReducerUnits { runReducerPhases(action, depth: depth) }
        scheduleProduced(consume firstProducer, depth: depth)
    }

    /// Phase 1's context around `body`: the store's reader (moved out of the store and back, not
    /// retained), which reads the lent `source` where it lies until `body` returns.
    @inlinable
    @inline(__always)
    internal func withPhaseOneContext(source: UnsafePointer<ActionSource>, _ body: (PreReducerContext<State>) -> Void) {
        // The Store's reference moves into the context (the slot keeps a stale copy until P1 ends).
        let lentReader = phaseOneReader.takeRetainedValue()
        lentReader.dispatchedSource = source
        let context = PreReducerContext<State>(reader: consume lentReader)
        body(context)
        // The reader the context was given, moved back (it is the store's own).
        var reader = unsafeDowncast((consume context).reader, to: StoreStateReader<State>.self)
        reader.dispatchedSource = nil
        // A context kept past P1 keeps the reader alive: it must go on reading this source.
        if !isKnownUniquelyReferenced(&reader) { reader = successor(of: reader, source: source.pointee) }
        phaseOneReader = Unmanaged.passRetained(consume reader)
    }

    /// Keeps a producer phase 1 returned, unless it is `.doNothing` (the identity producer:
    /// running it would make an empty effect to schedule nothing): the first in `first`, the
    /// others in `producers`.
    @inlinable
    @inline(__always)
    internal func keep(_ producer: Producer<Action, State, Environment>?, first: inout Producer<Action, State, Environment>?) {
        guard let producer, !producer.isIdentity else { return }
        if first == nil { first = producer } else { producers.append(producer) }
    }

    /// Phases 3 and 4: every kept producer's effect resolved against the post-mutation state and
    /// scheduled, in order. The first producer is moved out of its variable and run by a consuming
    /// call, which releases it once: called as a borrow, it was copied, retained around the call
    /// and released twice.
    @inlinable
    @inline(__always)
    internal func scheduleProduced(_ firstProducer: consuming Producer<Action, State, Environment>?, depth: Int) {
        guard let reader = consume firstProducer else { return }
        if producers.isEmpty {
            schedule((consume reader).runConsumed(postContext), depth: depth)
        } else {
            scheduleProducers(first: reader, depth: depth)
        }
    }

    /// Every phase, for behaviors with reactions, a supervision, or a reducer that may remove
    /// elements owning effects (producers and reducers alone take `runProducerPhases`). Out of
    /// line, so the reducer-only path keeps a small stack frame. The caller lends `source` for the
    /// call (see `withLentSource`): phase 1's contexts read it where it lies.
    @inlinable
    @inline(never)
    internal func runAllPhases(_ action: Action, source: UnsafePointer<ActionSource>, depth: Int) {
        var mutates = false
        var scope = MutationScope.nothing
        var mask: UInt64 = 0
        var firstProducer: Producer<Action, State, Environment>?
        let stepCount = phaseStepRefs.count
        var unchangedReactions = 0
        // P1: handle, against the pre-mutation state. Grouped reactions keep their mutation in a
        // buffer; the first producer stays out of any buffer; reducer units wait for P2, where
        // each decides and mutates in one pass. The buffers are empty between dispatches. The
        // context is the store's reader (moved out of the store and back, not retained), which
        // reads the lent source where it lies during P1.
        withPhaseOneContext(source: source) { context in
            // Each step is read through an unowned reference (its plain fields without retaining
            // it) and its closures are called through a guaranteed one: no retain and release of
            // a closure per unit and phase. `phaseSteps`, a constant of this store, keeps every
            // step alive.
            for index in 0..<stepCount {
                let reference = phaseStepRefs[index]
                unowned(unsafe) let step = reference.takeUnretainedValue()
                switch step.kind {
                case .producer:
                    // `.doNothing` (the identity producer) is skipped: running it would make an
                    // empty effect to schedule nothing.
                    keep(withGuaranteedStep(reference) { $0.producer(action, context) }, first: &firstProducer)
                case .reaction:
                    // Once a reaction mutates, one entry per reaction unit, in order (`.unchanged`
                    // is the identity, no closure); before, only a count of the unchanged ones,
                    // so a dispatch no reaction mutates fills and empties no buffer.
                    let reaction = withGuaranteedStep(reference) { $0.react(action, context) }
                    if case .mutation(let endo) = reaction.mutation {
                        if !mutates, unchangedReactions > 0 { appendIdentities(unchangedReactions) }
                        mutates = true
                        scope = scope.merged(step.scope)
                        mask |= step.mask
                        reactionMutations.append(endo)
                    } else if mutates {
                        reactionMutations.append(.identity)
                    } else {
                        unchangedReactions &+= 1
                    }
                    keep(reaction.producer, first: &firstProducer)
                case .reducer, .supervision:
                    break
                }
            }
        }
        // P2: mutate in place, in list order, bracketed by one notification pair. Every reducer
        // unit is asked (no early exit: each lifted unit can report a missing element, and a
        // supervising store learns what the action may change); observers hear `willChange`
        // before the first write: at once when a reaction mutates, else just before the first
        // reducer unit that applies writes.
        if mutates || hasReducerUnits {
            var notified = mutates
            if mutates { notify(willChange: true) }
            var reactionIndex = 0
            // With a case-indexed action, reducer units lifted through another case are skipped.
            let actionCase = routes.caseOf?(action)
            for index in 0..<stepCount {
                let reference = phaseStepRefs[index]
                unowned(unsafe) let step = reference.takeUnretainedValue()
                switch step.kind {
                case .reducer:
                    if let actionCase, let unitCase = step.actionCase, unitCase != actionCase { continue }
                    if step.alwaysApplies {
                        // Its `reduce` is `willWrite` then `run`: done here, with no closure to pass.
                        if !notified {
                            notified = true
                            notify(willChange: true)
                        }
                        withGuaranteedStep(reference) { $0.run(action, &storage) }
                        scope = scope.merged(step.scope)
                        mask |= step.mask
                        continue
                    }
                    let applied = withGuaranteedStep(reference) { step in
                        step.reduce(
                            action, &storage,
                            {
                                if !notified {
                                    notified = true
                                    notify(willChange: true)
                                }
                            })
                    }
                    if applied {
                        scope = scope.merged(step.scope)
                        mask |= step.mask
                    }
                case .reaction:
                    // The buffer holds an entry per reaction only when one mutates.
                    if mutates {
                        reactionMutations[reactionIndex].runEndoMut(&storage)
                        reactionIndex &+= 1
                    }
                case .producer, .supervision:
                    break
                }
            }
            if notified { notify(willChange: false) }
            mutates = notified
        }
        if !reactionMutations.isEmpty { reactionMutations.removeAll(keepingCapacity: true) }
        scheduleProduced(consume firstProducer, depth: depth)
        // A mutation that may have removed collection elements cancels their effects.
        if engine.hasOwnedEffects,
            mask & SupervisionPlan<State, Action, Environment>.removalBit != 0 || !scopesInvalidation && scope == .anything
        {
            cancelEffectsOfRemovedElements()
        }
        // P5: reconcile, only after a mutation, only the supervisions it can reach.
        if mutates, supervisor != nil, reachesSupervision(mask) { reconcile(after: scope, mask: mask, action: action, depth: depth) }
    }

    /// Phase 1's entries for the reactions that did not mutate before the first that does (out
    /// of line: the usual dispatch has none to add).
    @usableFromInline
    @inline(never)
    internal func appendIdentities(_ count: Int) {
        reactionMutations.append(contentsOf: repeatElement(.identity, count: count))
    }

    /// After a context outlived its phase 1: its reader keeps a copy of the source it read, and
    /// the next dispatches go through the successor returned.
    @usableFromInline
    @inline(never)
    internal func successor(of reader: StoreStateReader<State>, source: borrowing ActionSource) -> StoreStateReader<State> {
        reader.keptSource = copy source
        return reader.successor()
    }

    /// Phases 3 and 4 when a dispatch produced several effects: every reader runs against the
    /// post-mutation state before the first component is scheduled (out of line: the usual
    /// dispatch produces at most one).
    @inlinable
    @inline(never)
    internal func scheduleProducers(first: Producer<Action, State, Environment>, depth: Int) {
        effects.append(first.runReader(postContext))
        for producer in producers { effects.append(producer.runReader(postContext)) }
        producers.removeAll(keepingCapacity: true)
        for effect in effects { schedule(effect, depth: depth) }
        effects.removeAll(keepingCapacity: true)
    }

    /// Phase 4 for one effect: plain immediate actions go straight to the mailbox; everything else
    /// goes through the engine's registry.
    @inlinable
    internal func schedule(_ effect: consuming Effect<Action>, depth: Int) {
        // The action is consumed out of its binding: a bound payload is otherwise a copy (its
        // source's strings retained), the effect being destroyed only after the post.
        switch (consume effect).storage {
        case .immediate(.just(let action)):
            postEffectAction(consume action, depth: depth &+ 1)
        case .immediate(.task(let work)):
            engine.startAnonymousTask(work, depth: depth &+ 1)
        case .immediate(let work):
            schedule(Effect<Action>.Component(work: work, scheduling: .immediately), depth: depth)
        case .keyedTask(let work, let key, let exclusive):
            if engine.isBusy {
                schedule(Effect<Action>.keyedComponent(work, key: key, exclusive: exclusive), depth: depth)
            } else {
                engine.startKeyedTask(work, key: key, depth: depth &+ 1)
            }
        case .single(let component):
            if component.startsAtOnceAnonymously, case .just = component.work {
                // The usual answer, `Effect.just`: its action is moved out of the component and
                // into the mailbox, not copied out of it.
                if case .just(let action) = component.takeWork() { postEffectAction(action, depth: depth &+ 1) }
            } else {
                // Moved on: a copy went through an outlined generic copy of the whole component
                // (and the effect's destroy through another).
                schedule(consume component, depth: depth)
            }
        case .many(let components): for component in components { schedule(component, depth: depth) }
        }
    }

    @inlinable
    internal func schedule(_ component: consuming Effect<Action>.Component, depth: Int) {
        if component.startsAtOnceAnonymously {
            switch component.work {
            case .just(let action):
                postEffectAction(action, depth: depth &+ 1)
                return
            case .sequence(let actions):
                for action in actions { postEffectAction(action, depth: depth &+ 1) }
                return
            case .task(let work):
                engine.startAnonymousTask(work, depth: depth &+ 1)
                return
            case .subscribe, .cancelOnly:
                break
            }
        }
        scheduleInEngine(component, depth: depth &+ 1)
    }

    /// Posts an effect action from the main actor into the mailbox (the first post of a burst
    /// schedules its drain), moving it in: a copy would retain what it holds (its source's
    /// strings) and release it again. While the engine holds deferred operations (effect code
    /// dispatching from inside one), the post waits behind them, so the effect's components keep
    /// their order.
    @inlinable
    @inline(__always)
    internal func postEffectAction(_ action: consuming DispatchedAction<Action>, depth: Int) {
        if engine.hasDeferred {
            engine.deferPost(action, depth: depth)
            return
        }
        mailbox.post(.letter(Letter(action: action, depth: depth)))
    }

    @usableFromInline
    internal func scheduleInEngine(_ component: consuming Effect<Action>.Component, depth: Int) {
        engine.schedule(component, depth: depth)
    }

    /// Cancels the effects of collection elements that are no longer in the state.
    @usableFromInline
    internal func cancelEffectsOfRemovedElements() {
        withUnsafePointer(to: &storage) { pointer in
            engine.cancelEffectsOfAbsentElements(state: UnsafeRawPointer(pointer), type: ObjectIdentifier(State.self))
        }
    }

    /// Phase 5: the supervisors' channels for the current state, reconciled by the engine.
    @inlinable
    internal func reconcile(depth: Int = 0) {
        guard let supervision else { return }
        // The state is handed over where it lies (a large state is not copied onto the stack).
        withUnsafeMutablePointer(to: &storage) { state in
            supervision.reconcileAll(state: &state.pointee, environment: environment, engine: engine, depth: depth + 1)
        }
    }

    /// Phase 5 after a mutation of `scope` by `action` reaching the segments in `mask`: only
    /// those segments, only the element it changed when sound.
    @inlinable
    internal func reconcile(after scope: MutationScope, mask: UInt64, action: Action, depth: Int) {
        guard let supervision else { return }
        withUnsafeMutablePointer(to: &storage) { state in
            supervision.reconcile(
                after: scope, mask: mask, action: action, state: &state.pointee, environment: environment, engine: engine, depth: depth + 1)
        }
    }

    /// Drains actions queued synchronously during processing, cutting off a runaway loop.
    /// Inlinable, so the queued actions (those an observer dispatches, say) run through phases
    /// specialised for the Store's types: unspecialised, every one of them looked up generic
    /// metadata at run time (about 1 µs an action, `store.dispatch.fromObserver`). Not inlined:
    /// inlined into every `finishProcessing`, it cost the mailbox's drain about 90 instructions an
    /// action (`effects.roundtrip.burst.drained`).
    @inlinable
    @inline(never)
    internal func drainQueue() {
        var drained = 1
        // Each letter is moved out of the queue: a copy would retain what its action and source
        // hold, and release it again.
        while !queue.isEmpty {
            let letter = queue.removeFirst()
            if drained >= threshold {
                reportRunaway(.synchronous, count: drained + 1, letter: letter)
                break
            }
            drained += 1
            runPhases(letter.action.action, source: letter.action.dispatcher, depth: letter.depth)
        }
        // Drops what a runaway cut left, and resets the queue to its storage's start.
        queue.removeAll()
    }

    /// Drains the mailbox (a later main-actor turn): effect and channel actions, in posting order,
    /// and the runs that ended (after the actions they sent).
    @inlinable
    internal func drainMailbox() {
        // The spare buffer (empty, with storage) is exchanged for the waiting entries.
        var entries = mailboxBuffer.take()
        mailbox.take(into: &entries)
        var reported = false
        // Each entry is moved out of the buffer and its letter handed on: a copy would retain
        // everything its action holds, and release it again.
        while !entries.isEmpty {
            switch entries.removeFirst() {
            case .finished(let run): engine.finished(run)
            case .letter(let letter): deliver(consume letter, reported: &reported)
            }
        }
        entries.removeAll()
        mailboxBuffer = entries
    }

    /// Processes one drained letter (or drops it, past the runaway threshold: reported once per
    /// drain). Its source is lent to the dispatch, not copied.
    @inlinable
    @inline(__always)
    internal func deliver(_ letter: consuming Letter<Action>, reported: inout Bool) {
        if letter.depth > threshold {
            if !reported { reportRunaway(.throughEffects, count: letter.depth, letter: letter) }
            reported = true
        } else if let interceptor = interceptEffectActions {
            interceptor(letter.action, letter.depth)
        } else if behavior.isReducerOnly {
            processReducerOnly(letter.action.action, source: letter.action.dispatcher, depth: letter.depth)
        } else {
            processAllPhases(letter.action.action, source: letter.action.dispatcher, depth: letter.depth)
        }
    }

    /// When set, effect and channel actions are handed to this closure (with their causal depth)
    /// instead of being processed: the `TestStore` collects them for `receive` assertions.
    @_spi(Testing)
    public var effectActionInterceptor: (@MainActor (DispatchedAction<Action>, Int) -> Void)? {
        get { interceptEffectActions }
        set { interceptEffectActions = newValue }
    }
    @exclusivity(unchecked) @usableFromInline var interceptEffectActions: (@MainActor (DispatchedAction<Action>, Int) -> Void)?

    /// Whether phase 5 looks only at what a dispatch's writes can reach: the supervisions they
    /// overlap, only the element an action changed (and, after a removal, only the elements where
    /// removed ones could live). On by default. Off, every mutation reconciles the full desired
    /// set and every unscoped one checks every element's effects: the reference tests hold the
    /// partial paths to.
    @_spi(Testing)
    public var reconcilesChangedElementAlone: Bool {
        get { scopesInvalidation }
        set {
            scopesInvalidation = newValue
            supervision?.allowsPartial = newValue
        }
    }
    @exclusivity(unchecked) @usableFromInline var scopesInvalidation = true

    /// What phase 5 did since this Store was created: full reconciles, patches, evaluations.
    @_spi(Testing)
    public var supervisionStatistics: SupervisionStatistics { supervision?.statistics ?? SupervisionStatistics() }

    /// Whether an effect run is live or an effect action waits in the mailbox (pending timers and
    /// open channels aside): something may still arrive without a clock moving.
    @_spi(Testing)
    public var hasRunningEffects: Bool { engine.hasRunningWork || mailbox.count > 0 }

    /// Drains the mailbox now instead of on a later turn.
    @_spi(Testing)
    public func drainEffectActionsNow() {
        drainMailbox()
    }

    /// Processes an action that an effect emitted, with its causal depth (the `TestStore`'s receive path).
    @_spi(Testing)
    public func processEffectAction(_ action: DispatchedAction<Action>, depth: Int) {
        process(action.action, source: action.dispatcher, depth: depth)
    }

    @usableFromInline
    internal func reportRunaway(_ kind: StoreReentranceInfo.Kind, count: Int, letter: Letter<Action>) {
        onReentranceDetected(
            StoreReentranceInfo(
                kind: kind,
                drainedCount: count,
                threshold: threshold,
                source: letter.action.dispatcher,
                actionDescription: String(describing: letter.action.action)
            ))
    }

    // MARK: Observation

    /// Registers an observer; see ``StoreType/observe(willChange:didChange:)``.
    public func observe(willChange: (@MainActor () -> Void)?, didChange: (@MainActor () -> Void)?) -> SubscriptionToken {
        let (id, flag) = observers.add(willChange: willChange, didChange: didChange)
        return SubscriptionToken { [weak self] in
            flag.cancel()
            onMainActor { self?.observers.remove(id: id) }
        }
    }

    /// The number of live observers.
    public var observerCount: Int { observers.count }

    /// The states after every change, as an async stream (starting with the current state).
    public var stream: AsyncStream<State> {
        let (stream, continuation) = AsyncStream<State>.makeStream(bufferingPolicy: .unbounded)
        continuation.yield(storage)
        nextStreamID &+= 1
        let id = nextStreamID
        streamContinuations[id] = continuation
        streamTokens[id] = observe(didChange: { [weak self] in
            guard let self else { return }
            continuation.yield(self.storage)
        })
        continuation.onTermination = { [weak self] _ in
            onMainActor {
                self?.streamContinuations[id] = nil
                self?.streamTokens[id] = nil
            }
        }
        return stream
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

/// A weak reference to a store, settable after the store's initialisation.
@MainActor
@usableFromInline
internal final class WeakStoreBox<Action: Sendable, State: Sendable, Environment: Sendable>: Sendable {
    // Unchecked: set once, in the store's initialiser, before anything can read it; read only on
    // the main actor afterwards. A checked access cost each drain and state read about 76
    // instructions.
    @exclusivity(unchecked) @usableFromInline weak var store: Store<Action, State, Environment>?

    @inlinable
    init() {}
}
