import SwiftRex
import Synchronization
import Testing

@MainActor
@Suite struct EffectConcurrencyTests {
    enum Action: Sendable, Equatable {
        case start, stop
        case push(Int)
        case got(Int)
        case tick
    }

    struct State: Sendable, Equatable {
        var got: [Int] = []
        var ticks = 0
        var sources: [ActionSource] = []
    }

    struct Environment: Sendable {
        let clock: ManualClock
        let log: EventLog
    }

    static let reducer = Behavior<Action, State, Environment>.handle { action, context in
        let source = context.source
        return Reaction(
            mutation: .mutation(
                EndoMut { state in
                    switch action {
                    case .got(let value):
                        state.got.append(value)
                        state.sources.append(source)
                    case .tick: state.ticks += 1
                    case .start, .stop, .push: break
                    }
                }))
    }

    func makeStore(
        clock: ManualClock = ManualClock(),
        log: EventLog = EventLog(),
        _ effect: @escaping @MainActor @Sendable (Action, Environment) -> Effect<Action>
    ) -> Store<Action, State, Environment> {
        let environment = Environment(clock: clock, log: log)
        let behavior =
            Self.reducer
            <> Behavior<Action, State, Environment>.produce { action, _ in
                let produced = effect(action, environment)
                return Producer { _ in produced }
            }
        return Store(initial: State(), behavior: behavior, environment: environment, clock: { $0.clock })
    }

    /// Records what a component does when subscribed outside a Store.
    final class Recorder: Sendable {
        private let storage = Mutex<[String]>([])
        func append(_ event: String) { storage.withLock { $0.append(event) } }
        var events: [String] { storage.withLock { $0 } }
    }

    // MARK: task

    @Test func aTaskSendsItsActionsAndCompletesWhenTheBodyReturns() async {
        let store = makeStore { action, _ in
            guard action == .start else { return .empty }
            return .task { send in
                send(.got(1))
                send(.got(2))
            }
        }
        store.dispatch(.start)
        #expect(await eventually { store.state.got == [1, 2] })
        #expect(await eventually { store.isIdle && store.registeredEffectCount == 0 })
    }

    @Test func taskActionsAreStampedWithTheFactoryCallSite() async {
        let line: UInt = #line + 3
        let store = makeStore { action, _ in
            guard action == .start else { return .empty }
            return .task { send in send(.got(1)) }
        }
        store.dispatch(.start)
        #expect(await eventually { store.state.got == [1] })
        #expect(store.state.sources.first?.line == line)
        #expect(store.state.sources.first?.file == #fileID)
    }

    @Test func aReplacedTaskSendsNothingMoreAndNeverCompletes() async {
        let clock = ManualClock()
        let log = EventLog()
        let store = makeStore(clock: clock, log: log) { action, env in
            guard case .push(let value) = action else { return .empty }
            return .task(scheduling: .replacing(id: "job")) { send in
                try? await env.clock.sleep(for: .seconds(1))
                send(.got(value))
                env.log.append("returned \(value)")
            }
        }
        store.dispatch(.push(1))
        #expect(await eventually { clock.pendingCount == 1 })
        store.dispatch(.push(2))
        #expect(await eventually { log.events == ["returned 1"] })
        #expect(await eventually { clock.pendingCount == 1 })
        clock.advance(by: .seconds(1))
        #expect(await eventually { store.state.got == [2] })
        #expect(await eventually { store.isIdle })
        #expect(log.events == ["returned 1", "returned 2"])
        #expect(store.state.got == [2])
    }

    @Test func aKeyedTaskReplacedInTheSameTurnNeverCallsItsBody() async {
        let log = EventLog()
        let store = makeStore(log: log) { action, env in
            guard case .push(let value) = action else { return .empty }
            return .task(scheduling: .keyed(id: "search")) { send in
                env.log.append("started \(value)")
                send(.got(value))
            }
        }
        // Three queries in one main-actor turn: only the last run's body is ever called, however
        // long the turn lasts (a body started on another thread meanwhile would log here).
        store.dispatch(.push(1))
        let deadline = ContinuousClock.now.advanced(by: .milliseconds(50))
        while ContinuousClock.now < deadline, log.events.isEmpty {}
        store.dispatch(.push(2))
        store.dispatch(.push(3))
        #expect(await eventually { store.state.got == [3] && store.isIdle })
        for _ in 0..<20 { await Task.yield() }
        #expect(log.events == ["started 3"])
        #expect(store.state.got == [3])
        #expect(store.registeredEffectCount == 0)
    }

    @Test func aKeyedTaskReplacedWhileItsBodyRunsIsCancelledThroughItsTask() async {
        // A run replaced before its body starts is only flagged; one whose body runs must see the
        // cancellation through its Task (its handlers and `Task.isCancelled`).
        let clock = ManualClock()
        let log = EventLog()
        let store = makeStore(clock: clock, log: log) { action, env in
            guard case .push(let value) = action else { return .empty }
            return .task(scheduling: .keyed(id: "search")) { send in
                await withTaskCancellationHandler {
                    try? await env.clock.sleep(for: .seconds(1))
                } onCancel: {
                    env.log.append("cancelled \(value)")
                }
                if Task.isCancelled { env.log.append("saw cancellation \(value)") } else { send(.got(value)) }
            }
        }
        store.dispatch(.push(1))
        #expect(await eventually { clock.pendingCount == 1 })
        store.dispatch(.push(2))
        #expect(await eventually { log.events == ["cancelled 1", "saw cancellation 1"] })
        #expect(await eventually { clock.pendingCount == 1 })
        clock.advance(by: .seconds(1))
        #expect(await eventually { store.state.got == [2] && store.isIdle })
        #expect(log.events == ["cancelled 1", "saw cancellation 1"])
    }

    @Test func aKeyedTaskLiftedIntoAParentStillReplacesTheRunBeforeIt() async {
        // The child's keyed task, mapped into the parent's actions: two queries in one turn, one
        // answer (the second), and nothing left registered.
        enum Parent: Sendable, Equatable { case child(Action) }
        let clock = ManualClock()
        let child =
            Behavior<Action, State, Environment>.produce { action, _ in
                guard case .push(let value) = action else { return .doNothing }
                return Producer { _ in .task(scheduling: .keyed(id: "search")) { send in send(.got(value)) } }
            } <> Self.reducer
        let prism = Prism<Parent, Action>(preview: { if case .child(let action) = $0 { action } else { nil } }, review: Parent.child)
        let store = Store(
            initial: State(), behavior: child.lift(.action(prism)),
            environment: Environment(clock: clock, log: EventLog()), clock: { $0.clock })
        store.dispatch(.child(.push(1)))
        store.dispatch(.child(.push(2)))
        #expect(await eventually { store.state.got == [2] && store.isIdle })
        #expect(store.registeredEffectCount == 0)
    }

    @Test func cancelByIdStopsATask() async {
        let clock = ManualClock()
        let log = EventLog()
        let store = makeStore(clock: clock, log: log) { action, env in
            switch action {
            case .start:
                return .task(scheduling: .keyed(id: "job")) { send in
                    send(.got(0))
                    try? await env.clock.sleep(for: .seconds(1))
                    send(.got(1))
                    env.log.append("returned")
                }
            case .stop:
                return .cancel(id: "job")
            default:
                return .empty
            }
        }
        store.dispatch(.start)
        #expect(await eventually { store.state.got == [0] && clock.pendingCount == 1 })
        #expect(!store.isIdle)
        store.dispatch(.stop)
        #expect(await eventually { log.events == ["returned"] })
        for _ in 0..<20 { await Task.yield() }
        #expect(store.state.got == [0])
        #expect(store.isIdle)
        #expect(clock.pendingCount == 0)
    }

    @Test func aCancelledTaskDropsLaterSendsAndNeverCompletes() async {
        let clock = ManualClock()
        let recorder = Recorder()
        let effect = Effect<Int>.task { send in
            send(1)
            try? await clock.sleep(for: .seconds(1))
            #expect(send.isCancelled)
            send(2)
            recorder.append("returned")
        }
        let token = effect.components[0].subscribe(
            send: { recorder.append("send \($0.action)") },
            complete: { recorder.append("complete") }
        )
        #expect(await eventually { clock.pendingCount == 1 })
        token.cancel()
        #expect(await eventually { recorder.events.contains("returned") })
        #expect(recorder.events == ["send 1", "returned"])
    }

    @Test func aTaskCompletesExactlyOnceAndCancellingAfterwardsIsHarmless() async {
        let recorder = Recorder()
        let effect = Effect<Int>.task { send in send(7) }
        let token = effect.components[0].subscribe(
            send: { recorder.append("send \($0.action)") },
            complete: { recorder.append("complete") }
        )
        #expect(await eventually { recorder.events == ["send 7", "complete"] })
        token.cancel()
        for _ in 0..<20 { await Task.yield() }
        #expect(recorder.events == ["send 7", "complete"])
    }

    @Test func aTaskOperationSendsItsSingleActionOrNothing() async {
        let store = makeStore { action, _ in
            switch action {
            case .start: return .task(operation: { .got(5) })
            case .push(let value): return .task(operation: { value > 0 ? .got(value) : nil })
            default: return .empty
            }
        }
        store.dispatch(.start)
        store.dispatch(.push(0))
        store.dispatch(.push(6))
        #expect(await eventually { store.state.got.count == 2 })
        #expect(await eventually { store.isIdle })
        #expect(Set(store.state.got) == [5, 6])
    }

    @Test func trailingClosureSpellingsPickTheIntendedOverloads() async {
        let store = makeStore { action, _ in
            switch action {
            case .start:
                return .task { .got(1) }
            case .push(let value):
                return .channel(value: value, scheduling: .keyed(id: "consumer")) { values, send in
                    for await value in values {
                        send(.got(value))
                        break
                    }
                }
            case .stop:
                return .channel(value: 3, scheduling: .keyed(id: "handler")) { send, complete in
                    ChannelHandler<Int>(receive: { send(.got($0)) }, cancel: {})
                }
            default:
                return .empty
            }
        }
        store.dispatch(.start)
        #expect(await eventually { store.state.got == [1] })
        store.dispatch(.push(2))
        #expect(await eventually { store.state.got == [1, 2] && store.openChannelIDs.isEmpty })
        store.dispatch(.stop)
        #expect(store.openChannelIDs == [AnyHashableSendable("handler")])
        #expect(await eventually { store.state.got == [1, 2, 3] })
    }

    // MARK: asyncSequence

    @Test func anAsyncSequenceSendsEveryElementInOrderThenCompletes() async {
        let store = makeStore { action, _ in
            guard action == .start else { return .empty }
            let (stream, continuation) = AsyncStream<Action>.makeStream()
            for value in 1...4 { continuation.yield(.got(value)) }
            continuation.finish()
            return .asyncSequence(stream)
        }
        store.dispatch(.start)
        #expect(await eventually { store.state.got == [1, 2, 3, 4] })
        #expect(await eventually { store.isIdle && store.registeredEffectCount == 0 })
    }

    @Test func aCancelledAsyncSequenceSendsNothingMore() async {
        let (stream, continuation) = AsyncStream<Action>.makeStream()
        let store = makeStore { action, _ in
            switch action {
            case .start: return .asyncSequence(stream, scheduling: .keyed(id: "feed"))
            case .stop: return .cancel(id: "feed")
            default: return .empty
            }
        }
        store.dispatch(.start)
        continuation.yield(.got(1))
        #expect(await eventually { store.state.got == [1] })
        store.dispatch(.stop)
        #expect(store.isIdle)
        continuation.yield(.got(2))
        continuation.finish()
        for _ in 0..<50 { await Task.yield() }
        #expect(store.state.got == [1])
        #expect(store.isIdle)
    }

    // MARK: channel consume

    static func consumingChannel(
        log: EventLog,
        bufferingPolicy: AsyncStream<Int>.Continuation.BufferingPolicy = .unbounded,
        clock: ManualClock? = nil
    ) -> Effect<Action> {
        .channel(value: 0, scheduling: .keyed(id: "radio"), bufferingPolicy: bufferingPolicy) { values, send in
            if let clock { try? await clock.sleep(for: .seconds(1)) }
            for await value in values {
                send(.got(value))
                if value == 3 { break }
            }
            log.append("consumer returned")
        }
    }

    @Test func aChannelConsumerReceivesBroadcastValuesAndClosesWhenItReturns() async {
        let log = EventLog()
        let store = makeStore(log: log) { action, env in
            switch action {
            case .start: return Self.consumingChannel(log: env.log)
            case .push(let value): return .broadcast(value, channel: "radio")
            default: return .empty
            }
        }
        store.dispatch(.start)
        #expect(store.openChannelIDs == [AnyHashableSendable("radio")])
        #expect(await eventually { store.state.got == [0] })
        store.dispatch(.push(1))
        store.dispatch(.push(2))
        #expect(await eventually { store.state.got == [0, 1, 2] })
        #expect(store.openChannelIDs == [AnyHashableSendable("radio")])
        store.dispatch(.push(3))
        #expect(await eventually { store.openChannelIDs.isEmpty })
        #expect(store.state.got == [0, 1, 2, 3])
        #expect(log.events == ["consumer returned"])
        store.dispatch(.push(4))
        for _ in 0..<20 { await Task.yield() }
        #expect(store.state.got == [0, 1, 2, 3])
    }

    @Test func cancellingAChannelFinishesTheStreamAndDropsLaterValues() async {
        let log = EventLog()
        let store = makeStore(log: log) { action, env in
            switch action {
            case .start: return Self.consumingChannel(log: env.log)
            case .push(let value): return .broadcast(value, channel: "radio")
            case .stop: return .cancel(id: "radio")
            default: return .empty
            }
        }
        store.dispatch(.start)
        store.dispatch(.push(1))
        #expect(await eventually { store.state.got == [0, 1] })
        store.dispatch(.stop)
        #expect(store.openChannelIDs.isEmpty)
        #expect(await eventually { log.events == ["consumer returned"] })
        store.dispatch(.push(2))
        for _ in 0..<20 { await Task.yield() }
        #expect(store.state.got == [0, 1])
        #expect(store.isIdle)
    }

    @Test func aChannelSendsAgainOnANewOpenWithTheSameId() async {
        let log = EventLog()
        let store = makeStore(log: log) { action, env in
            switch action {
            case .start: return Self.consumingChannel(log: env.log)
            case .push(let value): return .broadcast(value, channel: "radio")
            default: return .empty
            }
        }
        store.dispatch(.start)
        store.dispatch(.push(3))
        #expect(await eventually { store.openChannelIDs.isEmpty })
        store.dispatch(.start)
        #expect(store.openChannelIDs == [AnyHashableSendable("radio")])
        #expect(await eventually { store.state.got == [0, 3, 0] })
    }

    @Test func bufferingNewestOneKeepsOnlyTheLatestValue() async {
        let clock = ManualClock()
        let log = EventLog()
        let store = makeStore(clock: clock, log: log) { action, env in
            switch action {
            case .start: return Self.consumingChannel(log: env.log, bufferingPolicy: .bufferingNewest(1), clock: env.clock)
            case .push(let value): return .broadcast(value, channel: "radio")
            default: return .empty
            }
        }
        store.dispatch(.start)
        store.dispatch(.push(1))
        store.dispatch(.push(2))
        store.dispatch(.push(3))
        #expect(await eventually { clock.pendingCount == 1 })
        clock.advance(by: .seconds(1))
        #expect(await eventually { store.openChannelIDs.isEmpty })
        #expect(store.state.got == [3])
    }

    @Test func unboundedBufferingKeepsEveryValue() async {
        let clock = ManualClock()
        let log = EventLog()
        let store = makeStore(clock: clock, log: log) { action, env in
            switch action {
            case .start: return Self.consumingChannel(log: env.log, clock: env.clock)
            case .push(let value): return .broadcast(value, channel: "radio")
            default: return .empty
            }
        }
        store.dispatch(.start)
        store.dispatch(.push(1))
        store.dispatch(.push(2))
        store.dispatch(.push(3))
        #expect(await eventually { clock.pendingCount == 1 })
        clock.advance(by: .seconds(1))
        #expect(await eventually { store.openChannelIDs.isEmpty })
        #expect(store.state.got == [0, 1, 2, 3])
    }

    @Test func aCancelledChannelNeverCompletesAndAReturningOneCompletesOnce() async throws {
        let log = EventLog()
        let recorder = Recorder()
        let effect = Self.consumingChannel(log: log)
        let start = try #require(effect.components[0].channel?.start)
        let (token, sink) = start(0, { recorder.append("send \($0.action)") }, { recorder.append("complete") })
        sink(1)
        #expect(await eventually { recorder.events == ["send got(0)", "send got(1)"] })
        token.cancel()
        #expect(await eventually { log.events == ["consumer returned"] })
        sink(3)
        for _ in 0..<20 { await Task.yield() }
        #expect(recorder.events == ["send got(0)", "send got(1)"])

        let second = Recorder()
        let (secondToken, secondSink) = start(3, { second.append("send \($0.action)") }, { second.append("complete") })
        #expect(await eventually { second.events == ["send got(3)", "complete"] })
        secondSink(4)
        secondToken.cancel()
        for _ in 0..<20 { await Task.yield() }
        #expect(second.events == ["send got(3)", "complete"])
    }
}
