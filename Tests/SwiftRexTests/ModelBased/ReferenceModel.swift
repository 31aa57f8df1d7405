// Only the `ElementAction` value (part of the app's action vocabulary) comes from the library;
// none of its logic does.
import struct SwiftRex.ElementAction

extension ModelBased {
    /// A deliberate bug to plant in the model, to prove the checker and the shrinker catch one.
    enum PlantedBug: Sendable {
        /// Forgets that `cancel(id:)` keeps a supervised channel closed until it
        /// leaves the desired set.
        case forgetCancelSuppression
    }

    /// The reference model: what the Store should do, written from the DocC articles' rules in plain Swift with no
    /// library code — a state, a mailbox, the held effects, pending timers, a throttle stamp,
    /// reconcile memory and the set of live channels.
    ///
    /// Element one-shot effects: removing a row closes its channels (reconcile) but does not yet
    /// cancel its pending one-shot effects (that change is in progress on main). The model does not
    /// depend on either behaviour: a step that would remove a row whose autosave is still pending
    /// is skipped (see ``canRemove(_:)``), so rows are only removed once their effects are done.
    struct ReferenceModel {
        /// A timer a debounced or delayed effect waits on. `seq` orders ties as registration does.
        struct Timer {
            enum Key: Equatable {
                case search
                case autosave(Int)
            }
            let seq: Int
            let deadline: Int
            let key: Key?
            let action: Action
        }

        /// A remembered desired channel (SupervisionAndChannels, "How reconcile decides"): its reset and broadcast identities, and
        /// whether a `cancel(id:)` keeps it closed until it leaves the set.
        struct Remembered {
            let key: ChannelKey
            var reset: Int?
            var broadcast: Int?
            var suppressed: Bool
        }

        var state: State
        var now = 0
        /// Actions effects and channels have sent, waiting for the next drain (FIFO).
        var inbox: [Action] = []
        /// Held effects still running, with the key they run under (`nil`: anonymous).
        var pending: [(serial: Int, key: String?)] = []
        var timers: [Timer] = []
        var nextTimerSeq = 0
        var throttleStamp: Int?
        var memory: [Remembered] = []
        /// Live channels and the room each captured when it opened.
        var live: [ChannelKey: Int] = [:]
        /// What the Store should have shown since the last ``take()``.
        var observed = Observed()
        let plantedBug: PlantedBug?

        init(initial: State, plantedBug: PlantedBug? = nil) {
            state = initial
            self.plantedBug = plantedBug
            reconcile()
        }

        var isIdle: Bool { inbox.isEmpty && pending.isEmpty && timers.isEmpty }

        mutating func take() -> Observed {
            defer { observed = Observed() }
            return observed
        }

        /// Whether removing `id` is allowed: not while its autosave is pending (see the type's note).
        func canRemove(_ id: Int) -> Bool {
            !timers.contains { $0.key == .autosave(id) }
        }

        // MARK: Steps

        mutating func dispatch(_ action: Action) { process(action) }

        /// A held effect sends its response, and completes when `finish` is set.
        mutating func respond(serial: Int, finish: Bool) {
            inbox.append(.response(serial))
            if finish { pending.removeAll { $0.serial == serial } }
        }

        mutating func echo(from key: ChannelKey) {
            inbox.append(.row(ElementAction(key.element, action: .echo)))
        }

        /// Fires every timer due by `now + milliseconds`, in deadline order (ties: registration order).
        mutating func advance(by milliseconds: Int) {
            let target = now + max(0, milliseconds)
            while let next = timers.indices.filter({ timers[$0].deadline <= target })
                .min(by: { (timers[$0].deadline, timers[$0].seq) < (timers[$1].deadline, timers[$1].seq) })
            {
                let timer = timers.remove(at: next)
                now = max(now, timer.deadline)
                inbox.append(timer.action)
            }
            now = target
        }

        /// Processes what the mailbox holds now; actions sent meanwhile wait for the next drain.
        mutating func drain() {
            let batch = inbox
            inbox = []
            for action in batch { process(action) }
        }

        /// Tearing the Store down cancels every held effect and closes every live channel.
        mutating func tearDown() {
            for (serial, _) in pending { observed.cancelledEffects.append(serial) }
            pending = []
            for (key, room) in live { observed.events.append(ChannelEvent(kind: .close, key: key, value: room)) }
            live = [:]
            timers = []
        }

        // MARK: The pipeline

        private enum Work {
            case held(serial: Int, key: String?)
            case cancelRequest(String)
            case debounce(Timer.Key, delay: Int, Action)
            case cancelSearch
            case throttle(Action)
            case cancelThrottle
            case delayed(delay: Int, Action)
            case cancelChannel(ChannelKey)
            case broadcast(ChannelKey, Int)
        }

        private mutating func process(_ action: Action) {
            observed.processed.append(action)
            var mutated = false
            var work: Work?
            if case .row(let addressed) = action {
                (mutated, work) = processRow(addressed)
            } else if let request = effect(for: action) {
                work = request
            } else {
                mutated = reduce(action)
            }
            if let work { perform(work) }
            if mutated { reconcile() }
        }

        /// What an app-level action asks of the effect engine, or `nil` for one that only changes state.
        private func effect(for action: Action) -> Work? {
            switch action {
            case .request(let slot, let serial): return .held(serial: serial, key: "req-\(slot)")
            case .requestFree(let serial): return .held(serial: serial, key: nil)
            case .cancelRequest(let slot): return .cancelRequest("req-\(slot)")
            case .search(let query): return .debounce(.search, delay: searchDebounce, .searched(query))
            case .cancelSearch: return .cancelSearch
            case .throttled(let value): return .throttle(.ticked(value))
            case .cancelThrottle: return .cancelThrottle
            case .late(let value): return .delayed(delay: lateDelay, .lateArrived(value))
            case .poke(let element, let value): return .broadcast(ChannelKey(element: element, name: "socket"), value)
            case .pokeFeed(let element, let value): return .broadcast(ChannelKey(element: element, name: "feed"), value)
            case .add, .insert, .remove, .rebuild, .reverse, .response, .searched, .ticked, .lateArrived, .bumpAll, .row: return nil
            }
        }

        /// Applies an app-level action to the state; whether the state changed.
        private mutating func reduce(_ action: Action) -> Bool {
            switch action {
            case .add(let amount):
                state.total += amount
            case .insert(let id):
                guard !state.rows.contains(where: { $0.id == id }) else { return false }
                state.rows.append(Row(id: id))
            case .remove(let id):
                guard state.rows.contains(where: { $0.id == id }) else { return false }
                state.rows.removeAll { $0.id == id }
            case .rebuild(let ids):
                state.rows = ids.map { Row(id: $0) }
            case .reverse:
                state.rows.reverse()
            case .response(let serial):
                state.responses.append(serial)
            case .searched(let query):
                state.searched.append(query)
            case .ticked(let value):
                state.ticks.append(value)
            case .lateArrived(let value):
                state.lates.append(value)
            case .bumpAll:
                for index in state.rows.indices { state.rows[index].count += 1 }
                return !state.rows.isEmpty
            case .request, .requestFree, .cancelRequest, .search, .cancelSearch, .throttled, .cancelThrottle, .late, .poke, .pokeFeed,
                .row:
                return false
            }
            return true
        }

        /// An action addressed to one row: whether it changed the state, and what it asks of the
        /// effect engine. A row that is not there counts as a missing element.
        private mutating func processRow(_ addressed: ElementAction<Int, RowAction>) -> (mutated: Bool, work: Work?) {
            guard let index = state.rows.firstIndex(where: { $0.id == addressed.id }) else {
                observed.missingElements += 1
                return (false, nil)
            }
            let id = addressed.id
            switch addressed.action {
            case .bump: state.rows[index].count += 1
            case .setRoom(let room): state.rows[index].room = room
            case .setVolume(let volume): state.rows[index].volume = volume
            case .toggleFeed: state.rows[index].feedOn.toggle()
            case .echo: state.rows[index].echoes += 1
            case .saved: state.rows[index].saves += 1
            case .autosave: return (false, .debounce(.autosave(id), delay: autosaveDebounce, .row(ElementAction(id, action: .saved))))
            case .cancelFeed: return (false, .cancelChannel(ChannelKey(element: id, name: "feed")))
            case .cancelSocket: return (false, .cancelChannel(ChannelKey(element: id, name: "socket")))
            }
            return (true, nil)
        }

        private mutating func perform(_ work: Work) {
            switch work {
            case .held(let serial, let key):
                if let key, let index = pending.firstIndex(where: { $0.key == key }) {
                    // A newer run under the same key replaces the older one (keyed and replacing alike).
                    observed.cancelledEffects.append(pending[index].serial)
                    pending.remove(at: index)
                }
                pending.append((serial, key))
            case .cancelRequest(let key):
                if let index = pending.firstIndex(where: { $0.key == key }) {
                    observed.cancelledEffects.append(pending[index].serial)
                    pending.remove(at: index)
                }
            case .debounce(let key, let delay, let action):
                timers.removeAll { $0.key == key }
                addTimer(delay: delay, key: key, action: action)
            case .cancelSearch:
                timers.removeAll { $0.key == .search }
            case .throttle(let action):
                if let stamp = throttleStamp, now - stamp < throttleInterval { return }
                throttleStamp = now
                inbox.append(action)
            case .cancelThrottle:
                throttleStamp = nil
            case .delayed(let delay, let action):
                addTimer(delay: delay, key: nil, action: action)
            case .cancelChannel(let key):
                close(key)
                if plantedBug != .forgetCancelSuppression, let index = memory.firstIndex(where: { $0.key == key }) {
                    memory[index].suppressed = true
                }
            case .broadcast(let key, let value):
                // Only a live socket receives (a feed receives nothing; nothing live: dropped).
                if key.name == "socket", live[key] != nil {
                    observed.events.append(ChannelEvent(kind: .receive, key: key, value: value))
                }
            }
        }

        private mutating func addTimer(delay: Int, key: Timer.Key?, action: Action) {
            nextTimerSeq += 1
            timers.append(Timer(seq: nextTimerSeq, deadline: now + delay, key: key, action: action))
        }

        // MARK: Reconcile (leavers first in container order; cancelled-by-id channels stay closed)

        private func desired() -> [Remembered] {
            var channels: [Remembered] = []
            for row in state.rows {
                channels.append(
                    Remembered(key: ChannelKey(element: row.id, name: "socket"), reset: row.room, broadcast: row.volume, suppressed: false))
                if row.feedOn {
                    channels.append(Remembered(key: ChannelKey(element: row.id, name: "feed"), reset: nil, broadcast: nil, suppressed: false))
                }
            }
            return channels
        }

        private mutating func reconcile() {
            var wanted = desired()
            let wantedKeys = Set(wanted.map(\.key))
            // Leavers first, in their previous order.
            for entry in memory where !wantedKeys.contains(entry.key) { close(entry.key) }
            for index in wanted.indices {
                let entry = wanted[index]
                guard let old = memory.first(where: { $0.key == entry.key }) else {
                    open(entry)
                    continue
                }
                if old.suppressed {
                    wanted[index].suppressed = true
                } else if old.reset != entry.reset {
                    close(entry.key)
                    open(entry)
                } else if old.broadcast != entry.broadcast {
                    if live[entry.key] != nil {
                        if let value = entry.broadcast {
                            observed.events.append(ChannelEvent(kind: .receive, key: entry.key, value: value))
                        }
                    } else {
                        open(entry)
                    }
                }
            }
            memory = wanted
        }

        private mutating func open(_ entry: Remembered) {
            let room = entry.key.name == "socket" ? entry.reset ?? 0 : 0
            live[entry.key] = room
            observed.events.append(ChannelEvent(kind: .open, key: entry.key, value: room))
            if let value = entry.broadcast {
                observed.events.append(ChannelEvent(kind: .receive, key: entry.key, value: value))
            }
        }

        private mutating func close(_ key: ChannelKey) {
            guard let room = live.removeValue(forKey: key) else { return }
            observed.events.append(ChannelEvent(kind: .close, key: key, value: room))
        }
    }
}
