import SwiftRex
import SwiftRexTestSupport
import Testing

/// Channel values: `Effect.channel`, `Channel`, `open`, `broadcast` and the cancel-only sentinel,
/// exercised by subscribing their components directly (no Store).
@Suite struct ChannelTests {
    typealias F = CoreFixtures

    @Test func effectChannelOpensOnSubscribeAndDeliversItsValueOnOpen() {
        let received = F.Log<String>()
        let cancels = F.Counter()
        let line = UInt(#line) + 1
        let effect = Effect<Int>.channel(value: "first", scheduling: .keyed(id: "room")) { send, _ in
            send(1)
            return ChannelHandler(receive: { received.append($0) }, cancel: { cancels.increment() })
        }
        let component = effect.components[0]
        #expect(component.scheduling == .keyed(id: "room"))
        #expect(component.channel?.deliversOnOpen == true)
        #expect(component.channel?.isPipeOnly == false)
        #expect(component.channel?.delivery == .immediate)
        #expect(component.immediateActions == nil)
        #expect(received.values.isEmpty)

        let recording = effect.record()
        #expect(received.values == ["first"])
        #expect(recording.actionValues == [1])
        #expect(recording.actions[0].dispatcher.line == line)
        #expect(recording.actions[0].dispatcher.file == #fileID)
        #expect(recording.completions == 0)
        recording.cancel()
        recording.cancel()
        #expect(cancels.value == 1)
    }

    @Test func effectChannelDeliveryFollowsTheCoalescePolicy() {
        func delivery(_ scheduling: EffectScheduling) -> ChannelDelivery? {
            Effect<Int>.channel(value: 0, scheduling: scheduling) { _, _ in
                ChannelHandler(receive: { (_: Int) in }, cancel: {})
            }.components[0].channel?.delivery
        }
        #expect(delivery(.keyed(id: 1)) == .immediate)
        #expect(delivery(.throttle(id: 1, interval: .seconds(1))) == .throttle(.seconds(1)))
        #expect(delivery(.debounce(id: 1, delay: .seconds(2))) == .debounce(.seconds(2)))
    }

    @Test func effectChannelBodyMayComplete() {
        let effect = Effect<Int>.channel(value: 0, scheduling: .keyed(id: "done")) { send, complete in
            send(9)
            complete()
            return ChannelHandler(receive: { (_: Int) in }, cancel: {})
        }
        let recording = effect.record()
        #expect(recording.actionValues == [9])
        #expect(recording.completions == 1)
    }

    @Test func aValueOfAnotherTypeIsNotDeliveredOnOpen() {
        let received = F.Log<Int>()
        let payload = Effect<Int>.channel(value: 5, scheduling: .keyed(id: "x")) { _, _ in
            ChannelHandler(receive: { received.append($0) }, cancel: {})
        }.components[0].channel
        guard let start = payload?.start else {
            Issue.record("expected an opening payload")
            return
        }
        let opened = start("not an Int", { _ in }, {})
        #expect(received.values.isEmpty)
        opened.sink(7)
        opened.sink("still not an Int")
        #expect(received.values == [7])
        opened.token.cancel()
    }

    @Test func channelStoresItsIdentitiesAndOpensThroughAKeyedComponent() {
        let permanent = Channel<Int>(id: "socket") { _ in .cancelOnly {} }
        #expect(permanent.id == AnyHashableSendable("socket"))
        #expect(permanent.resetIdentity == nil)
        #expect(permanent.broadcastIdentity == nil)
        #expect(permanent.settle == nil)
        #expect(permanent.component.scheduling == .keyed(id: "socket"))
        #expect(permanent.component.channel?.deliversOnOpen == false)
        #expect(permanent.component.channel?.isPipeOnly == false)

        let ephemeral = Channel<Int>(
            id: 7,
            lifetime: .ephemeral(resetKey: "room-1", settle: .milliseconds(300)),
            broadcasting: .onChange(0.5),
            delivery: .throttle(.seconds(1))
        ) { _ in ChannelHandler(receive: { _ in }, cancel: {}) }
        #expect(ephemeral.resetIdentity == AnyHashableSendable("room-1"))
        #expect(ephemeral.broadcastIdentity == AnyHashableSendable(0.5))
        #expect(ephemeral.settle == .milliseconds(300))
        #expect(ephemeral.component.channel?.deliversOnOpen == true)
        #expect(ephemeral.component.channel?.delivery == .throttle(.seconds(1)))
    }

    @Test func lifetimesCompareByResetKeyAndSettle() {
        typealias L = Channel<Int>.Lifetime
        #expect(L.permanent == L.permanent)
        #expect(L.ephemeral(resetKey: 1) == L.ephemeral(resetKey: 1))
        #expect(L.ephemeral(resetKey: 1) != L.ephemeral(resetKey: 1.0))
        #expect(L.ephemeral(resetKey: 1) != L.ephemeral(resetKey: 1, settle: .seconds(1)))
        #expect(L.ephemeral(resetKey: 1).resetKey == AnyHashableSendable(1))
    }

    @Test func channelDispatchIsStampedWithTheDeclarationSite() {
        let received = F.Log<Int>()
        let line = UInt(#line) + 1
        let channel = Channel<String>(id: "c", broadcasting: .onChange(3)) { dispatch in
            dispatch("opened")
            return ChannelHandler(receive: { received.append($0) }, cancel: {})
        }
        let recording = Effect.open(channel).record()
        #expect(recording.actionValues == ["opened"])
        #expect(recording.actions[0].dispatcher.line == line)
        #expect(received.values == [3])
    }

    @Test func aChannelThatBroadcastsNothingReceivesNothingOnOpen() {
        let opened = F.Counter()
        let channel = Channel<Int>(id: "quiet") { _ in
            opened.increment()
            return .cancelOnly {}
        }
        _ = Effect.open(channel).emittedActions()
        #expect(opened.value == 1)
    }

    @Test func openUsesTheChannelsOwnComponent() {
        let channel = F.channel("x", reset: 2, broadcast: 4)
        let effect = Effect.open(channel)
        #expect(effect.components.count == 1)
        #expect(effect.components[0].scheduling == channel.component.scheduling)
        #expect(effect.components[0].channel.map(ChannelPayloadSummary.init) == channel.component.channel.map(ChannelPayloadSummary.init))
    }

    @Test func mapActionKeepsIdentitiesAndMapsDispatch() {
        let channel = Channel<Int>(
            id: "c", lifetime: .ephemeral(resetKey: 1, settle: .seconds(1)), broadcasting: .onChange("v"), delivery: .debounce(.seconds(2))
        ) { dispatch in
            dispatch(20)
            return ChannelHandler(receive: { _ in }, cancel: {})
        }
        let mapped = channel.mapAction { "#\($0)" }
        #expect(ChannelIdentity(mapped) == ChannelIdentity(channel))
        #expect(mapped.component.scheduling == channel.component.scheduling)
        #expect(mapped.component.channel?.delivery == .debounce(.seconds(2)))
        #expect(Effect.open(mapped).emittedActionValues() == ["#20"])
    }

    @Test func broadcastIsPipeOnly() {
        let effect = Effect<Int>.broadcast(42, channel: "feed")
        let component = effect.components[0]
        #expect(component.channel?.isPipeOnly == true)
        #expect(component.channel?.start == nil)
        #expect(component.channel?.deliversOnOpen == false)
        #expect(component.channel?.delivery == .immediate)
        #expect(component.scheduling == .keyed(id: "feed"))
        #expect(component.immediateActions == nil)
        let recording = effect.record()
        #expect(recording.actions.isEmpty)
        #expect(recording.completions == 1)
        #expect(Effect<Int>.broadcast(1, channel: AnyHashableSendable(5)).components[0].scheduling == .keyed(id: 5))
    }

    @Test func cancelIsACancelOnlySentinel() {
        let effect = Effect<Int>.cancel(id: "job")
        let component = effect.components[0]
        #expect(component.scheduling == .cancelInFlight(id: "job"))
        #expect(component.scheduling.cancelsOnly)
        #expect(component.channel == nil)
        #expect(component.immediateActions == nil)
        let recording = effect.record()
        #expect(recording.actions.isEmpty)
        #expect(recording.completions == 1)
        #expect(Effect<Int>.cancel(id: AnyHashableSendable(1)).components[0].scheduling == .cancelInFlight(id: 1))
    }

    @Test func channelDeliveryMatchesCoalescing() {
        #expect(ChannelDelivery(nil) == nil)
        #expect(ChannelDelivery(.throttle(.seconds(1))) == .throttle(.seconds(1)))
        #expect(ChannelDelivery(.debounce(.seconds(1))) == .debounce(.seconds(1)))
    }
}
