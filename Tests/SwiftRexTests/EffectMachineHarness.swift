import Synchronization
import Testing

@testable import SwiftRex

// The effect machine driven as the engine drives it, without tasks: every step it returns is
// performed as readable events, what was started is reported back, and its timer queue's wake
// runs on a `ManualClock` (advanced by the tests); a timer can also be fired by hand, to show
// that a stale one does nothing.

/// Performs the steps of an `EffectMachine<String>` whose payloads are names, and records them.
///
/// Events:
/// - `subscribe <payload>` / `open <payload>`: a one-shot run starts / a channel opens;
/// - `deliver <value> to <channel>`: a value reaches a live channel's sink;
/// - `timer <purpose> <key> @<deadline>`: a timer is queued (or rescheduled in place);
/// - `cancel <payload>`: a live run or channel token is cancelled;
/// - `release <payload>`: the token of a run or channel that already completed is let go;
/// - `cancel timer <purpose> <key>`: a timer that has not fired left the queue (or was
///   rescheduled; a fired timer records nothing);
/// - `complete <payload>`: the test reported a completion;
/// - `refuse <payload>`: the channel did not open (as if it completed while opening).
@MainActor
final class MachineDriver {
    var machine = EffectMachine<String>()
    /// Supervision's side: decides what happens to supervised channels (see `reconcile(_:at:)`).
    var reconciler = ChannelReconciler<String>()
    let clock = ManualClock()
    /// Ids cancel-only components cancelled since the last reconcile, as the engine records them.
    private var cancelledIDs: Set<AnyHashableSendable> = []
    /// Payload names whose channel does not open.
    var refusingToOpen: Set<String> = []
    /// Every timer ever queued, in queueing order.
    private(set) var startedTimers: [EffectTimer] = []
    /// The name of the key each timer was queued under.
    private var timerKeys: [EffectTimer: String] = [:]
    /// The machine's queue as last seen: what left it since, unfired, was cancelled.
    private var queuedTimers: Set<EffectTimer> = []
    private var generations: [String: UInt64] = [:]

    /// Everything tokens touch lives behind a lock: a token may be released anywhere.
    private struct Record {
        var log: [String] = []
        var completed: Set<String> = []
    }

    private final class Shared: Sendable {
        let state = Mutex(Record())
        func withLock<R>(_ body: (inout Record) -> R) -> R { state.withLock { body(&$0) } }
    }

    private let record = Shared()

    var log: [String] { record.withLock { $0.log } }
    /// Timers queued and neither fired nor cancelled.
    var pendingTimers: [EffectTimer] { machine.timers.pending }
    func clearLog() { record.withLock { $0.log.removeAll() } }

    /// The latest timer started for `key` with `purpose` (fired, cancelled or pending).
    func timer(_ purpose: EffectTimerPurpose, _ key: String) -> EffectTimer? {
        startedTimers.last { $0.purpose == purpose && timerKeys[$0] == key }
    }

    /// How many times the token of `payload` ended (cancelled or released).
    func endings(of payload: String) -> Int {
        log.filter { $0 == "cancel \(payload)" || $0 == "release \(payload)" }.count
    }

    /// The generation the machine gave the run or channel named `payload`.
    func generation(of payload: String) -> UInt64 {
        guard let generation = generations[payload] else {
            Issue.record("\(payload) never started")
            return .max
        }
        return generation
    }

    // MARK: Events

    /// Schedules a one-shot component at `now`.
    func run(_ payload: String, _ scheduling: EffectScheduling, at now: Duration = .zero) {
        if scheduling.cancelsOnly, let id = scheduling.id { cancelledIDs.insert(id) }
        perform(machine.schedule(payload, scheduling: scheduling, traits: nil, now: now), now: now)
    }

    /// Schedules a channel payload (an open, a delivery or a broadcast) under `id`.
    func channel(_ payload: String, id: String, _ traits: ChannelTraits = .channel(), at now: Duration = .zero) {
        perform(machine.schedule(payload, scheduling: .keyed(id: id), traits: traits, now: now), now: now)
    }

    /// A reset-key change: closes what runs under `id`, then opens `payload` after `settle`.
    func recreate(_ payload: String, id: String, settle: Duration?, _ traits: ChannelTraits = .channel(), at now: Duration = .zero) {
        cancel(id)
        perform(machine.openAfterSettle(payload, traits: traits, key: key(id), settle: settle, now: now), now: now)
    }

    /// A broadcast change: delivers `payload` (or reopens), or swaps a settling re-creation's.
    func redeliver(_ payload: String, id: String, _ traits: ChannelTraits = .channel(), at now: Duration = .zero) {
        perform(machine.redeliver(payload, traits: traits, key: key(id), now: now), now: now)
    }

    /// Reconciles the supervised channels with `desired` at `now`: the reconciler decides, and
    /// each operation is performed as the engine performs it.
    func reconcile(_ desired: [ReconcileEntry<String>], at now: Duration = .zero) {
        reconciler.suppress(cancelledIDs)
        cancelledIDs.removeAll()
        reconciler.planFull(desired)
        let operations = reconciler.operations
        reconciler.operations.removeAll()
        for operation in operations {
            switch operation {
            case .close(let key):
                cancelTokens(machine.cancel(key: key))
            case .open(let request):
                perform(machine.scheduleChannel(Self.name(of: request), traits: request.traits, key: request.key, now: now), now: now)
            case .recreate(let request):
                cancelTokens(machine.cancel(key: request.key))
                let step = machine.openAfterSettle(Self.name(of: request), traits: request.traits, key: request.key, settle: request.settle, now: now)
                perform(step, now: now)
            case .redeliver(let request):
                perform(machine.redeliver(Self.name(of: request), traits: request.traits, key: request.key, now: now), now: now)
            }
        }
    }

    /// The payload name a test entry carries (see `entry(_:_:reset:broadcast:settle:delivery:)`).
    static func name(of request: ChannelRequest<String>) -> String {
        guard case .just(let action) = request.component.work else { return "?" }
        return action.action
    }

    /// Fires `timer` by hand at its deadline, pending or not.
    func fire(_ timer: EffectTimer?) {
        guard let timer else {
            Issue.record("no such timer")
            return
        }
        queuedTimers.remove(timer)
        perform(machine.timerFired(timer, now: timer.deadline), now: timer.deadline)
    }

    /// The wake fired: the due timers fire one by one, as the engine fires them, then the wake is
    /// armed again for the next.
    private func wake() {
        machine.wakeFired()
        let now = clock.now.offset
        while let timer = machine.takeDueTimer(now: now) {
            queuedTimers.remove(timer)
            perform(machine.timerFired(timer, now: now), now: now)
        }
        perform(machine.rearm(), now: now)
    }

    /// Moves the manual clock to `time`, firing the pending timers due by then, in deadline order.
    func advance(to time: Duration) {
        clock.advance(by: time - clock.now.offset)
    }

    /// Reports that the run or channel named `payload`, registered under `id`, completed.
    func finish(_ payload: String, id: AnyHashableSendable) {
        record.withLock {
            $0.completed.insert(payload)
            $0.log.append("complete \(payload)")
        }
        cancelTokens(machine.complete(key: id, generation: generation(of: payload)))
    }

    /// Reports a completion with the given generation.
    func complete(_ id: String, generation: UInt64) {
        cancelTokens(machine.complete(key: key(id), generation: generation))
    }

    func cancel(_ id: String) {
        cancelTokens(machine.cancel(key: key(id)))
    }

    func cancelAll() {
        for key in machine.registeredKeys { cancelTokens(machine.cancel(key: key)) }
    }

    // MARK: Performing steps, as the engine does

    /// Performs `step`; the timers the machine queued for it are logged after its cancels.
    private func perform(_ step: EffectStep<String>, now: Duration) {
        defer { logQueuedTimers() }
        logRemovedTimers()
        switch step {
        case .cancel(let cancels):
            cancelTokens(cancels)
        case .subscribe(let cancels, let payload, _, let slot, let generation):
            cancelTokens(cancels)
            append("subscribe \(payload)")
            generations[payload] = generation
            machine.subscribed(slot: slot, generation: generation, run: token(for: payload))
        case .open(let cancels, let payload, _, let slot, let generation, let traits):
            cancelTokens(cancels)
            guard !refusingToOpen.contains(payload) else {
                append("refuse \(payload)")
                machine.opened(slot: slot, generation: generation, channel: nil, traits: traits, now: now)
                return
            }
            append("open \(payload)")
            generations[payload] = generation
            let record = self.record
            let sink: @Sendable (any Sendable) -> Void = { value in record.withLock { $0.log.append("deliver \(value) to \(payload)") } }
            machine.opened(slot: slot, generation: generation, channel: (token(for: payload), sink), traits: traits, now: now)
        case .deliver(let cancels, let payload, let sink):
            cancelTokens(cancels)
            sink(payload)
        case .arm(let cancels, let deadline):
            cancelTokens(cancels)
            let onClock = clock.scheduleTimer(at: ManualClock.Instant(offset: deadline)) { [weak self] in self?.wake() }
            machine.wakeArmed(onClock)
        }
    }

    private func cancelTokens(_ cancels: EffectCancellations) {
        logRemovedTimers()
        cancels.first?.cancelRun()
        cancels.second?.cancelRun()
        cancels.third?.cancelRun()
    }

    /// Logs the timers that left the machine's queue unfired since it was last seen.
    private func logRemovedTimers() {
        let queued = Set(machine.timers.pending)
        for timer in queuedTimers.subtracting(queued).sorted(by: { $0.purpose.rawValue < $1.purpose.rawValue }) {
            append("cancel timer \(timer.purpose) \(timerKeys[timer] ?? "?")")
            queuedTimers.remove(timer)
        }
    }

    /// Logs the timers queued since the machine's queue was last seen.
    private func logQueuedTimers() {
        let queued = Set(machine.timers.pending)
        for timer in queued.subtracting(queuedTimers).sorted(by: { $0.generation < $1.generation }) {
            let name = machine.slotKey[timer.slot].map(Self.name) ?? "?"
            startedTimers.append(timer)
            timerKeys[timer] = name
            append("timer \(timer.purpose) \(name) @\(Self.millis(timer.deadline))")
            queuedTimers.insert(timer)
        }
    }

    private func token(for payload: String) -> SubscriptionToken {
        let record = self.record
        return SubscriptionToken {
            record.withLock { record in
                record.log.append(record.completed.contains(payload) ? "release \(payload)" : "cancel \(payload)")
            }
        }
    }

    private func append(_ event: String) {
        record.withLock { $0.log.append(event) }
    }

    nonisolated static func name(_ key: AnyHashableSendable) -> String {
        if let anonymous = key.base as? AnonymousEffectKey { return "anon\(anonymous.value)" }
        return key.description
    }

    nonisolated static func millis(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        return "\(seconds * 1_000 + attoseconds / 1_000_000_000_000_000)ms"
    }
}

// MARK: - Test vocabulary

/// One supervised channel as reconcile sees it, its payload named `payload`; it delivers on open
/// iff it broadcasts.
func entry(
    _ id: String, _ payload: String, reset: String? = nil, broadcast: String? = nil, settle: Duration? = nil,
    delivery: ChannelDelivery = .immediate
) -> ReconcileEntry<String> {
    let traits = ChannelTraits.channel(delivery, deliversOnOpen: broadcast != nil)
    let channel = Effect<String>.Component.ChannelPayload(
        value: broadcast ?? payload, start: { _, _, _ in (.empty, { _ in }) }, delivery: delivery, deliversOnOpen: traits.deliversOnOpen)
    let component = Effect<String>.Component(
        work: .just(DispatchedAction(payload, dispatcher: ActionSource(file: "", function: "", line: 0))), scheduling: .keyed(id: id),
        channel: channel)
    return ReconcileEntry(
        key: key(id), reset: reset.map(AnyHashableSendable.init), broadcast: broadcast.map(AnyHashableSendable.init), settle: settle,
        component: component, traits: traits)
}

func ms(_ value: Int) -> Duration { .milliseconds(value) }

func key(_ name: String) -> AnyHashableSendable { AnyHashableSendable(name) }

extension ChannelTraits {
    /// An openable channel payload.
    static func channel(_ delivery: ChannelDelivery = .immediate, deliversOnOpen: Bool = true) -> ChannelTraits {
        ChannelTraits(isPipeOnly: false, delivery: delivery, deliversOnOpen: deliversOnOpen)
    }

    /// A pipe-only payload (`Effect.broadcast`).
    static let broadcast = ChannelTraits(isPipeOnly: true, delivery: .immediate, deliversOnOpen: false)
}
