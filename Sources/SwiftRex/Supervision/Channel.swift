/// Whether a supervised channel receives a value, and which: `.onChange(v)` delivers `v` on open and
/// whenever it changes while the channel stays live.
public enum Broadcasting<Value: Hashable & Sendable>: Sendable {
    /// The channel receives no values.
    case nothing
    /// The channel receives this value on open and whenever it changes.
    case onChange(Value)
}

/// A long-lived source of actions kept alive by state: a socket, a timer, a location feed.
///
/// A ``Supervision`` lists the channels the current state wants; the Store opens the ones that
/// appear, cancels the ones that leave, recreates one when its reset key changes and delivers a new
/// broadcast value when that changes. Two channels are the same channel when their ids are equal.
///
/// - Important: the body is not re-run when values it captured change. Every captured input belongs
///   in the ``Lifetime`` reset key, or is delivered through ``Broadcasting``.
///
/// ```swift
/// Channel<RoomAction>(id: "socket", lifetime: .ephemeral(resetKey: state.roomID)) { dispatch in
///     let socket = Socket(room: roomID) { dispatch(.received($0)) }
///     return .cancelOnly { socket.close() }
/// }
/// ```
public struct Channel<Action: Sendable>: Sendable {
    /// When a channel is recreated: never (``permanent``), or whenever a reset key changes (``ephemeral(resetKey:settle:)``).
    public struct Lifetime: Sendable, Equatable {
        /// The reset key; `nil` for a permanent channel.
        public let resetKey: AnyHashableSendable?
        /// How long re-creation waits for the reset key to settle (a first open is immediate).
        public let settle: Duration?

        /// Opened once and kept while it stays in the desired set.
        @inlinable
        public static var permanent: Lifetime { Lifetime(resetKey: nil, settle: nil) }

        /// Recreated whenever `resetKey` changes; `settle` delays re-creation (a first open is immediate).
        @inlinable
        public static func ephemeral(resetKey: some Hashable & Sendable, settle: Duration? = nil) -> Lifetime {
            Lifetime(resetKey: AnyHashableSendable(resetKey), settle: settle)
        }

        @usableFromInline
        internal init(resetKey: AnyHashableSendable?, settle: Duration?) {
            self.resetKey = resetKey
            self.settle = settle
        }
    }

    /// The id, reset key and broadcast value as plain data (32 bytes), first in the layout.
    @usableFromInline let identity: ChannelIdentity
    /// Everything else, behind one reference: comparing a desired set with the last one streams
    /// the identities, not the declarations.
    @usableFromInline let declaration: ChannelDeclaration<Action>

    /// The channel's identity in the Store's effect namespace.
    @inlinable public var id: AnyHashableSendable { declaration.id }
    /// The reset key (`nil` when permanent): a change recreates the channel.
    @inlinable public var resetIdentity: AnyHashableSendable? { declaration.resetIdentity }
    /// The broadcast value (`nil` when it broadcasts nothing): a change is delivered.
    @inlinable public var broadcastIdentity: AnyHashableSendable? { declaration.broadcastIdentity }
    /// How long re-creation waits for the reset key to settle.
    @inlinable public var settle: Duration? { declaration.settle }
    /// The effect component that opens this channel or feeds it.
    @inlinable public var component: Effect<Action>.Component { declaration.component }

    /// A channel with an id, a lifetime, what it broadcasts, its delivery pacing and its body.
    ///
    /// The body runs once per open and receives `dispatch`, which sends actions into the Store
    /// (always on a later turn) stamped with this declaration's source. Once the channel has closed
    /// (it left the desired set, was cancelled, its element was removed or its Store is gone),
    /// `dispatch` drops what it is given and reports it once as a
    /// ``StoreDiagnostic/Kind/actionAfterClose`` diagnostic.
    ///
    /// A body that throws opens nothing: the error is reported as a
    /// ``StoreDiagnostic/Kind/channelFailed`` diagnostic and the channel counts as completed at
    /// once (it is not in `openChannelIDs`). Like any completed channel it is opened again when its
    /// reset key or broadcast value changes, or when it leaves the desired set and comes back.
    @inlinable
    public init<Value: Hashable & Sendable>(
        id: some Hashable & Sendable,
        lifetime: Lifetime = .permanent,
        broadcasting: Broadcasting<Value> = .nothing,
        delivery: ChannelDelivery = .immediate,
        file: String = #fileID, function: String = #function, line: UInt = #line,
        _ body: @escaping @Sendable (_ dispatch: @escaping @Sendable (Action) -> Void) throws -> ChannelHandler<Value>
    ) {
        let key = AnyHashableSendable(id)
        let source = ActionSource(file: file, function: function, line: line)
        let value: any Sendable
        let broadcastIdentity: AnyHashableSendable?
        switch broadcasting {
        case .nothing:
            broadcastIdentity = nil
            value = SilentChannelMarker()
        case .onChange(let broadcast):
            broadcastIdentity = AnyHashableSendable(broadcast)
            value = broadcast
        }
        let deliversOnOpen = broadcastIdentity != nil
        let payload = Effect<Action>.Component.ChannelPayload(
            value: value,
            // One closure captures the body and what opening needs; the adapter handed to
            // `openChannel` is not escaping, so building a channel allocates one context here.
            start: { first, send, complete in
                Effect<Action>.openChannel(
                    first: first, send: send, complete: complete, source: source, id: key, deliversOnOpen: deliversOnOpen,
                    sink: { Effect<Action>.valueSink($0) }
                ) {
                    send, _ in
                    try body { send(DispatchedAction($0, dispatcher: source)) }
                }
            },
            delivery: delivery,
            deliversOnOpen: deliversOnOpen
        )
        self.init(
            id: key,
            resetIdentity: lifetime.resetKey,
            broadcastIdentity: broadcastIdentity,
            settle: lifetime.resetKey == nil ? nil : lifetime.settle,
            component: Effect<Action>.Component(work: .cancelOnly, scheduling: .keyed(id: key), channel: payload)
        )
    }

    @inlinable
    internal init(
        id: AnyHashableSendable,
        resetIdentity: AnyHashableSendable?,
        broadcastIdentity: AnyHashableSendable?,
        settle: Duration?,
        component: Effect<Action>.Component
    ) {
        declaration = ChannelDeclaration(
            id: id, resetIdentity: resetIdentity, broadcastIdentity: broadcastIdentity, settle: settle, component: component
        )
        identity = ChannelIdentity(id: id, reset: resetIdentity, broadcast: broadcastIdentity)
    }

    /// Transforms the actions the channel dispatches, keeping its identity, reset and broadcast
    /// keys, settle and delivery.
    @inlinable
    public func mapAction<NewAction: Sendable>(_ transform: @escaping @Sendable (Action) -> NewAction) -> Channel<NewAction> {
        Channel<NewAction>(
            id: id,
            resetIdentity: resetIdentity,
            broadcastIdentity: broadcastIdentity,
            settle: settle,
            component: component.map(transform)
        )
    }
}

extension Effect {
    /// Opens `channel` imperatively (outside supervision); if it is already live, delivers its value instead.
    @inlinable
    public static func open(_ channel: Channel<Action>) -> Effect {
        Effect(channel.component)
    }
}

/// The channels a state wants alive.
public typealias Keep<Action: Sendable> = [Channel<Action>]

/// A state-driven effect: given the environment, the channels to keep. Supervisions compose by
/// ordered concatenation (duplicates are resolved by the Store: a later entry with the same id wins).
public typealias Supervision<Action: Sendable, Environment> = Reader<Environment, Keep<Action>>

extension Array: Semigroup {
    /// Concatenation.
    @inlinable
    public static func combine(_ lhs: Array, _ rhs: Array) -> Array { lhs + rhs }
}

extension Array: Monoid {
    /// The empty array.
    @inlinable
    public static var identity: Array { [] }

    /// Concatenates in one pass.
    @inlinable
    public static func mconcat(_ values: [Array]) -> Array { Array(values.joined()) }
}

/// A channel's keys (id, reset key, broadcast value) and settle, readable without knowing its
/// action type.
@usableFromInline
internal class ChannelKeys: @unchecked Sendable {
    // `@unchecked`: every field is an immutable `Sendable` value; the class is not final only so
    // that `ChannelDeclaration` can add the component.
    @usableFromInline let id: AnyHashableSendable
    @usableFromInline let resetIdentity: AnyHashableSendable?
    @usableFromInline let broadcastIdentity: AnyHashableSendable?
    @usableFromInline let settle: Duration?

    @inlinable
    init(id: AnyHashableSendable, resetIdentity: AnyHashableSendable?, broadcastIdentity: AnyHashableSendable?, settle: Duration?) {
        self.id = id
        self.resetIdentity = resetIdentity
        self.broadcastIdentity = broadcastIdentity
        self.settle = settle
    }

    /// Whether these are the keys `id`, `reset` and `broadcast`.
    @inlinable
    final func hasKeys(_ id: AnyHashableSendable, reset: AnyHashableSendable?, broadcast: AnyHashableSendable?) -> Bool {
        self.id == id && resetIdentity == reset && broadcastIdentity == broadcast
    }
}

/// A channel's declaration apart from its identity: its keys, settle and effect component, shared
/// by every copy of the channel value.
@usableFromInline
internal final class ChannelDeclaration<Action: Sendable>: ChannelKeys, @unchecked Sendable {
    // `@unchecked`: see `ChannelKeys`; the component is an immutable `Sendable` value.
    @usableFromInline let component: Effect<Action>.Component

    @inlinable
    init(
        id: AnyHashableSendable, resetIdentity: AnyHashableSendable?, broadcastIdentity: AnyHashableSendable?,
        settle: Duration?, component: Effect<Action>.Component
    ) {
        self.component = component
        super.init(id: id, resetIdentity: resetIdentity, broadcastIdentity: broadcastIdentity, settle: settle)
    }

    /// The traits of the component's channel side (`nil` when it has none), read without copying
    /// the component.
    @inlinable
    var channelTraits: ChannelTraits? {
        guard let payload = component.channel else { return nil }
        return ChannelTraits(payload)
    }
}

/// A channel's identity — its id, reset key and broadcast value — as four words: for each key its
/// value when it is an `Int`, otherwise its hash (0 when absent), and the keys' kinds. Comparing two
/// identities compares 32 bytes with no reference counting; for identities made only of `Int` keys
/// (or absent ones) equal words mean equal keys, so reconcile can tell an unchanged channel without
/// touching the keys. Equal keys always give equal identities.
@usableFromInline
internal struct ChannelIdentity: Equatable, Sendable {
    @usableFromInline var idWord: Int
    @usableFromInline var resetWord: Int
    @usableFromInline var broadcastWord: Int
    /// Two bits per key (id, reset, broadcast): 0 absent, 1 an `Int`, 2 any other key.
    @usableFromInline var kinds: Int

    @inlinable
    init(id: AnyHashableSendable, reset: AnyHashableSendable?, broadcast: AnyHashableSendable?) {
        let (idKind, resetKind, broadcastKind): (Int, Int, Int)
        (idWord, idKind) = Self.describe(id)
        (resetWord, resetKind) = Self.describe(reset)
        (broadcastWord, broadcastKind) = Self.describe(broadcast)
        kinds = idKind | resetKind << 2 | broadcastKind << 4
    }

    /// A key's word (its value when it is an `Int`, else its hash) and kind (0 absent, 1 `Int`, 2 other).
    @inlinable
    static func describe(_ key: AnyHashableSendable?) -> (word: Int, kind: Int) {
        switch key {
        case .none: return (0, 0)
        case .some(let key):
            if case .int(let value) = key.direct { return (value, 1) }
            return (key.cachedHash, 2)
        }
    }

    /// Replaces the broadcast value's word and kind: the identity of the same channel with
    /// another broadcast value.
    @inlinable
    mutating func setBroadcast(_ broadcast: AnyHashableSendable?) {
        let kind: Int
        (broadcastWord, kind) = Self.describe(broadcast)
        kinds = kinds & 0b1111 | kind << 4
    }

    /// Word by word, without branches: reconcile compares long runs of identities.
    @inlinable
    static func == (lhs: ChannelIdentity, rhs: ChannelIdentity) -> Bool {
        (lhs.idWord ^ rhs.idWord) | (lhs.resetWord ^ rhs.resetWord) | (lhs.broadcastWord ^ rhs.broadcastWord) | (lhs.kinds ^ rhs.kinds) == 0
    }

    /// Whether equal identities are equal keys: every key is an `Int` or absent.
    @inlinable
    var isExact: Bool { kinds & 0b10_1010 == 0 }
}
