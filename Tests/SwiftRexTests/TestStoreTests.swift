import SwiftRex
import SwiftRexTesting
import Testing

@MainActor
@Suite struct TestStoreTests {
    enum Action: Sendable, Equatable {
        case search(String)
        case results([String])
        case goLive, goOffline, ping, pong
    }
    struct State: Sendable, Equatable {
        var query = ""
        var results: [String] = []
        var isLive = false
        var pongs = 0
    }

    static let feature = Behavior<Action, State, Void>
        .reduce { action, state in
            switch action {
            case .search(let query): state.query = query
            case .results(let results): state.results = results
            case .goLive: state.isLive = true
            case .goOffline: state.isLive = false
            case .pong: state.pongs += 1
            case .ping: break
            }
        }
        .produce { action, _ in
            switch action {
            case .search(let query):
                return Producer { _ in .just(.results([query.uppercased()]), scheduling: .debounce(id: "search", delay: .milliseconds(300))) }
            case .ping:
                return Producer { _ in .just(.pong) }
            default:
                return .doNothing
            }
        }
        .supervise { state in
            Supervision { _ in
                state.isLive ? [Channel<Action>(id: "live") { _ in ChannelHandler<Never>.cancelOnly {} }] : []
            }
        }

    @Test func sendAndReceiveAssertEveryStateChange() async {
        let store = TestStore(initial: State(), behavior: Self.feature)
        store.send(.ping)
        await store.receive(.pong) { $0.pongs = 1 }
        await store.finish()
    }

    @Test func debouncedEffectsWaitForTheManualClock() async {
        let store = TestStore(initial: State(), behavior: Self.feature)
        store.send(.search("s")) { $0.query = "s" }
        await store.advance(by: .milliseconds(100))
        store.send(.search("sw")) { $0.query = "sw" }
        await store.advance(by: .milliseconds(300))
        await store.receive(.results(["SW"])) { $0.results = ["SW"] }
        await store.finish()
    }

    @Test func aWrongStateAssertionRecordsTheDifference() async {
        let store = TestStore(initial: State(), behavior: Self.feature)
        withKnownIssue {
            store.send(.search("a")) { $0.query = "b" }
        } matching: { issue in
            let text = String(describing: issue)
            return text.contains("differs") && text.contains("− ") && text.contains("+ ")
        }
        await store.advance(by: .milliseconds(300))
        await store.receive(.results(["A"])) { $0.results = ["A"] }
        await store.finish()
    }

    @Test func finishingWithUnhandledActionsIsAnIssueWhenExhaustive() async {
        let store = TestStore(initial: State(), behavior: Self.feature)
        store.send(.ping)
        await withKnownIssue {
            await store.finish()
        } matching: { issue in
            String(describing: issue).contains("not asserted")
        }
    }

    @Test func aNonExhaustiveStoreIgnoresWhatIsNotAsserted() async {
        let store = TestStore(initial: State(), behavior: Self.feature, exhaustivity: .off)
        store.send(.ping)
        store.send(.goLive) { $0.isLive = true }
        await store.finish()
    }

    @Test func theTestStoreReconcilesSupervisionLikeTheStore() async {
        let store = TestStore(initial: State(), behavior: Self.feature)
        store.send(.goLive) { $0.isLive = true }
        #expect(store.store.openChannelIDs == [AnyHashableSendable("live")])
        await withKnownIssue {
            await store.finish()
        } matching: { issue in
            String(describing: issue).contains("1 channel still open")
        }
        store.send(.goOffline) { $0.isLive = false }
        #expect(store.store.openChannelIDs.isEmpty)
    }

    @Test func receiveWaitsForAFakeThatTakes300MillisecondsOfRealTime() async {
        let slow = Behavior<Action, State, Void>
            .reduce { action, state in if action == .pong { state.pongs += 1 } }
            .produce { action, _ in
                action == .ping
                    ? Producer { _ in
                        .task { send in
                            try? await Task.sleep(for: .milliseconds(300))
                            send(.pong)
                        }
                    } : .doNothing
            }
        let store = TestStore(initial: State(), behavior: slow)
        store.send(.ping)
        await store.receive(.pong) { $0.pongs = 1 }
        await store.finish()
    }

    /// A behavior whose `.ping` starts a fake that answers `.pong` only once `release` yields.
    static func answering(after release: AsyncStream<Void>) -> Behavior<Action, State, Void> {
        Behavior<Action, State, Void>
            .reduce { action, state in if action == .pong { state.pongs += 1 } }
            .produce { action, _ in
                action == .ping
                    ? Producer { _ in
                        .task { send in
                            for await _ in release { break }
                            send(.pong)
                        }
                    } : .doNothing
            }
    }

    @Test func receiveGivesUpAfterItsTimeoutWhileTheEffectStillRuns() async {
        // The fake answers only when the test lets it: the first `receive` must time out.
        let (release, releaser) = AsyncStream<Void>.makeStream()
        let store = TestStore(initial: State(), behavior: Self.answering(after: release))
        store.send(.ping)
        await withKnownIssue {
            await store.receive(.pong, timeout: .milliseconds(20)) { $0.pongs = 1 }
        } matching: { issue in
            String(describing: issue).contains("no action arrived within")
        }
        releaser.yield()
        await store.receive(.pong, timeout: .seconds(60)) { $0.pongs = 1 }
        await store.finish()
    }

    @Test func receiveStillTimesOutWhileOtherMainActorWorkNeverStops() async {
        // The turns `receive` waits after its timeout end even when the main actor is never idle.
        let (release, releaser) = AsyncStream<Void>.makeStream()
        let store = TestStore(initial: State(), behavior: Self.answering(after: release))
        store.send(.ping)
        let busy = Task { @MainActor in
            while !Task.isCancelled { await Task.yield() }
        }
        await withKnownIssue {
            await store.receive(.pong, timeout: .milliseconds(20)) { $0.pongs = 1 }
        } matching: { issue in
            String(describing: issue).contains("no action arrived within")
        }
        busy.cancel()
        releaser.yield()
        await store.receive(.pong, timeout: .seconds(60)) { $0.pongs = 1 }
        await store.finish()
    }

    @Test(arguments: [false, true])
    func receiveGetsAnActionQueuedBehindMainActorWorkThatOutlastedTheTimeout(keyed: Bool) async {
        // The fake answers on the main actor, a few turns after a gate opens. A main-actor job
        // blocks the main thread (busy, not suspended) well past the timeout, then opens the gate:
        // when `receive` looks again its timeout has passed, and the answer is not late but
        // still queued behind it.
        let (opened, open) = AsyncStream<Void>.makeStream()
        let onTheMainActor = Behavior<Action, State, Void>
            .reduce { action, state in if action == .pong { state.pongs += 1 } }
            .produce { action, _ in
                guard action == .ping else { return .doNothing }
                let body: @Sendable (Send<Action>) async -> Void = { @MainActor send in
                    for await _ in opened { break }
                    for _ in 0..<3 { await Task.yield() }
                    send(.pong)
                }
                return Producer { _ in keyed ? .task(scheduling: .keyed(id: "fake"), body) : .task(body) }
            }
        let store = TestStore(initial: State(), behavior: onTheMainActor)
        store.send(.ping)
        let timeout = Duration.milliseconds(20)
        let hog = Task { @MainActor in
            await Task.yield() // `receive` starts waiting first.
            let end = ContinuousClock.now.advanced(by: timeout * 10)
            while ContinuousClock.now < end {}
            open.yield()
        }
        await store.receive(.pong, timeout: timeout) { $0.pongs = 1 }
        await hog.value
        await store.finish()
    }

    @Test func receiveFailsAtOnceWhenOnlyTheManualClockCouldProduceAnAction() async {
        let store = TestStore(initial: State(), behavior: Self.feature)
        store.send(.search("s")) { $0.query = "s" }
        // The debounced effect waits on the manual clock: nothing can arrive until it advances.
        await withKnownIssue {
            await store.receive(.results(["S"]), timeout: .seconds(60)) { $0.results = ["S"] }
        } matching: { issue in
            String(describing: issue).contains("manual clock")
        }
        await store.advance(by: .milliseconds(300))
        await store.receive(.results(["S"])) { $0.results = ["S"] }
        await store.finish()
    }

    @Test func receivingTheWrongActionIsAnIssueButStillProcessesIt() async {
        let store = TestStore(initial: State(), behavior: Self.feature)
        store.send(.ping)
        await withKnownIssue {
            await store.receive(.results([])) { $0.pongs = 1 }
        } matching: { issue in
            String(describing: issue).contains("other than the expected one")
        }
        #expect(store.state.pongs == 1)
        await store.finish()
    }
}
