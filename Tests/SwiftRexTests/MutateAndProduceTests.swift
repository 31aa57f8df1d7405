import Foundation
import SwiftRex
import SwiftRexTestSupport
import SwiftRexTesting
import Synchronization
import Testing

/// The one-closure form, `Behavior.reduce { action, state, context in … return producer }`: the
/// mutation runs in phase 2 with the store's generators, the producer in phase 3 against the
/// post-mutation state; lifted, nested or broadcast, every dispatch keeps its own action.
@MainActor
@Suite struct MutateAndProduceTests {
    struct Message: Sendable, Equatable {
        var id: UUID
        var text: String
        var status: Status
    }
    enum Status: Sendable, Equatable { case sending, delivered, failed }

    enum Action: Sendable, Equatable {
        case send(String)
        case delivered(UUID)
        case failed(UUID)
        case other
    }

    struct State: Sendable, Equatable {
        var messages: [Message] = []
        var sentAt: [Date] = []
    }

    struct Environment: Sendable { var post: @Sendable (String) async -> Bool }

    /// Sending a message: append it (with a UUID and a date from the store), then post it and report.
    static let chat = Behavior<Action, State, Environment>.reduce { action, state, context in
        switch action {
        case .send(let text):
            let id = context.uuid()
            state.messages.append(Message(id: id, text: text, status: .sending))
            state.sentAt.append(context.date())
            return .produce { ctx in
                .task { send in send(await ctx.environment.post(text) ? .delivered(id) : .failed(id)) }
            }
        case .delivered(let id):
            if let index = state.messages.firstIndex(where: { $0.id == id }) { state.messages[index].status = .delivered }
            return .doNothing
        case .failed(let id):
            if let index = state.messages.firstIndex(where: { $0.id == id }) { state.messages[index].status = .failed }
            return .doNothing
        case .other:
            return .doNothing
        }
    }

    nonisolated static func uuid(_ n: Int) -> UUID { UUID(uuidString: String(format: "00000000-0000-0000-0000-%012x", n))! }

    @Test func sendingAMessageMutatesAndProducesInOneClosureWithTheStoresGenerators() async {
        let store = TestStore(initial: State(), behavior: Self.chat, environment: Environment(post: { $0 != "boom" }))
        let first = Self.uuid(0)
        let second = Self.uuid(1)
        store.send(.send("hi")) {
            $0.messages = [Message(id: first, text: "hi", status: .sending)]
            $0.sentAt = [Date(timeIntervalSince1970: 0)]
        }
        await store.receive(.delivered(first)) { $0.messages[0].status = .delivered }
        store.send(.send("boom")) {
            $0.messages.append(Message(id: second, text: "boom", status: .sending))
            $0.sentAt.append(Date(timeIntervalSince1970: 0))
        }
        await store.receive(.failed(second)) { $0.messages[1].status = .failed }
        await store.finish()
    }

    @Test func theProducerSeesThePostMutationStateAndRunsAfterEveryMutation() {
        let order = Mutex<[String]>([])
        let counter = Behavior<Action, Int, Void>.reduce { action, count, _ in
            guard case .send = action else { return .doNothing }
            count += 1
            order.withLock { $0.append("mutate \(count)") }
            return .produce { ctx in
                let live = MainActor.assumeIsolated { ctx.liveState } // phase 3 runs on the main actor
                order.withLock { $0.append("produce sees \(live ?? -1)") }
                return .empty
            }
        }
        let later = Behavior<Action, Int, Void>.reduce { _, count in
            count *= 10
            order.withLock { $0.append("later mutation") }
        }
        let store = Store(initial: 1, behavior: counter <> later)
        store.dispatch(.send("x"))
        #expect(order.withLock { $0 } == ["mutate 2", "later mutation", "produce sees 20"])
    }

    @Test func liftedItSkipsOtherActionsAndAnAbsentFocus() {
        enum AppAction: Sendable, Equatable {
            case chat(Action)
            case other
        }
        struct AppState: Sendable, Equatable { var chat: State? }
        let chatPrism = Prism<AppAction, Action>(preview: { if case .chat(let a) = $0 { a } else { nil } }, review: AppAction.chat)
        let lifted = Self.chat
            .liftOptional(.state(\AppState.chat))
            .liftAction(chatPrism)
        var state = AppState()
        let absent = lifted.step(.chat(.send("hi")), state: &state, environment: Environment(post: { _ in true }))
        #expect(!absent.mutated && absent.effect.isEmpty)
        state.chat = State()
        #expect(!lifted.step(.other, state: &state, environment: Environment(post: { _ in true })).mutated)
        let present = lifted.step(.chat(.send("hi")), state: &state, environment: Environment(post: { _ in true }))
        #expect(present.mutated && state.chat?.messages.map(\.text) == ["hi"])
        #expect(!present.effect.isEmpty)
    }

    @Test func aDispatchNestedInsideAnothersPhasesKeepsItsOwnAction() {
        // Two stores share the behavior; a didChange observer of the first dispatches into the
        // second between the first's mutation and its effect: each effect keeps its own action.
        let produced = Mutex<[String]>([])
        let shared = Behavior<Action, [String], Void>.reduce { action, log, _ in
            guard case .send(let text) = action else { return .doNothing }
            log.append(text)
            return .produce { _ in
                produced.withLock { $0.append(text) }
                return .empty
            }
        }
        let inner = Store(initial: [String](), behavior: shared)
        let outer = Store(initial: [String](), behavior: shared)
        let token = outer.observe(didChange: { if outer.state == ["outer"] { inner.dispatch(.send("inner")) } })
        outer.dispatch(.send("outer"))
        #expect(produced.withLock { $0 } == ["inner", "outer"])
        #expect(outer.state == ["outer"] && inner.state == ["inner"])
        _ = token
    }

    @Test func aBroadcastRunsTheBodyOncePerElementEachWithItsOwnRecord() {
        struct Row: Sendable, Equatable, Identifiable {
            var id: Int
            var hits = 0
        }
        struct Rows: Sendable, Equatable { var rows: [Row] }
        enum RowsAction: Sendable, Equatable {
            case all(Action)
            case row(ElementAction<Int, Action>)
        }
        let seen = Mutex<[Int]>([])
        let row = Behavior<Action, Row, Void>.reduce { _, row, _ in
            row.hits += 1
            let id = row.id
            return .produce { _ in
                seen.withLock { $0.append(id) }
                return .empty
            }
        }
        let lifted = row.liftEach(
            .action(
                broadcast: Prism<RowsAction, Action>(preview: { if case .all(let a) = $0 { a } else { nil } }, review: RowsAction.all),
                into: Prism<RowsAction, ElementAction<Int, Action>>(preview: { if case .row(let a) = $0 { a } else { nil } }, review: RowsAction.row)
            ).state(\Rows.rows))
        let store = Store(initial: Rows(rows: (1...3).map { Row(id: $0) }), behavior: lifted)
        store.dispatch(.all(.other))
        store.dispatch(.all(.other))
        #expect(store.state.rows.map(\.hits) == [2, 2, 2])
        #expect(seen.withLock { $0 } == [1, 2, 3, 1, 2, 3])
    }

    @Test func aReactionReadsTheStoresGeneratorsInPhaseOne() {
        let stamp = Behavior<Action, [UUID], Void>.react { action, context in
            guard case .send = action else { return .doNothing }
            let id = context.generators.uuid()
            return .reduce { $0.append(id) }
        }
        let store = Store(initial: [UUID](), behavior: stamp, environment: (), clock: { _ in ManualClock() }, uuid: { Self.uuid(42) })
        store.dispatch(.send("x"))
        #expect(store.state == [Self.uuid(42)])
    }

    @Test func everyElementOfABroadcastSeesTheStoresGenerators() {
        struct Row: Sendable, Equatable, Identifiable {
            var id: Int
            var stamp: UUID?
        }
        struct Rows: Sendable, Equatable { var rows: [Row] }
        enum RowsAction: Sendable, Equatable {
            case all(Action)
            case row(ElementAction<Int, Action>)
        }
        let stamp = Behavior<Action, Row, Void>.react { _, context in
            let id = context.generators.uuid()
            return .reduce { $0.stamp = id }
        }
        let lifted = stamp.liftEach(
            .action(
                broadcast: Prism<RowsAction, Action>(preview: { if case .all(let a) = $0 { a } else { nil } }, review: RowsAction.all),
                into: Prism<RowsAction, ElementAction<Int, Action>>(preview: { if case .row(let a) = $0 { a } else { nil } }, review: RowsAction.row)
            ).state(\Rows.rows))
        let store = Store(
            initial: Rows(rows: [Row(id: 1), Row(id: 2)]), behavior: lifted, environment: (), clock: { _ in ManualClock() }, uuid: { Self.uuid(7) })
        store.dispatch(.all(.other))
        #expect(store.state.rows.map(\.stamp) == [Self.uuid(7), Self.uuid(7)])
    }
}
