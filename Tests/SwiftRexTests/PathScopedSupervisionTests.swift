@_spi(Testing) import SwiftRex
import SwiftRexTestSupport
import Testing

/// A team-chat core: conversations in a plain array, each supervising a typing indicator while
/// open; a search field and settings lifted through key paths.
enum Chat {
    struct Conversation: Identifiable, Sendable, Equatable {
        var id: Int
        var isOpen = false
        var draft = ""
    }

    struct Settings: Sendable, Equatable {
        var dark = false
        var sounds = true
    }

    struct Search: Sendable, Equatable {
        var query = ""
    }

    struct AppState: Sendable, Equatable {
        var conversations: [Conversation]
        var search = Search()
        var settings = Settings()
        var unread = 0
    }

    enum ConversationAction: Sendable, Equatable {
        case open, close
        case type(String)
    }
    enum SettingsAction: Sendable, Equatable { case toggleDark }
    enum SearchAction: Sendable, Equatable { case type(String) }

    enum AppAction: Sendable, Equatable {
        case conversation(ElementAction<Int, ConversationAction>)
        case settings(SettingsAction)
        case search(SearchAction)
        case insert(Int)
        case markUnread
    }

    typealias Events = CoreFixtures.Log<String>

    static let conversationPrism = Prism<AppAction, ElementAction<Int, ConversationAction>>(
        preview: { if case .conversation(let action) = $0 { action } else { nil } }, review: AppAction.conversation)
    static let settingsPrism = Prism<AppAction, SettingsAction>(
        preview: { if case .settings(let action) = $0 { action } else { nil } }, review: AppAction.settings)
    static let searchPrism = Prism<AppAction, SearchAction>(
        preview: { if case .search(let action) = $0 { action } else { nil } }, review: AppAction.search)

    static func conversation(events: Events, evaluations: CoreFixtures.Counter) -> Behavior<ConversationAction, Conversation, Void> {
        Behavior<ConversationAction, Conversation, Void>
            .reduce { action, conversation in
                switch action {
                case .open: conversation.isOpen = true
                case .close: conversation.isOpen = false
                case .type(let text): conversation.draft = text
                }
            }
            .supervise { conversation in
                evaluations.increment()
                let id = conversation.id
                return Supervision { _ in
                    conversation.isOpen
                        ? [
                            Channel<ConversationAction>(id: "typing") { _ in
                                events.append("typing \(id) open")
                                return .cancelOnly { events.append("typing \(id) close") }
                            }
                        ]
                        : []
                }
            }
    }

    static let settings = Reducer<SettingsAction, Settings>.reduce { action, settings in
        switch action {
        case .toggleDark: settings.dark.toggle()
        }
    }

    static let search = Reducer<SearchAction, Search>.reduce { action, search in
        switch action {
        case .type(let text): search.query = text
        }
    }

    /// The app-level unit: inserts a conversation or counts unread ones (a reaction, so that the
    /// actions it ignores stay `.unchanged`). Unlifted, it is the whole state unless `confined`.
    static func appLevel(confined: Bool) -> Behavior<AppAction, AppState, Void> {
        let behavior = Behavior<AppAction, AppState, Void>.react { action, _ in
            switch action {
            case .insert(let id): return .reduce { $0.conversations.append(Conversation(id: id)) }
            case .markUnread: return .reduce { $0.unread += 1 }
            case .conversation, .settings, .search: return .doNothing
            }
        }
        return confined ? behavior.confined(to: \AppState.conversations, \AppState.unread) : behavior
    }

    static func app(events: Events, evaluations: CoreFixtures.Counter, appLevel: Bool = false, confined: Bool = false) -> Behavior<
        AppAction, AppState, Void
    > {
        let conversations = conversation(events: events, evaluations: evaluations)
            .liftCollection(.action(conversationPrism).state(\AppState.conversations), site: "conversations")
        let features =
            conversations
            <> Behavior(reducer: settings, middleware: .identity).lift(.action(settingsPrism).state(\AppState.settings))
            <> Behavior(reducer: search, middleware: .identity).lift(.action(searchPrism).state(\AppState.search))
        return appLevel ? features <> Chat.appLevel(confined: confined) : features
    }

    static func initial(_ count: Int, open: Int? = 0) -> AppState {
        var state = AppState(conversations: (0..<count).map { Conversation(id: $0) })
        if let open { state.conversations[open].isOpen = true }
        return state
    }
}

@MainActor
@Suite struct PathScopedSupervisionTests {
    typealias F = CoreFixtures

    @Test func aSettingsToggleAndASearchKeystrokeEvaluateNoConversation() {
        let evaluations = F.Counter()
        let store = Store(initial: Chat.initial(1_000), behavior: Chat.app(events: Chat.Events(), evaluations: evaluations), environment: ())
        let before = (evaluations.value, store.supervisionStatistics)

        store.dispatch(.settings(.toggleDark))
        store.dispatch(.search(.type("s")))
        store.dispatch(.search(.type("sw")))

        #expect(store.state.settings.dark)
        #expect(store.state.search.query == "sw")
        #expect(evaluations.value == before.0)
        #expect(store.supervisionStatistics == before.1)
    }

    @Test func aDraftEditEvaluatesOnlyItsConversation() {
        let evaluations = F.Counter()
        let events = Chat.Events()
        let store = Store(initial: Chat.initial(1_000), behavior: Chat.app(events: events, evaluations: evaluations), environment: ())
        let before = evaluations.value

        store.dispatch(.conversation(ElementAction(7, action: .type("hi"))))
        store.dispatch(.conversation(ElementAction(7, action: .open)))
        store.dispatch(.conversation(ElementAction(0, action: .close)))

        #expect(evaluations.value - before == 3)
        #expect(events.values == ["typing 0 open", "typing 7 open", "typing 0 close"])
        #expect(store.supervisionStatistics.fullReconciles == 1)
    }

    @Test func anUnliftedAppLevelReducerIsReportedOnceAndReevaluatesNoConversationItLeftUnchanged() {
        let evaluations = F.Counter()
        var store: Store<Chat.AppAction, Chat.AppState, Void>?
        let diagnostics = collectingDiagnostics {
            store = Store(
                initial: Chat.initial(100), behavior: Chat.app(events: Chat.Events(), evaluations: evaluations, appLevel: true), environment: ())
        }
        #expect(diagnostics.map(\.kind) == [.broadInvalidation])
        let before = evaluations.value

        store?.dispatch(.markUnread)

        // The Store compares the conversations' plain array before and after it: none changed.
        #expect(evaluations.value - before == 0)
    }

    @Test func declaringWhatAnAppLevelReducerTouchesKeepsItAwayFromUnrelatedSupervisions() {
        let evaluations = F.Counter()
        let events = Chat.Events()
        var store: Store<Chat.AppAction, Chat.AppState, Void>?
        let diagnostics = collectingDiagnostics {
            store = Store(
                initial: Chat.initial(100), behavior: Chat.app(events: events, evaluations: evaluations, appLevel: true, confined: true),
                environment: ())
        }
        #expect(diagnostics.isEmpty)
        guard let store else { return }
        let before = evaluations.value

        // Confined to the conversations and the unread count: a settings toggle evaluates nothing,
        // an insert evaluates the conversation it adds (the plain array is compared before and
        // after the write).
        store.dispatch(.settings(.toggleDark))
        #expect(evaluations.value == before)
        store.dispatch(.insert(100))
        #expect(evaluations.value - before == 1)
        store.dispatch(.conversation(ElementAction(100, action: .open)))
        #expect(events.values == ["typing 0 open", "typing 100 open"])
    }

    @Test func nestedPathsOverlapAndSiblingPathsDoNot() {
        struct Inner: Sendable, Equatable {
            var a = 0
            var b = 0
        }
        struct Outer: Sendable, Equatable {
            var inner = Inner()
            var other = 0
        }
        let evaluations = F.Counter()
        let watcher = Behavior<Int, Inner, Void>.supervise { inner in
            evaluations.increment()
            return Supervision { _ in [] }
        }.lift(.state(\Outer.inner))
        func store(writing part: PartialKeyPath<Outer>) -> Store<Int, Outer, Void> {
            let writer = Behavior<Int, Outer, Void>.reduce { value, outer in
                outer.inner.a = value
                outer.other = value
            }.confined(to: part)
            return Store(initial: Outer(), behavior: watcher <> writer, environment: ())
        }
        let inside = store(writing: \Outer.inner.a)
        let beside = store(writing: \Outer.other)
        let before = evaluations.value

        inside.dispatch(1)
        #expect(evaluations.value - before == 1)
        beside.dispatch(1)
        #expect(evaluations.value - before == 1)
    }

    @Test func aClosureLensOrAComputedPathCountsAsTheWholeState() {
        struct Pair: Sendable, Equatable {
            var left = 0
            var right = 0
            var sum: Int {
                get { left + right }
                set { left = newValue - right }
            }
        }
        let evaluations = F.Counter()
        let watcher = Behavior<Int, Int, Void>.supervise { _ in
            evaluations.increment()
            return Supervision { _ in [] }
        }.lift(.state(\Pair.right))
        let viaClosure = Behavior<Int, Int, Void>.reduce { value, left in left = value }
            .lift(.state(Lens<Pair, Int>(get: { $0.left }, set: { $0.left = $1 })))
        let viaComputed = Behavior<Int, Int, Void>.reduce { value, sum in sum = value }
            .lift(.state(\Pair.sum))
        let viaStored = Behavior<Int, Int, Void>.reduce { value, left in left = value }
            .lift(.state(\Pair.left))
        for (writer, evaluates) in [(viaClosure, true), (viaComputed, true), (viaStored, false)] {
            let store = Store(initial: Pair(), behavior: watcher <> writer, environment: ())
            let before = evaluations.value
            store.dispatch(5)
            #expect((evaluations.value - before == 1) == evaluates)
        }
    }

    @Test func aSupervisionOfTheWholeStateSeesEverySiblingChange() {
        let events = Chat.Events()
        let app =
            Chat.app(events: Chat.Events(), evaluations: F.Counter())
            <> Behavior<Chat.AppAction, Chat.AppState, Void>.supervise { state in
                Supervision { _ in
                    [
                        Channel<Chat.AppAction>(id: "theme", broadcasting: .onChange(state.settings.dark)) { _ in
                            ChannelHandler(receive: { dark in events.append("dark \(dark)") }, cancel: {})
                        }
                    ]
                }
            }
        let store = Store(initial: Chat.initial(10), behavior: app, environment: ())
        store.dispatch(.settings(.toggleDark))
        store.dispatch(.search(.type("x")))
        store.dispatch(.settings(.toggleDark))
        #expect(events.values == ["dark false", "dark true", "dark false"])
    }

    /// Three slices, each with a supervision: one action changes two. The leavers of both patches
    /// close, in container order, before either opens anything; the third is not looked at.
    @Test func leaversOfEveryPatchedSegmentCloseBeforeAnythingOpens() {
        struct Slot: Sendable, Equatable { var id = 0 }
        struct Both: Sendable, Equatable {
            var first = Slot()
            var second = Slot()
            var third = Slot()
        }
        let events = Chat.Events()
        func watcher(_ name: String) -> Behavior<Int, Slot, Void> {
            Behavior<Int, Slot, Void>.supervise { slot in
                Supervision { _ in
                    [
                        Channel<Int>(id: "\(name)\(slot.id)") { _ in
                            events.append("\(name)\(slot.id) open")
                            return .cancelOnly { events.append("\(name)\(slot.id) close") }
                        }
                    ]
                }
            }
        }
        let writer = Behavior<Int, Both, Void>.reduce { value, both in
            both.first.id = value
            both.second.id = value
        }.confined(to: \Both.first, \Both.second)
        let app =
            watcher("a").lift(.state(\Both.first)) <> watcher("b").lift(.state(\Both.second))
            <> watcher("c").lift(.state(\Both.third)) <> writer
        let store = Store(initial: Both(), behavior: app, environment: ())
        let fullBefore = store.supervisionStatistics.fullReconciles

        store.dispatch(1)

        #expect(events.values == ["a0 open", "b0 open", "c0 open", "a0 close", "b0 close", "a1 open", "b1 open"])
        #expect(store.supervisionStatistics.fullReconciles == fullBefore)
        #expect(store.supervisionStatistics.patchedReconciles == 1)
    }

    /// A channel id one supervision drops and another takes up in the same dispatch cannot be
    /// patched (each patch owns its keys): the Store reconciles the full set, which keeps the
    /// channel open.
    @Test func aChannelMovingBetweenSupervisionsFallsBackToAFullReconcile() {
        struct Slot: Sendable, Equatable { var holds = false }
        struct Both: Sendable, Equatable {
            var first = Slot(holds: true)
            var second = Slot()
            var other = 0
        }
        let events = Chat.Events()
        func holder() -> Behavior<Int, Slot, Void> {
            Behavior<Int, Slot, Void>.supervise { slot in
                Supervision { _ in
                    slot.holds
                        ? [
                            Channel<Int>(id: "shared") { _ in
                                events.append("open")
                                return .cancelOnly { events.append("close") }
                            }
                        ]
                        : []
                }
            }
        }
        let writer = Behavior<Int, Both, Void>.reduce { _, both in
            both.first.holds.toggle()
            both.second.holds.toggle()
        }.confined(to: \Both.first, \Both.second)
        // A third supervision, on a part the writer does not touch, keeps the reconcile partial.
        let other = Behavior<Int, Int, Void>.supervise { _ in Supervision { _ in [] } }.lift(.state(\Both.other))
        let store = Store(
            initial: Both(), behavior: holder().lift(.state(\Both.first)) <> holder().lift(.state(\Both.second)) <> other <> writer, environment: ())
        let before = store.supervisionStatistics

        store.dispatch(0)

        #expect(events.values == ["open"])
        #expect(store.openChannelIDs == [AnyHashableSendable("shared")])
        #expect(store.supervisionStatistics.refusedPatches == before.refusedPatches + 1)
        #expect(store.supervisionStatistics.fullReconciles == before.fullReconciles + 1)
    }

    /// A desired set with a duplicate id makes every later reconcile a full one (a patch could
    /// close a channel another part still wants).
    @Test func duplicateIdsFallBackToFullReconciles() {
        struct Both: Sendable, Equatable {
            var first = 0
            var second = 0
        }
        let events = Chat.Events()
        func twin(_ name: String) -> Behavior<Int, Int, Void> {
            Behavior<Int, Int, Void>.supervise { value in
                Supervision { _ in
                    [
                        Channel<Int>(id: "twin", broadcasting: .onChange(value)) { _ in
                            events.append("\(name) open")
                            return ChannelHandler(receive: { events.append("\(name) \($0)") }, cancel: { events.append("\(name) close") })
                        }
                    ]
                }
            }
        }
        let writer = Behavior<Int, Both, Void>.reduce { value, both in both.second = value }.confined(to: \Both.second)
        let store = Store(
            initial: Both(), behavior: twin("a").lift(.state(\Both.first)) <> twin("b").lift(.state(\Both.second)) <> writer, environment: ())
        let before = store.supervisionStatistics

        store.dispatch(3)

        // The later duplicate wins, at the first one's place: the channel the first supervision
        // opened receives the second's broadcast.
        #expect(events.values == ["b open", "b 0", "b 3"])
        #expect(store.supervisionStatistics.fullReconciles == before.fullReconciles + 1)
    }
}
