@_spi(Testing) import SwiftRex
@_spi(Testing) import SwiftRexTesting
import Synchronization
import Testing

/// Runs `body`, which must record exactly one issue (a `TestStore` failure: an unconditional issue
/// with a message; a failed expectation or a thrown error is not one), and returns that issue's
/// text (the TestStore's failure messages under test).
@MainActor
func recordedMessage(_ body: () async -> Void) async -> String {
    let messages = Mutex<[String]>([])
    await withKnownIssue {
        await body()
    } matching: { issue in
        guard case .unconditional = issue.kind, !issue.comments.isEmpty else { return false }
        messages.withLock { $0.append(issue.comments.map(\.rawValue).joined(separator: "\n")) }
        return true
    }
    let recorded = messages.withLock { $0 }
    #expect(recorded.count == 1)
    return recorded.first ?? ""
}

/// The TestStore's failure messages at scale and in plain English: a state difference that shows
/// only what differs (linear in the state's size), expected and actual side by side, and every
/// effect left at `finish` named with what it waits for.
@MainActor
@Suite struct TestStoreMessageTests {
    struct Row: Sendable, Equatable, Identifiable {
        var id: Int
        var title: String
        var done = false
    }

    struct State: Sendable, Equatable {
        var rows: [Row] = []
        var filter = ""
    }

    enum Action: Sendable, Equatable {
        case rename(id: Int, title: String)
        case toggle(id: Int)
        case search(String)
        case results([String])
    }

    static let rows = Behavior<Action, State, Void>
        .reduce { action, state in
            switch action {
            case .rename(let id, let title):
                if let index = state.rows.firstIndex(where: { $0.id == id }) { state.rows[index].title = title }
            case .toggle(let id):
                if let index = state.rows.firstIndex(where: { $0.id == id }) { state.rows[index].done.toggle() }
            case .search(let text):
                state.filter = text
            case .results:
                break
            }
        }
        .produce { action, _ in
            guard case .search(let text) = action else { return .doNothing }
            return Producer { _ in .just(.results([text]), scheduling: .debounce(id: "search", delay: .milliseconds(300))) }
        }

    static func state(rows count: Int) -> State {
        State(rows: (0..<count).map { Row(id: $0, title: "row \($0)") })
    }

    // MARK: State differences at scale

    @Test func aWrongAssertionOnOneRowOfAHundredThousandShowsThatRowAlone() async {
        let store = TestStore(initial: Self.state(rows: 100_000), behavior: Self.rows)
        let message = await recordedMessage {
            store.send(.rename(id: 41_999, title: "buy oat milk")) { $0.rows[41_999].title = "buy milk" }
        }
        #expect(message.contains("[41999] (id: 41999)"))
        #expect(message.contains("−       .title: \"buy milk\""))
        #expect(message.contains("+       .title: \"buy oat milk\""))
        #expect(message.contains("(100000 elements)"))
        #expect(!message.contains("row 0"), "equal rows are left out")
        // The whole message is a few lines, however large the state: 262 bytes.
        #expect(message.utf8.count == 262, "message of \(message.utf8.count) bytes:\n\(message)")
    }

    @Test func theDifferenceDoesWorkLinearInTheStateSize() {
        func work(rows count: Int) -> (comparisons: Int, bytes: Int) {
            let expected = Self.state(rows: count)
            var actual = expected
            actual.rows[count / 2].title = "changed"
            let report = stateDifferenceReport(expected: expected, actual: actual)
            #expect(report.differences == 1)
            return (report.comparisons, report.text.utf8.count)
        }
        let small = work(rows: 1_000)
        let large = work(rows: 100_000)
        // Every element is compared once, plus seven comparisons of the state's other parts: no
        // pass over the state per element.
        #expect(small.comparisons == 1_007 && large.comparisons == 100_007, "\(small.comparisons), \(large.comparisons)")
        // The output grows only with the digits of the index (and the count), not with the state.
        #expect(small.bytes == 155 && large.bytes == 163, "\(small.bytes), \(large.bytes)")
    }

    @Test func rowsRemovedAndInsertedAreMatchedByID() {
        let expected = Self.state(rows: 1_000)
        var actual = expected
        actual.rows.remove(at: 10)
        actual.rows[500].done = true
        actual.rows.append(Row(id: 5_000, title: "new"))
        let text = stateDifference(expected: expected, actual: actual)
        #expect(text.contains("− [10]: Row(id: 10, title: \"row 10\", done: false)") || text.contains("[10]: Row(id: 10"))
        #expect(text.contains("[501] (id: 501)"), "the changed row is found by id despite the shift:\n\(text)")
        #expect(text.contains(".done: false") && text.contains(".done: true"))
        #expect(text.contains("Row(id: 5000, title: \"new\""))
        #expect(text.split(separator: "\n").count == 8, "\(text)")
    }

    @Test func partsThatAreNotEquatableAreComparedThroughReflection() {
        struct Opaque {
            var name: String
            var values: [Int]
            var nested: [String: Int]
        }
        let expected = Opaque(name: "a", values: [1, 2, 3], nested: ["x": 1, "y": 2])
        let actual = Opaque(name: "a", values: [1, 9, 3], nested: ["x": 1, "z": 2])
        let text = stateDifference(expected: expected, actual: actual)
        #expect(text.contains("[1]: 2") && text.contains("[1]: 9"), "\(text)")
        #expect(text.contains("[\"y\"]: 2") && text.contains("[\"z\"]: 2"), "\(text)")
        #expect(!text.contains(".name"), "equal fields are left out:\n\(text)")
    }

    @Test func manyDifferencesAreCountedBeyondTheLimit() {
        let expected = Self.state(rows: 100)
        var actual = expected
        for index in actual.rows.indices { actual.rows[index].done = true }
        let text = stateDifference(expected: expected, actual: actual, limit: 5)
        #expect(text.contains("… and 95 more differences"), "\(text)")
    }

    /// Bad input: values with a reference cycle, or nested deeper than the walk goes. Defined
    /// outcome: the walk ends (a class already on the path is not walked again; past 64 levels a
    /// part is reported whole, described in at most a few hundred characters).
    @Test func cyclesAndDeepNestingEndTheWalk() {
        final class Node {
            var value: Int
            var next: Node?
            init(_ value: Int) { self.value = value }
        }
        let expected = Node(1)
        expected.next = expected
        let actual = Node(2)
        actual.next = actual
        // Break the cycles when done: LeakSanitizer (Scripts/test-sanitized address) reports them otherwise.
        defer {
            expected.next = nil
            actual.next = nil
        }
        let cyclic = stateDifference(expected: expected, actual: actual)
        #expect(cyclic.contains(".value: 1") && cyclic.contains(".value: 2"), "\(cyclic)")
        // Break the cycles, or LeakSanitizer reports both nodes.
        expected.next = nil
        actual.next = nil

        indirect enum Chain: Equatable {
            case end(Int)
            case link(Chain)
        }
        func chain(_ depth: Int, end: Int) -> Chain { (0..<depth).reduce(Chain.end(end)) { inner, _ in .link(inner) } }
        let deep = stateDifferenceReport(expected: chain(200, end: 1), actual: chain(200, end: 2))
        #expect(deep.differences == 1)
        // One header line per level, up to the depth limit (64), then the part whole: 5,467 bytes
        // for a chain 200 deep, as for any deeper one.
        #expect(deep.text.utf8.count == 5_467, "\(deep.text.utf8.count) bytes")
        let deeper = stateDifferenceReport(expected: chain(2_000, end: 1), actual: chain(2_000, end: 2))
        #expect(deeper.text.utf8.count == 5_467, "\(deeper.text.utf8.count) bytes")
    }

    // MARK: Received actions side by side

    @Test func aDifferentReceivedActionIsShownBesideTheExpectedOne() async {
        let store = TestStore(initial: State(), behavior: Self.rows)
        store.send(.search("swift")) { $0.filter = "swift" }
        await store.advance(by: .milliseconds(300))
        let message = await recordedMessage {
            await store.receive(.results(["swiftly"]))
        }
        #expect(message.contains("expected: .results([\"swiftly\"])"), "\(message)")
        #expect(message.contains("received: .results([\"swift\"])"), "\(message)")
        #expect(message.contains("− [0]: \"swiftly\"") || message.contains("\"swiftly\""))
        await store.finish()
    }

    @Test func aReceiveWhileAnEffectWaitsOnTheClockSaysWhatItWaitsFor() async {
        let store = TestStore(initial: State(), behavior: Self.rows)
        store.send(.search("swift")) { $0.filter = "swift" }
        let message = await recordedMessage {
            await store.receive(.results(["swift"]))
        }
        #expect(message.contains("no action arrived"), "\(message)")
        #expect(message.contains("\"search\": a one-shot effect debounced by 300 ms, waiting on the clock to start"), "\(message)")
        #expect(message.contains("advance(by:)"))
        await store.advance(by: .milliseconds(300))
        await store.receive(.results(["swift"]))
        await store.finish()
    }

    // MARK: Finishing with work left

    @Test func finishNamesEachPendingEffectAndWhatItWaitsFor() async {
        let store = TestStore(initial: State(), behavior: Self.rows)
        store.send(.search("swift")) { $0.filter = "swift" }
        let message = await recordedMessage {
            await store.finish()
        }
        #expect(message.contains("1 effect still running or waiting"), "\(message)")
        #expect(message.contains("\"search\": a one-shot effect debounced by 300 ms, waiting on the clock to start"), "\(message)")
    }

    @Test func theStoreListsWhatItStillHolds() {
        let behavior = Behavior<Action, State, Void>
            .produce { action, _ in
                guard case .search = action else { return .doNothing }
                return Producer { _ in
                    .combine(
                        .just(.results([]), scheduling: EffectScheduling(id: AnyHashableSendable("later"), delay: .seconds(2))),
                        .just(.results([]), scheduling: .debounce(id: "typing", delay: .milliseconds(250)))
                    )
                }
            }
            .supervise { _ in Supervision { _ in [Channel<Action>(id: "socket") { _ in ChannelHandler<Never>.cancelOnly {} }] } }
        let store = Store(initial: State(), behavior: behavior, environment: (), clock: { _ in ManualClock() })
        store.dispatch(.search("x"))
        let pending = store.pendingEffects
        #expect(pending.contains(PendingEffect(id: AnyHashableSendable("socket"), kind: .openChannel)))
        #expect(pending.contains(PendingEffect(id: AnyHashableSendable("later"), kind: .waitingToStart(delay: .seconds(2), debounce: nil))))
        #expect(pending.contains(PendingEffect(id: AnyHashableSendable("typing"), kind: .waitingToStart(delay: nil, debounce: .milliseconds(250)))))
        #expect(pending.count == 3)
        #expect(pending.allSatisfy { $0.kind == .openChannel || $0.waitsOnTheClock })
        #expect(
            PendingEffect(id: AnyHashableSendable("later"), kind: .waitingToStart(delay: .seconds(2), debounce: nil)).description
                == "\"later\": a one-shot effect delayed by 2 s, waiting on the clock to start")
        #expect(PendingEffect(id: nil, kind: .running).description.hasPrefix("an effect with no id: a one-shot effect that started"))
    }
}
