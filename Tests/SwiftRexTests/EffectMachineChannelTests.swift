import Testing

@testable import SwiftRex

// Channels opened, fed and paced by the effect machine alone (see `MachineDriver`).

// MARK: - Channels (opening, delivery, channels opened by effects)

@MainActor
@Suite struct EffectMachineChannelTests {
    let driver = MachineDriver()

    @Test func openingAChannelRegistersItsSinkAndIsQuiescent() {
        driver.channel("socket", id: "a")
        #expect(driver.log == ["open socket"])
        #expect(driver.machine.openChannelKeys == [key("a")])
        #expect(driver.machine.isQuiescent)
        #expect(driver.machine.liveKeyCount == 1)
    }

    @Test func anOpenIsNeverDelayedByItsDeliveryPacing() {
        driver.channel("throttled", id: "a", .channel(.throttle(ms(1_000))))
        driver.channel("debounced", id: "b", .channel(.debounce(ms(1_000))))
        #expect(driver.log == ["open throttled", "open debounced"])
        #expect(driver.startedTimers.isEmpty)
    }

    @Test func immediateDeliveryFeedsTheLiveChannelWithoutReopening() {
        driver.channel("socket", id: "a")
        driver.channel("v2", id: "a", at: ms(1))
        driver.channel("v3", id: "a", at: ms(1))
        #expect(driver.log == ["open socket", "deliver v2 to socket", "deliver v3 to socket"])
    }

    @Test func throttledDeliveryCountsTheOpeningValueAndDropsInsideTheWindow() {
        driver.channel("socket", id: "a", .channel(.throttle(ms(1_000))))
        driver.channel("dropped", id: "a", at: ms(999))
        driver.channel("v2", id: "a", at: ms(1_000))
        driver.channel("dropped-again", id: "a", at: ms(1_500))
        driver.channel("v3", id: "a", at: ms(2_000))
        #expect(driver.log == ["open socket", "deliver v2 to socket", "deliver v3 to socket"])
    }

    @Test func silentThrottledChannelLetsItsFirstBroadcastThrough() {
        driver.channel("socket", id: "a", .channel(.throttle(ms(1_000)), deliversOnOpen: false), at: ms(100))
        driver.channel("v1", id: "a", .broadcast, at: ms(100))
        driver.channel("dropped", id: "a", .broadcast, at: ms(600))
        driver.channel("v2", id: "a", .broadcast, at: ms(1_100))
        #expect(driver.log == ["open socket", "deliver v1 to socket", "deliver v2 to socket"])
    }

    @Test func debouncedDeliveryDeliversOnlyTheLatestOfABurst() {
        driver.channel("socket", id: "a", .channel(.debounce(ms(300))))
        driver.channel("v2", id: "a")
        #expect(!driver.machine.isQuiescent, "a pending delivery is work in flight")
        driver.channel("v3", id: "a", at: ms(100))
        driver.channel("v4", id: "a", at: ms(200))
        #expect(
            driver.log == [
                "open socket",
                "timer deliver a @300ms",
                "cancel timer deliver a", "timer deliver a @400ms",
                "cancel timer deliver a", "timer deliver a @500ms",
            ], "each value restarts the window")
        driver.fire(driver.timer(.deliver, "a"))
        #expect(driver.log.last == "deliver v4 to socket")
        #expect(driver.log.filter { $0.hasPrefix("deliver") }.count == 1)
        #expect(driver.machine.isQuiescent)
        #expect(driver.machine.openChannelKeys == [key("a")])
    }

    @Test func debouncedDeliveryIsDroppedWhenTheChannelEndsFirst() {
        driver.channel("socket", id: "a", .channel(.debounce(ms(300))))
        driver.channel("v2", id: "a")
        let pending = driver.timer(.deliver, "a")
        driver.finish("socket", id: key("a"))
        driver.fire(pending)
        #expect(driver.log == ["open socket", "timer deliver a @300ms", "complete socket", "cancel timer deliver a", "release socket"])
        #expect(driver.machine.liveKeyCount == 0)
    }

    @Test func aLiveChannelUsesTheDeliveryRegisteredWhenItOpened() {
        driver.channel("socket", id: "a", .channel(.immediate))
        driver.channel("v2", id: "a", .channel(.debounce(ms(300))))
        driver.channel("v3", id: "a", .channel(.throttle(ms(1_000))))
        driver.channel("v4", id: "a", .channel(.throttle(ms(1_000))))
        #expect(driver.log == ["open socket", "deliver v2 to socket", "deliver v3 to socket", "deliver v4 to socket"])
    }

    @Test func pipeOnlyBroadcastIntoNothingIsDropped() {
        driver.channel("v1", id: "a", .broadcast)
        #expect(driver.log.isEmpty)
        #expect(driver.machine.liveKeyCount == 0)
        driver.channel("socket", id: "a")
        #expect(driver.log == ["open socket"], "nothing was queued for a later open")
    }

    @Test func pipeOnlyBroadcastReachesALiveChannel() {
        driver.channel("socket", id: "a")
        driver.channel("v1", id: "a", .broadcast)
        #expect(driver.log == ["open socket", "deliver v1 to socket"])
    }

    @Test func pipeOnlyBroadcastDoesNotDisturbAOneShotRun() {
        driver.run("first", .keyed(id: "a"))
        driver.channel("v1", id: "a", .broadcast)
        #expect(driver.log == ["subscribe first"])
        #expect(driver.machine.liveKeyCount == 1)
    }

    @Test func anInterpreterThatCannotOpenLeavesNothingBehind() {
        driver.refusingToOpen = ["socket"]
        driver.channel("socket", id: "a")
        #expect(driver.log == ["refuse socket"])
        #expect(driver.machine.liveKeyCount == 0)
        #expect(driver.machine.openChannelKeys.isEmpty)
    }

    @Test func openingAChannelUnderAOneShotKeyCancelsTheRun() {
        driver.run("first", .keyed(id: "a"))
        driver.channel("socket", id: "a")
        #expect(driver.log == ["subscribe first", "cancel first", "open socket"])
        #expect(driver.machine.openChannelKeys == [key("a")])
    }

    @Test func openingAChannelUnderAPendingDelayedStartCancelsTheTimer() {
        driver.run("first", EffectScheduling.keyed(id: "a").delayed(by: ms(500)))
        let timer = driver.timer(.start, "a")
        driver.channel("socket", id: "a")
        driver.fire(timer)
        #expect(driver.log == ["timer start a @500ms", "cancel timer start a", "open socket"])
    }

    @Test func aOneShotUnderAChannelKeyClosesTheChannel() {
        driver.channel("socket", id: "a", .channel(.debounce(ms(300))))
        driver.channel("v2", id: "a")
        driver.run("first", .keyed(id: "a"))
        #expect(driver.log == ["open socket", "timer deliver a @300ms", "cancel timer deliver a", "cancel socket", "subscribe first"])
        #expect(driver.machine.openChannelKeys.isEmpty)
    }

    @Test func aCompletedChannelFreesItsKeyAndCanOpenAgain() {
        driver.channel("socket", id: "a")
        driver.finish("socket", id: key("a"))
        #expect(driver.machine.openChannelKeys.isEmpty)
        #expect(driver.machine.liveKeyCount == 0)
        driver.channel("socket2", id: "a")
        #expect(driver.log == ["open socket", "complete socket", "release socket", "open socket2"])
    }

    @Test func throttledDeliveryIsNotBlockedByAnOlderLongerStampUnderTheKey() {
        // One-shot throttling and channel delivery share the stamp per key (EffectsAndScheduling, "The registry"); a silent channel
        // sets no stamp on open, so the one-shot's 2s stamp is still there. It has not lapsed,
        // but it is older than the channel's own 1s window: the broadcast goes through.
        driver.run("first", .throttle(id: "a", interval: ms(2_000)))
        driver.channel("socket", id: "a", .channel(.throttle(ms(1_000)), deliversOnOpen: false), at: ms(100))
        driver.channel("dropped", id: "a", .broadcast, at: ms(900))
        driver.channel("v1", id: "a", .broadcast, at: ms(1_200))
        #expect(driver.log == ["subscribe first", "cancel first", "open socket", "deliver v1 to socket"])
    }

    @Test func cancellingAChannelResetsItsThrottleState() {
        driver.channel("socket", id: "a", .channel(.throttle(ms(1_000))))
        driver.cancel("a")
        driver.channel("socket2", id: "a", .channel(.throttle(ms(1_000)), deliversOnOpen: false), at: ms(10))
        driver.channel("v1", id: "a", .broadcast, at: ms(20))
        #expect(driver.log == ["open socket", "cancel socket", "open socket2", "deliver v1 to socket2"])
    }
}
