import SwiftRex

/// Namespace of the model-based tests: a small app run both by the real `Store` and by an
/// independent reference model (`ReferenceModel`), driven by seeded random step sequences.
enum ModelBased {}

extension ModelBased {
    /// What one row (an element of the supervised collection) understands.
    enum RowAction: Sendable, Equatable {
        case bump
        case setRoom(Int)
        case setVolume(Int)
        case toggleFeed
        case echo
        /// Starts the row's debounced autosave (a one-shot effect scoped to the row).
        case autosave
        case saved
        /// `Effect.cancel(id: "feed")` from inside the row: scoped to the row's own channel, which
        /// stays closed while the row wants it (SupervisionAndChannels, "Cancelling a supervised
        /// channel by id").
        case cancelFeed
        case cancelSocket
    }

    /// The app's actions.
    enum Action: Sendable, Equatable {
        case add(Int)
        case insert(Int)
        case remove(Int)
        case rebuild([Int])
        case reverse
        /// A test-held effect under `req-<slot>` (`keyed` for slots 0 and 1, `replacing` for 2).
        case request(slot: Int, serial: Int)
        /// A test-held anonymous effect.
        case requestFree(serial: Int)
        case cancelRequest(slot: Int)
        case response(Int)
        case search(Int)
        case searched(Int)
        case cancelSearch
        case throttled(Int)
        case ticked(Int)
        case cancelThrottle
        case late(Int)
        case lateArrived(Int)
        /// A parent broadcast into one row's socket through its public element id (`ElementEffectID`).
        case poke(element: Int, value: Int)
        /// The same into a row's feed, which receives nothing (`Never`): always dropped.
        case pokeFeed(element: Int, value: Int)
        /// Broadcast to every row through `liftEach`.
        case bumpAll
        case row(ElementAction<Int, RowAction>)
    }

    struct Row: Identifiable, Sendable, Equatable {
        var id: Int
        var count = 0
        var room = 0
        var volume = 0
        var feedOn = false
        var echoes = 0
        var saves = 0
    }

    struct State: Sendable, Equatable {
        var rows: [Row] = []
        var total = 0
        var responses: [Int] = []
        var searched: [Int] = []
        var ticks: [Int] = []
        var lates: [Int] = []
    }

    struct Environment: Sendable {
        let clock: ManualClock
        let harness: Harness
    }

    /// The initial state of every sequence: two rows, so the Store's initial reconcile is exercised.
    static let initialState = State(rows: [Row(id: 0), Row(id: 1)])

    static let searchDebounce = 300
    static let throttleInterval = 500
    static let lateDelay = 200
    static let autosaveDebounce = 1_000

    static let rowPrism = Prism<Action, ElementAction<Int, RowAction>>(
        preview: { if case .row(let action) = $0 { action } else { nil } }, review: Action.row)
    static let bumpAllPrism = Prism<Action, RowAction>(
        preview: { if case .bumpAll = $0 { .bump } else { nil } }, review: { _ in .bumpAll })

    /// One row's reactions. Honest `.unchanged` for effect-only actions, so they run no reconcile.
    static let rowCore = Behavior<RowAction, Row, Harness>.react { action, _ in
        switch action {
        case .bump: return .reduce { $0.count += 1 }
        case .setRoom(let room): return .reduce { $0.room = room }
        case .setVolume(let volume): return .reduce { $0.volume = volume }
        case .toggleFeed: return .reduce { $0.feedOn.toggle() }
        case .echo: return .reduce { $0.echoes += 1 }
        case .saved: return .reduce { $0.saves += 1 }
        case .autosave:
            return .produce { _ in .just(.saved, scheduling: .debounce(id: "autosave", delay: .milliseconds(autosaveDebounce))) }
        case .cancelFeed: return .produce { _ in .cancel(id: "feed") }
        case .cancelSocket: return .produce { _ in .cancel(id: "socket") }
        }
    }

    /// One row's channels: a socket recreated when the room changes and fed the volume, and a
    /// feed alive while `feedOn` holds. The bodies report to the harness, which holds `dispatch`.
    static let rowChannels = Behavior<RowAction, Row, Harness>.supervise { row in
        Supervision { harness in
            let id = row.id
            let room = row.room
            let socket = Channel<RowAction>(id: "socket", lifetime: .ephemeral(resetKey: room), broadcasting: .onChange(row.volume)) { dispatch in
                let key = ChannelKey(element: id, name: "socket")
                let instance = harness.opened(key, value: room, dispatch: dispatch)
                return ChannelHandler<Int>(
                    receive: { harness.received(key, value: $0) },
                    cancel: { harness.closed(key, instance: instance, value: room) }
                )
            }
            guard row.feedOn else { return [socket] }
            let feed = Channel<RowAction>(id: "feed") { dispatch in
                let key = ChannelKey(element: id, name: "feed")
                let instance = harness.opened(key, value: 0, dispatch: dispatch)
                return .cancelOnly { harness.closed(key, instance: instance, value: 0) }
            }
            return [socket, feed]
        }
    }

    /// The app: a recorder of processed actions, the app's own reactions, the rows (addressed and
    /// supervised) and a broadcast to every row.
    static func behavior(harness: Harness) -> Behavior<Action, State, Environment> {
        let recorder = Behavior<Action, State, Environment>.produce { action, _ in
            harness.record(action)
            return .doNothing
        }
        let rows = (rowCore <> rowChannels)
            .liftCollection(.action(rowPrism).state(\State.rows).environment(\Environment.harness), site: "rows")
        let each =
            rowCore
            .liftEach(.action(broadcast: bumpAllPrism, into: rowPrism).state(\State.rows).environment(\Environment.harness), site: "each")
        // The app-level unit split in two, each saying what it touches: structural edits of the
        // rows, and everything else. A bump of `total`, a response or a tick then reaches no
        // supervision (the rows' channels are not even evaluated), which the model checks too.
        let app = app(harness: harness)
        let structure = Behavior<Action, State, Environment>.react { action, context in
            Self.isStructural(action) ? app.handle(action, context) : .doNothing
        }.confined(to: \State.rows)
        let rest = Behavior<Action, State, Environment>.react { action, context in
            Self.isStructural(action) ? .doNothing : app.handle(action, context)
        }.confined(to: \State.total, \State.responses, \State.searched, \State.ticks, \State.lates)
        return .combine([recorder, structure, rest, rows, each])
    }

    /// Whether an app-level action edits the rows' structure.
    static func isStructural(_ action: Action) -> Bool {
        switch action {
        case .insert, .remove, .rebuild, .reverse: return true
        default: return false
        }
    }

    static func app(harness: Harness) -> Behavior<Action, State, Environment> {
        .react { action, context in
            switch action {
            case .add(let amount):
                return .reduce { $0.total += amount }
            case .insert(let id):
                guard let rows = context.stateBefore?.rows, !rows.contains(where: { $0.id == id }) else { return .doNothing }
                return .reduce { $0.rows.append(Row(id: id)) }
            case .remove(let id):
                guard let rows = context.stateBefore?.rows, rows.contains(where: { $0.id == id }) else { return .doNothing }
                return .reduce { $0.rows.removeAll { $0.id == id } }
            case .rebuild(let ids):
                return .reduce { $0.rows = ids.map { Row(id: $0) } }
            case .reverse:
                return .reduce { $0.rows.reverse() }
            case .request(let slot, let serial):
                let scheduling: EffectScheduling = slot == 2 ? .replacing(id: "req-\(slot)") : .keyed(id: "req-\(slot)")
                return .produce { _ in harness.heldEffect(serial: serial, scheduling: scheduling) }
            case .requestFree(let serial):
                return .produce { _ in harness.heldEffect(serial: serial, scheduling: .immediately) }
            case .cancelRequest(let slot):
                return .produce { _ in .cancel(id: "req-\(slot)") }
            case .response(let serial):
                return .reduce { $0.responses.append(serial) }
            case .search(let query):
                return .produce { _ in .just(.searched(query), scheduling: .debounce(id: "search", delay: .milliseconds(searchDebounce))) }
            case .searched(let query):
                return .reduce { $0.searched.append(query) }
            case .cancelSearch:
                return .produce { _ in .cancel(id: "search") }
            case .throttled(let value):
                return .produce { _ in .just(.ticked(value), scheduling: .throttle(id: "thr", interval: .milliseconds(throttleInterval))) }
            case .ticked(let value):
                return .reduce { $0.ticks.append(value) }
            case .cancelThrottle:
                return .produce { _ in .cancel(id: "thr") }
            case .late(let value):
                return .produce { _ in .just(.lateArrived(value), scheduling: EffectScheduling.immediately.delayed(by: .milliseconds(lateDelay))) }
            case .lateArrived(let value):
                return .reduce { $0.lates.append(value) }
            case .poke(let element, let value):
                return .produce { _ in .broadcast(value, channel: ElementEffectID(site: "rows", element: element, inner: "socket")) }
            case .pokeFeed(let element, let value):
                return .produce { _ in .broadcast(value, channel: ElementEffectID(site: "rows", element: element, inner: "feed")) }
            case .bumpAll, .row:
                return .doNothing
            }
        }
    }
}
