import LabCore
import SwiftRex

/// `app.chat`: an app core for a team chat, driven by a fixed mix of what its user does.
///
/// 10,000 conversations lifted with `liftCollection`; each supervises a typing-indicator channel
/// while open, and at most one is open. A search field and the settings are lifted through key
/// paths; inserting and removing conversations is an app-level unit that says what it touches.
/// Sending a message appends it and starts an effect whose answer (`sent`) comes back through the
/// mailbox.
@MainActor
enum ChatApp {
    /// The number of conversations.
    nonisolated static let size = 10_000

    struct Conversation: Identifiable, Sendable, Equatable {
        var id: Int
        var isOpen = false
        var draft = ""
        var messages: [String] = []
        var pending = 0
        var unread = 0
    }

    struct Settings: Sendable, Equatable {
        var dark = false
        var sounds = true
    }

    /// The state with the conversations in an `IdentifiedArray` (the container the library
    /// recommends for large supervised collections).
    struct State: Sendable, Equatable {
        var conversations: IdentifiedArray<Conversation>
        var search = ""
        var settings = Settings()
    }

    /// The same state with the conversations in a plain array.
    struct PlainState: Sendable, Equatable {
        var conversations: [Conversation]
        var search = ""
        var settings = Settings()
    }

    struct Environment: Sendable {}

    enum ConversationAction: Sendable, Equatable {
        case open, close
        case type(String)
        case send, sent, markRead
    }

    enum Action: Sendable, Equatable {
        case conversation(ElementAction<Int, ConversationAction>)
        case search(String)
        case toggleDark
        case insert(Int)
        case remove(Int)
    }

    typealias Store = SwiftRex.Store<Action, State, Environment>
    typealias PlainStore = SwiftRex.Store<Action, PlainState, Environment>

    static let conversationPrism = Prism<Action, ElementAction<Int, ConversationAction>>(
        preview: { if case .conversation(let action) = $0 { action } else { nil } }, review: Action.conversation)
    static let searchPrism = Prism<Action, String>(
        preview: { if case .search(let text) = $0 { text } else { nil } }, review: Action.search)
    static let settingsPrism = Prism<Action, Void>(
        preview: { if case .toggleDark = $0 { () } else { nil } }, review: { Action.toggleDark })

    /// One conversation: what its actions change and the effect of a send.
    static let conversationReactions = Behavior<ConversationAction, Conversation, Environment>
        .react { action, _ in
            switch action {
            case .open:
                return .reduce {
                    $0.isOpen = true
                    $0.unread = 0
                }
            case .close: return .reduce { $0.isOpen = false }
            case .type(let text): return .reduce { $0.draft = text }
            case .send:
                return Reaction.reduce { (conversation: inout Conversation) in
                    conversation.messages.append(conversation.draft)
                    conversation.draft = ""
                    conversation.pending += 1
                }.produce { _ in .just(.sent) }
            case .sent: return .reduce { $0.pending -= 1 }
            case .markRead: return .reduce { $0.unread = 0 }
            }
        }

    /// One conversation with its typing indicator, a channel kept open while it is open.
    static let conversation = conversationReactions.supervise { conversation in
        Supervision { _ in
            conversation.isOpen ? [Channel<ConversationAction>(id: "typing") { _ in .cancelOnly {} }] : []
        }
    }

    static let search = Behavior<String, String, Environment>.reduce { text, query in query = text }
    static let settings = Behavior<Void, Settings, Environment>.reduce { _, settings in settings.dark.toggle() }

    static let behavior = app(conversation)

    /// The same app with no supervision: the control of what supervising the conversations costs.
    static let unsupervisedBehavior = app(conversationReactions)

    /// The app around one conversation's behavior.
    static func app(_ conversation: Behavior<ConversationAction, Conversation, Environment>) -> Behavior<Action, State, Environment> {
        conversation.liftCollection(.action(conversationPrism).state(\State.conversations), site: "conversations")
            <> search.lift(.action(searchPrism).state(\State.search))
            <> settings.lift(.action(settingsPrism).state(\State.settings))
            <> Behavior<Action, State, Environment>.react { action, _ in
                switch action {
                case .insert(let id): return .reduce { $0.conversations.append(Conversation(id: id)) }
                case .remove(let id): return .reduce { $0.conversations.remove(id: id) }
                case .conversation, .search, .toggleDark: return .doNothing
                }
            }.confined(to: \State.conversations)
    }

    static let plainBehavior: Behavior<Action, PlainState, Environment> =
        conversation.liftCollection(.action(conversationPrism).state(\PlainState.conversations), site: "conversations")
        <> search.lift(.action(searchPrism).state(\PlainState.search))
        <> settings.lift(.action(settingsPrism).state(\PlainState.settings))
        <> Behavior<Action, PlainState, Environment>.react { action, _ in
            switch action {
            case .insert(let id): return .reduce { $0.conversations.append(Conversation(id: id)) }
            case .remove(let id):
                return .reduce { state in
                    if let index = state.conversations.firstIndex(where: { $0.id == id }) { state.conversations.remove(at: index) }
                }
            case .conversation, .search, .toggleDark: return .doNothing
            }
        }.confined(to: \PlainState.conversations)

    /// The initial conversations; the first is open.
    static var conversations: [Conversation] {
        var all = (0..<size).map { Conversation(id: $0) }
        all[0].isOpen = true
        return all
    }

    /// Picks each action from the mix, tracking the open conversation and the live ids itself.
    struct Driver {
        var random: UInt64 = 0xC4A7_2026
        var open = 0
        var nextID: Int
        var live: LiveIDs
        var pendingOpen: Int?
        var typed = 0

        init(size: Int) {
            nextID = size
            live = LiveIDs(count: size)
        }

        mutating func below(_ bound: Int) -> Int {
            random &+= 0x9E37_79B9_7F4A_7C15
            var mixed = random
            mixed = (mixed ^ (mixed &>> 30)) &* 0xBF58_476D_1CE4_E5B9
            mixed = (mixed ^ (mixed &>> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((mixed ^ (mixed &>> 31)) % UInt64(bound))
        }

        static let drafts = ["h", "he", "hel", "hell", "hello", "hello t", "hello th", "hello there"]

        /// Per 1,000 actions: 600 draft keystrokes and 100 sends in the open conversation, 150
        /// search keystrokes, 50 conversation switches (a close, then an open), 60 mark-as-read on
        /// any conversation (some already removed), 20 settings toggles, 10 inserts, 10 removals
        /// (inserts and removals balance, so the collection stays near its size however long the
        /// run).
        mutating func next() -> Action {
            if let target = pendingOpen {
                pendingOpen = nil
                open = target
                return .conversation(ElementAction(target, action: .open))
            }
            let roll = below(1_000)
            switch roll {
            case 0..<600:
                typed &+= 1
                return .conversation(ElementAction(open, action: .type(Self.drafts[typed & 7])))
            case 600..<700: return .conversation(ElementAction(open, action: .send))
            case 700..<850:
                typed &+= 1
                return .search(Self.drafts[typed & 7])
            case 850..<900:
                pendingOpen = live[below(live.count)]
                return .conversation(ElementAction(open, action: .close))
            case 900..<960: return .conversation(ElementAction(below(nextID), action: .markRead))
            case 960..<980: return .toggleDark
            case 980..<990: return insert()
            default:
                // The open conversation (and the one about to open) stays; so do the last two rows.
                guard live.count > 2 else { return insert() }
                var removed = live[below(live.count)]
                if removed == open || removed == pendingOpen { removed = live[0] == open ? live[1] : live[0] }
                live.remove(removed)
                return .remove(removed)
            }
        }

        private mutating func insert() -> Action {
            live.insert(nextID)
            nextID &+= 1
            return .insert(nextID &- 1)
        }
    }

    /// The measured loop: `iterations` actions from the mix, yielding to the mailbox drain every
    /// 64 (sends come back as `sent` there).
    static func measured<S: StoreType>(_ store: S) -> Measured where S.Action == Action {
        StoreHooks.onDiagnostic = { _ in }
        var driver = Driver(size: size)
        return { iterations in
            for index in 0..<iterations {
                store.dispatch(driver.next())
                if index & 63 == 63 { await Task.yield() }
            }
        }
    }
}
