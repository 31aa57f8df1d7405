// One of the library's files with unsafe code: the engine's mutable state skips the runtime's
// exclusivity checks (`@exclusivity(unchecked)`), each with its invariant. Exercised under TSan and
// ASan by EffectEngineOrderingTests (effect code re-entering the engine while a step is
// performed) and the Store's effect and supervision tests.

/// What the engine keeps of a scheduled component until it runs: its work, its channel payload,
/// its timing (for ``PendingEffect``) and the causal depth its actions will carry. Its id and
/// owner are used when it is scheduled and not kept: the payload is moved whenever a timer is
/// restarted, so it holds only what a run needs.
@usableFromInline
internal struct EnginePayload<Action: Sendable>: Sendable {
    @usableFromInline let work: Effect<Action>.Component.Work
    @usableFromInline let depth: Int
    @usableFromInline let channel: Effect<Action>.Component.ChannelPayload?
    @usableFromInline let timing: ScheduleTiming

    @inlinable
    init(work: Effect<Action>.Component.Work, channel: Effect<Action>.Component.ChannelPayload?, timing: ScheduleTiming, depth: Int) {
        self.work = work
        self.depth = depth
        self.channel = channel
        self.timing = timing
    }

    /// The payload of a component supervision hands over (its channels, which are kept).
    @inlinable
    init(component: borrowing Effect<Action>.Component, depth: Int) {
        self.init(work: component.work, channel: component.channel, timing: ScheduleTiming(component.scheduling), depth: depth)
    }
}

/// The effect engine: feeds events into the pure ``EffectMachine`` and performs the steps it
/// returns — subscribes components, opens and feeds channels, runs timers on the injected clock —
/// and sends the actions effects emit out through its ``EffectOutlet``, tagged with their causal
/// depth. Supervision decides what happens to its channels and hands the engine
/// ``ChannelOperation``s to perform.
///
/// Effect or channel code the engine runs may call it back synchronously (a cancel, a schedule, a
/// dispatch): what arrives while an event's step is performed waits, then runs in arrival order.
/// Completions of registered runs come back through the outlet, after the actions they follow:
/// the Store hands each to ``finished(_:)`` on the main actor. Anonymous `Effect.task`s that start
/// at once skip the registry: they are linked into the outlet's list while their task runs, and
/// cancelled at teardown. ``cancelAll()`` cancels each run, timer and channel exactly once.
@MainActor
@usableFromInline
internal final class EffectEngine<Action: Sendable> {
    @usableFromInline typealias Payload = EnginePayload<Action>
    @usableFromInline typealias Step = EffectStep<Payload>

    /// The registry.
    // Unchecked: main actor only; each access is one machine call, and no step is performed inside one.
    @exclusivity(unchecked) @usableFromInline var machine = EffectMachine<Payload>()
    @usableFromInline let clock: EngineClock
    /// Where emitted actions (and ended runs) go; callable from any thread.
    @usableFromInline let outlet: EffectOutlet<Action>
    /// Anonymous `Effect.task` runs started at once, outside the machine's registry.
    @usableFromInline var anonymousRuns: AnonymousTaskRuns<Action> { outlet.anonymousRuns }
    /// Whether an event's step is being performed: events arriving meanwhile are deferred.
    // Unchecked: main actor only; read and written in single statements.
    @exclusivity(unchecked) @usableFromInline var isBusy = false
    /// Events that arrived while a step was performed, run after it in arrival order.
    private var deferred: [Event] = [] {
        didSet { hasDeferred = !deferred.isEmpty }
    }
    /// Whether `deferred` holds an event: read inline after every event, so the common case
    /// (nothing deferred) frees the engine without calling unspecialised code.
    // Unchecked: main actor only; written by `deferred`'s observer, read in single statements.
    @exclusivity(unchecked) @usableFromInline var hasDeferred = false
    /// Ids cancelled by a cancel-only component since supervision last asked (see
    /// ``takeCancelledIDs()``), recorded once supervision asked once.
    // Unchecked: main actor only; read and written in single statements.
    @exclusivity(unchecked) @usableFromInline var cancelled = CancelledIDs()

    /// One event. Values, not closures: deferring one allocates nothing beyond the queue.
    private enum Event {
        case schedule(Payload, key: AnyHashableSendable?, timing: ScheduleTiming, traits: ChannelTraits?)
        case operations([ChannelOperation<Action>], depth: Int)
        case cancel(AnyHashableSendable)
        case cancelAll
        case complete(AnyHashableSendable, generation: UInt64)
        /// The machine's wake fired: its due timers fire, one event each.
        case wake
        /// The next due timer fires (behind the events deferred while the one before it fired).
        case fireDue
        /// An effect's synchronous action, posted behind the events deferred before it.
        case post(DispatchedAction<Action>, depth: Int)
    }

    @usableFromInline
    init(clock: EngineClock, outlet: EffectOutlet<Action>) {
        self.clock = clock
        self.outlet = outlet
    }

    // MARK: Events

    /// Schedules one component (phase 4) whose actions carry `depth`. Inlinable with the machine's
    /// scheduling path, so a keyed, replacing, debounced, throttled or delayed effect reaches its
    /// start in code specialised for the Store's types.
    @inlinable
    func schedule(_ component: consuming Effect<Action>.Component, depth: Int) {
        if component.startsTaskAtOnceByKey, !isBusy, case .task = component.work, let key = component.scheduling.id {
            if case .task(let work) = component.takeWork() { startKeyedTask(work, key: key, depth: depth) }
            return
        }
        // Taken apart, each part moved: the payload keeps what a run needs, the id goes to the
        // machine's registry.
        // A component without a channel never touches its optional payload but to move it.
        let traits = component.hasChannel ? component.channel.map(ChannelTraits.init) : nil
        let (work, scheduling, channel, owner) = (consume component).parts()
        let timing = ScheduleTiming(scheduling)
        if timing.cancelsOnly, cancelled.isRecording, let id = scheduling.id { cancelled.ids.insert(id) }
        if let owner, let key = scheduling.id, !timing.cancelsOnly { registerOwner(owner, of: key) }
        let payload = EnginePayload(work: consume work, channel: consume channel, timing: timing, depth: depth)
        guard !isBusy else {
            deferSchedule(payload, key: (consume scheduling).id, timing: timing, traits: traits)
            return
        }
        isBusy = true
        // The clock is read only when the scheduling uses time (a delay, coalescing or a
        // channel's settle and pacing): reading it is a call through the injected closure.
        let now = timing.isTimeless && traits == nil ? .zero : clock.now()
        perform(machine.schedule(consume payload, key: (consume scheduling).id, timing: timing, traits: traits, now: now), now: now)
        endOperation()
    }

    /// Starts an `Effect.task` registered under `key` at once (keyed or replacing, no delay, no
    /// coalescing, no owner): its work is moved into its run, and no payload is built.
    @inlinable
    func startKeyedTask(_ work: consuming TaskWork<Action>, key: consuming AnyHashableSendable, depth: Int) {
        isBusy = true
        let (slot, generation, cancels) = machine.startAtOnce(key: key)
        cancelTokens(cancels)
        // Started here, not in a closure: the work and the key are moved into the run.
        let run = EffectTaskRun(work: consume work, outlet: outlet, depth: depth, key: consume key, generation: generation)
        run.startFromMainActor()
        machine.subscribed(slot: slot, generation: generation, run: run)
        endOperation()
    }

    /// Frees the engine after an event, first running whatever was deferred meanwhile.
    @inlinable
    func endOperation() {
        if hasDeferred { drainDeferred() } else { isBusy = false }
    }

    /// Starts an anonymous `Effect.task` at once (no id, no delay, no coalescing): one run object
    /// and its `Task`, linked among the anonymous runs until its task ends. Its actions carry
    /// `depth`. Inlinable, so it runs specialised in the Store's phase 4.
    @inlinable
    func startAnonymousTask(_ work: consuming TaskWork<Action>, depth: Int) {
        // Moved into the run (borrowed, the work was copied: its body and source retained).
        let run = EffectTaskRun(work: consume work, outlet: outlet, depth: depth, key: nil, generation: 0)
        // Linked before its task exists: the run unlinks itself when the task ends.
        outlet.linkAnonymous(run)
        run.start()
    }

    /// A registered run posted to the mailbox when it ended (on the main actor, after its
    /// actions): the registry forgets it. A stale run (cancelled, replaced) is ignored.
    @inlinable
    func finished(_ run: EffectRun) {
        guard let key = run.key else { return }
        guard !isBusy else {
            deferCompletion(key, generation: run.generation)
            return
        }
        isBusy = true
        cancelTokens(machine.complete(key: key, generation: run.generation))
        endOperation()
    }

    /// Performs supervision's decisions for its channels, in order, behind whatever event is
    /// being performed.
    @inlinable
    func perform(_ operations: [ChannelOperation<Action>], depth: Int) {
        guard !operations.isEmpty else { return }
        guard !isBusy else {
            deferOperations(operations, depth: depth)
            return
        }
        isBusy = true
        performOperations(operations, depth: depth)
        endOperation()
    }

    @inlinable
    func performOperations(_ operations: [ChannelOperation<Action>], depth: Int) {
        let now = clock.now()
        for index in operations.indices {
            switch operations[index] {
            case .close(let key):
                cancelTokens(machine.cancel(key: key))
            case .open(let request):
                let payload = EnginePayload(component: request.component, depth: depth)
                perform(machine.scheduleChannel(payload, traits: request.traits, key: request.key, now: now), now: now)
            case .recreate(let request):
                cancelTokens(machine.cancel(key: request.key))
                let payload = EnginePayload(component: request.component, depth: depth)
                perform(machine.openAfterSettle(payload, traits: request.traits, key: request.key, settle: request.settle, now: now), now: now)
            case .redeliver(let request):
                let payload = EnginePayload(component: request.component, depth: depth)
                perform(machine.redeliver(payload, traits: request.traits, key: request.key, now: now), now: now)
            }
        }
    }

    /// Delivers a changed broadcast value into the channel under `key`, as a lone
    /// ``ChannelOperation/redeliver(_:)`` would: one supervised element's feed builds no request
    /// and no list of operations.
    @inlinable
    func redeliver(key: AnyHashableSendable, component: Effect<Action>.Component, traits: ChannelTraits, depth: Int) {
        guard !isBusy else {
            deferOperations([.redeliver(ChannelRequest(key: key, component: component, traits: traits, settle: nil))], depth: depth)
            return
        }
        isBusy = true
        let now = clock.now()
        perform(machine.redeliver(EnginePayload(component: component, depth: depth), traits: traits, key: key, now: now), now: now)
        endOperation()
    }

    /// Delivers a changed broadcast `value` into the live channel under `key` when the machine
    /// would deliver it there at once (see `EffectMachine.immediateSink(for:)`), as a lone
    /// ``ChannelOperation/redeliver(_:)`` would; `false`, having done nothing, otherwise (the
    /// caller then redelivers the channel's payload).
    @inlinable
    func deliverIfLive(_ value: any Sendable, key: AnyHashableSendable) -> Bool {
        guard !isBusy, let sink = machine.immediateSink(for: key) else { return false }
        isBusy = true
        sink(value)
        endOperation()
        return true
    }

    /// Cancels everything under `key`.
    func cancel(key: AnyHashableSendable) {
        run(.cancel(key))
    }

    /// Cancels everything: runs, timers, channels.
    func cancelAll() {
        for run in anonymousRuns.linked() { run.cancelRun() }
        run(.cancelAll)
    }

    /// Whether ``takeCancelledIDs()`` would return any id (asking starts no recording).
    @inlinable
    var hasCancelledIDs: Bool { !cancelled.ids.isEmpty }

    /// The ids cancel-only components cancelled since the last call: supervision keeps a channel
    /// cancelled by id closed until it leaves the desired set. Recording starts with the first
    /// call (before it, supervision remembers no channel).
    @inlinable
    func takeCancelledIDs() -> Set<AnyHashableSendable> {
        cancelled.isRecording = true
        guard !cancelled.ids.isEmpty else { return [] }
        defer { cancelled.ids = [] }
        return cancelled.ids
    }

    /// The wake the machine asked for fired (on the main actor).
    @usableFromInline
    func wake() {
        run(.wake)
    }

    // MARK: Deferral

    @usableFromInline
    func deferSchedule(_ payload: Payload, key: AnyHashableSendable?, timing: ScheduleTiming, traits: ChannelTraits?) {
        deferred.append(.schedule(payload, key: key, timing: timing, traits: traits))
    }

    @usableFromInline
    func deferOperations(_ operations: [ChannelOperation<Action>], depth: Int) {
        deferred.append(.operations(operations, depth: depth))
    }

    /// Queues the post of an effect's synchronous action (an `Effect.just`) behind the events
    /// deferred while a step is performed: posted at once, it would overtake a keyed or delayed
    /// component of the same effect (or of an earlier one) that starts once the engine is free.
    /// Call only while ``hasDeferred``.
    @usableFromInline
    func deferPost(_ action: consuming DispatchedAction<Action>, depth: Int) {
        deferred.append(.post(action, depth: depth))
    }

    @usableFromInline
    func deferCompletion(_ key: AnyHashableSendable, generation: UInt64) {
        deferred.append(.complete(key, generation: generation))
    }

    /// Runs an event now, or after the one being performed.
    private func run(_ event: Event) {
        if isBusy {
            deferred.append(event)
            return
        }
        isBusy = true
        handle(event)
        endOperation()
    }

    /// Runs the events deferred while the engine was busy, in arrival order, then frees it.
    @usableFromInline
    func drainDeferred() {
        var next = 0
        while next < deferred.count {
            let event = deferred[next]
            next += 1
            handle(event)
        }
        deferred.removeAll(keepingCapacity: true)
        isBusy = false
    }

    private func handle(_ event: Event) {
        switch event {
        case .schedule(let payload, let key, let timing, let traits):
            let now = clock.now()
            perform(machine.schedule(payload, key: key, timing: timing, traits: traits, now: now), now: now)
        case .operations(let operations, let depth):
            performOperations(operations, depth: depth)
        case .cancel(let key):
            cancelTokens(machine.cancel(key: key))
        case .cancelAll:
            for key in machine.registeredKeys { cancelTokens(machine.cancel(key: key)) }
        case .complete(let key, let generation):
            cancelTokens(machine.complete(key: key, generation: generation))
        case .wake:
            machine.wakeFired()
            fireDueTimer()
        case .fireDue:
            fireDueTimer()
        case .post(let action, let depth):
            outlet.letter(action, depth)
        }
    }

    /// Fires the earliest timer when it is due, then queues the next one behind what its step
    /// deferred, as if each timer were its own event; once none is due, rearms the wake.
    private func fireDueTimer() {
        let now = clock.now()
        if let timer = machine.takeDueTimer(now: now) {
            perform(machine.timerFired(timer, now: now), now: now)
            deferred.append(.fireDue)
        } else {
            perform(machine.rearm(), now: now)
        }
    }

    // MARK: Element ownership

    /// The owner of each key scheduled by a collection element, pruned lazily.
    // Unchecked: main actor only; no access calls out of the engine while it lasts.
    @exclusivity(unchecked) @usableFromInline var owners: [AnyHashableSendable: EffectOwner] = [:]
    private var ownersPruneThreshold = 64

    /// Whether some registered effect belongs to a collection element.
    @inlinable var hasOwnedEffects: Bool { !owners.isEmpty }

    @usableFromInline
    func registerOwner(_ owner: EffectOwner, of key: AnyHashableSendable) {
        owners[key] = owner
        if owners.count > ownersPruneThreshold {
            // Amortised O(1): keys whose runs ended are dropped when the table doubles.
            if !isBusy { owners = owners.filter { machine.isRegistered($0.key) } }
            ownersPruneThreshold = max(64, owners.count * 2)
        }
    }

    /// Cancels every effect whose element is no longer in the lent `state` (read only by the
    /// owners' checks): called after a mutation that may have removed elements. One presence check per element, whatever the number of its effects.
    func cancelEffectsOfAbsentElements(state: LentState) {
        // Also while busy (effect code dispatching from inside an event): the cancels are then
        // deferred, in order, like any event, and the registry is not consulted.
        guard !owners.isEmpty else { return }
        var presence: [AnyHashableSendable: Bool] = [:]
        var absent: [AnyHashableSendable] = []
        for (key, owner) in owners {
            if !isBusy, !machine.isRegistered(key) {
                absent.append(key)
                continue
            }
            let present: Bool
            if let known = presence[owner.key] {
                present = known
            } else {
                // An owner built for another state type cannot be judged: it is kept.
                present = owner.isPresent(state) ?? true
                presence[owner.key] = present
            }
            if !present {
                absent.append(key)
                run(.cancel(key))
            }
        }
        for key in absent { owners[key] = nil }
    }

    // MARK: Inspection

    /// Keys with a live channel. Read from effect code while busy, this is the last settled
    /// answer.
    var openChannelKeys: [AnyHashableSendable] {
        if !isBusy { settledOpenChannelKeys = machine.openChannelKeys }
        return settledOpenChannelKeys
    }

    /// Whether nothing but live channels remains (no run, no pending timer); `false` while busy.
    var isQuiescent: Bool { isBusy ? false : anonymousRuns.runningCount == 0 && machine.isQuiescent }

    /// Whether a one-shot run (anonymous or registered) is live: something that may still send
    /// without a timer firing. `true` while busy.
    var hasRunningWork: Bool { isBusy || anonymousRuns.runningCount > 0 || machine.hasRunningWork }

    /// The number of keys the registry holds, plus the anonymous runs (the last settled count
    /// while busy).
    var liveKeyCount: Int {
        if !isBusy { settledLiveKeyCount = machine.liveKeyCount }
        return settledLiveKeyCount + anonymousRuns.runningCount
    }

    /// Everything the registry still holds, named for diagnostics; empty while busy.
    var pendingEffects: [PendingEffect] {
        guard !isBusy else { return [] }
        let anonymous = [PendingEffect](repeating: PendingEffect(id: nil, kind: .running), count: anonymousRuns.runningCount)
        return anonymous + machine.holdings.map { PendingEffect($0.key, $0.holding) }
    }

    private var settledOpenChannelKeys: [AnyHashableSendable] = []
    private var settledLiveKeyCount = 0
}

extension PendingEffect {
    /// What the registry holds under `key`, named.
    fileprivate init<Action: Sendable>(_ key: AnyHashableSendable, _ holding: EffectMachine<EnginePayload<Action>>.Holding) {
        let id: AnyHashableSendable? = key.base is AnonymousEffectKey ? nil : key
        switch holding {
        case .running:
            self.init(id: id, kind: .running)
        case .waitingToStart(let payload):
            var debounce: Duration?
            if case .debounce(let window)? = payload.timing.coalesce { debounce = window }
            self.init(id: id, kind: .waitingToStart(delay: payload.timing.delay, debounce: debounce))
        case .openChannel:
            self.init(id: id, kind: .openChannel)
        case .pendingDelivery(let delivery):
            var debounce: Duration?
            if case .debounce(let window)? = delivery { debounce = window }
            self.init(id: id, kind: .pendingDelivery(debounce: debounce))
        case .settling:
            self.init(id: id, kind: .settling)
        }
    }
}

/// The ids cancel-only components cancelled since supervision last asked, and whether anyone asks.
@usableFromInline
internal struct CancelledIDs {
    /// Whether cancellations are recorded (from supervision's first question on).
    @usableFromInline var isRecording = false
    /// A set: it holds the distinct ids cancelled between two reconciles.
    @usableFromInline var ids: Set<AnyHashableSendable> = []

    @inlinable init() {}
}
