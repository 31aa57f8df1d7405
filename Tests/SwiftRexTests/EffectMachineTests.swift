import Testing

@testable import SwiftRex

// The scheduling rules of the EffectsAndScheduling article (Sources/SwiftRex/Documentation.docc),
// as a user relies on them, checked on the effect machine alone: no tasks and no sleeping, time is
// a manual clock, and the tests fire timers and report completions explicitly (see
// `MachineDriver`).

// MARK: - Scheduling policies (EffectsAndScheduling, "Scheduling policies")

@MainActor
@Suite struct EffectMachineSchedulingTests {
    let driver = MachineDriver()

    @Test func immediatelyStartsEveryCallAtOnceAndRunsAreIndependent() {
        driver.run("first", .immediately)
        driver.run("second", .immediately)
        #expect(driver.log == ["subscribe first", "subscribe second"])
        #expect(driver.machine.liveKeyCount == 2)
        #expect(!driver.machine.isQuiescent)
    }

    @Test func immediatelyRunsCompleteOnTheirOwnAnonymousKeys() {
        driver.run("first", .immediately)
        driver.run("second", .immediately)
        driver.finish("second", id: AnyHashableSendable(AnonymousEffectKey(value: 2)))
        driver.finish("first", id: AnyHashableSendable(AnonymousEffectKey(value: 1)))
        #expect(driver.log == ["subscribe first", "subscribe second", "complete second", "release second", "complete first", "release first"])
        #expect(driver.machine.liveKeyCount == 0)
        #expect(driver.machine.isQuiescent)
    }

    @Test func anonymousKeysNeverEqualAUserId() {
        driver.run("anonymous", .immediately)
        driver.run("keyed-by-counter", .keyed(id: UInt64(1)))
        driver.run("keyed-by-string", .keyed(id: "anon1"))
        #expect(driver.log == ["subscribe anonymous", "subscribe keyed-by-counter", "subscribe keyed-by-string"])
        #expect(driver.machine.liveKeyCount == 3)
    }

    @Test func keyedOneShotIsReplacedByTheNewestRun() {
        driver.run("first", .keyed(id: "a"))
        driver.run("second", .keyed(id: "a"), at: ms(10))
        #expect(driver.log == ["subscribe first", "cancel first", "subscribe second"])
        #expect(driver.machine.liveKeyCount == 1)
    }

    @Test func replacingCancelsTheRunningEffectAndStartsTheNewOneAtOnce() {
        driver.run("first", .replacing(id: "a"))
        driver.run("second", .replacing(id: "a"), at: ms(10))
        #expect(driver.log == ["subscribe first", "cancel first", "subscribe second"])
        #expect(driver.endings(of: "first") == 1)
        #expect(driver.endings(of: "second") == 0)
    }

    @Test func replacingCancelsAPendingDelayedStart() {
        driver.run("first", EffectScheduling.replacing(id: "a").delayed(by: ms(500)))
        driver.run("second", .replacing(id: "a"), at: ms(100))
        #expect(driver.log == ["timer start a @500ms", "cancel timer start a", "subscribe second"])
        driver.fire(driver.timer(.start, "a"))
        #expect(driver.log.last == "subscribe second", "the cancelled timer's fire is stale")
    }

    @Test func debounceStartsAfterTheWindowAndTheLastCallWins() {
        driver.run("first", .debounce(id: "a", delay: ms(300)))
        #expect(driver.log == ["timer start a @300ms"])
        #expect(!driver.machine.isQuiescent)
        let firstTimer = driver.timer(.start, "a")

        driver.run("second", .debounce(id: "a", delay: ms(300)), at: ms(100))
        #expect(driver.log == ["timer start a @300ms", "cancel timer start a", "timer start a @400ms"])

        driver.fire(firstTimer)
        #expect(driver.log.count == 3, "the superseded timer fires into nothing")

        driver.fire(driver.timer(.start, "a"))
        #expect(driver.log == ["timer start a @300ms", "cancel timer start a", "timer start a @400ms", "subscribe second"])
        #expect(!driver.log.contains("subscribe first"))
    }

    @Test func onTheClockABurstOfDebouncedCallsStartsOnlyTheLastOnceTheBurstIsQuiet() {
        for (index, time) in [0, 100, 200].enumerated() {
            driver.advance(to: ms(time))
            driver.run("call\(index)", .debounce(id: "search", delay: ms(300)), at: ms(time))
        }
        driver.advance(to: ms(499))
        #expect(!driver.log.contains { $0.hasPrefix("subscribe") })
        driver.advance(to: ms(500))
        #expect(driver.log.filter { $0.hasPrefix("subscribe") } == ["subscribe call2"])
        #expect(driver.pendingTimers.isEmpty)
    }

    @Test func debounceCancelsARunThatAlreadyStarted() {
        driver.run("first", .debounce(id: "a", delay: ms(300)))
        driver.fire(driver.timer(.start, "a"))
        driver.run("second", .debounce(id: "a", delay: ms(300)), at: ms(350))
        #expect(driver.log == ["timer start a @300ms", "subscribe first", "cancel first", "timer start a @650ms"])
        driver.fire(driver.timer(.start, "a"))
        #expect(driver.log.last == "subscribe second")
        #expect(driver.endings(of: "first") == 1)
    }

    @Test func debounceAddsAnExplicitDelayToItsWindow() {
        driver.run("first", EffectScheduling.debounce(id: "a", delay: ms(300)).delayed(by: ms(200)))
        #expect(driver.log == ["timer start a @500ms"])
    }

    @Test func zeroOrNegativeDebounceAndDelayStartSynchronously() {
        driver.run("zero-debounce", .debounce(id: "a", delay: .zero))
        driver.run("negative-debounce", .debounce(id: "b", delay: ms(-5)))
        driver.run("zero-delay", EffectScheduling.keyed(id: "c").delayed(by: .zero))
        driver.run("negative-delay", EffectScheduling.immediately.delayed(by: ms(-5)))
        #expect(driver.log == ["subscribe zero-debounce", "subscribe negative-debounce", "subscribe zero-delay", "subscribe negative-delay"])
        #expect(driver.startedTimers.isEmpty)
        // Each knob counts as none on its own: a negative delay does not eat into a debounce.
        driver.run("negative-delay-debounced", EffectScheduling.debounce(id: "d", delay: ms(100)).delayed(by: ms(-300)))
        #expect(driver.log.last == "timer start d @100ms")
    }

    @Test func throttleDropsCallsInsideTheWindowWithAStrictComparison() {
        let throttle = EffectScheduling.throttle(id: "a", interval: ms(1_000))
        driver.run("first", throttle)
        driver.run("dropped", throttle, at: ms(999))
        #expect(driver.log == ["subscribe first"], "inside the window: dropped, the first run untouched")

        driver.run("second", throttle, at: ms(1_000))
        #expect(driver.log == ["subscribe first", "cancel first", "subscribe second"], "age == interval is outside the window")

        driver.run("dropped-again", throttle, at: ms(1_999))
        driver.run("third", throttle, at: ms(2_000))
        #expect(
            driver.log == ["subscribe first", "cancel first", "subscribe second", "cancel second", "subscribe third"],
            "the stamp moved to the second call")
    }

    @Test func throttleAfterTheFirstRunCompletedStartsWithoutCancelling() {
        let throttle = EffectScheduling.throttle(id: "a", interval: ms(100))
        driver.run("first", throttle)
        driver.finish("first", id: key("a"))
        driver.run("dropped", throttle, at: ms(50))
        driver.run("second", throttle, at: ms(150))
        #expect(driver.log == ["subscribe first", "complete first", "release first", "subscribe second"])
    }

    @Test func throttleStampIsTakenAtScheduleTimeBeforeTheDelay() {
        let throttle = EffectScheduling.throttle(id: "a", interval: ms(1_000)).delayed(by: ms(500))
        driver.run("first", throttle)
        #expect(driver.log == ["timer start a @500ms"])
        driver.fire(driver.timer(.start, "a"))
        driver.run("dropped", throttle, at: ms(999))
        #expect(driver.log == ["timer start a @500ms", "subscribe first"], "the window counts from t0, not from the start at t0+500ms")
        driver.run("second", throttle, at: ms(1_000))
        #expect(driver.log == ["timer start a @500ms", "subscribe first", "cancel first", "timer start a @1500ms"])
    }

    @Test func throttleWithZeroOrNegativeIntervalNeverThrottles() {
        driver.run("z1", .throttle(id: "zero", interval: .zero))
        driver.run("z2", .throttle(id: "zero", interval: .zero))
        driver.run("n1", .throttle(id: "negative", interval: ms(-10)))
        driver.run("n2", .throttle(id: "negative", interval: ms(-10)))
        #expect(driver.log == ["subscribe z1", "cancel z1", "subscribe z2", "subscribe n1", "cancel n1", "subscribe n2"])
    }

    @Test func throttleWindowIsTheShorterOfTheStampAndTheCall() {
        // The throttle window: a stamp older than its own interval is forgotten; a live one drops the
        // call only when younger than the call's interval too.
        driver.run("long", .throttle(id: "a", interval: ms(2_000)))
        driver.run("short", .throttle(id: "a", interval: ms(1_000)), at: ms(1_500))
        driver.run("unthrottled", .throttle(id: "b", interval: ms(1_000)))
        driver.run("zero", .throttle(id: "b", interval: .zero), at: ms(100))
        #expect(driver.log == ["subscribe long", "cancel long", "subscribe short", "subscribe unthrottled", "cancel unthrottled", "subscribe zero"])
    }

    @Test func throttleWindowsArePerKey() {
        driver.run("a1", .throttle(id: "a", interval: ms(1_000)))
        driver.run("b1", .throttle(id: "b", interval: ms(1_000)), at: ms(10))
        driver.run("a2", .throttle(id: "a", interval: ms(1_000)), at: ms(20))
        #expect(driver.log == ["subscribe a1", "subscribe b1"])
    }

    @Test func delayWithoutIdStartsLaterAndRunsAreIndependent() {
        let delayed = EffectScheduling.immediately.delayed(by: ms(500))
        driver.run("first", delayed)
        driver.run("second", delayed, at: ms(100))
        #expect(driver.log == ["timer start anon1 @500ms", "timer start anon2 @600ms"])
        driver.fire(driver.startedTimers[0])
        driver.fire(driver.startedTimers[1])
        #expect(driver.log == ["timer start anon1 @500ms", "timer start anon2 @600ms", "subscribe first", "subscribe second"])
        #expect(driver.machine.liveKeyCount == 2)
    }

    @Test func delayWithIdCancelsThePendingTimerOfTheOlderCall() {
        let delayed = EffectScheduling.keyed(id: "a").delayed(by: ms(500))
        driver.run("first", delayed)
        let firstTimer = driver.timer(.start, "a")
        driver.run("second", delayed, at: ms(100))
        #expect(driver.log == ["timer start a @500ms", "cancel timer start a", "timer start a @600ms"])
        driver.fire(firstTimer)
        driver.fire(driver.timer(.start, "a"))
        #expect(driver.log.suffix(1) == ["subscribe second"])
        #expect(!driver.log.contains("subscribe first"))
    }

    @Test func delayWithIdReplacesARunThatAlreadyStarted() {
        let delayed = EffectScheduling.keyed(id: "a").delayed(by: ms(500))
        driver.run("first", delayed)
        driver.fire(driver.timer(.start, "a"))
        driver.run("second", delayed, at: ms(600))
        #expect(driver.log == ["timer start a @500ms", "subscribe first", "cancel first", "timer start a @1100ms"])
    }

    @Test func cancelInFlightCancelsTheRunAndFreesTheKey() {
        driver.run("first", .keyed(id: "a"))
        driver.run("cancel", .cancelInFlight(id: "a"), at: ms(10))
        #expect(driver.log == ["subscribe first", "cancel first"])
        #expect(driver.machine.liveKeyCount == 0)
        #expect(driver.machine.isQuiescent)
    }

    @Test func cancelInFlightCancelsAPendingTimer() {
        driver.run("first", EffectScheduling.keyed(id: "a").delayed(by: ms(500)))
        driver.run("cancel", .cancelInFlight(id: "a"), at: ms(10))
        driver.fire(driver.timer(.start, "a"))
        #expect(driver.log == ["timer start a @500ms", "cancel timer start a"])
        #expect(driver.machine.liveKeyCount == 0)
    }

    @Test func cancelInFlightClearsTheThrottleStamp() {
        let throttle = EffectScheduling.throttle(id: "a", interval: ms(1_000))
        driver.run("first", throttle)
        driver.run("cancel", .cancelInFlight(id: "a"), at: ms(10))
        #expect(driver.machine.liveKeyCount == 0)
        driver.run("second", throttle, at: ms(20))
        #expect(driver.log == ["subscribe first", "cancel first", "subscribe second"])
    }

    @Test func cancelInFlightClosesTheChannelAndItsPendingDelivery() {
        driver.channel("socket", id: "a", .channel(.debounce(ms(300))))
        driver.channel("v2", id: "a", at: ms(10))
        driver.run("cancel", .cancelInFlight(id: "a"), at: ms(20))
        driver.fire(driver.timer(.deliver, "a"))
        #expect(driver.log == ["open socket", "timer deliver a @310ms", "cancel timer deliver a", "cancel socket"])
        #expect(driver.machine.openChannelKeys.isEmpty)
        #expect(driver.machine.liveKeyCount == 0)
    }

    @Test func cancelInFlightCancelsAPendingSettle() {
        driver.channel("c1", id: "a")
        driver.recreate("c2", id: "a", settle: ms(500), at: ms(10))
        driver.run("cancel", .cancelInFlight(id: "a"), at: ms(20))
        driver.fire(driver.timer(.settle, "a"))
        #expect(driver.log == ["open c1", "cancel c1", "timer settle a @510ms", "cancel timer settle a"])
        #expect(driver.machine.liveKeyCount == 0)
        #expect(driver.machine.isQuiescent)
    }

    @Test func cancelInFlightWithoutAnIdDoesNothing() {
        driver.run("first", .keyed(id: "a"))
        var cancelNothing = EffectScheduling.cancelInFlight(id: "a")
        cancelNothing.id = nil
        driver.run("cancel", cancelNothing)
        #expect(driver.log == ["subscribe first"])
        #expect(driver.machine.liveKeyCount == 1)
    }

    @Test func cancellingAnUnknownKeyDoesNothing() {
        driver.run("cancel", .cancelInFlight(id: "nobody"))
        driver.cancel("nobody")
        #expect(driver.log.isEmpty)
        #expect(driver.machine.liveKeyCount == 0)
    }
}
