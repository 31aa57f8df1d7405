import Synchronization
import Testing

@testable import SwiftRex

// Tests for the pure effect state machine — the rules of the EffectsAndScheduling and
// SupervisionAndChannels articles (Sources/SwiftRex/Documentation.docc) — driven through a
// recording interpreter. No tasks and no sleeping: time is the `now:` argument, and the
// tests fire timers and report completions by calling the machine explicitly.

// MARK: - Recording interpreter

/// A fake ``EffectInterpreter`` that records everything the machine asks for as readable events.
///
/// Payloads are names. Events:
/// - `subscribe <payload>` / `open <payload>`: a one-shot run starts / a channel opens;
/// - `deliver <value> to <channel>`: a value reaches a live channel's sink;
/// - `timer <purpose> <key> @<deadline>`: a timer starts;
/// - `cancel <payload>`: a live run or channel token is cancelled;
/// - `release <payload>`: the token of a run or channel that already completed is let go;
/// - `cancel timer <purpose> <key>`: a timer that has not fired is cancelled (cancelling a fired
///   timer is a no-op, as with a real clock, so it records nothing);
/// - `complete <payload>`: the test reported a completion.
@MainActor
final class RecordingInterpreter: EffectInterpreter {
    typealias Payload = String

    struct Timer: Equatable, Sendable {
        let key: AnyHashableSendable
        let generation: UInt64
        let purpose: EffectTimerPurpose
        let deadline: Duration
    }

    /// Everything tokens touch lives behind a lock: a token may be released anywhere (the test
    /// suite instance holding the machine is destroyed off the main actor).
    private struct Record {
        var log: [String] = []
        var pendingTimers: [Timer] = []
        var completed: Set<String> = []
    }

    private final class Shared: Sendable {
        let state = Mutex(Record())
        func withLock<R>(_ body: (inout Record) -> R) -> R { state.withLock { body(&$0) } }
    }

    private let record = Shared()
    /// Every timer ever started, in start order.
    private(set) var startedTimers: [Timer] = []
    /// Payload names the interpreter refuses to open (as if the channel had no `start`).
    var refusingToOpen: Set<String> = []
    private var generations: [String: UInt64] = [:]

    var log: [String] { record.withLock { $0.log } }

    /// Timers started and neither fired nor cancelled.
    var pendingTimers: [Timer] { record.withLock { $0.pendingTimers } }

    /// Forgets the events so far (handy after a setup phase).
    func clearLog() { record.withLock { $0.log.removeAll() } }

    /// The generation the machine gave the run or channel named `payload`.
    func generation(of payload: String) -> UInt64 {
        guard let generation = generations[payload] else {
            Issue.record("\(payload) never started")
            return .max
        }
        return generation
    }

    /// The latest timer started for `key` with `purpose` (fired, cancelled or pending).
    func timer(_ purpose: EffectTimerPurpose, _ key: String) -> Timer? {
        startedTimers.last { $0.purpose == purpose && $0.key == AnyHashableSendable(key) }
    }

    /// How many times the token of `payload` ended (cancelled or released).
    func endings(of payload: String) -> Int {
        log.filter { $0 == "cancel \(payload)" || $0 == "release \(payload)" }.count
    }

    func markFired(_ timer: Timer) {
        record.withLock { $0.pendingTimers.removeAll { $0 == timer } }
    }

    func markCompleted(_ payload: String) {
        record.withLock {
            $0.completed.insert(payload)
            $0.log.append("complete \(payload)")
        }
    }

    private func append(_ event: String) {
        record.withLock { $0.log.append(event) }
    }

    // EffectInterpreter

    func subscribe(_ payload: String, key: AnyHashableSendable, generation: UInt64) -> (any EffectCancellable)? {
        append("subscribe \(payload)")
        generations[payload] = generation
        return token(for: payload)
    }

    func open(_ payload: String, key: AnyHashableSendable, generation: UInt64) -> (token: SubscriptionToken, sink: @Sendable (any Sendable) -> Void)?
    {
        if refusingToOpen.contains(payload) {
            append("refuse \(payload)")
            return nil
        }
        append("open \(payload)")
        generations[payload] = generation
        let record = self.record
        return (
            token(for: payload),
            { value in
                record.withLock { $0.log.append("deliver \(value) to \(payload)") }
            }
        )
    }

    func deliver(_ payload: String, to sink: @Sendable (any Sendable) -> Void) {
        sink(payload)
    }

    func startTimer(at deadline: Duration, key: AnyHashableSendable, generation: UInt64, purpose: EffectTimerPurpose) -> SubscriptionToken {
        let timer = Timer(key: key, generation: generation, purpose: purpose, deadline: deadline)
        startedTimers.append(timer)
        record.withLock {
            $0.log.append("timer \(purpose) \(Self.name(key)) @\(Self.millis(deadline))")
            $0.pendingTimers.append(timer)
        }
        let record = self.record
        return SubscriptionToken {
            record.withLock { record in
                // Cancelling a timer that already fired is a no-op, as with a real clock.
                guard record.pendingTimers.contains(timer) else { return }
                record.pendingTimers.removeAll { $0 == timer }
                record.log.append("cancel timer \(timer.purpose) \(Self.name(timer.key))")
            }
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

private func ms(_ value: Int) -> Duration { .milliseconds(value) }

private func key(_ name: String) -> AnyHashableSendable { AnyHashableSendable(name) }

extension ChannelTraits {
    /// An openable channel payload.
    fileprivate static func channel(_ delivery: ChannelDelivery = .immediate, deliversOnOpen: Bool = true) -> ChannelTraits {
        ChannelTraits(isPipeOnly: false, delivery: delivery, deliversOnOpen: deliversOnOpen)
    }

    /// A pipe-only payload (`Effect.broadcast`).
    fileprivate static let broadcast = ChannelTraits(isPipeOnly: true, delivery: .immediate, deliversOnOpen: false)
}

/// One supervised channel as reconcile sees it; it delivers on open iff it broadcasts.
private func entry(
    _ id: String,
    _ payload: String,
    reset: String? = nil,
    broadcast: String? = nil,
    settle: Duration? = nil,
    delivery: ChannelDelivery = .immediate
) -> ReconcileEntry<String> {
    ReconcileEntry(
        key: key(id),
        reset: reset.map(AnyHashableSendable.init),
        broadcast: broadcast.map(AnyHashableSendable.init),
        settle: settle,
        payload: payload,
        traits: .channel(delivery, deliversOnOpen: broadcast != nil)
    )
}

extension EffectMachine where Payload == String {
    /// Schedules a one-shot component.
    fileprivate mutating func run(
        _ payload: String, _ scheduling: EffectScheduling, at now: Duration = .zero, using interpreter: RecordingInterpreter
    ) {
        schedule(payload, scheduling: scheduling, traits: nil, now: now, using: interpreter)
    }

    /// Schedules a channel payload (an open, a delivery or a broadcast) under `id`.
    fileprivate mutating func channel(
        _ payload: String, id: String, _ traits: ChannelTraits = .channel(), at now: Duration = .zero, using interpreter: RecordingInterpreter
    ) {
        schedule(payload, scheduling: .keyed(id: id), traits: traits, now: now, using: interpreter)
    }

    /// Fires `timer` at its deadline.
    fileprivate mutating func fire(_ timer: RecordingInterpreter.Timer?, using interpreter: RecordingInterpreter) {
        guard let timer else {
            Issue.record("no such timer")
            return
        }
        interpreter.markFired(timer)
        timerFired(key: timer.key, generation: timer.generation, purpose: timer.purpose, now: timer.deadline, using: interpreter)
    }

    /// Reports that the run or channel named `payload`, registered under `id`, completed.
    fileprivate mutating func finish(_ payload: String, id: AnyHashableSendable, using interpreter: RecordingInterpreter) {
        interpreter.markCompleted(payload)
        complete(key: id, generation: interpreter.generation(of: payload), using: interpreter)
    }
}

// MARK: - Scheduling policies (EffectsAndScheduling, "Scheduling policies")

@MainActor
@Suite struct EffectMachineSchedulingTests {
    let fake = RecordingInterpreter()
    var machine = EffectMachine<String>()

    @Test mutating func immediatelyStartsEveryCallAtOnceAndRunsAreIndependent() {
        machine.run("first", .immediately, using: fake)
        machine.run("second", .immediately, using: fake)
        #expect(fake.log == ["subscribe first", "subscribe second"])
        #expect(machine.liveKeyCount == 2)
        #expect(!machine.isQuiescent)
    }

    @Test mutating func immediatelyRunsCompleteOnTheirOwnAnonymousKeys() {
        machine.run("first", .immediately, using: fake)
        machine.run("second", .immediately, using: fake)
        machine.finish("second", id: AnyHashableSendable(AnonymousEffectKey(value: 2)), using: fake)
        machine.finish("first", id: AnyHashableSendable(AnonymousEffectKey(value: 1)), using: fake)
        #expect(fake.log == ["subscribe first", "subscribe second", "complete second", "release second", "complete first", "release first"])
        #expect(machine.liveKeyCount == 0)
        #expect(machine.isQuiescent)
    }

    @Test mutating func anonymousKeysNeverEqualAUserId() {
        machine.run("anonymous", .immediately, using: fake)
        machine.run("keyed-by-counter", .keyed(id: UInt64(1)), using: fake)
        machine.run("keyed-by-string", .keyed(id: "anon1"), using: fake)
        #expect(fake.log == ["subscribe anonymous", "subscribe keyed-by-counter", "subscribe keyed-by-string"])
        #expect(machine.liveKeyCount == 3)
    }

    @Test mutating func keyedOneShotIsReplacedByTheNewestRun() {
        machine.run("first", .keyed(id: "a"), using: fake)
        machine.run("second", .keyed(id: "a"), at: ms(10), using: fake)
        #expect(fake.log == ["subscribe first", "cancel first", "subscribe second"])
        #expect(machine.liveKeyCount == 1)
    }

    @Test mutating func replacingCancelsTheRunningEffectAndStartsTheNewOneAtOnce() {
        machine.run("first", .replacing(id: "a"), using: fake)
        machine.run("second", .replacing(id: "a"), at: ms(10), using: fake)
        #expect(fake.log == ["subscribe first", "cancel first", "subscribe second"])
        #expect(fake.endings(of: "first") == 1)
        #expect(fake.endings(of: "second") == 0)
    }

    @Test mutating func replacingCancelsAPendingDelayedStart() {
        machine.run("first", EffectScheduling.replacing(id: "a").delayed(by: ms(500)), using: fake)
        machine.run("second", .replacing(id: "a"), at: ms(100), using: fake)
        #expect(fake.log == ["timer start a @500ms", "cancel timer start a", "subscribe second"])
        machine.fire(fake.timer(.start, "a"), using: fake)
        #expect(fake.log.last == "subscribe second", "the cancelled timer's fire is stale")
    }

    @Test mutating func debounceStartsAfterTheWindowAndTheLastCallWins() {
        machine.run("first", .debounce(id: "a", delay: ms(300)), using: fake)
        #expect(fake.log == ["timer start a @300ms"])
        #expect(!machine.isQuiescent)
        let firstTimer = fake.timer(.start, "a")

        machine.run("second", .debounce(id: "a", delay: ms(300)), at: ms(100), using: fake)
        #expect(fake.log == ["timer start a @300ms", "cancel timer start a", "timer start a @400ms"])

        machine.fire(firstTimer, using: fake)
        #expect(fake.log.count == 3, "the superseded timer fires into nothing")

        machine.fire(fake.timer(.start, "a"), using: fake)
        #expect(fake.log == ["timer start a @300ms", "cancel timer start a", "timer start a @400ms", "subscribe second"])
        #expect(!fake.log.contains("subscribe first"))
    }

    @Test mutating func debounceCancelsARunThatAlreadyStarted() {
        machine.run("first", .debounce(id: "a", delay: ms(300)), using: fake)
        machine.fire(fake.timer(.start, "a"), using: fake)
        machine.run("second", .debounce(id: "a", delay: ms(300)), at: ms(350), using: fake)
        #expect(fake.log == ["timer start a @300ms", "subscribe first", "cancel first", "timer start a @650ms"])
        machine.fire(fake.timer(.start, "a"), using: fake)
        #expect(fake.log.last == "subscribe second")
        #expect(fake.endings(of: "first") == 1)
    }

    @Test mutating func debounceAddsAnExplicitDelayToItsWindow() {
        machine.run("first", EffectScheduling.debounce(id: "a", delay: ms(300)).delayed(by: ms(200)), using: fake)
        #expect(fake.log == ["timer start a @500ms"])
    }

    @Test mutating func zeroOrNegativeDebounceAndDelayStartSynchronously() {
        machine.run("zero-debounce", .debounce(id: "a", delay: .zero), using: fake)
        machine.run("negative-debounce", .debounce(id: "b", delay: ms(-5)), using: fake)
        machine.run("zero-delay", EffectScheduling.keyed(id: "c").delayed(by: .zero), using: fake)
        machine.run("negative-delay", EffectScheduling.immediately.delayed(by: ms(-5)), using: fake)
        #expect(fake.log == ["subscribe zero-debounce", "subscribe negative-debounce", "subscribe zero-delay", "subscribe negative-delay"])
        #expect(fake.startedTimers.isEmpty)
        // Each knob counts as none on its own: a negative delay does not eat into a debounce.
        machine.run("negative-delay-debounced", EffectScheduling.debounce(id: "d", delay: ms(100)).delayed(by: ms(-300)), using: fake)
        #expect(fake.log.last == "timer start d @100ms")
    }

    @Test mutating func throttleDropsCallsInsideTheWindowWithAStrictComparison() {
        let throttle = EffectScheduling.throttle(id: "a", interval: ms(1_000))
        machine.run("first", throttle, using: fake)
        machine.run("dropped", throttle, at: ms(999), using: fake)
        #expect(fake.log == ["subscribe first"], "inside the window: dropped, the first run untouched")

        machine.run("second", throttle, at: ms(1_000), using: fake)
        #expect(fake.log == ["subscribe first", "cancel first", "subscribe second"], "age == interval is outside the window")

        machine.run("dropped-again", throttle, at: ms(1_999), using: fake)
        machine.run("third", throttle, at: ms(2_000), using: fake)
        #expect(
            fake.log == ["subscribe first", "cancel first", "subscribe second", "cancel second", "subscribe third"],
            "the stamp moved to the second call")
    }

    @Test mutating func throttleAfterTheFirstRunCompletedStartsWithoutCancelling() {
        let throttle = EffectScheduling.throttle(id: "a", interval: ms(100))
        machine.run("first", throttle, using: fake)
        machine.finish("first", id: key("a"), using: fake)
        machine.run("dropped", throttle, at: ms(50), using: fake)
        machine.run("second", throttle, at: ms(150), using: fake)
        #expect(fake.log == ["subscribe first", "complete first", "release first", "subscribe second"])
    }

    @Test mutating func throttleStampIsTakenAtScheduleTimeBeforeTheDelay() {
        let throttle = EffectScheduling.throttle(id: "a", interval: ms(1_000)).delayed(by: ms(500))
        machine.run("first", throttle, using: fake)
        #expect(fake.log == ["timer start a @500ms"])
        machine.fire(fake.timer(.start, "a"), using: fake)
        machine.run("dropped", throttle, at: ms(999), using: fake)
        #expect(fake.log == ["timer start a @500ms", "subscribe first"], "the window counts from t0, not from the start at t0+500ms")
        machine.run("second", throttle, at: ms(1_000), using: fake)
        #expect(fake.log == ["timer start a @500ms", "subscribe first", "cancel first", "timer start a @1500ms"])
    }

    @Test mutating func throttleWithZeroOrNegativeIntervalNeverThrottles() {
        machine.run("z1", .throttle(id: "zero", interval: .zero), using: fake)
        machine.run("z2", .throttle(id: "zero", interval: .zero), using: fake)
        machine.run("n1", .throttle(id: "negative", interval: ms(-10)), using: fake)
        machine.run("n2", .throttle(id: "negative", interval: ms(-10)), using: fake)
        #expect(fake.log == ["subscribe z1", "cancel z1", "subscribe z2", "subscribe n1", "cancel n1", "subscribe n2"])
    }

    @Test mutating func throttleWindowIsTheShorterOfTheStampAndTheCall() {
        // The throttle window: a stamp older than its own interval is forgotten; a live one drops the
        // call only when younger than the call's interval too.
        machine.run("long", .throttle(id: "a", interval: ms(2_000)), using: fake)
        machine.run("short", .throttle(id: "a", interval: ms(1_000)), at: ms(1_500), using: fake)
        machine.run("unthrottled", .throttle(id: "b", interval: ms(1_000)), using: fake)
        machine.run("zero", .throttle(id: "b", interval: .zero), at: ms(100), using: fake)
        #expect(fake.log == ["subscribe long", "cancel long", "subscribe short", "subscribe unthrottled", "cancel unthrottled", "subscribe zero"])
    }

    @Test mutating func throttleWindowsArePerKey() {
        machine.run("a1", .throttle(id: "a", interval: ms(1_000)), using: fake)
        machine.run("b1", .throttle(id: "b", interval: ms(1_000)), at: ms(10), using: fake)
        machine.run("a2", .throttle(id: "a", interval: ms(1_000)), at: ms(20), using: fake)
        #expect(fake.log == ["subscribe a1", "subscribe b1"])
    }

    @Test mutating func delayWithoutIdStartsLaterAndRunsAreIndependent() {
        let delayed = EffectScheduling.immediately.delayed(by: ms(500))
        machine.run("first", delayed, using: fake)
        machine.run("second", delayed, at: ms(100), using: fake)
        #expect(fake.log == ["timer start anon1 @500ms", "timer start anon2 @600ms"])
        machine.fire(fake.startedTimers[0], using: fake)
        machine.fire(fake.startedTimers[1], using: fake)
        #expect(fake.log == ["timer start anon1 @500ms", "timer start anon2 @600ms", "subscribe first", "subscribe second"])
        #expect(machine.liveKeyCount == 2)
    }

    @Test mutating func delayWithIdCancelsThePendingTimerOfTheOlderCall() {
        let delayed = EffectScheduling.keyed(id: "a").delayed(by: ms(500))
        machine.run("first", delayed, using: fake)
        let firstTimer = fake.timer(.start, "a")
        machine.run("second", delayed, at: ms(100), using: fake)
        #expect(fake.log == ["timer start a @500ms", "cancel timer start a", "timer start a @600ms"])
        machine.fire(firstTimer, using: fake)
        machine.fire(fake.timer(.start, "a"), using: fake)
        #expect(fake.log.suffix(1) == ["subscribe second"])
        #expect(!fake.log.contains("subscribe first"))
    }

    @Test mutating func delayWithIdReplacesARunThatAlreadyStarted() {
        let delayed = EffectScheduling.keyed(id: "a").delayed(by: ms(500))
        machine.run("first", delayed, using: fake)
        machine.fire(fake.timer(.start, "a"), using: fake)
        machine.run("second", delayed, at: ms(600), using: fake)
        #expect(fake.log == ["timer start a @500ms", "subscribe first", "cancel first", "timer start a @1100ms"])
    }

    @Test mutating func cancelInFlightCancelsTheRunAndFreesTheKey() {
        machine.run("first", .keyed(id: "a"), using: fake)
        machine.run("cancel", .cancelInFlight(id: "a"), at: ms(10), using: fake)
        #expect(fake.log == ["subscribe first", "cancel first"])
        #expect(machine.liveKeyCount == 0)
        #expect(machine.isQuiescent)
    }

    @Test mutating func cancelInFlightCancelsAPendingTimer() {
        machine.run("first", EffectScheduling.keyed(id: "a").delayed(by: ms(500)), using: fake)
        machine.run("cancel", .cancelInFlight(id: "a"), at: ms(10), using: fake)
        machine.fire(fake.timer(.start, "a"), using: fake)
        #expect(fake.log == ["timer start a @500ms", "cancel timer start a"])
        #expect(machine.liveKeyCount == 0)
    }

    @Test mutating func cancelInFlightClearsTheThrottleStamp() {
        let throttle = EffectScheduling.throttle(id: "a", interval: ms(1_000))
        machine.run("first", throttle, using: fake)
        machine.run("cancel", .cancelInFlight(id: "a"), at: ms(10), using: fake)
        #expect(machine.liveKeyCount == 0)
        machine.run("second", throttle, at: ms(20), using: fake)
        #expect(fake.log == ["subscribe first", "cancel first", "subscribe second"])
    }

    @Test mutating func cancelInFlightClosesTheChannelAndItsPendingDelivery() {
        machine.channel("socket", id: "a", .channel(.debounce(ms(300))), using: fake)
        machine.channel("v2", id: "a", at: ms(10), using: fake)
        machine.run("cancel", .cancelInFlight(id: "a"), at: ms(20), using: fake)
        machine.fire(fake.timer(.deliver, "a"), using: fake)
        #expect(fake.log == ["open socket", "timer deliver a @310ms", "cancel timer deliver a", "cancel socket"])
        #expect(machine.openChannelKeys.isEmpty)
        #expect(machine.liveKeyCount == 0)
    }

    @Test mutating func cancelInFlightCancelsAPendingSettle() {
        machine.reconcile([entry("a", "c1", reset: "r1", settle: ms(500))], now: .zero, using: fake)
        machine.reconcile([entry("a", "c2", reset: "r2", settle: ms(500))], now: ms(10), using: fake)
        machine.run("cancel", .cancelInFlight(id: "a"), at: ms(20), using: fake)
        machine.fire(fake.timer(.settle, "a"), using: fake)
        #expect(fake.log == ["open c1", "cancel c1", "timer settle a @510ms", "cancel timer settle a"])
        #expect(machine.liveKeyCount == 0)
        #expect(machine.isQuiescent)
    }

    @Test mutating func cancelInFlightWithoutAnIdDoesNothing() {
        machine.run("first", .keyed(id: "a"), using: fake)
        var cancelNothing = EffectScheduling.cancelInFlight(id: "a")
        cancelNothing.id = nil
        machine.run("cancel", cancelNothing, using: fake)
        #expect(fake.log == ["subscribe first"])
        #expect(machine.liveKeyCount == 1)
    }

    @Test mutating func cancellingAnUnknownKeyDoesNothing() {
        machine.run("cancel", .cancelInFlight(id: "nobody"), using: fake)
        machine.cancel(key: key("nobody"), using: fake)
        #expect(fake.log.isEmpty)
        #expect(machine.liveKeyCount == 0)
    }
}

// MARK: - Generations (stale completions and timers do nothing)

@MainActor
@Suite struct EffectMachineGenerationTests {
    let fake = RecordingInterpreter()
    var machine = EffectMachine<String>()

    @Test mutating func staleCompletionAfterReplacementDoesNotRemoveTheNewerRun() {
        machine.run("first", .keyed(id: "a"), using: fake)
        machine.run("second", .keyed(id: "a"), using: fake)
        machine.finish("first", id: key("a"), using: fake)
        #expect(fake.log == ["subscribe first", "cancel first", "subscribe second", "complete first"])
        #expect(machine.liveKeyCount == 1)
        #expect(!machine.isQuiescent)

        machine.finish("second", id: key("a"), using: fake)
        #expect(fake.log.suffix(2) == ["complete second", "release second"])
        #expect(machine.liveKeyCount == 0)
        #expect(machine.isQuiescent)
    }

    @Test mutating func aDuplicateCompletionIsANoOp() {
        machine.run("first", .keyed(id: "a"), using: fake)
        machine.finish("first", id: key("a"), using: fake)
        machine.run("second", .keyed(id: "a"), using: fake)
        machine.complete(key: key("a"), generation: fake.generation(of: "first"), using: fake)
        #expect(fake.log == ["subscribe first", "complete first", "release first", "subscribe second"])
        #expect(machine.liveKeyCount == 1)
    }

    @Test mutating func staleCompletionOfAReplacedChannelKeepsTheNewChannelOpen() {
        machine.reconcile([entry("a", "c1", reset: "r1")], now: .zero, using: fake)
        machine.reconcile([entry("a", "c2", reset: "r2")], now: ms(10), using: fake)
        machine.finish("c1", id: key("a"), using: fake)
        #expect(fake.log == ["open c1", "cancel c1", "open c2", "complete c1"])
        #expect(machine.openChannelKeys == [key("a")])
    }

    @Test mutating func staleStartTimerIsANoOp() {
        machine.run("first", EffectScheduling.keyed(id: "a").delayed(by: ms(500)), using: fake)
        let stale = fake.timer(.start, "a")
        machine.run("second", .keyed(id: "a"), at: ms(100), using: fake)
        machine.fire(stale, using: fake)
        #expect(fake.log == ["timer start a @500ms", "cancel timer start a", "subscribe second"])
        #expect(machine.liveKeyCount == 1)
    }

    @Test mutating func startTimerFiringAfterTheKeyWasFreedIsANoOp() {
        machine.run("first", EffectScheduling.keyed(id: "a").delayed(by: ms(500)), using: fake)
        let stale = fake.timer(.start, "a")
        machine.cancel(key: key("a"), using: fake)
        machine.fire(stale, using: fake)
        #expect(fake.log == ["timer start a @500ms", "cancel timer start a"])
        #expect(machine.liveKeyCount == 0)
    }

    @Test mutating func startTimerFiringTwiceStartsOnce() {
        machine.run("first", EffectScheduling.keyed(id: "a").delayed(by: ms(500)), using: fake)
        let timer = fake.timer(.start, "a")
        machine.fire(timer, using: fake)
        machine.fire(timer, using: fake)
        #expect(fake.log == ["timer start a @500ms", "subscribe first"])
    }

    @Test mutating func completionOfARunStillWaitingForItsTimerIsIgnored() {
        machine.run("first", EffectScheduling.keyed(id: "a").delayed(by: ms(500)), using: fake)
        let timer = fake.timer(.start, "a")
        machine.complete(key: key("a"), generation: timer?.generation ?? 0, using: fake)
        machine.fire(timer, using: fake)
        #expect(fake.log == ["timer start a @500ms", "subscribe first"])
    }

    @Test mutating func staleDeliverTimerIsANoOp() {
        machine.channel("socket", id: "a", .channel(.debounce(ms(300))), using: fake)
        machine.channel("v2", id: "a", using: fake)
        let stale = fake.timer(.deliver, "a")
        machine.channel("v3", id: "a", at: ms(100), using: fake)
        machine.fire(stale, using: fake)
        #expect(!fake.log.contains("deliver v2 to socket"))
        machine.fire(fake.timer(.deliver, "a"), using: fake)
        machine.fire(fake.timer(.deliver, "a"), using: fake)
        #expect(fake.log.filter { $0.hasPrefix("deliver") } == ["deliver v3 to socket"])
    }

    @Test mutating func staleSettleTimerIsANoOp() {
        machine.reconcile([entry("a", "c1", reset: "r1", settle: ms(500))], now: .zero, using: fake)
        machine.reconcile([entry("a", "c2", reset: "r2", settle: ms(500))], now: ms(10), using: fake)
        let stale = fake.timer(.settle, "a")
        machine.reconcile([], now: ms(20), using: fake)
        machine.fire(stale, using: fake)
        #expect(fake.log == ["open c1", "cancel c1", "timer settle a @510ms", "cancel timer settle a"])
        #expect(machine.liveKeyCount == 0)
    }
}

// MARK: - Channels (opening, delivery, channels opened by effects)

@MainActor
@Suite struct EffectMachineChannelTests {
    let fake = RecordingInterpreter()
    var machine = EffectMachine<String>()

    @Test mutating func openingAChannelRegistersItsSinkAndIsQuiescent() {
        machine.channel("socket", id: "a", using: fake)
        #expect(fake.log == ["open socket"])
        #expect(machine.openChannelKeys == [key("a")])
        #expect(machine.isQuiescent)
        #expect(machine.liveKeyCount == 1)
    }

    @Test mutating func anOpenIsNeverDelayedByItsDeliveryPacing() {
        machine.channel("throttled", id: "a", .channel(.throttle(ms(1_000))), using: fake)
        machine.channel("debounced", id: "b", .channel(.debounce(ms(1_000))), using: fake)
        #expect(fake.log == ["open throttled", "open debounced"])
        #expect(fake.startedTimers.isEmpty)
    }

    @Test mutating func immediateDeliveryFeedsTheLiveChannelWithoutReopening() {
        machine.channel("socket", id: "a", using: fake)
        machine.channel("v2", id: "a", at: ms(1), using: fake)
        machine.channel("v3", id: "a", at: ms(1), using: fake)
        #expect(fake.log == ["open socket", "deliver v2 to socket", "deliver v3 to socket"])
    }

    @Test mutating func throttledDeliveryCountsTheOpeningValueAndDropsInsideTheWindow() {
        machine.channel("socket", id: "a", .channel(.throttle(ms(1_000))), using: fake)
        machine.channel("dropped", id: "a", at: ms(999), using: fake)
        machine.channel("v2", id: "a", at: ms(1_000), using: fake)
        machine.channel("dropped-again", id: "a", at: ms(1_500), using: fake)
        machine.channel("v3", id: "a", at: ms(2_000), using: fake)
        #expect(fake.log == ["open socket", "deliver v2 to socket", "deliver v3 to socket"])
    }

    @Test mutating func silentThrottledChannelLetsItsFirstBroadcastThrough() {
        machine.channel("socket", id: "a", .channel(.throttle(ms(1_000)), deliversOnOpen: false), at: ms(100), using: fake)
        machine.channel("v1", id: "a", .broadcast, at: ms(100), using: fake)
        machine.channel("dropped", id: "a", .broadcast, at: ms(600), using: fake)
        machine.channel("v2", id: "a", .broadcast, at: ms(1_100), using: fake)
        #expect(fake.log == ["open socket", "deliver v1 to socket", "deliver v2 to socket"])
    }

    @Test mutating func debouncedDeliveryDeliversOnlyTheLatestOfABurst() {
        machine.channel("socket", id: "a", .channel(.debounce(ms(300))), using: fake)
        machine.channel("v2", id: "a", using: fake)
        #expect(!machine.isQuiescent, "a pending delivery is work in flight")
        machine.channel("v3", id: "a", at: ms(100), using: fake)
        machine.channel("v4", id: "a", at: ms(200), using: fake)
        #expect(
            fake.log == [
                "open socket",
                "timer deliver a @300ms",
                "cancel timer deliver a", "timer deliver a @400ms",
                "cancel timer deliver a", "timer deliver a @500ms",
            ], "each value restarts the window")
        machine.fire(fake.timer(.deliver, "a"), using: fake)
        #expect(fake.log.last == "deliver v4 to socket")
        #expect(fake.log.filter { $0.hasPrefix("deliver") }.count == 1)
        #expect(machine.isQuiescent)
        #expect(machine.openChannelKeys == [key("a")])
    }

    @Test mutating func debouncedDeliveryIsDroppedWhenTheChannelEndsFirst() {
        machine.channel("socket", id: "a", .channel(.debounce(ms(300))), using: fake)
        machine.channel("v2", id: "a", using: fake)
        let pending = fake.timer(.deliver, "a")
        machine.finish("socket", id: key("a"), using: fake)
        machine.fire(pending, using: fake)
        #expect(fake.log == ["open socket", "timer deliver a @300ms", "complete socket", "cancel timer deliver a", "release socket"])
        #expect(machine.liveKeyCount == 0)
    }

    @Test mutating func aLiveChannelUsesTheDeliveryRegisteredWhenItOpened() {
        machine.channel("socket", id: "a", .channel(.immediate), using: fake)
        machine.channel("v2", id: "a", .channel(.debounce(ms(300))), using: fake)
        machine.channel("v3", id: "a", .channel(.throttle(ms(1_000))), using: fake)
        machine.channel("v4", id: "a", .channel(.throttle(ms(1_000))), using: fake)
        #expect(fake.log == ["open socket", "deliver v2 to socket", "deliver v3 to socket", "deliver v4 to socket"])
    }

    @Test mutating func pipeOnlyBroadcastIntoNothingIsDropped() {
        machine.channel("v1", id: "a", .broadcast, using: fake)
        #expect(fake.log.isEmpty)
        #expect(machine.liveKeyCount == 0)
        machine.channel("socket", id: "a", using: fake)
        #expect(fake.log == ["open socket"], "nothing was queued for a later open")
    }

    @Test mutating func pipeOnlyBroadcastReachesALiveChannel() {
        machine.channel("socket", id: "a", using: fake)
        machine.channel("v1", id: "a", .broadcast, using: fake)
        #expect(fake.log == ["open socket", "deliver v1 to socket"])
    }

    @Test mutating func pipeOnlyBroadcastDoesNotDisturbAOneShotRun() {
        machine.run("first", .keyed(id: "a"), using: fake)
        machine.channel("v1", id: "a", .broadcast, using: fake)
        #expect(fake.log == ["subscribe first"])
        #expect(machine.liveKeyCount == 1)
    }

    @Test mutating func anInterpreterThatCannotOpenLeavesNothingBehind() {
        fake.refusingToOpen = ["socket"]
        machine.channel("socket", id: "a", using: fake)
        #expect(fake.log == ["refuse socket"])
        #expect(machine.liveKeyCount == 0)
        #expect(machine.openChannelKeys.isEmpty)
    }

    @Test mutating func openingAChannelUnderAOneShotKeyCancelsTheRun() {
        machine.run("first", .keyed(id: "a"), using: fake)
        machine.channel("socket", id: "a", using: fake)
        #expect(fake.log == ["subscribe first", "cancel first", "open socket"])
        #expect(machine.openChannelKeys == [key("a")])
    }

    @Test mutating func openingAChannelUnderAPendingDelayedStartCancelsTheTimer() {
        machine.run("first", EffectScheduling.keyed(id: "a").delayed(by: ms(500)), using: fake)
        let timer = fake.timer(.start, "a")
        machine.channel("socket", id: "a", using: fake)
        machine.fire(timer, using: fake)
        #expect(fake.log == ["timer start a @500ms", "cancel timer start a", "open socket"])
    }

    @Test mutating func aOneShotUnderAChannelKeyClosesTheChannel() {
        machine.channel("socket", id: "a", .channel(.debounce(ms(300))), using: fake)
        machine.channel("v2", id: "a", using: fake)
        machine.run("first", .keyed(id: "a"), using: fake)
        #expect(fake.log == ["open socket", "timer deliver a @300ms", "cancel timer deliver a", "cancel socket", "subscribe first"])
        #expect(machine.openChannelKeys.isEmpty)
    }

    @Test mutating func aCompletedChannelFreesItsKeyAndCanOpenAgain() {
        machine.channel("socket", id: "a", using: fake)
        machine.finish("socket", id: key("a"), using: fake)
        #expect(machine.openChannelKeys.isEmpty)
        #expect(machine.liveKeyCount == 0)
        machine.channel("socket2", id: "a", using: fake)
        #expect(fake.log == ["open socket", "complete socket", "release socket", "open socket2"])
    }

    @Test mutating func throttledDeliveryIsNotBlockedByAnOlderLongerStampUnderTheKey() {
        // One-shot throttling and channel delivery share the stamp per key (EffectsAndScheduling, "The registry"); a silent channel
        // sets no stamp on open, so the one-shot's 2s stamp is still there. It has not lapsed,
        // but it is older than the channel's own 1s window: the broadcast goes through.
        machine.run("first", .throttle(id: "a", interval: ms(2_000)), using: fake)
        machine.channel("socket", id: "a", .channel(.throttle(ms(1_000)), deliversOnOpen: false), at: ms(100), using: fake)
        machine.channel("dropped", id: "a", .broadcast, at: ms(900), using: fake)
        machine.channel("v1", id: "a", .broadcast, at: ms(1_200), using: fake)
        #expect(fake.log == ["subscribe first", "cancel first", "open socket", "deliver v1 to socket"])
    }

    @Test mutating func cancellingAChannelResetsItsThrottleState() {
        machine.channel("socket", id: "a", .channel(.throttle(ms(1_000))), using: fake)
        machine.cancel(key: key("a"), using: fake)
        machine.channel("socket2", id: "a", .channel(.throttle(ms(1_000)), deliversOnOpen: false), at: ms(10), using: fake)
        machine.channel("v1", id: "a", .broadcast, at: ms(20), using: fake)
        #expect(fake.log == ["open socket", "cancel socket", "open socket2", "deliver v1 to socket2"])
    }
}

// MARK: - Reconcile (SupervisionAndChannels: leavers first, settle, cancel by id)

@MainActor
@Suite struct EffectMachineReconcileTests {
    let fake = RecordingInterpreter()
    var machine = EffectMachine<String>()

    @Test mutating func firstAppearanceOpensAtOnceEvenWithSettle() {
        machine.reconcile([entry("a", "c1", reset: "r1", settle: ms(500))], now: .zero, using: fake)
        #expect(fake.log == ["open c1"])
        #expect(fake.startedTimers.isEmpty)
        #expect(machine.reconciledCount == 1)
    }

    @Test mutating func anUnchangedDesiredSetDoesNothing() {
        let desired = [entry("a", "c1", reset: "r1", broadcast: "x"), entry("b", "c2")]
        machine.reconcile(desired, now: .zero, using: fake)
        fake.clearLog()
        machine.reconcile(desired, now: ms(10), using: fake)
        machine.reconcile([entry("a", "other-payload", reset: "r1", broadcast: "x"), entry("b", "other")], now: ms(20), using: fake)
        #expect(fake.log.isEmpty, "the body is not compared: same key, reset and broadcast is the same channel")
        #expect(machine.openChannelKeys.count == 2)
    }

    @Test mutating func anEmptyDesiredSetOnAnEmptyMachineDoesNothing() {
        machine.reconcile([], now: .zero, using: fake)
        #expect(fake.log.isEmpty)
        #expect(machine.liveKeyCount == 0)
        #expect(machine.reconciledCount == 0)
    }

    @Test mutating func aResetChangeCancelsThenReopensAtOnceWithoutSettle() {
        machine.reconcile([entry("a", "c1", reset: "r1")], now: .zero, using: fake)
        machine.reconcile([entry("a", "c2", reset: "r2")], now: ms(10), using: fake)
        #expect(fake.log == ["open c1", "cancel c1", "open c2"])
        #expect(fake.endings(of: "c1") == 1)
    }

    @Test mutating func aResetChangeWithSettleReopensWhenTheSettleTimerFires() {
        machine.reconcile([entry("a", "c1", reset: "r1", settle: ms(500))], now: .zero, using: fake)
        machine.reconcile([entry("a", "c2", reset: "r2", settle: ms(500))], now: ms(100), using: fake)
        #expect(fake.log == ["open c1", "cancel c1", "timer settle a @600ms"])
        #expect(machine.openChannelKeys.isEmpty, "closed while settling")
        #expect(!machine.isQuiescent)
        machine.fire(fake.timer(.settle, "a"), using: fake)
        #expect(fake.log.last == "open c2")
        #expect(machine.openChannelKeys == [key("a")])
        #expect(machine.isQuiescent)
    }

    @Test mutating func aSecondResetDuringSettleReplacesThePendingComponent() {
        machine.reconcile([entry("a", "c1", reset: "r1", settle: ms(500))], now: .zero, using: fake)
        machine.reconcile([entry("a", "c2", reset: "r2", settle: ms(500))], now: ms(100), using: fake)
        let stale = fake.timer(.settle, "a")
        machine.reconcile([entry("a", "c3", reset: "r3", settle: ms(500))], now: ms(200), using: fake)
        #expect(fake.log == ["open c1", "cancel c1", "timer settle a @600ms", "cancel timer settle a", "timer settle a @700ms"])
        machine.fire(stale, using: fake)
        machine.fire(fake.timer(.settle, "a"), using: fake)
        #expect(fake.log.suffix(1) == ["open c3"])
        #expect(!fake.log.contains("open c2"))
    }

    @Test mutating func aBroadcastChangeIsDeliveredIntoTheLiveChannel() {
        machine.reconcile([entry("a", "c1", broadcast: "x")], now: .zero, using: fake)
        machine.reconcile([entry("a", "y", broadcast: "y")], now: ms(10), using: fake)
        #expect(fake.log == ["open c1", "deliver y to c1"])
        #expect(fake.endings(of: "c1") == 0)
    }

    @Test mutating func aBroadcastChangeIsPacedByTheChannelDelivery() {
        machine.reconcile([entry("a", "c1", broadcast: "x", delivery: .throttle(ms(1_000)))], now: .zero, using: fake)
        machine.reconcile([entry("a", "y", broadcast: "y", delivery: .throttle(ms(1_000)))], now: ms(500), using: fake)
        machine.reconcile([entry("a", "z", broadcast: "z", delivery: .throttle(ms(1_000)))], now: ms(1_000), using: fake)
        #expect(fake.log == ["open c1", "deliver z to c1"])
    }

    @Test mutating func aBroadcastChangeReopensAChannelThatCompleted() {
        machine.reconcile([entry("a", "c1", broadcast: "x")], now: .zero, using: fake)
        machine.finish("c1", id: key("a"), using: fake)
        machine.reconcile([entry("a", "c2", broadcast: "y")], now: ms(10), using: fake)
        #expect(fake.log == ["open c1", "complete c1", "release c1", "open c2"])
        #expect(machine.openChannelKeys == [key("a")])
    }

    @Test mutating func anUnchangedEntryDoesNotReopenAChannelThatCompleted() {
        machine.reconcile([entry("a", "c1", broadcast: "x")], now: .zero, using: fake)
        machine.finish("c1", id: key("a"), using: fake)
        machine.reconcile([entry("a", "c1", broadcast: "x"), entry("b", "c2")], now: ms(10), using: fake)
        #expect(fake.log == ["open c1", "complete c1", "release c1", "open c2"])
    }

    @Test mutating func aBroadcastChangeDuringSettleSwapsThePendingComponent() {
        machine.reconcile([entry("a", "c1", reset: "r1", broadcast: "x", settle: ms(500))], now: .zero, using: fake)
        machine.reconcile([entry("a", "c2", reset: "r2", broadcast: "x", settle: ms(500))], now: ms(100), using: fake)
        machine.reconcile([entry("a", "c3", reset: "r2", broadcast: "y", settle: ms(500))], now: ms(200), using: fake)
        #expect(fake.log == ["open c1", "cancel c1", "timer settle a @600ms"], "the settle window is not restarted")
        machine.fire(fake.timer(.settle, "a"), using: fake)
        #expect(fake.log.last == "open c3")
    }

    @Test mutating func leaversAreCancelledBeforeOpensInTheirPreviousOrder() {
        let names = (0..<12).map { "k\($0)" }
        machine.reconcile(names.map { entry($0, "\($0)-1") }, now: .zero, using: fake)
        fake.clearLog()
        let staying = ["k5", "k2"]
        machine.reconcile([entry("new1", "new1")] + staying.map { entry($0, "\($0)-1") } + [entry("new2", "new2")], now: ms(10), using: fake)
        let leavers = names.filter { !staying.contains($0) }
        #expect(fake.log == leavers.map { "cancel \($0)-1" } + ["open new1", "open new2"])
        #expect(Set(machine.openChannelKeys) == Set(["new1", "k5", "k2", "new2"].map(key)))
    }

    @Test mutating func leavingCancelsAPendingSettle() {
        machine.reconcile([entry("a", "c1", reset: "r1", settle: ms(500))], now: .zero, using: fake)
        machine.reconcile([entry("a", "c2", reset: "r2", settle: ms(500))], now: ms(100), using: fake)
        machine.reconcile([], now: ms(200), using: fake)
        #expect(fake.log == ["open c1", "cancel c1", "timer settle a @600ms", "cancel timer settle a"])
        #expect(machine.liveKeyCount == 0)
        #expect(machine.reconciledCount == 0)
    }

    @Test mutating func aKeyThatLeavesAndComesBackOpensAgain() {
        machine.reconcile([entry("a", "c1")], now: .zero, using: fake)
        machine.reconcile([], now: ms(10), using: fake)
        machine.reconcile([entry("a", "c2")], now: ms(20), using: fake)
        #expect(fake.log == ["open c1", "cancel c1", "open c2"])
    }

    @Test mutating func duplicateKeysOpenTheLaterEntryAtTheFirstPosition() {
        let desired = [entry("a", "a-first", broadcast: "x"), entry("b", "b1"), entry("a", "a-second", broadcast: "y")]
        machine.reconcile(desired, now: .zero, using: fake)
        #expect(fake.log == ["open a-second", "open b1"])
        fake.clearLog()
        machine.reconcile(desired, now: ms(10), using: fake)
        machine.reconcile([entry("a", "a-second", broadcast: "y"), entry("b", "b1")], now: ms(20), using: fake)
        #expect(fake.log.isEmpty, "the remembered entry is the later one")
        #expect(machine.reconciledCount == 2)
    }

    @Test mutating func aChannelCancelledByIdStaysClosedUntilItLeavesAndComesBack() {
        machine.reconcile([entry("a", "c1", reset: "r1", broadcast: "x")], now: .zero, using: fake)
        machine.run("cancel", .cancelInFlight(id: "a"), at: ms(10), using: fake)
        machine.reconcile([entry("a", "c2", reset: "r1", broadcast: "y")], now: ms(20), using: fake)
        machine.reconcile([entry("a", "c3", reset: "r2", broadcast: "y")], now: ms(30), using: fake)
        #expect(fake.log == ["open c1", "cancel c1"], "neither a broadcast nor a reset change reopens it (a channel cancelled by id stays closed)")
        machine.reconcile([entry("b", "b1")], now: ms(40), using: fake)
        machine.reconcile([entry("b", "b1"), entry("a", "c4", reset: "r2", broadcast: "y")], now: ms(50), using: fake)
        #expect(fake.log == ["open c1", "cancel c1", "open b1", "open c4"])
    }

    @Test mutating func cancellingAnUnsupervisedIdDoesNotSuppressItsLaterSupervision() {
        machine.run("cancel", .cancelInFlight(id: "a"), using: fake)
        machine.reconcile([entry("a", "c1")], now: ms(10), using: fake)
        #expect(fake.log == ["open c1"])
    }

    @Test mutating func anImperativelyOpenedChannelIsAdoptedWithoutReopening() {
        machine.channel("imperative", id: "a", using: fake)
        machine.reconcile([entry("a", "v", broadcast: "v")], now: ms(10), using: fake)
        #expect(fake.log == ["open imperative", "deliver v to imperative"])
        machine.reconcile([], now: ms(20), using: fake)
        #expect(fake.log.last == "cancel imperative")
        #expect(machine.liveKeyCount == 0)
    }

    @Test mutating func reconcileOpeningUnderAOneShotKeyCancelsTheRun() {
        machine.run("first", .keyed(id: "a"), using: fake)
        machine.reconcile([entry("a", "c1")], now: ms(10), using: fake)
        #expect(fake.log == ["subscribe first", "cancel first", "open c1"])
    }
}

// MARK: - Teardown, inspection and slots (the registry)

@MainActor
@Suite struct EffectMachineLifecycleTests {
    let fake = RecordingInterpreter()
    var machine = EffectMachine<String>()

    @Test mutating func cancelAllCancelsEveryTokenExactlyOnce() {
        machine.run("running", .keyed(id: "a"), using: fake)
        machine.run("anonymous", .immediately, using: fake)
        machine.run("waiting", EffectScheduling.keyed(id: "b").delayed(by: ms(500)), using: fake)
        machine.channel("socket", id: "c", .channel(.debounce(ms(300))), using: fake)
        machine.channel("v2", id: "c", using: fake)
        machine.reconcile([entry("d", "d1", reset: "r1", settle: ms(500))], now: .zero, using: fake)
        machine.reconcile([entry("d", "d2", reset: "r2", settle: ms(500))], now: ms(10), using: fake)
        machine.run("done", .keyed(id: "e"), using: fake)
        machine.finish("done", id: key("e"), using: fake)
        fake.clearLog()

        machine.cancelAll(using: fake)
        #expect(
            fake.log.sorted() == [
                "cancel anonymous", "cancel running", "cancel socket",
                "cancel timer deliver c", "cancel timer settle d", "cancel timer start b",
            ])
        #expect(machine.liveKeyCount == 0)
        #expect(machine.isQuiescent)
        #expect(machine.openChannelKeys.isEmpty)
        #expect(fake.pendingTimers.isEmpty)

        let afterTeardown = fake.log
        machine.cancelAll(using: fake)
        machine = EffectMachine()
        #expect(fake.log == afterTeardown, "nothing is cancelled twice, not even on release")
    }

    @Test mutating func releasingTheMachineCancelsWhatIsStillRegistered() {
        machine.run("running", .keyed(id: "a"), using: fake)
        machine.channel("socket", id: "b", using: fake)
        machine = EffectMachine()
        #expect(fake.log.sorted() == ["cancel running", "cancel socket", "open socket", "subscribe running"])
    }

    @Test mutating func isQuiescentOnlyWhenNothingButLiveChannelsRemain() {
        #expect(machine.isQuiescent)
        machine.run("first", .keyed(id: "a"), using: fake)
        #expect(!machine.isQuiescent)
        machine.finish("first", id: key("a"), using: fake)
        #expect(machine.isQuiescent)

        machine.run("later", EffectScheduling.keyed(id: "a").delayed(by: ms(100)), using: fake)
        #expect(!machine.isQuiescent)
        machine.fire(fake.timer(.start, "a"), using: fake)
        #expect(!machine.isQuiescent)
        machine.finish("later", id: key("a"), using: fake)
        #expect(machine.isQuiescent)

        machine.channel("socket", id: "c", .channel(.debounce(ms(100))), using: fake)
        #expect(machine.isQuiescent)
        machine.channel("v2", id: "c", using: fake)
        #expect(!machine.isQuiescent)
        machine.fire(fake.timer(.deliver, "c"), using: fake)
        #expect(machine.isQuiescent)
    }

    @Test mutating func openChannelKeysListsOnlyLiveChannels() {
        machine.run("first", .keyed(id: "a"), using: fake)
        machine.channel("socket", id: "b", using: fake)
        machine.reconcile([entry("c", "c1", reset: "r1", settle: ms(100))], now: .zero, using: fake)
        #expect(Set(machine.openChannelKeys) == Set([key("b"), key("c")]))
        machine.reconcile([entry("c", "c2", reset: "r2", settle: ms(100))], now: ms(10), using: fake)
        #expect(machine.openChannelKeys == [key("b")], "a settling channel is not open")
        machine.cancel(key: key("b"), using: fake)
        #expect(machine.openChannelKeys.isEmpty)
    }

    @Test mutating func slotsAreFreedAfterCompletionsAndCancels() {
        for index in 0..<50 { machine.run("run\(index)", .immediately, using: fake) }
        for index in 0..<50 { machine.run("keyed\(index)", .keyed(id: "k\(index % 5)"), using: fake) }
        #expect(machine.liveKeyCount == 55)
        for index in 0..<50 {
            machine.finish("run\(index)", id: AnyHashableSendable(AnonymousEffectKey(value: UInt64(index + 1))), using: fake)
        }
        for index in 45..<50 { machine.finish("keyed\(index)", id: key("k\(index % 5)"), using: fake) }
        #expect(machine.liveKeyCount == 0)

        machine.channel("socket", id: "s", .channel(.debounce(ms(10))), using: fake)
        machine.channel("v", id: "s", using: fake)
        machine.fire(fake.timer(.deliver, "s"), using: fake)
        machine.reconcile((0..<10).map { entry("r\($0)", "r\($0)") }, now: .zero, using: fake)
        #expect(machine.liveKeyCount == 11)
        machine.finish("socket", id: key("s"), using: fake)
        machine.reconcile([], now: ms(10), using: fake)
        #expect(machine.liveKeyCount == 0)

        machine.run("again", .keyed(id: "k0"), using: fake)
        #expect(machine.liveKeyCount == 1, "freed slots are reused")
        #expect((0..<50).allSatisfy { fake.endings(of: "run\($0)") == 1 && fake.endings(of: "keyed\($0)") == 1 })
    }
}

// MARK: - The machine hosted by the production engine

/// The production interpreter must never enter the machine twice at once: effect or channel code
/// it runs may call back synchronously (complete, cancel, schedule), and those calls wait until
/// the current machine operation returns.
@MainActor
@Suite struct EffectMachineInEngineTests {
    let clock = ManualClock()

    func makeEngine() -> EffectEngine<String> {
        EffectEngine<String>(clock: EngineClock(clock), outlet: EffectOutlet(Mailbox(scheduleDrain: {})))
    }

    @Test func aSynchronousCompletionDuringSubscribeLeavesNothingRegistered() {
        let engine = makeEngine()
        engine.schedule(
            Effect<String>.Component(scheduling: .keyed(id: "a")) { _, complete in
                complete()
                return .empty
            }, depth: 0)
        // Completed during the subscription: nothing stays registered.
        #expect(engine.liveKeyCount == 0)
        #expect(engine.isQuiescent)
    }

    @Test func anEffectThatCancelsAnotherKeyWhileStartingRunsTheCancelAfterTheStart() {
        let engine = makeEngine()
        let cancelled = CallCounter()
        engine.schedule(
            Effect<String>.Component(scheduling: .keyed(id: "other")) { _, _ in
                SubscriptionToken { cancelled.record() }
            }, depth: 0)
        engine.schedule(
            Effect<String>.Component(scheduling: EffectScheduling.keyed(id: "a").delayed(by: ms(10))) { _, _ in
                MainActor.assumeIsolated { engine.cancel(key: AnyHashableSendable("other")) }
                return SubscriptionToken {}
            }, depth: 0)
        clock.advance(by: ms(10))
        #expect(cancelled.count == 1)
        #expect(engine.liveKeyCount == 1)
    }

    @Test func anEffectThatSchedulesWhileStartingIsScheduledAfterTheStart() {
        let engine = makeEngine()
        let started = CallCounter()
        let inner = Effect<String>.Component(scheduling: .keyed(id: "inner")) { _, _ in
            started.record()
            return SubscriptionToken {}
        }
        engine.schedule(
            Effect<String>.Component(scheduling: .keyed(id: "outer")) { _, _ in
                MainActor.assumeIsolated { engine.schedule(inner, depth: 1) }
                return SubscriptionToken {}
            }, depth: 0)
        #expect(started.count == 1)
        #expect(engine.liveKeyCount == 2)
    }

    @Test func aCancelClosureThatCancelsEverythingRunsAfterTheCurrentCancel() {
        let engine = makeEngine()
        let endings = CallCounter()
        engine.schedule(
            Effect<String>.Component(scheduling: .keyed(id: "a")) { _, _ in
                SubscriptionToken {
                    endings.record()
                    MainActor.assumeIsolated { engine.cancelAll() }
                }
            }, depth: 0)
        engine.schedule(
            Effect<String>.Component(scheduling: .keyed(id: "b")) { _, _ in
                SubscriptionToken { endings.record() }
            }, depth: 0)
        engine.cancel(key: AnyHashableSendable("a"))
        #expect(endings.count == 2)
        #expect(engine.liveKeyCount == 0)
    }
}

/// A thread-safe call counter for token and effect closures.
private final class CallCounter: Sendable {
    private let calls = Mutex(0)
    func record() { calls.withLock { $0 += 1 } }
    var count: Int { calls.withLock { $0 } }
}
