import Testing

@testable import SwiftRex

// Generations and the registry's lifecycle, on the effect machine alone (see `MachineDriver`).

// MARK: - Generations (stale completions and timers do nothing)

@MainActor
@Suite struct EffectMachineGenerationTests {
    let driver = MachineDriver()

    @Test func staleCompletionAfterReplacementDoesNotRemoveTheNewerRun() {
        driver.run("first", .keyed(id: "a"))
        driver.run("second", .keyed(id: "a"))
        driver.finish("first", id: key("a"))
        #expect(driver.log == ["subscribe first", "cancel first", "subscribe second", "complete first"])
        #expect(driver.machine.liveKeyCount == 1)
        #expect(!driver.machine.isQuiescent)

        driver.finish("second", id: key("a"))
        #expect(driver.log.suffix(2) == ["complete second", "release second"])
        #expect(driver.machine.liveKeyCount == 0)
        #expect(driver.machine.isQuiescent)
    }

    @Test func aDuplicateCompletionIsANoOp() {
        driver.run("first", .keyed(id: "a"))
        driver.finish("first", id: key("a"))
        driver.run("second", .keyed(id: "a"))
        driver.complete("a", generation: driver.generation(of: "first"))
        #expect(driver.log == ["subscribe first", "complete first", "release first", "subscribe second"])
        #expect(driver.machine.liveKeyCount == 1)
    }

    @Test func staleCompletionOfAReplacedChannelKeepsTheNewChannelOpen() {
        driver.channel("c1", id: "a")
        driver.recreate("c2", id: "a", settle: nil, at: ms(10))
        driver.finish("c1", id: key("a"))
        #expect(driver.log == ["open c1", "cancel c1", "open c2", "complete c1"])
        #expect(driver.machine.openChannelKeys == [key("a")])
    }

    @Test func staleStartTimerIsANoOp() {
        driver.run("first", EffectScheduling.keyed(id: "a").delayed(by: ms(500)))
        let stale = driver.timer(.start, "a")
        driver.run("second", .keyed(id: "a"), at: ms(100))
        driver.fire(stale)
        #expect(driver.log == ["timer start a @500ms", "cancel timer start a", "subscribe second"])
        #expect(driver.machine.liveKeyCount == 1)
    }

    @Test func startTimerFiringAfterTheKeyWasFreedIsANoOp() {
        driver.run("first", EffectScheduling.keyed(id: "a").delayed(by: ms(500)))
        let stale = driver.timer(.start, "a")
        driver.cancel("a")
        driver.fire(stale)
        #expect(driver.log == ["timer start a @500ms", "cancel timer start a"])
        #expect(driver.machine.liveKeyCount == 0)
    }

    @Test func startTimerFiringTwiceStartsOnce() {
        driver.run("first", EffectScheduling.keyed(id: "a").delayed(by: ms(500)))
        let timer = driver.timer(.start, "a")
        driver.fire(timer)
        driver.fire(timer)
        #expect(driver.log == ["timer start a @500ms", "subscribe first"])
    }

    @Test func completionOfARunStillWaitingForItsTimerIsIgnored() {
        driver.run("first", EffectScheduling.keyed(id: "a").delayed(by: ms(500)))
        let timer = driver.timer(.start, "a")
        driver.complete("a", generation: timer?.generation ?? 0)
        driver.fire(timer)
        #expect(driver.log == ["timer start a @500ms", "subscribe first"])
    }

    @Test func staleDeliverTimerIsANoOp() {
        driver.channel("socket", id: "a", .channel(.debounce(ms(300))))
        driver.channel("v2", id: "a")
        let stale = driver.timer(.deliver, "a")
        driver.channel("v3", id: "a", at: ms(100))
        driver.fire(stale)
        #expect(!driver.log.contains("deliver v2 to socket"))
        driver.fire(driver.timer(.deliver, "a"))
        driver.fire(driver.timer(.deliver, "a"))
        #expect(driver.log.filter { $0.hasPrefix("deliver") } == ["deliver v3 to socket"])
    }

    @Test func staleSettleTimerIsANoOp() {
        driver.channel("c1", id: "a")
        driver.recreate("c2", id: "a", settle: ms(500), at: ms(10))
        let stale = driver.timer(.settle, "a")
        driver.cancel("a")
        driver.fire(stale)
        #expect(driver.log == ["open c1", "cancel c1", "timer settle a @510ms", "cancel timer settle a"])
        #expect(driver.machine.liveKeyCount == 0)
    }
}

// MARK: - Teardown, inspection and slots (the registry)

@MainActor
@Suite struct EffectMachineLifecycleTests {
    let driver = MachineDriver()

    @Test func cancelAllCancelsEveryTokenExactlyOnce() {
        driver.run("running", .keyed(id: "a"))
        driver.run("anonymous", .immediately)
        driver.run("waiting", EffectScheduling.keyed(id: "b").delayed(by: ms(500)))
        driver.channel("socket", id: "c", .channel(.debounce(ms(300))))
        driver.channel("v2", id: "c")
        driver.channel("d1", id: "d")
        driver.recreate("d2", id: "d", settle: ms(500), at: ms(10))
        driver.run("done", .keyed(id: "e"))
        driver.finish("done", id: key("e"))
        driver.clearLog()

        driver.cancelAll()
        #expect(
            driver.log.sorted() == [
                "cancel anonymous", "cancel running", "cancel socket",
                "cancel timer deliver c", "cancel timer settle d", "cancel timer start b",
            ])
        #expect(driver.machine.liveKeyCount == 0)
        #expect(driver.machine.isQuiescent)
        #expect(driver.machine.openChannelKeys.isEmpty)
        #expect(driver.pendingTimers.isEmpty)

        let afterTeardown = driver.log
        driver.cancelAll()
        driver.machine = EffectMachine()
        #expect(driver.log == afterTeardown, "nothing is cancelled twice, not even on release")
    }

    @Test func releasingTheMachineCancelsWhatIsStillRegistered() {
        driver.run("running", .keyed(id: "a"))
        driver.channel("socket", id: "b")
        driver.machine = EffectMachine()
        #expect(driver.log.sorted() == ["cancel running", "cancel socket", "open socket", "subscribe running"])
    }

    @Test func isQuiescentOnlyWhenNothingButLiveChannelsRemain() {
        #expect(driver.machine.isQuiescent)
        driver.run("first", .keyed(id: "a"))
        #expect(!driver.machine.isQuiescent)
        driver.finish("first", id: key("a"))
        #expect(driver.machine.isQuiescent)

        driver.run("later", EffectScheduling.keyed(id: "a").delayed(by: ms(100)))
        #expect(!driver.machine.isQuiescent)
        driver.fire(driver.timer(.start, "a"))
        #expect(!driver.machine.isQuiescent)
        driver.finish("later", id: key("a"))
        #expect(driver.machine.isQuiescent)

        driver.channel("socket", id: "c", .channel(.debounce(ms(100))))
        #expect(driver.machine.isQuiescent)
        driver.channel("v2", id: "c")
        #expect(!driver.machine.isQuiescent)
        driver.fire(driver.timer(.deliver, "c"))
        #expect(driver.machine.isQuiescent)
    }

    @Test func openChannelKeysListsOnlyLiveChannels() {
        driver.run("first", .keyed(id: "a"))
        driver.channel("socket", id: "b")
        driver.channel("c1", id: "c")
        #expect(Set(driver.machine.openChannelKeys) == Set([key("b"), key("c")]))
        driver.recreate("c2", id: "c", settle: ms(100), at: ms(10))
        #expect(driver.machine.openChannelKeys == [key("b")], "a settling channel is not open")
        driver.cancel("b")
        #expect(driver.machine.openChannelKeys.isEmpty)
    }

    @Test func slotsAreFreedAfterCompletionsAndCancels() {
        for index in 0..<50 { driver.run("run\(index)", .immediately) }
        for index in 0..<50 { driver.run("keyed\(index)", .keyed(id: "k\(index % 5)")) }
        #expect(driver.machine.liveKeyCount == 55)
        for index in 0..<50 {
            driver.finish("run\(index)", id: AnyHashableSendable(AnonymousEffectKey(value: UInt64(index + 1))))
        }
        for index in 45..<50 { driver.finish("keyed\(index)", id: key("k\(index % 5)")) }
        #expect(driver.machine.liveKeyCount == 0)

        driver.channel("socket", id: "s", .channel(.debounce(ms(10))))
        driver.channel("v", id: "s")
        driver.fire(driver.timer(.deliver, "s"))
        for index in 0..<10 { driver.channel("r\(index)", id: "r\(index)") }
        #expect(driver.machine.liveKeyCount == 11)
        driver.finish("socket", id: key("s"))
        for index in 0..<10 { driver.cancel("r\(index)") }
        #expect(driver.machine.liveKeyCount == 0)

        driver.run("again", .keyed(id: "k0"))
        #expect(driver.machine.liveKeyCount == 1, "freed slots are reused")
        #expect((0..<50).allSatisfy { driver.endings(of: "run\($0)") == 1 && driver.endings(of: "keyed\($0)") == 1 })
    }
}
