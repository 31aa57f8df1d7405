import Testing

@testable import SwiftRex

/// A channel value is its 32-byte identity and one reference: reconcile streams 40 bytes per desired
/// channel. Channels whose keys are not all `Int`s are told apart by their keys, read through that
/// reference, whenever their identities' words are equal.
@MainActor
@Suite struct ChannelLayoutTests {
    @Test func aChannelIsItsIdentityAndOneReference() {
        #expect(MemoryLayout<ChannelIdentity>.size == 32)
        #expect(MemoryLayout<Channel<Int>>.stride == 40)
        #expect(MemoryLayout<Channel<String>>.stride == 40)
        #expect(MemoryLayout<Channel<Int>>.offset(of: \Channel<Int>.identity) == 0)
    }

    @Test func identitiesOfEqualKeysAreEqualAndIntKeysAreExact() {
        let intKeyed = ChannelIdentity(id: AnyHashableSendable(7), reset: nil, broadcast: AnyHashableSendable(3))
        #expect(intKeyed == ChannelIdentity(id: AnyHashableSendable(7), reset: nil, broadcast: AnyHashableSendable(3)))
        #expect(intKeyed != ChannelIdentity(id: AnyHashableSendable(7), reset: nil, broadcast: AnyHashableSendable(4)))
        #expect(intKeyed != ChannelIdentity(id: AnyHashableSendable(7), reset: AnyHashableSendable(3), broadcast: nil))
        #expect(intKeyed.isExact)
        let stringKeyed = ChannelIdentity(id: AnyHashableSendable("feed"), reset: nil, broadcast: nil)
        #expect(stringKeyed == ChannelIdentity(id: AnyHashableSendable("feed"), reset: nil, broadcast: nil))
        #expect(!stringKeyed.isExact)
        // An `Int` key whose value is another key's hash is not that key.
        let hash = AnyHashableSendable("feed").cachedHash
        #expect(ChannelIdentity(id: AnyHashableSendable(hash), reset: nil, broadcast: nil) != stringKeyed)
    }

    enum Action: Sendable { case next(Int) }

    /// Sets of `count` channels keyed by strings, built apart for each call, broadcasting strings.
    nonisolated static func feeds(_ count: Int, room: Int, changedBroadcast: Int?, log: CoreFixtures.Log<String>) -> Keep<Action> {
        (0..<count).map { index in
            Channel(
                id: "feed-\(index)", lifetime: .ephemeral(resetKey: "room-\(room)"),
                broadcasting: .onChange(index == changedBroadcast ? "changed" : "level-\(index)")
            ) { _ in
                log.append("open \(index)")
                return ChannelHandler(receive: { value in log.append("\(index): \(value)") }, cancel: {})
            }
        }
    }

    @Test func equalSetsOfStringKeyedChannelsBuiltApartChangeNothing() {
        let log = CoreFixtures.Log<String>()
        // The state picks the set: 0 and 1 are equal sets, 2 changes one broadcast, 3 one reset key.
        let behavior = Behavior<Action, Int, Void>
            .reduce { action, state in if case .next(let value) = action { state = value } }
            .supervise { state in
                Supervision { _ in
                    switch state {
                    case 2: Self.feeds(50, room: 0, changedBroadcast: 20, log: log)
                    case 3: Self.feeds(50, room: 1, changedBroadcast: 20, log: log)
                    default: Self.feeds(50, room: 0, changedBroadcast: nil, log: log)
                    }
                }
            }
        let store = Store<Action, Int, Void>(initial: 0, behavior: behavior)
        #expect(log.values.count == 100) // 50 opens, each delivering its value
        for round in 0..<4 { store.dispatch(.next(round & 1)) }
        #expect(log.values.count == 100)
        store.dispatch(.next(2))
        #expect(log.values.dropFirst(100) == ["20: changed"])
        store.dispatch(.next(3))
        #expect(log.values.count == 201) // every reset key changed: 50 reopen and deliver
        #expect(store.openChannelIDs.count == 50)
    }

    /// A broadcast value whose hash ignores it: identities of different values are equal words.
    struct Colliding: Hashable, Sendable {
        var value: Int
        func hash(into hasher: inout Hasher) { hasher.combine(0) }
    }

    @Test func keysWithEqualHashesAreComparedThemselves() {
        let log = CoreFixtures.Log<String>()
        let behavior = Behavior<Action, Int, Void>
            .reduce { action, state in if case .next(let value) = action { state = value } }
            .supervise { state in
                Supervision { _ in
                    (0..<8).map { index in
                        Channel(id: Colliding(value: index), broadcasting: .onChange(Colliding(value: index == 5 ? state : 0))) { _ in
                            ChannelHandler(receive: { log.append("\(index): \($0.value)") }, cancel: {})
                        }
                    }
                }
            }
        let store = Store<Action, Int, Void>(initial: 0, behavior: behavior)
        #expect(
            ChannelIdentity(id: AnyHashableSendable(Colliding(value: 1)), reset: nil, broadcast: nil)
                == ChannelIdentity(id: AnyHashableSendable(Colliding(value: 2)), reset: nil, broadcast: nil))
        #expect(log.values.count == 8)
        store.dispatch(.next(0))
        #expect(log.values.count == 8)
        store.dispatch(.next(1))
        #expect(log.values.dropFirst(8) == ["5: 1"])
        #expect(store.openChannelIDs.count == 8)
    }
}
