import Foundation

/// What the engine schedules: a component and the causal depth its actions will carry.
@usableFromInline
internal struct EnginePayload<Action: Sendable>: Sendable {
    @usableFromInline let component: Effect<Action>.Component
    @usableFromInline let depth: Int

    @inlinable
    init(component: Effect<Action>.Component, depth: Int) {
        self.component = component
        self.depth = depth
    }
}

/// The effect engine: performs what the pure ``EffectMachine`` decides — subscribes components,
/// opens and feeds channels, runs timers on the injected clock — and sends the actions effects
/// emit to the Store's mailbox, tagged with their causal depth.
///
/// Completions of registered runs come back through the same mailbox, after the actions they
/// follow: an ended run is posted as an entry, and the Store hands it to ``finished(_:)`` on the
/// main actor — no extra task per completion. Anonymous `Effect.task`s that start at once skip the
/// keyed registry and post nothing when they end: they are linked into a list when they start,
/// leave it from their own thread when their task ends, and are cancelled at teardown.
///
/// ``cancelAll()`` (the Store's teardown) cancels each run, timer and channel exactly once.
@MainActor
@usableFromInline
internal final class EffectEngine<Action: Sendable>: EffectInterpreter {
    @usableFromInline typealias Payload = EnginePayload<Action>

    /// The registry. Unchecked: only the main actor touches it, and the engine never enters it
    /// twice at once (`isBusy` defers whatever is reported while an operation runs); checked, each
    /// operation paid dynamic exclusivity checks (about 600 instructions a keyed task).
    @exclusivity(unchecked) @usableFromInline var machine = EffectMachine<Payload>()
    @usableFromInline let clock: EngineClock
    /// Where emitted actions (and ended runs) go; callable from any thread.
    @usableFromInline let posting: MailboxPosting<Action>
    /// Anonymous `Effect.task` runs started at once, outside the machine's registry: linked in
    /// when they start, each unlinks itself when its task ends (see ``AnonymousTaskRuns``).
    @usableFromInline var anonymousRuns: AnonymousTaskRuns<Action> { posting.anonymousRuns }
    @exclusivity(unchecked) @usableFromInline var isBusy = false
    @usableFromInline var reconcileBuffer: [ReconcileEntry<Payload>] = []
    /// Work reported while a machine operation runs, performed after it in arrival order.
    private var deferred: [Operation] = [] {
        didSet { hasDeferred = !deferred.isEmpty }
    }
    /// Whether `deferred` holds an operation: read inline after every operation, so the common
    /// case (nothing deferred) frees the machine without calling unspecialised code.
    @exclusivity(unchecked) @usableFromInline var hasDeferred = false

    /// One machine operation. Values, not closures: queueing one allocates nothing beyond the queue.
    private enum Operation {
        case schedule(Payload, EffectScheduling, ChannelTraits?)
        case reconcile([ReconcileEntry<Payload>])
        case cancel(AnyHashableSendable)
        case cancelAll
        case complete(AnyHashableSendable, generation: UInt64)
        case timerFired(AnyHashableSendable, generation: UInt64, purpose: EffectTimerPurpose)
        /// An effect's synchronous action, posted behind the operations deferred before it.
        case post(DispatchedAction<Action>, depth: Int)
    }

    @usableFromInline
    init(clock: EngineClock, posting: MailboxPosting<Action>) {
        self.clock = clock
        self.posting = posting
        channelLayout = (
            MemoryLayout<Channel<Action>>.stride,
            MemoryLayout<Channel<Action>>.offset(of: \Channel<Action>.identity)!,
            MemoryLayout<Channel<Action>>.offset(of: \Channel<Action>.declaration)!
        )
    }

    /// A channel's stride and the offsets of its identity and of its declaration's reference,
    /// worked out once for the comparison loop of `matchingEnds`, which reads channels as raw
    /// memory. Both are stored properties of a struct, so their offsets exist.
    @usableFromInline let channelLayout: (stride: Int, identity: Int, declaration: Int)

    // MARK: Operations

    /// Schedules one component (phase 4) whose actions carry `depth`. Inlinable with the machine's
    /// scheduling path, so a keyed, replacing, debounced, throttled or delayed effect reaches its
    /// start in code specialised for the Store's types.
    @inlinable
    func schedule(_ component: consuming Effect<Action>.Component, depth: Int) {
        if component.startsTaskAtOnceByKey, !isBusy, case .task = component.work, let key = component.scheduling.id {
            if case .task(let work) = component.takeWork() { startKeyedTask(work, key: key, depth: depth) }
            return
        }
        if let owner = component.owner, let key = component.scheduling.id, !component.scheduling.cancelsOnly {
            registerOwner(owner, of: key)
        }
        let traits = component.channel.map(Self.traits)
        let scheduling = component.scheduling
        let payload = EnginePayload(component: component, depth: depth)
        guard !isBusy else {
            deferSchedule(payload, scheduling, traits)
            return
        }
        isBusy = true
        // The clock is read only when the scheduling uses time (a delay, coalescing or a
        // channel's settle and pacing): reading it is a call through the injected closure.
        let now = scheduling.delay == nil && scheduling.coalesce == nil && traits == nil ? .zero : clock.now()
        machine.schedule(payload, scheduling: scheduling, traits: traits, now: now, using: self)
        endOperation()
    }

    /// Starts an `Effect.task` registered under `key` at once (keyed or replacing, no delay, no
    /// coalescing, no owner): its work is moved into its run, and no payload is built.
    @inlinable
    func startKeyedTask(_ work: consuming TaskWork<Action>, key: consuming AnyHashableSendable, depth: Int) {
        isBusy = true
        // Started between the machine's two halves, not in a closure it calls: the work and the
        // key are moved into the run instead of captured and copied.
        let (slot, generation) = machine.beginAtOnce(key: key)
        let run = EffectTaskRun(work: consume work, posting: posting, depth: depth, key: consume key, generation: generation)
        run.startFromMainActor()
        machine.setOneShot(slot, generation: generation, run)
        endOperation()
    }

    /// Frees the machine after an operation, first running whatever was deferred meanwhile.
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
        let run = EffectTaskRun(work: consume work, posting: posting, depth: depth, key: nil, generation: 0)
        // Linked before its task exists: the run unlinks itself when the task ends.
        posting.linkAnonymous(run)
        run.start()
    }

    /// The anonymous runs still running.
    private var runningAnonymousCount: Int { anonymousRuns.runningCount }

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
        machine.complete(key: key, generation: run.generation, using: self)
        endOperation()
    }

    /// Queues a schedule requested while the machine is mid-operation.
    @usableFromInline
    func deferSchedule(_ payload: Payload, _ scheduling: EffectScheduling, _ traits: ChannelTraits?) {
        deferred.append(.schedule(payload, scheduling, traits))
    }

    /// Queues the post of an effect's synchronous action (an `Effect.just`) behind the
    /// operations deferred while the machine is mid-operation: posted at once, it would overtake
    /// a keyed or delayed component of the same effect (or of an earlier one) that starts
    /// synchronously once the machine is free. Call only while ``hasDeferred``.
    /// Queues a reconcile of `entries` behind the operation that keeps the machine busy.
    @usableFromInline
    func deferReconcile(_ entries: [ReconcileEntry<Payload>]) {
        deferred.append(.reconcile(entries))
    }

    @usableFromInline
    func deferPost(_ action: consuming DispatchedAction<Action>, depth: Int) {
        deferred.append(.post(action, depth: depth))
    }

    /// Queues a completion reported while the machine is mid-operation.
    @usableFromInline
    func deferCompletion(_ key: AnyHashableSendable, generation: UInt64) {
        deferred.append(.complete(key, generation: generation))
    }

    // MARK: Element ownership

    /// The owner of each key scheduled by a collection element, pruned lazily. Unchecked: only
    /// the main actor touches it and no access overlaps another; checked, every dispatch paid a
    /// dynamic exclusivity check to read `hasOwnedEffects`.
    @exclusivity(unchecked) @usableFromInline var owners: [AnyHashableSendable: EffectOwner] = [:]
    private var ownersPruneThreshold = 64

    /// Whether some registered effect belongs to a collection element.
    @inlinable var hasOwnedEffects: Bool { !owners.isEmpty }

    @usableFromInline
    func registerOwner(_ owner: EffectOwner, of key: AnyHashableSendable) {
        owners[key] = owner
        if owners.count > ownersPruneThreshold {
            // Amortised O(1): keys whose runs ended are dropped when the table doubles.
            if !isBusy { owners = owners.filter { machine.slotIndex[$0.key] != nil } }
            ownersPruneThreshold = max(64, owners.count * 2)
        }
    }

    /// Cancels every effect whose element is no longer in the state at `pointer` (of the type
    /// `type`): called after a mutation that may have removed elements. One presence check per
    /// element, whatever the number of its effects.
    func cancelEffectsOfAbsentElements(state pointer: UnsafeRawPointer, type: ObjectIdentifier) {
        // Also while the machine is busy (effect code dispatching from inside an engine
        // operation): the cancels are then deferred, in order, like any operation, and the
        // registry is not consulted (it may be mid-change).
        guard !owners.isEmpty else { return }
        var presence: [AnyHashableSendable: Bool] = [:]
        var absent: [AnyHashableSendable] = []
        for (key, owner) in owners {
            if !isBusy, machine.slotIndex[key] == nil {
                absent.append(key)
                continue
            }
            let present: Bool
            if let known = presence[owner.key] {
                present = known
            } else {
                // An owner built for another state type cannot be judged: it is kept.
                present = owner.isPresent(pointer, type) ?? true
                presence[owner.key] = present
            }
            if !present {
                absent.append(key)
                perform(.cancel(key))
            }
        }
        for key in absent { owners[key] = nil }
    }

    /// Reconciles the supervised channels (phase 5): `sets[s]` holds the channels segment `s`
    /// (one supervision unit) wants, `orders[s]` their container orders (empty: their positions).
    /// Returns whether the set differed from the last one.
    @discardableResult @inlinable
    func reconcile(_ sets: [Keep<Action>], orders: [[UInt64]], depth: Int) -> Bool {
        // An unchanged desired set is recognised from the channels' identities alone: nothing is
        // built and nothing allocated. A set that differs from memory in one short run of
        // positions (a channel changed, one left and another came in its place) is reconciled
        // as that run alone.
        var total = 0
        for index in sets.indices { total += sets[index].count }
        if !isBusy, machine.memoryIsInDesiredOrder {
            let (prefix, suffix) = matchingEnds(sets, total: total)
            if prefix == total, total == machine.reconciledCount { return false }
            let span = prefix..<(total - suffix)
            if span.count == machine.reconciledCount - prefix - suffix, span.count <= max(8, total / 4) {
                var entries = reconcileBuffer
                reconcileBuffer = []
                entries.removeAll(keepingCapacity: true)
                var start = 0
                for segment in sets.indices {
                    let end = start + sets[segment].count
                    let lower = max(start, span.lowerBound)
                    let upper = min(end, span.upperBound)
                    if lower < upper {
                        appendEntries(
                            sets[segment], (lower - start)..<(upper - start), segment: segment, orders: orders[segment], depth: depth, to: &entries)
                    }
                    start = end
                }
                isBusy = true
                let done = machine.reconcileSpan(span, desired: entries, now: clock.now(), using: self)
                endOperation()
                entries.removeAll(keepingCapacity: true)
                reconcileBuffer = entries
                if done { return true }
            }
        } else if !isBusy, matchesByKey(sets) {
            return false
        }
        // A reused buffer for the entries of a changed set.
        var entries = reconcileBuffer
        reconcileBuffer = []
        entries.removeAll(keepingCapacity: true)
        for segment in sets.indices {
            appendEntries(sets[segment], 0..<sets[segment].count, segment: segment, orders: orders[segment], depth: depth, to: &entries)
        }
        if isBusy {
            deferReconcile(entries)
        } else {
            isBusy = true
            machine.reconcile(entries, now: clock.now(), using: self)
            endOperation()
        }
        entries.removeAll(keepingCapacity: true)
        reconcileBuffer = entries
        return true
    }

    /// How many positions of `sets`, concatenated, equal reconcile memory (which is in desired
    /// order) from the front, and then from the back. Each channel's identity is 32 bytes of plain
    /// data at a fixed offset of a 40-byte channel, compared with the 32 bytes memory keeps for it:
    /// the loop streams 72 bytes per channel and copies nothing. Keys that are not all `Int`s are
    /// then compared in place through the channel's declaration. No allocation.
    @inlinable
    func matchingEnds(_ sets: [Keep<Action>], total: Int) -> (prefix: Int, suffix: Int) {
        let remembered = machine.reconciledCount
        return machine.withMemoryInOrder { identities, keys, resets, broadcasts in
            let (stride, identityOffset, declarationOffset) = channelLayout
            func same(_ channel: UnsafeRawPointer, _ at: Int) -> Bool {
                let identity = (channel + identityOffset).assumingMemoryBound(to: ChannelIdentity.self)
                guard identity.pointee == identities[at] else { return false }
                if identity.pointee.isExact { return true }
                return channelHasRememberedKeys(channel + declarationOffset, keys.baseAddress!, resets.baseAddress!, broadcasts.baseAddress!, at)
            }
            // From the front.
            var prefix = 0
            scan: for index in sets.indices {
                let count = sets[index].withUnsafeBufferPointer { buffer -> Int in
                    guard let first = buffer.baseAddress else { return 0 }
                    let base = UnsafeRawPointer(first)
                    var offset = 0
                    while offset < buffer.count, prefix &+ offset < remembered, same(base + offset &* stride, prefix &+ offset) { offset &+= 1 }
                    return offset
                }
                prefix &+= count
                if count < sets[index].count { break scan }
            }
            // From the back, not overlapping the front.
            var suffix = 0
            let limit = min(total, remembered) - prefix
            back: for index in sets.indices.reversed() {
                let count = sets[index].withUnsafeBufferPointer { buffer -> Int in
                    guard let first = buffer.baseAddress else { return 0 }
                    let base = UnsafeRawPointer(first)
                    var offset = 0
                    while offset < buffer.count, suffix &+ offset < limit,
                        same(base + (buffer.count &- 1 &- offset) &* stride, remembered &- 1 &- suffix &- offset)
                    {
                        offset &+= 1
                    }
                    return offset
                }
                suffix &+= count
                if count < sets[index].count || suffix >= limit { break back }
            }
            return (prefix, suffix)
        }
    }

    /// Whether `sets`, concatenated, are the desired set reconcile memory holds, compared by key
    /// (memory is not in desired order after partial reconciles).
    @inlinable
    func matchesByKey(_ sets: [Keep<Action>]) -> Bool {
        machine.beginMatch()
        for index in sets.indices {
            let going = sets[index].withUnsafeBufferPointer { buffer in
                for offset in 0..<buffer.count
                where !machine.matchNext(buffer[offset].id, reset: buffer[offset].resetIdentity, broadcast: buffer[offset].broadcastIdentity) {
                    return false
                }
                return true
            }
            if !going { return false }
        }
        return machine.endMatch()
    }

    /// Records new container orders for the channels of `set`: their elements moved while the
    /// desired set stayed the same.
    @inlinable
    func updateOrders(_ set: Keep<Action>, orders: [UInt64]) {
        guard !isBusy, orders.count == set.count else { return }
        set.withUnsafeBufferPointer { buffer in
            machine.updateOrders(count: buffer.count) { (buffer[$0].id, orders[$0]) }
        }
    }

    /// Whether the channels one part of the desired set wants (in container `orders`; empty:
    /// their positions in `segment`) are the ones it wanted (`previous`), unchanged and in the
    /// same order. `false` while the machine is mid-operation. No allocation.
    @inlinable
    func patchMatches(_ segment: Int, previous: some RandomAccessCollection<AnyHashableSendable>, channels: Keep<Action>, orders: [UInt64]) -> Bool {
        guard !isBusy else { return false }
        return channels.withUnsafeBufferPointer { buffer in
            machine.segmentMatches(
                segment: segment, previousCount: previous.count, previousKey: { previous[previous.index(previous.startIndex, offsetBy: $0)] },
                count: buffer.count,
                order: { orders.isEmpty ? containerOrder(segment: segment, ordinal: $0, index: 0) : orders[$0] }
            ) {
                (buffer[$0].id, buffer[$0].resetIdentity, buffer[$0].broadcastIdentity)
            }
        }
    }

    /// Whether `channels` (in container `orders`; empty: their positions) are exactly the channels
    /// reconcile memory holds for `segment`, unchanged and in the same order. `false` while the
    /// machine is mid-operation. No allocation, and no list of the segment's previous keys needed.
    @inlinable
    func segmentMatches(_ segment: Int, channels: Keep<Action>, orders: [UInt64]) -> Bool {
        guard !isBusy else { return false }
        return channels.withUnsafeBufferPointer { buffer in
            machine.wholeSegmentMatches(
                segment: segment, count: buffer.count,
                order: { orders.isEmpty ? containerOrder(segment: segment, ordinal: $0, index: 0) : orders[$0] }
            ) {
                (buffer[$0].id, buffer[$0].resetIdentity, buffer[$0].broadcastIdentity)
            }
        }
    }

    /// Reconciles parts of the desired set alone (see `EffectMachine.reconcilePatches`), leaving
    /// every other channel alone. Returns `false`, doing nothing, when that cannot be done soundly
    /// (the machine is mid-operation, a key would move between parts, duplicates): the caller then
    /// reconciles the full set.
    @inlinable
    func reconcilePatches(_ patches: [SegmentPatch<Action>], depth: Int) -> Bool {
        guard !isBusy else { return false }
        var machinePatches: [(segment: Int, previous: [AnyHashableSendable], desired: [ReconcileEntry<Payload>])] = []
        machinePatches.reserveCapacity(patches.count)
        for patch in patches {
            var entries: [ReconcileEntry<Payload>] = []
            entries.reserveCapacity(patch.channels.count)
            appendEntries(patch.channels, 0..<patch.channels.count, segment: patch.segment, orders: patch.orders, depth: depth, to: &entries)
            machinePatches.append((patch.segment, patch.previous, entries))
        }
        isBusy = true
        let done = machine.reconcilePatches(machinePatches, now: clock.now(), using: self)
        endOperation()
        return done
    }

    /// The entries of `channels[range]`, channels of `segment`; `orders` holds the container
    /// orders of all of `channels` (empty: their positions in the segment).
    @inlinable
    func appendEntries(
        _ channels: Keep<Action>, _ range: Range<Int>, segment: Int, orders: [UInt64], depth: Int, to entries: inout [ReconcileEntry<Payload>]
    ) {
        channels.withUnsafeBufferPointer { buffer in
            for index in range {
                guard let payload = buffer[index].component.channel else { continue }
                entries.append(
                    ReconcileEntry(
                        key: buffer[index].id,
                        reset: buffer[index].resetIdentity,
                        broadcast: buffer[index].broadcastIdentity,
                        settle: buffer[index].settle,
                        payload: EnginePayload(component: buffer[index].component, depth: depth),
                        traits: Self.traits(payload),
                        segment: segment,
                        order: orders.isEmpty ? containerOrder(segment: segment, ordinal: index, index: 0) : orders[index]
                    ))
            }
        }
    }

    /// Cancels everything under `key`.
    func cancel(key: AnyHashableSendable) {
        perform(.cancel(key))
    }

    /// Cancels everything: runs, timers, channels.
    func cancelAll() {
        for run in anonymousRuns.linked() { run.cancelRun() }
        perform(.cancelAll)
    }

    /// Keys with a live channel.
    /// Read from effect code while the machine is mid-operation, this is the last settled answer
    /// (reading the machine then would overlap its mutation).
    var openChannelKeys: [AnyHashableSendable] {
        if !isBusy { settledOpenChannelKeys = machine.openChannelKeys }
        return settledOpenChannelKeys
    }

    /// Whether nothing but live channels remains (no run, no pending timer); `false` while the
    /// machine is mid-operation.
    var isQuiescent: Bool { isBusy ? false : runningAnonymousCount == 0 && machine.isQuiescent }

    /// Whether a one-shot run (anonymous or registered) is live: something that may still send
    /// without a timer firing. `true` while the machine is mid-operation.
    var hasRunningWork: Bool { isBusy || runningAnonymousCount > 0 || machine.hasRunningWork }

    /// The number of keys the registry holds, plus the anonymous runs (the last settled count
    /// while mid-operation).
    var liveKeyCount: Int {
        if !isBusy { settledLiveKeyCount = machine.liveKeyCount }
        return settledLiveKeyCount + runningAnonymousCount
    }

    /// Everything the registry still holds, named for diagnostics; empty while the machine is
    /// mid-operation.
    var pendingEffects: [PendingEffect] {
        guard !isBusy else { return [] }
        let anonymous = [PendingEffect](repeating: PendingEffect(id: nil, kind: .running), count: runningAnonymousCount)
        return anonymous
            + machine.holdings.map { key, holding in
                let id: AnyHashableSendable? = key.base is AnonymousEffectKey ? nil : key
                switch holding {
                case .running:
                    return PendingEffect(id: id, kind: .running)
                case .waitingToStart(let payload):
                    let scheduling = payload.component.scheduling
                    var debounce: Duration?
                    if case .debounce(let window)? = scheduling.coalesce { debounce = window }
                    return PendingEffect(id: id, kind: .waitingToStart(delay: scheduling.delay, debounce: debounce))
                case .openChannel:
                    return PendingEffect(id: id, kind: .openChannel)
                case .pendingDelivery(let delivery):
                    var debounce: Duration?
                    if case .debounce(let window)? = delivery { debounce = window }
                    return PendingEffect(id: id, kind: .pendingDelivery(debounce: debounce))
                case .settling:
                    return PendingEffect(id: id, kind: .settling)
                }
            }
    }

    private var settledOpenChannelKeys: [AnyHashableSendable] = []
    private var settledLiveKeyCount = 0

    @usableFromInline @inline(__always)
    static func traits(_ payload: Effect<Action>.Component.ChannelPayload) -> ChannelTraits {
        ChannelTraits(isPipeOnly: payload.isPipeOnly, delivery: payload.delivery, deliversOnOpen: payload.deliversOnOpen)
    }

    /// Runs a machine operation. Anything reported meanwhile (a completion, a timer, or an
    /// operation requested by effect or channel code the interpreter is running, such as a
    /// synchronous cancel or dispatch) waits until it returns, then runs in arrival order: the
    /// machine is never entered twice at once.
    private func perform(_ operation: Operation) {
        if isBusy {
            deferred.append(operation)
            return
        }
        isBusy = true
        run(operation)
        endOperation()
    }

    /// Runs the operations deferred while the machine was busy, in arrival order, then frees it.
    @usableFromInline
    func drainDeferred() {
        var next = 0
        while next < deferred.count {
            let operation = deferred[next]
            next += 1
            run(operation)
        }
        deferred.removeAll(keepingCapacity: true)
        isBusy = false
    }

    private func run(_ operation: Operation) {
        switch operation {
        case .schedule(let payload, let scheduling, let traits):
            machine.schedule(payload, scheduling: scheduling, traits: traits, now: clock.now(), using: self)
        case .reconcile(let entries):
            machine.reconcile(entries, now: clock.now(), using: self)
        case .cancel(let key):
            machine.cancel(key: key, using: self)
        case .cancelAll:
            machine.cancelAll(using: self)
        case .complete(let key, let generation):
            machine.complete(key: key, generation: generation, using: self)
        case .timerFired(let key, let generation, let purpose):
            machine.timerFired(key: key, generation: generation, purpose: purpose, now: clock.now(), using: self)
        case .post(let action, let depth):
            posting.letter(action, depth)
        }
    }

    private func timerFired(key: AnyHashableSendable, generation: UInt64, purpose: EffectTimerPurpose) {
        perform(.timerFired(key, generation: generation, purpose: purpose))
    }

    @usableFromInline
    func sender(depth: Int) -> @Sendable (DispatchedAction<Action>) -> Void {
        let post = posting.letter
        return { post($0, depth) }
    }

    /// A completion callback safe to call from any thread, any number of times (only the first
    /// counts): it posts `ticket` to the mailbox, after the actions sent before it — unless the
    /// subscription has not returned yet, in which case the engine sees the end itself.
    @usableFromInline
    func completion(_ ticket: EffectRun) -> @Sendable () -> Void {
        let post = posting.finished
        return { if ticket.finish(), !ticket.endWhileOpening() { post(ticket) } }
    }

    // MARK: EffectInterpreter

    @inlinable
    func subscribe(_ payload: Payload, key: AnyHashableSendable, generation: UInt64) -> (any EffectCancellable)? {
        let component = payload.component
        switch component.work {
        case .task(let work):
            let run = EffectTaskRun(work: work, posting: posting, depth: payload.depth, key: key, generation: generation)
            run.startFromMainActor()
            return run
        case .just(let action):
            // Sends and completes during the subscription: nothing stays registered.
            posting.letter(action, payload.depth)
            return nil
        case .sequence(let actions):
            for action in actions { posting.letter(action, payload.depth) }
            return nil
        case .subscribe, .cancelOnly:
            let ticket = EffectRun(key: key, generation: generation)
            let token = component.subscribe(send: sender(depth: payload.depth), complete: completion(ticket))
            // Completed during the subscription: nothing stays registered.
            return ticket.register() ? token : nil
        }
    }

    @usableFromInline
    func open(_ payload: Payload, key: AnyHashableSendable, generation: UInt64) -> (token: SubscriptionToken, sink: @Sendable (any Sendable) -> Void)?
    {
        guard let channel = payload.component.channel, let start = channel.start else { return nil }
        let ticket = EffectRun(key: key, generation: generation)
        let opened = start(channel.value, sender(depth: payload.depth), completion(ticket))
        guard ticket.register() else {
            // The channel completed while opening (or its body threw): it is not left open.
            opened.token.cancel()
            return nil
        }
        return opened
    }

    @inlinable
    func deliver(_ payload: Payload, to sink: @Sendable (any Sendable) -> Void) {
        guard let value = payload.component.channel?.value else { return }
        sink(value)
    }

    @usableFromInline
    func startTimer(at deadline: Duration, key: AnyHashableSendable, generation: UInt64, purpose: EffectTimerPurpose) -> SubscriptionToken {
        clock.startTimer(deadline) { [weak self] in
            self?.timerFired(key: key, generation: generation, purpose: purpose)
        }
    }
}

/// Whether the channel whose declaration reference lies at `declaration` has the keys remembered
/// at position `at` of `keys`, `resets` and `broadcasts`, compared in place: the keys are read
/// through the declaration (a `ChannelKeys` whatever the action type) without retaining it, since
/// the desired set holds it. Out of line, so the comparison loop of `matchingEnds` keeps only the
/// two positions it streams through (inlined, its address arithmetic ran on every channel).
@usableFromInline @inline(never)
internal func channelHasRememberedKeys(
    _ declaration: UnsafeRawPointer, _ keys: UnsafePointer<AnyHashableSendable>, _ resets: UnsafePointer<AnyHashableSendable?>,
    _ broadcasts: UnsafePointer<AnyHashableSendable?>, _ at: Int
) -> Bool {
    Unmanaged<ChannelKeys>.fromOpaque(declaration.load(as: UnsafeRawPointer.self))._withUnsafeGuaranteedRef {
        $0.hasKeys(keys + at, reset: resets + at, broadcast: broadcasts + at)
    }
}

/// Runs `body` on the main actor: at once when already on it, else after a hop.
internal func onMainActor(_ body: @escaping @MainActor @Sendable () -> Void) {
    if isOnMainActor() {
        MainActor.assumeIsolated(body)
    } else {
        Task { @MainActor in body() }
    }
}

/// A tag on the main dispatch queue, set once: the main actor's work runs on that queue.
private let mainQueueTag: DispatchSpecificKey<UInt8> = {
    let key = DispatchSpecificKey<UInt8>()
    DispatchQueue.main.setSpecific(key: key, value: 1)
    return key
}()

/// Whether the caller runs on the main actor. The main thread is not enough to tell: once a
/// process parks its main thread in `dispatchMain()` (an async `main` on Linux does), the main
/// queue, and with it every main-actor job, is drained by whichever worker thread libdispatch
/// picks, where `Thread.isMainThread` is `false`.
internal func isOnMainActor() -> Bool {
    Thread.isMainThread || DispatchQueue.getSpecific(key: mainQueueTag) != nil
}
