import Testing

@testable import SwiftRex

// How reconcile decides (SupervisionAndChannels, "How reconcile decides"): supervision's
// reconciler decides and the effect machine performs, without tasks (see `MachineDriver`).

// MARK: - Reconcile (SupervisionAndChannels: leavers first, settle, cancel by id)

@MainActor
@Suite struct EffectMachineReconcileTests {
    let driver = MachineDriver()

    @Test func firstAppearanceOpensAtOnceEvenWithSettle() {
        driver.reconcile([entry("a", "c1", reset: "r1", settle: ms(500))], at: .zero)
        #expect(driver.log == ["open c1"])
        #expect(driver.startedTimers.isEmpty)
        #expect(driver.reconciler.reconciledCount == 1)
    }

    @Test func anUnchangedDesiredSetDoesNothing() {
        let desired = [entry("a", "c1", reset: "r1", broadcast: "x"), entry("b", "c2")]
        driver.reconcile(desired, at: .zero)
        driver.clearLog()
        driver.reconcile(desired, at: ms(10))
        driver.reconcile([entry("a", "other-payload", reset: "r1", broadcast: "x"), entry("b", "other")], at: ms(20))
        #expect(driver.log.isEmpty, "the body is not compared: same key, reset and broadcast is the same channel")
        #expect(driver.machine.openChannelKeys.count == 2)
    }

    @Test func anEmptyDesiredSetOnAnEmptyMachineDoesNothing() {
        driver.reconcile([], at: .zero)
        #expect(driver.log.isEmpty)
        #expect(driver.machine.liveKeyCount == 0)
        #expect(driver.reconciler.reconciledCount == 0)
    }

    @Test func aResetChangeCancelsThenReopensAtOnceWithoutSettle() {
        driver.reconcile([entry("a", "c1", reset: "r1")], at: .zero)
        driver.reconcile([entry("a", "c2", reset: "r2")], at: ms(10))
        #expect(driver.log == ["open c1", "cancel c1", "open c2"])
        #expect(driver.endings(of: "c1") == 1)
    }

    @Test func aResetChangeWithSettleReopensWhenTheSettleTimerFires() {
        driver.reconcile([entry("a", "c1", reset: "r1", settle: ms(500))], at: .zero)
        driver.reconcile([entry("a", "c2", reset: "r2", settle: ms(500))], at: ms(100))
        #expect(driver.log == ["open c1", "cancel c1", "timer settle a @600ms"])
        #expect(driver.machine.openChannelKeys.isEmpty, "closed while settling")
        #expect(!driver.machine.isQuiescent)
        driver.fire(driver.timer(.settle, "a"))
        #expect(driver.log.last == "open c2")
        #expect(driver.machine.openChannelKeys == [key("a")])
        #expect(driver.machine.isQuiescent)
    }

    @Test func onTheClockAReCreationOpensWhenItsSettleTimeHasPassed() {
        driver.reconcile([entry("a", "c1", reset: "r1", settle: ms(500))], at: .zero)
        driver.advance(to: ms(100))
        driver.reconcile([entry("a", "c2", reset: "r2", settle: ms(500))], at: ms(100))
        driver.advance(to: ms(599))
        #expect(driver.log == ["open c1", "cancel c1", "timer settle a @600ms"])
        driver.advance(to: ms(600))
        #expect(driver.log.last == "open c2")
        #expect(driver.machine.openChannelKeys == [key("a")])
    }

    @Test func aSecondResetDuringSettleReplacesThePendingComponent() {
        driver.reconcile([entry("a", "c1", reset: "r1", settle: ms(500))], at: .zero)
        driver.reconcile([entry("a", "c2", reset: "r2", settle: ms(500))], at: ms(100))
        let stale = driver.timer(.settle, "a")
        driver.reconcile([entry("a", "c3", reset: "r3", settle: ms(500))], at: ms(200))
        #expect(driver.log == ["open c1", "cancel c1", "timer settle a @600ms", "cancel timer settle a", "timer settle a @700ms"])
        driver.fire(stale)
        driver.fire(driver.timer(.settle, "a"))
        #expect(driver.log.suffix(1) == ["open c3"])
        #expect(!driver.log.contains("open c2"))
    }

    @Test func aBroadcastChangeIsDeliveredIntoTheLiveChannel() {
        driver.reconcile([entry("a", "c1", broadcast: "x")], at: .zero)
        driver.reconcile([entry("a", "y", broadcast: "y")], at: ms(10))
        #expect(driver.log == ["open c1", "deliver y to c1"])
        #expect(driver.endings(of: "c1") == 0)
    }

    @Test func aBroadcastChangeIsPacedByTheChannelDelivery() {
        driver.reconcile([entry("a", "c1", broadcast: "x", delivery: .throttle(ms(1_000)))], at: .zero)
        driver.reconcile([entry("a", "y", broadcast: "y", delivery: .throttle(ms(1_000)))], at: ms(500))
        driver.reconcile([entry("a", "z", broadcast: "z", delivery: .throttle(ms(1_000)))], at: ms(1_000))
        #expect(driver.log == ["open c1", "deliver z to c1"])
    }

    @Test func aBroadcastChangeReopensAChannelThatCompleted() {
        driver.reconcile([entry("a", "c1", broadcast: "x")], at: .zero)
        driver.finish("c1", id: key("a"))
        driver.reconcile([entry("a", "c2", broadcast: "y")], at: ms(10))
        #expect(driver.log == ["open c1", "complete c1", "release c1", "open c2"])
        #expect(driver.machine.openChannelKeys == [key("a")])
    }

    @Test func anUnchangedEntryDoesNotReopenAChannelThatCompleted() {
        driver.reconcile([entry("a", "c1", broadcast: "x")], at: .zero)
        driver.finish("c1", id: key("a"))
        driver.reconcile([entry("a", "c1", broadcast: "x"), entry("b", "c2")], at: ms(10))
        #expect(driver.log == ["open c1", "complete c1", "release c1", "open c2"])
    }

    @Test func aBroadcastChangeDuringSettleSwapsThePendingComponent() {
        driver.reconcile([entry("a", "c1", reset: "r1", broadcast: "x", settle: ms(500))], at: .zero)
        driver.reconcile([entry("a", "c2", reset: "r2", broadcast: "x", settle: ms(500))], at: ms(100))
        driver.reconcile([entry("a", "c3", reset: "r2", broadcast: "y", settle: ms(500))], at: ms(200))
        #expect(driver.log == ["open c1", "cancel c1", "timer settle a @600ms"], "the settle window is not restarted")
        driver.fire(driver.timer(.settle, "a"))
        #expect(driver.log.last == "open c3")
    }

    @Test func leaversAreCancelledBeforeOpensInTheirPreviousOrder() {
        let names = (0..<12).map { "k\($0)" }
        driver.reconcile(names.map { entry($0, "\($0)-1") }, at: .zero)
        driver.clearLog()
        let staying = ["k5", "k2"]
        driver.reconcile([entry("new1", "new1")] + staying.map { entry($0, "\($0)-1") } + [entry("new2", "new2")], at: ms(10))
        let leavers = names.filter { !staying.contains($0) }
        #expect(driver.log == leavers.map { "cancel \($0)-1" } + ["open new1", "open new2"])
        #expect(Set(driver.machine.openChannelKeys) == Set(["new1", "k5", "k2", "new2"].map(key)))
    }

    @Test func leavingCancelsAPendingSettle() {
        driver.reconcile([entry("a", "c1", reset: "r1", settle: ms(500))], at: .zero)
        driver.reconcile([entry("a", "c2", reset: "r2", settle: ms(500))], at: ms(100))
        driver.reconcile([], at: ms(200))
        #expect(driver.log == ["open c1", "cancel c1", "timer settle a @600ms", "cancel timer settle a"])
        #expect(driver.machine.liveKeyCount == 0)
        #expect(driver.reconciler.reconciledCount == 0)
    }

    @Test func aKeyThatLeavesAndComesBackOpensAgain() {
        driver.reconcile([entry("a", "c1")], at: .zero)
        driver.reconcile([], at: ms(10))
        driver.reconcile([entry("a", "c2")], at: ms(20))
        #expect(driver.log == ["open c1", "cancel c1", "open c2"])
    }

    @Test func duplicateKeysOpenTheLaterEntryAtTheFirstPosition() {
        let desired = [entry("a", "a-first", broadcast: "x"), entry("b", "b1"), entry("a", "a-second", broadcast: "y")]
        driver.reconcile(desired, at: .zero)
        #expect(driver.log == ["open a-second", "open b1"])
        driver.clearLog()
        driver.reconcile(desired, at: ms(10))
        driver.reconcile([entry("a", "a-second", broadcast: "y"), entry("b", "b1")], at: ms(20))
        #expect(driver.log.isEmpty, "the remembered entry is the later one")
        #expect(driver.reconciler.reconciledCount == 2)
    }

    @Test func aChannelCancelledByIdStaysClosedUntilItLeavesAndComesBack() {
        driver.reconcile([entry("a", "c1", reset: "r1", broadcast: "x")], at: .zero)
        driver.run("cancel", .cancelInFlight(id: "a"), at: ms(10))
        driver.reconcile([entry("a", "c2", reset: "r1", broadcast: "y")], at: ms(20))
        driver.reconcile([entry("a", "c3", reset: "r2", broadcast: "y")], at: ms(30))
        #expect(driver.log == ["open c1", "cancel c1"], "neither a broadcast nor a reset change reopens it (a channel cancelled by id stays closed)")
        driver.reconcile([entry("b", "b1")], at: ms(40))
        driver.reconcile([entry("b", "b1"), entry("a", "c4", reset: "r2", broadcast: "y")], at: ms(50))
        #expect(driver.log == ["open c1", "cancel c1", "open b1", "open c4"])
    }

    @Test func cancellingAnUnsupervisedIdDoesNotSuppressItsLaterSupervision() {
        driver.run("cancel", .cancelInFlight(id: "a"))
        driver.reconcile([entry("a", "c1")], at: ms(10))
        #expect(driver.log == ["open c1"])
    }

    @Test func anImperativelyOpenedChannelIsAdoptedWithoutReopening() {
        driver.channel("imperative", id: "a")
        driver.reconcile([entry("a", "v", broadcast: "v")], at: ms(10))
        #expect(driver.log == ["open imperative", "deliver v to imperative"])
        driver.reconcile([], at: ms(20))
        #expect(driver.log.last == "cancel imperative")
        #expect(driver.machine.liveKeyCount == 0)
    }

    @Test func reconcileOpeningUnderAOneShotKeyCancelsTheRun() {
        driver.run("first", .keyed(id: "a"))
        driver.reconcile([entry("a", "c1")], at: ms(10))
        #expect(driver.log == ["subscribe first", "cancel first", "open c1"])
    }
}

// MARK: - The decisions themselves

/// Supervision's reconciler returns what to do and performs nothing: the same desired sets, as
/// Channel values, give these operations.
@MainActor
@Suite struct ChannelReconcilerDecisionTests {
    var reconciler = ChannelReconciler<String>()

    func channel(_ id: String, reset: String? = nil, broadcast: String? = nil) -> Channel<String> {
        Channel(
            id: id, lifetime: reset.map { .ephemeral(resetKey: $0) } ?? .permanent,
            broadcasting: broadcast.map { .onChange($0) } ?? .nothing
        ) { _ in ChannelHandler(receive: { _ in }, cancel: {}) }
    }

    /// Decides `set` (one segment) and names the operations.
    mutating func decide(_ set: Keep<String>) -> [String] {
        _ = reconciler.plan([set], orders: [[]])
        defer { reconciler.operations.removeAll() }
        return reconciler.operations.map { operation in
            switch operation {
            case .close(let key): return "close \(key)"
            case .open(let request): return "open \(request.key)"
            case .recreate(let request): return "recreate \(request.key)"
            case .redeliver(let request): return "redeliver \(request.key)"
            }
        }
    }

    @Test mutating func anUnchangedSetDecidesNothingEvenWhenBuiltAgain() {
        #expect(decide([channel("a", broadcast: "x"), channel("b")]) == ["open a", "open b"])
        #expect(decide([channel("a", broadcast: "x"), channel("b")]).isEmpty)
        #expect(reconciler.reconciledCount == 2)
    }

    @Test mutating func leaversCloseFirstThenEachChannelIsDecidedInOrder() {
        _ = decide((0..<4).map { channel("k\($0)", reset: "r", broadcast: "x") })
        let next = [channel("new"), channel("k2", reset: "r", broadcast: "y"), channel("k1", reset: "s", broadcast: "x")]
        #expect(decide(next) == ["close k0", "close k3", "open new", "redeliver k2", "recreate k1"])
    }

    @Test mutating func aChannelCancelledByIdIsLeftAloneUntilItLeaves() {
        _ = decide([channel("a", broadcast: "x")])
        reconciler.suppress([AnyHashableSendable("a")])
        #expect(decide([channel("a", broadcast: "y")]).isEmpty)
        #expect(decide([]) == ["close a"])
        #expect(decide([channel("a", broadcast: "y")]) == ["open a"])
    }
}
