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

    enum ConversationAction: Sendable, Equatable { case open, close, type(String) }

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

    static let chat: Behavior<ChatAction, ChatState, Void> =
        conversation.liftCollection(.action(conversationPrism).state(\ChatState.conversations), site: "conversations")
            <> settings.lift(.action(settingsPrism).state(\ChatState.settings))

    static func chatState(_ size: Int) -> ChatState {
        var state = ChatState(conversations: (0..<size).map { Conversation(id: $0) })
        state.conversations[size / 2].isOpen = true
        return state
    }

    /// `supervision.siblingMutation`, `lift.collection.missingId`.
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
                StoreHooks.onDiagnostic = { _ in }
                let store = Store(initial: chatState(size), behavior: chat, environment: ())
                let actions = (0..<64).map { ChatAction.conversation(ElementAction(size + $0, action: .type("late"))) }
                return { iterations in
                    for index in 0..<iterations { store.dispatch(actions[index & 63]) }
                }
            },
        ]
    }
}
