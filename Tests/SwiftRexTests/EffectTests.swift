import SwiftRex
import SwiftRexTestSupport
import Testing

/// `Effect`: an inert, ordered list of components; factories, combine, map and scheduling.
@Suite struct EffectTests {
    typealias F = CoreFixtures

    @Test func justEmitsOnceWithTheFactoryCallSiteAndCompletes() {
        let effect = Effect<Int>.just(1)
        let line = UInt(#line) - 1 // the line above
        let recording = effect.record()
        #expect(recording.actionValues == [1])
        #expect(recording.completions == 1)
        let source = recording.actions[0].dispatcher
        #expect(source.file == #fileID)
        #expect(source.line == line)
        #expect(source.function == #function)
        #expect(effect.components.count == 1)
        #expect(effect.components[0].scheduling == .immediately)
        #expect(effect.components[0].channel == nil)
        #expect(effect.components[0].immediateActions?.map(\.action) == [1])
    }

    /// `Effect.just` with the default scheduling is held without building its component; every
    /// way of looking at it or transforming it sees the one component it stands for.
    @Test func aPlainJustBehavesAsItsComponentEverywhere() {
        let plain = Effect<Int>.just(1)
        #expect(!plain.isEmpty)
        var visited: [EffectScheduling] = []
        plain.forEachComponent { visited.append($0.scheduling) }
        #expect(visited == [.immediately])
        #expect(plain.map { $0 * 10 }.emittedActionValues() == [10])
        #expect(plain.map { $0 * 10 }.components[0].scheduling == .immediately)
        let keyed = plain.scheduling(.keyed(id: "k"))
        #expect(keyed.components.map(\.scheduling) == [.keyed(id: "k")])
        #expect(keyed.emittedActionValues() == [1])
        #expect((plain <> .just(2) <> .empty).emittedActionValues() == [1, 2])
        #expect(Effect<Int>.mconcat([plain, .just(3)]).components.count == 2)
        #expect(Effect<Int>.just(4, scheduling: .keyed(id: "j")).components[0].scheduling == .keyed(id: "j"))
        #expect(plain.scopedToElement(7, site: LiftSite("rows")).components[0].scheduling == .immediately)
        let task = Effect<Int>.task { send in send(1) }
        #expect(task.components.map(\.scheduling) == [.immediately])
        #expect(task.map { $0 + 1 }.components.map(\.scheduling) == [.immediately])
        #expect(task.scheduling(.keyed(id: "t")).components.map(\.scheduling) == [.keyed(id: "t")])
        #expect(Effect<Int>.task(scheduling: .keyed(id: "u")) { _ in }.components.map(\.scheduling) == [.keyed(id: "u")])
    }

    @Test func aKeyedTaskIsTheComponentItStandsForUnderEveryTransformation() {
        // A task keyed or replacing with no other knob is held as its work and id; every view of
        // it is the component it was built from.
        let keyed = Effect<Int>.task(scheduling: .keyed(id: "u")) { send in send(1) }
        let replacing = Effect<Int>.task(scheduling: .replacing(id: "u")) { send in send(1) }
        #expect(keyed.components.map(\.scheduling) == [.keyed(id: "u")])
        #expect(replacing.components.map(\.scheduling) == [.replacing(id: "u")])
        #expect(!keyed.isEmpty)
        var visited: [EffectScheduling] = []
        replacing.forEachComponent { visited.append($0.scheduling) }
        #expect(visited == [.replacing(id: "u")])
        // A zero delay or a coalescing is kept as given (not folded into the keyed form).
        #expect(Effect<Int>.task(scheduling: .keyed(id: "u").delayed(by: .zero)) { _ in }.components[0].scheduling.delay == .zero)
        #expect(
            Effect<Int>.task(scheduling: .debounce(id: "u", delay: .seconds(1))) { _ in }.components.map(\.scheduling) == [
                .debounce(id: "u", delay: .seconds(1))
            ])
        // Mapped, rescheduled, stamped with an element, combined.
        #expect(replacing.map { $0 + 1 }.components.map(\.scheduling) == [.replacing(id: "u")])
        #expect(
            keyed.scheduling(.throttle(id: "t", interval: .seconds(1))).components.map(\.scheduling) == [.throttle(id: "t", interval: .seconds(1))])
        let scoped = keyed.scopedToElement(7, site: LiftSite("rows")).components[0].scheduling
        #expect(scoped == .keyed(id: ElementEffectID(site: "rows", element: 7, inner: "u")))
        #expect((keyed <> .just(2)).components.map(\.scheduling) == [.keyed(id: "u"), .immediately])
    }

    @Test func sequenceEmitsInOrderWithOneCallSiteAndCompletesOnce() {
        let effect = Effect<Int>.sequence([3, 1, 2], scheduling: .keyed(id: "s"))
        let line = UInt(#line) - 1 // the line above
        let recording = effect.record()
        #expect(recording.actionValues == [3, 1, 2])
        #expect(recording.completions == 1)
        #expect(recording.actions.allSatisfy { $0.dispatcher.line == line && $0.dispatcher.file == #fileID })
        #expect(effect.components.count == 1)
        #expect(effect.components[0].scheduling == .keyed(id: "s"))
    }

    @Test func stampedFactoriesKeepTheirSources() {
        let origin = ActionSource(file: "Origin.swift", function: "f()", line: 7)
        let single = Effect<Int>.just(DispatchedAction(5, dispatcher: origin))
        let many = Effect<Int>.sequence([DispatchedAction(1, dispatcher: origin), DispatchedAction(2, dispatcher: origin)])
        #expect(single.emittedActions() == [DispatchedAction(5, dispatcher: origin)])
        #expect(many.emittedActions().map(\.dispatcher) == [origin, origin])
    }

    @Test func emptyIsTheIdentityAndHasNoComponent() {
        let effect = Effect<Int>.just(1)
        #expect(Effect<Int>.empty.isEmpty)
        #expect(Effect<Int>.empty.components.isEmpty)
        #expect(Effect<Int>.identity.isEmpty)
        #expect(Effect<Int>.empty.emittedActions().isEmpty)
        #expect((Effect.empty <> effect).components.count == 1)
        #expect((effect <> .empty).components.count == 1)
        #expect(Effect<Int>(components: []).isEmpty)
        #expect(Effect<Int>.mconcat([.empty, .empty]).isEmpty)
    }

    @Test func combineConcatenatesComponentsLhsFirst() {
        let lhs = Effect<Int>.just(1, scheduling: .keyed(id: "a")) <> .just(2)
        let rhs = Effect<Int>.sequence([3, 4], scheduling: .replacing(id: "b"))
        let combined = lhs <> rhs
        #expect(combined.emittedActionValues() == [1, 2, 3, 4])
        #expect(combined.components.map(\.scheduling) == [.keyed(id: "a"), .immediately, .replacing(id: "b")])
        #expect((rhs <> lhs).emittedActionValues() == [3, 4, 1, 2])
        #expect(Effect.mconcat([lhs, rhs, lhs]).components.count == 5)
        var visited: [EffectScheduling] = []
        combined.forEachComponent { visited.append($0.scheduling) }
        #expect(visited == combined.components.map(\.scheduling))
    }

    @Test func subscribeHandsOverSendCompleteAndTheToken() {
        let cancels = F.Counter()
        let effect = Effect<Int>.subscribe(scheduling: .keyed(id: 1)) { send, complete in
            send(DispatchedAction(10))
            send(DispatchedAction(11))
            complete()
            return SubscriptionToken { cancels.increment() }
        }
        #expect(effect.components[0].immediateActions == nil)
        #expect(effect.components[0].scheduling == .keyed(id: 1))
        let recording = effect.record()
        #expect(recording.actionValues == [10, 11])
        #expect(recording.completions == 1)
        #expect(cancels.value == 0)
        recording.cancel()
        #expect(cancels.value == 1)
    }

    @Test func anEffectCanBeSubscribedManyTimesIndependently() {
        let effect = Effect<Int>.sequence([1, 2]) <> .just(3)
        #expect(effect.emittedActionValues() == [1, 2, 3])
        #expect(effect.emittedActionValues() == [1, 2, 3])
    }

    @Test func componentBridgeInitialiserMatchesSubscribe() {
        let component = Effect<Int>.Component(scheduling: .replacing(id: "x")) { send, complete in
            send(DispatchedAction(4))
            complete()
            return .empty
        }
        let effect = Effect(component)
        #expect(effect.emittedActionValues() == [4])
        #expect(effect.components[0].scheduling == .replacing(id: "x"))
    }

    // MARK: map

    @Test(arguments: [50, 51, 52] as [UInt64])
    func mapObeysTheFunctorLaws(seed: UInt64) {
        let f: @Sendable (F.Action) -> F.Action = { if case .ping(let n) = $0 { .ping(n + 1) } else { $0 } }
        let g: @Sendable (F.Action) -> F.Action = { if case .ping(let n) = $0 { .note("n\(n)") } else { .reset } }
        for effect in F.effects(count: 6, seed: seed) {
            #expect(EffectObservation(effect.map { $0 }) == EffectObservation(effect))
            #expect(EffectObservation(effect.map { g(f($0)) }) == EffectObservation(effect.map(f).map(g)))
        }
    }

    @Test func mapKeepsDispatcherSchedulingAndChannelPayload() {
        let channel = Effect<Int>.channel(value: "hello", scheduling: .throttle(id: "c", interval: .seconds(1))) { send, _ in
            send(1)
            return ChannelHandler(receive: { (_: String) in }, cancel: {})
        }
        let effect =
            Effect<Int>.just(1, scheduling: .debounce(id: "d", delay: .seconds(2)))
            <> channel
            <> .broadcast(3, channel: "c")
            <> .cancel(id: "gone")
        let mapped = effect.map { "v\($0)" }
        #expect(mapped.components.map(\.scheduling) == effect.components.map(\.scheduling))
        #expect(mapped.emittedActions().map(\.dispatcher) == effect.emittedActions().map(\.dispatcher))
        #expect(mapped.emittedActionValues() == ["v1", "v1"])
        let summaries = effect.components.map { $0.channel.map(ChannelPayloadSummary.init) }
        let mappedSummaries = mapped.components.map { $0.channel.map(ChannelPayloadSummary.init) }
        #expect(mappedSummaries == summaries)
        #expect(mapped.components[1].channel?.isPipeOnly == false)
        #expect(mapped.components[2].channel?.isPipeOnly == true)
        #expect(mapped.components[3].scheduling.cancelsOnly)
    }

    // MARK: scheduling(_:)

    @Test func schedulingReplacesEveryComponentsPolicy() {
        let effect = Effect<Int>.just(1) <> .sequence([2, 3], scheduling: .keyed(id: "k"))
        let policy = EffectScheduling.replacing(id: "r").delayed(by: .milliseconds(5))
        let rescheduled = effect.scheduling(policy)
        #expect(rescheduled.components.map(\.scheduling) == [policy, policy])
        #expect(rescheduled.emittedActionValues() == [1, 2, 3])
        #expect(Effect<Int>.empty.scheduling(policy).isEmpty)
        #expect(Effect<Int>.just(1).scheduling(policy).components.map(\.scheduling) == [policy])
    }

    @Test func schedulingKeepsAChannelPayloadAndMapsCoalesceOntoDelivery() {
        let opened = F.Counter()
        let channel = Effect<Int>.channel(value: 1, scheduling: .keyed(id: "feed")) { _, _ in
            opened.increment()
            return ChannelHandler(receive: { (_: Int) in }, cancel: {})
        }
        #expect(channel.components[0].channel?.delivery == .immediate)

        let throttled = channel.scheduling(.throttle(id: "feed", interval: .seconds(1)))
        #expect(throttled.components[0].channel?.delivery == .throttle(.seconds(1)))
        #expect(throttled.components[0].scheduling == .throttle(id: "feed", interval: .seconds(1)))

        let debounced = throttled.scheduling(.debounce(id: "feed", delay: .seconds(3)))
        #expect(debounced.components[0].channel?.delivery == .debounce(.seconds(3)))

        let plain = debounced.scheduling(.keyed(id: "feed"))
        #expect(plain.components[0].channel?.delivery == .debounce(.seconds(3)))
        #expect(plain.components[0].channel?.deliversOnOpen == true)
        #expect(plain.components[0].channel?.isPipeOnly == false)

        _ = plain.emittedActions()
        #expect(opened.value == 1)

        let broadcast = Effect<Int>.broadcast(2, channel: "feed").scheduling(.throttle(id: "feed", interval: .seconds(2)))
        #expect(broadcast.components[0].channel?.isPipeOnly == true)
        #expect(broadcast.components[0].channel?.delivery == .throttle(.seconds(2)))
    }
}

/// `EffectScheduling`: independent knobs, and the factories' settings (the table of
/// EffectsAndScheduling, "Scheduling policies").
@Suite struct EffectSchedulingTests {
    struct Knobs: Equatable {
        var id: AnyHashableSendable?
        var delay: Duration?
        var coalesce: EffectScheduling.Coalesce?
        var exclusive: Bool
        var cancelsOnly: Bool

        init(_ s: EffectScheduling) {
            id = s.id
            delay = s.delay
            coalesce = s.coalesce
            exclusive = s.exclusive
            cancelsOnly = s.cancelsOnly
        }

        init(
            id: AnyHashableSendable?, delay: Duration? = nil, coalesce: EffectScheduling.Coalesce? = nil, exclusive: Bool = false,
            cancelsOnly: Bool = false
        ) {
            self.id = id
            self.delay = delay
            self.coalesce = coalesce
            self.exclusive = exclusive
            self.cancelsOnly = cancelsOnly
        }
    }

    @Test func theFactoriesSetTheKnobsOfTheTable() {
        let id = AnyHashableSendable("k")
        #expect(Knobs(.immediately) == Knobs(id: nil))
        #expect(Knobs(.keyed(id: id)) == Knobs(id: id))
        #expect(Knobs(.replacing(id: id)) == Knobs(id: id, exclusive: true))
        #expect(Knobs(.debounce(id: id, delay: .seconds(1))) == Knobs(id: id, coalesce: .debounce(.seconds(1))))
        #expect(Knobs(.throttle(id: id, interval: .seconds(2))) == Knobs(id: id, coalesce: .throttle(.seconds(2))))
        #expect(Knobs(.cancelInFlight(id: id)) == Knobs(id: id, cancelsOnly: true))
    }

    @Test func delayedByCopiesEveryOtherKnob() {
        let base = EffectScheduling.throttle(id: "t", interval: .seconds(1))
        let delayed = base.delayed(by: .milliseconds(250))
        #expect(Knobs(delayed) == Knobs(id: AnyHashableSendable("t"), delay: .milliseconds(250), coalesce: .throttle(.seconds(1))))
        #expect(base.delay == nil)
        #expect(EffectScheduling.cancelInFlight(id: 1).delayed(by: .seconds(1)).cancelsOnly)
        #expect(EffectScheduling.immediately.delayed(by: .seconds(1)) == EffectScheduling(delay: .seconds(1)))
    }

    @Test func genericIdOverloadsWrapTheId() {
        #expect(EffectScheduling.keyed(id: "x") == .keyed(id: AnyHashableSendable("x")))
        #expect(EffectScheduling.replacing(id: 3) == .replacing(id: AnyHashableSendable(3)))
        #expect(EffectScheduling.debounce(id: "d", delay: .seconds(1)) == .debounce(id: AnyHashableSendable("d"), delay: .seconds(1)))
        #expect(EffectScheduling.throttle(id: "t", interval: .seconds(1)) == .throttle(id: AnyHashableSendable("t"), interval: .seconds(1)))
        #expect(EffectScheduling.cancelInFlight(id: true) == .cancelInFlight(id: AnyHashableSendable(true)))
    }

    @Test func equalityComparesEveryKnobAndIdsByDynamicType() {
        #expect(EffectScheduling.keyed(id: 1) != .keyed(id: 1.0))
        #expect(EffectScheduling.keyed(id: 1) != .cancelInFlight(id: 1))
        #expect(EffectScheduling.keyed(id: 1) != .replacing(id: 1))
        #expect(EffectScheduling(id: AnyHashableSendable("a"), exclusive: true) == .replacing(id: "a"))
        #expect(EffectScheduling() == .immediately)
        #expect(EffectScheduling.debounce(id: 1, delay: .seconds(1)) != .throttle(id: 1, interval: .seconds(1)))
    }
}
