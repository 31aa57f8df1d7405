// swift-format-ignore-file
// (A documentation example, kept verbatim: not reformatted.)
import SwiftRex
import SwiftRexTesting
import Synchronization
import Testing

// The code of the Effects and Scheduling and the Supervision and Channels articles, verbatim
// (types file-private here), completed into behaviors that run.
private enum SearchAction: Sendable, Equatable {
    case search(String)
    case results([String])
}

private struct SearchEnvironment: Sendable {
    var search: @Sendable (String) async -> [String]
}

private let search = Behavior<SearchAction, [String], SearchEnvironment>
    .reduce { action, results in if case .results(let found) = action { results = found } }
    .produce { action, _ in
        guard case .search(let text) = action else { return .doNothing }
        return Producer { context in
            .task(scheduling: .debounce(id: "search", delay: .milliseconds(300))) { send in
                send(.results(await context.environment.search(text)))
            }
        }
    }

private enum RoomAction: Sendable, Equatable {
    case enter(Int)
    case leave
    case received(String)
}

private struct Room: Sendable, Equatable {
    var id: Int
    var messages: [String] = []
}

private struct RoomState: Sendable, Equatable {
    var room: Room?
}

/// A fake socket: says when it is closed.
private struct Socket: Sendable {
    var onClose: @Sendable () -> Void
    func close() { onClose() }
}

private struct RoomEnvironment: Sendable {
    var connect: @Sendable (Int, @escaping @Sendable (String) -> Void) -> Socket
}

private let room = Behavior<RoomAction, RoomState, RoomEnvironment>
    .reduce { action, state in
        switch action {
        case .enter(let id): state.room = Room(id: id)
        case .leave: state.room = nil
        case .received(let message): state.room?.messages.append(message)
        }
    }
    .supervise { state in
        Supervision { environment in
            guard let room = state.room else { return [] }
            return [
                Channel(id: "socket", lifetime: .ephemeral(resetKey: room.id)) { dispatch in
                    let socket = environment.connect(room.id) { message in dispatch(.received(message)) }
                    return .cancelOnly { socket.close() }
                }
            ]
        }
    }

@MainActor
@Suite struct EffectsAndChannelsArticleTests {
    @Test func aSearchIsDebouncedAndOnlyTheLastQueryRuns() async {
        let store = TestStore(initial: [], behavior: search, environment: SearchEnvironment(search: { ["\($0)!"] }))
        store.send(.search("sw"))
        await store.advance(by: .milliseconds(200))
        store.send(.search("swift"))
        await store.advance(by: .milliseconds(300))
        await store.receive(.results(["swift!"])) { $0 = ["swift!"] }
        await store.finish()
    }

    @Test func theSocketIsOpenWhileInARoomAndReopenedForAnotherRoom() async {
        let events = Mutex<[String]>([])
        let environment = RoomEnvironment(connect: { id, _ in
            events.withLock { $0.append("open \(id)") }
            return Socket(onClose: { events.withLock { $0.append("close \(id)") } })
        })
        let store = TestStore(initial: RoomState(), behavior: room, environment: environment)
        store.send(.enter(1)) { $0.room = Room(id: 1) }
        #expect(store.store.openChannelIDs.count == 1)
        store.send(.enter(2)) { $0.room = Room(id: 2) }
        store.send(.leave) { $0.room = nil }
        #expect(store.store.openChannelIDs.isEmpty)
        #expect(events.withLock { $0 } == ["open 1", "close 1", "open 2", "close 2"])
        await store.finish()
    }
}
