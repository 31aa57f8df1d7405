import Baselines
import LabCore
import SwiftRex

/// Supervision at scale: a large supervised collection beside sibling slices, as an app has it.
///
/// The domain is a team-chat core: conversations lifted with `liftCollection`, each supervising a
/// typing-indicator channel while open; a search field and settings lifted through key paths.
@MainActor
enum SupervisionScenarios {
    /// Collection sizes of the sibling-mutation scenario.
    static let siblingSizes = [100, 1_000, 10_000, 100_000]
    /// The instruction tolerance of the structural-edit scenarios (see Results/README.md).
    static let structuralTolerance = 0.03
    /// Collection sizes of the missing-id scenario.
    static let missingSizes = [100, 1_000, 10_000, 100_000]

    struct Conversation: Identifiable, Sendable, Equatable {
        var id: Int
        var isOpen = false
        var draft = ""
    }

    struct Settings: Sendable, Equatable {
        var dark = false
        var sounds = true
    }

    struct ChatState: Sendable, Equatable {
        var conversations: [Conversation]
        var search = ""
        var settings = Settings()
    }

    enum ConversationAction: Sendable, Equatable {
        case open, close
        case type(String)
    }

    enum ChatAction: Sendable, Equatable {
        case conversation(ElementAction<Int, ConversationAction>)
        case toggleDark
        case search(String)
    }

    static let conversationPrism = Prism<ChatAction, ElementAction<Int, ConversationAction>>(
        preview: { if case .conversation(let action) = $0 { action } else { nil } }, review: ChatAction.conversation)
    static let settingsPrism = Prism<ChatAction, Void>(
        preview: { if case .toggleDark = $0 { () } else { nil } }, review: { ChatAction.toggleDark })

    /// Every conversation supervises; an open one keeps a typing channel.
    static let conversation = Behavior<ConversationAction, Conversation, Void>
        .reduce { action, conversation in
            switch action {
            case .open: conversation.isOpen = true
            case .close: conversation.isOpen = false
            case .type(let text): conversation.draft = text
            }
        }
        .supervise { conversation in
            Supervision { _ in
                conversation.isOpen
                    ? [Channel<ConversationAction>(id: "typing") { _ in .cancelOnly {} }]
                    : []
            }
        }

    static let settings = Behavior<Void, Settings, Void>.reduce { _, settings in settings.dark.toggle() }

    static let chat = makeChat()

    /// The chat behavior. Each collection lift keeps its own id → position tables, shared by every
    /// Store built from the same behavior value.
    static func makeChat() -> Behavior<ChatAction, ChatState, Void> {
        conversation.liftCollection(.action(conversationPrism).state(\ChatState.conversations), site: "conversations")
            <> settings.lift(.action(settingsPrism).state(\ChatState.settings))
    }

    static func chatState(_ size: Int) -> ChatState {
        var state = ChatState(conversations: (0..<size).map { Conversation(id: $0) })
        state.conversations[size / 2].isOpen = true
        return state
    }

    /// Collection sizes of the structural-edit scenarios.
    static let structuralSizes = [1_000, 10_000, 100_000]

    /// `supervision.siblingMutation`, `lift.collection.missingId` (and its two-Store variant), `supervision.insertRemove` (and
    /// its plain-array and dictionary twins), `app.chat` (and its plain-array twin).
    static var all: [Scenario] {
        [
            Scenario(name: "supervision.siblingMutation", sizes: siblingSizes) { size in
                // A settings toggle beside N supervised conversations (one channel open): the
                // collection's supervision is neither evaluated nor reconciled.
                let store = Store(initial: chatState(size), behavior: chat, environment: ())
                precondition(store.openChannelIDs.count == 1, "one open conversation")
                let notifications = Slot(0)
                let token = store.observe(didChange: { notifications.value &+= 1 })
                return { iterations in
                    for _ in 0..<iterations { store.dispatch(.toggleDark) }
                    blackHole(token)
                }
            },
            Scenario(name: "lift.collection.missingId", sizes: missingSizes) { size in
                // An action for an id that is not in the collection (a late response for a removed
                // row): dropped and reported, in time independent of the size.
                // Its own behavior: one app, one Store (the paired ratio keeps two set-ups alive).
                StoreHooks.onDiagnostic = { _ in }
                let store = Store(initial: chatState(size), behavior: makeChat(), environment: ())
                let actions = (0..<64).map { ChatAction.conversation(ElementAction(size + $0, action: .type("late"))) }
                return { iterations in
                    for index in 0..<iterations { store.dispatch(actions[index & 63]) }
                }
            },
            Scenario(name: "lift.collection.missingId.twoStores") {
                // Two Stores built from one behavior value (two windows of one app), 100,000 and
                // 100 rows, their late actions alternating: each container keeps its own id table
                // in the shared lift, so a miss stays O(1) in both.
                StoreHooks.onDiagnostic = { _ in }
                let behavior = makeChat()
                let large = Store(initial: chatState(100_000), behavior: behavior, environment: ())
                let small = Store(initial: chatState(100), behavior: behavior, environment: ())
                let largeActions = (0..<64).map { ChatAction.conversation(ElementAction(100_000 + $0, action: .type("late"))) }
                let smallActions = (0..<64).map { ChatAction.conversation(ElementAction(100 + $0, action: .type("late"))) }
                return { iterations in
                    for index in 0..<iterations {
                        if index & 1 == 0 { large.dispatch(largeActions[index & 63]) } else { small.dispatch(smallActions[index & 63]) }
                    }
                }
            },
            // Its count moves with the pass's history: gated at ±3 % (Results/README.md says why).
            Scenario(
                name: "supervision.insertRemove", sizes: structuralSizes, allocationIterations: 64, instructionTolerance: structuralTolerance
            ) { size in
                // An app-level action appends a conversation and removes the oldest, in an
                // IdentifiedArray: its journal names the two rows to reconcile.
                let store = Store(initial: RoomState(rooms: IdentifiedArray((0..<size).map { Room(id: $0) })), behavior: rooms, environment: ())
                var next = size
                return { iterations in
                    for _ in 0..<iterations {
                        store.dispatch(.rotate(insert: next, remove: next - size))
                        next &+= 1
                    }
                }
            },
            Scenario(
                name: "supervision.insertRemove.plainArray", sizes: structuralSizes, allocationIterations: 16,
                instructionTolerance: structuralTolerance
            ) { size in
                // The same edit on a plain array: the Store compares the array before and after the
                // write (one pass) and evaluates the rows that came and went.
                let store = Store(initial: PlainRoomState(rooms: (0..<size).map { Room(id: $0) }), behavior: plainRooms, environment: ())
                var next = size
                return { iterations in
                    for _ in 0..<iterations {
                        store.dispatch(.rotate(insert: next, remove: next - size))
                        next &+= 1
                    }
                }
            },
            Scenario(
                name: "supervision.insertRemove.dictionary", sizes: structuralSizes, allocationIterations: 4,
                instructions: .skipped(reason: "O(n) control: every row is evaluated again")
            ) { size in
                // The same edit on a dictionary keyed by id: it keeps no journal and is not
                // watched, so every row is evaluated again.
                let store = Store(
                    initial: KeyedRoomState(rooms: Dictionary(uniqueKeysWithValues: (0..<size).map { ($0, Room(id: $0)) })), behavior: keyedRooms,
                    environment: ())
                var next = size
                return { iterations in
                    for _ in 0..<iterations {
                        store.dispatch(.rotate(insert: next, remove: next - size))
                        next &+= 1
                    }
                }
            },
            Scenario(name: "app.chat", allocationIterations: 4_096, instructions: InstructionCounting.asynchronous) {
                ChatApp.measured(
                    ChatApp.Store(
                        initial: ChatApp.State(conversations: IdentifiedArray(ChatApp.conversations)), behavior: ChatApp.behavior,
                        environment: ChatApp.Environment()))
            },
            Scenario(name: "app.chat.unsupervised", allocationIterations: 4_096, instructions: InstructionCounting.asynchronous) {
                ChatApp.measured(
                    ChatApp.Store(
                        initial: ChatApp.State(conversations: IdentifiedArray(ChatApp.conversations)), behavior: ChatApp.unsupervisedBehavior,
                        environment: ChatApp.Environment()))
            },
            Scenario(name: "app.chat.plainArray", allocationIterations: 1_024, instructions: InstructionCounting.asynchronous) {
                ChatApp.measured(
                    ChatApp.PlainStore(
                        initial: ChatApp.PlainState(conversations: ChatApp.conversations), behavior: ChatApp.plainBehavior,
                        environment: ChatApp.Environment()))
            },
        ]
    }

    // MARK: Structural edits

    struct Room: Identifiable, Sendable, Equatable {
        var id: Int
        var live = true
    }

    struct RoomState: Sendable, Equatable {
        var rooms: IdentifiedArray<Room>
    }

    struct PlainRoomState: Sendable, Equatable {
        var rooms: [Room]
    }

    struct KeyedRoomState: Sendable, Equatable {
        var rooms: [Int: Room]
    }

    enum RoomAction: Sendable, Equatable {
        case room(ElementAction<Int, Bool>)
        case rotate(insert: Int, remove: Int)
    }

    static let roomPrism = Prism<RoomAction, ElementAction<Int, Bool>>(
        preview: { if case .room(let action) = $0 { action } else { nil } }, review: RoomAction.room)

    /// Every room keeps a channel while live.
    static let room = Behavior<Bool, Room, Void>
        .reduce { live, room in room.live = live }
        .supervise { room in
            Supervision { _ in room.live ? [Channel<Bool>(id: "presence") { _ in .cancelOnly {} }] : [] }
        }

    static let rooms: Behavior<RoomAction, RoomState, Void> =
        room.liftCollection(.action(roomPrism).state(\RoomState.rooms), site: "rooms")
        <> Behavior<RoomAction, RoomState, Void>.react { action, _ in
            guard case .rotate(let insert, let remove) = action else { return .doNothing }
            return .reduce { state in
                state.rooms.append(Room(id: insert))
                state.rooms.remove(id: remove)
            }
        }.confined(to: \RoomState.rooms)

    static let plainRooms: Behavior<RoomAction, PlainRoomState, Void> =
        room.liftCollection(.action(roomPrism).state(\PlainRoomState.rooms), site: "rooms")
        <> Behavior<RoomAction, PlainRoomState, Void>.react { action, _ in
            guard case .rotate(let insert, let remove) = action else { return .doNothing }
            return .reduce { state in
                state.rooms.append(Room(id: insert))
                if let index = state.rooms.firstIndex(where: { $0.id == remove }) { state.rooms.remove(at: index) }
            }
        }.confined(to: \PlainRoomState.rooms)

    static let keyedRooms: Behavior<RoomAction, KeyedRoomState, Void> =
        room.liftCollection(.action(roomPrism).state(dictionary: \KeyedRoomState.rooms), site: "rooms")
        <> Behavior<RoomAction, KeyedRoomState, Void>.react { action, _ in
            guard case .rotate(let insert, let remove) = action else { return .doNothing }
            return .reduce { state in
                state.rooms[insert] = Room(id: insert)
                state.rooms[remove] = nil
            }
        }.confined(to: \KeyedRoomState.rooms)
}
