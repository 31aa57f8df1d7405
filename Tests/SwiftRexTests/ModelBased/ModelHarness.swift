import SwiftRex
import Synchronization

extension ModelBased {
    /// A supervised channel of one row: the row's id and the channel's name.
    struct ChannelKey: Hashable, Sendable, Comparable, CustomStringConvertible {
        let element: Int
        let name: String

        static func < (lhs: ChannelKey, rhs: ChannelKey) -> Bool { (lhs.element, lhs.name) < (rhs.element, rhs.name) }

        var description: String { "\(name)#\(element)" }
    }

    /// What a channel body saw: opened (with the room it captured), a value received, closed.
    struct ChannelEvent: Equatable, Sendable, Comparable, CustomStringConvertible {
        enum Kind: Int, Sendable { case open, receive, close }
        let kind: Kind
        let key: ChannelKey
        let value: Int

        static func < (lhs: ChannelEvent, rhs: ChannelEvent) -> Bool {
            (lhs.key, lhs.kind.rawValue, lhs.value) < (rhs.key, rhs.kind.rawValue, rhs.value)
        }

        var description: String { "\(kind)(\(key), \(value))" }
    }

    /// What the Store did during one step, as seen from the outside: the actions it processed, the
    /// channel events, the test-held effects it cancelled, and the missing-element diagnostics.
    struct Observed: Equatable, Sendable {
        var processed: [Action] = []
        var events: [ChannelEvent] = []
        var cancelledEffects: [Int] = []
        var missingElements = 0
    }

    /// The test's side of the effects and channels the Store runs: it holds each effect's `send`
    /// and `complete` (so the test decides when an effect finishes) and each live channel's
    /// `dispatch`, and logs what the Store asks of them. Everything runs on the main thread; the
    /// lock only satisfies `Sendable`. Store callbacks are never called while the lock is held.
    final class Harness: Sendable {
        struct HeldEffect {
            let send: @Sendable (DispatchedAction<Action>) -> Void
            let complete: @Sendable () -> Void
        }

        struct LiveChannel {
            let instance: Int
            let dispatch: @Sendable (RowAction) -> Void
        }

        struct Contents {
            var observed = Observed()
            var held: [Int: HeldEffect] = [:]
            var channels: [ChannelKey: LiveChannel] = [:]
            var nextInstance = 0
        }

        private let contents = Mutex(Contents())

        // MARK: Called by the Store (through the app's behavior, effects and channel bodies)

        func record(_ action: Action) {
            contents.withLock { $0.observed.processed.append(action) }
        }

        func noteMissingElement() {
            contents.withLock { $0.observed.missingElements += 1 }
        }

        /// An effect the test completes: it registers its `send` and `complete` under `serial`; its
        /// token reports a cancellation while it is still held (a release after completion is not one).
        func heldEffect(serial: Int, scheduling: EffectScheduling) -> Effect<Action> {
            .subscribe(scheduling: scheduling) { [self] send, complete in
                contents.withLock { $0.held[serial] = HeldEffect(send: send, complete: complete) }
                return SubscriptionToken { [self] in
                    contents.withLock { contents in
                        if contents.held.removeValue(forKey: serial) != nil {
                            contents.observed.cancelledEffects.append(serial)
                        }
                    }
                }
            }
        }

        func opened(_ key: ChannelKey, value: Int, dispatch: @escaping @Sendable (RowAction) -> Void) -> Int {
            contents.withLock { contents in
                contents.nextInstance += 1
                contents.channels[key] = LiveChannel(instance: contents.nextInstance, dispatch: dispatch)
                contents.observed.events.append(ChannelEvent(kind: .open, key: key, value: value))
                return contents.nextInstance
            }
        }

        func received(_ key: ChannelKey, value: Int) {
            contents.withLock { $0.observed.events.append(ChannelEvent(kind: .receive, key: key, value: value)) }
        }

        func closed(_ key: ChannelKey, instance: Int, value: Int) {
            contents.withLock { contents in
                if contents.channels[key]?.instance == instance { contents.channels[key] = nil }
                contents.observed.events.append(ChannelEvent(kind: .close, key: key, value: value))
            }
        }

        // MARK: Called by the test

        /// Sends `.response(serial)` from a held effect, then completes it when `finish` is set.
        /// Returns `false` when the effect is not held (never started, cancelled or completed).
        @discardableResult
        func respond(serial: Int, finish: Bool) -> Bool {
            let effect = contents.withLock { contents -> HeldEffect? in
                guard let effect = contents.held[serial] else { return nil }
                if finish { contents.held[serial] = nil }
                return effect
            }
            guard let effect else { return false }
            effect.send(DispatchedAction(.response(serial), dispatcher: ActionSource(file: "ModelHarness", function: "respond", line: 0)))
            if finish { effect.complete() }
            return true
        }

        /// Makes a live channel dispatch `.echo`; `false` when no channel is live under `key`.
        @discardableResult
        func echo(from key: ChannelKey) -> Bool {
            guard let channel = contents.withLock({ $0.channels[key] }) else { return false }
            channel.dispatch(.echo)
            return true
        }

        /// Takes what was observed since the last call.
        func take() -> Observed {
            contents.withLock { contents in
                defer { contents.observed = Observed() }
                return contents.observed
            }
        }

        var heldSerials: Set<Int> { contents.withLock { Set($0.held.keys) } }
        var liveChannels: Set<ChannelKey> { contents.withLock { Set($0.channels.keys) } }
    }
}
