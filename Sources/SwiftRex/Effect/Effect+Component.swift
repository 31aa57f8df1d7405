extension Effect {
    /// One unit of effect work with its own ``EffectScheduling``; optionally a pipeable channel payload.
    public struct Component: Sendable {
        /// What the component does when subscribed.
        @usableFromInline
        internal enum Work: Sendable {
            case just(DispatchedAction<Action>)
            case sequence([DispatchedAction<Action>])
            case subscribe(
                @Sendable (
                    _ send: @escaping @Sendable (DispatchedAction<Action>) -> Void,
                    _ complete: @escaping @Sendable () -> Void
                ) -> SubscriptionToken)
            /// An `Effect.task`: the engine runs it without wrapping it in closures.
            case task(TaskWork<Action>)
            case cancelOnly
        }

        @usableFromInline
        internal let work: Work
        /// How the Store schedules this component.
        public let scheduling: EffectScheduling
        /// The channel payload, when this component opens or feeds a channel (the engine then ignores ``subscribe(send:complete:)``'s work).
        public let channel: ChannelPayload?
        /// The collection element the component belongs to (set by collection lifts): the Store
        /// cancels it when the element leaves its collection.
        @usableFromInline
        internal let owner: EffectOwner?
        /// What phase 4 and the engine read of this component without copying it, computed once
        /// and packed in one byte (see the three properties below).
        @usableFromInline
        internal let traits: UInt8

        /// Whether the Store may start this component at once, outside the keyed registry: no id, no
        /// coalescing, no positive delay, no channel payload, no owner, not a cancel sentinel.
        @inlinable
        internal var startsAtOnceAnonymously: Bool { traits & 1 != 0 }
        /// Whether the Store may start this component at once under its id: an id, no coalescing,
        /// no positive delay, no channel payload, no owner, not a cancel sentinel.
        @inlinable
        internal var startsTaskAtOnceByKey: Bool { traits & 2 != 0 }
        /// Whether ``channel`` holds a payload: read without touching the optional payload, whose
        /// existential value makes every copy of it go through the runtime's generic witnesses.
        @inlinable
        internal var hasChannel: Bool { traits & 4 != 0 }

        /// The packed traits.
        @inlinable @inline(__always)
        internal static func traits(anonymously: Bool, byKey: Bool, hasChannel: Bool) -> UInt8 {
            (anonymously ? 1 : 0) | (byKey ? 2 : 0) | (hasChannel ? 4 : 0)
        }

        @inlinable
        internal init(work: Work, scheduling: EffectScheduling, channel: ChannelPayload?, owner: EffectOwner? = nil) {
            // Everything is read before it is stored, so each argument is moved in, not copied.
            let start = Self.startsAtOnce(scheduling)
            let hasChannel = channel != nil
            let plain = !hasChannel && owner == nil
            traits = Self.traits(anonymously: start.anonymously && plain, byKey: start.byKey && plain, hasChannel: hasChannel)
            self.work = work
            self.scheduling = scheduling
            self.channel = channel
            self.owner = owner
        }

        /// A component of plain work: no channel payload, no owner. Stores `nil` outright, where
        /// the general initialiser copies (and then destroys) the optional payload it is given.
        @inlinable
        internal init(work: Work, scheduling: EffectScheduling) {
            let start = Self.startsAtOnce(scheduling)
            traits = Self.traits(anonymously: start.anonymously, byKey: start.byKey, hasChannel: false)
            self.work = work
            self.scheduling = scheduling
            channel = nil
            owner = nil
        }

        /// The work, moved out of this component (the rest of it is destroyed).
        @inlinable
        internal consuming func takeWork() -> Work { work }

        /// This component taken apart, each part moved out.
        @inlinable
        internal consuming func parts() -> (work: Work, scheduling: EffectScheduling, channel: ChannelPayload?, owner: EffectOwner?) {
            (work, scheduling, channel, owner)
        }

        /// Whether `scheduling` lets a component start at once (no coalescing, no positive delay,
        /// not a cancel sentinel), outside the keyed registry (no id) or under its id. Each knob is
        /// read once, in place: taking the scheduling apart in separate calls copied it.
        @inlinable @inline(__always)
        internal static func startsAtOnce(_ scheduling: borrowing EffectScheduling) -> (anonymously: Bool, byKey: Bool) {
            var atOnce = !scheduling.isCancelSentinel
            if case .some = scheduling.coalesce { atOnce = false }
            if case .some(let delay) = scheduling.delay, delay > .zero { atOnce = false }
            guard atOnce else { return (false, false) }
            if case .none = scheduling.id { return (true, false) }
            return (false, true)
        }

        /// A component from a subscription function (the bridge for async and reactive sources).
        @inlinable
        public init(
            scheduling: EffectScheduling = .immediately,
            subscribe:
                @escaping @Sendable (
                    _ send: @escaping @Sendable (DispatchedAction<Action>) -> Void,
                    _ complete: @escaping @Sendable () -> Void
                ) -> SubscriptionToken
        ) {
            self.init(work: .subscribe(subscribe), scheduling: scheduling)
        }

        /// The actions this component sends synchronously on subscription without any other work,
        /// or `nil` when it is not a plain `just`/`sequence` component. Lets the Store skip
        /// subscription machinery for the common case.
        @inlinable
        public var immediateActions: [DispatchedAction<Action>]? {
            guard channel == nil else { return nil }
            switch work {
            case .just(let action): return [action]
            case .sequence(let actions): return actions
            case .subscribe, .task, .cancelOnly: return nil
            }
        }

        /// Starts the work: sends actions through `send` and calls `complete` at most once.
        ///
        /// A channel component opens its channel (delivering its value when it broadcasts on open);
        /// a pipe-only (broadcast) component and a cancel-only sentinel complete at once.
        @inlinable
        public func subscribe(
            send: @escaping @Sendable (DispatchedAction<Action>) -> Void,
            complete: @escaping @Sendable () -> Void
        ) -> SubscriptionToken {
            if let channel {
                guard let start = channel.start else {
                    complete()
                    return .empty
                }
                return start(channel.value, send, complete).token
            }
            switch work {
            case .just(let action):
                send(action)
                complete()
                return .empty
            case .sequence(let actions):
                for action in actions { send(action) }
                complete()
                return .empty
            case .subscribe(let subscribe):
                return subscribe(send, complete)
            case .task(let work):
                return work.subscribe(send: send, complete: complete)
            case .cancelOnly:
                complete()
                return .empty
            }
        }

        /// Transforms the emitted actions, keeping source, scheduling and channel payload.
        @inlinable
        public func map<NewAction: Sendable>(_ transform: @escaping @Sendable (Action) -> NewAction) -> Effect<NewAction>.Component {
            map(transform, scheduling: scheduling, owner: owner)
        }

        /// This component's work and channel with their actions transformed, under `scheduling`
        /// and `owner`: one new component where a map and a re-scheduling would build two.
        @inlinable
        internal func map<NewAction: Sendable>(
            _ transform: @escaping @Sendable (Action) -> NewAction, scheduling: EffectScheduling, owner: EffectOwner?
        ) -> Effect<NewAction>.Component {
            Effect<NewAction>.Component(
                work: Self.map(work, transform), scheduling: scheduling, channel: channel?.map(transform), owner: owner)
        }

        /// `work` with its actions transformed.
        @inlinable
        internal static func map<NewAction: Sendable>(
            _ work: Work, _ transform: @escaping @Sendable (Action) -> NewAction
        ) -> Effect<NewAction>.Component.Work {
            switch work {
            case .just(let action): return .just(action.map(transform))
            case .sequence(let actions): return .sequence(actions.map { $0.map(transform) })
            case .subscribe(let subscribe):
                return .subscribe { send, complete in subscribe({ send($0.map(transform)) }, complete) }
            case .task(let work): return .task(work.map(transform))
            case .cancelOnly: return .cancelOnly
            }
        }

        /// This component under another scheduling; a channel payload is kept and its delivery
        /// follows the policy's coalescing.
        @inlinable
        public func rescheduled(_ policy: EffectScheduling) -> Component {
            guard let channel else { return Component(work: work, scheduling: policy, channel: nil, owner: owner) }
            return Component(
                work: work, scheduling: policy, channel: channel.withDelivery(ChannelDelivery(policy.coalesce) ?? channel.delivery), owner: owner)
        }
    }
}

extension Effect.Component {
    /// The pipeable part of a channel component: the value to deliver, how to open the channel
    /// (absent for a pure broadcast), the delivery pacing and whether the value is delivered on open.
    public struct ChannelPayload: Sendable {
        /// Opens a channel: receives the first value, `send` and `complete`; returns the channel's
        /// token and its value sink.
        public typealias Start =
            @Sendable (
                _ firstValue: any Sendable,
                _ send: @escaping @Sendable (DispatchedAction<Action>) -> Void,
                _ complete: @escaping @Sendable () -> Void
            ) -> (token: SubscriptionToken, sink: @Sendable (any Sendable) -> Void)

        /// The value delivered to the channel (a broadcast value, or an internal marker).
        public let value: any Sendable
        /// How to open the channel; `nil` for a pipe-only broadcast that never opens anything.
        public let start: Start?
        /// The pacing of deliveries into a live channel.
        public let delivery: ChannelDelivery
        /// Whether ``value`` is delivered synchronously when the channel opens.
        public let deliversOnOpen: Bool

        /// A channel payload from its parts.
        @inlinable
        public init(value: any Sendable, start: Start?, delivery: ChannelDelivery, deliversOnOpen: Bool) {
            self.value = value
            self.start = start
            self.delivery = delivery
            self.deliversOnOpen = deliversOnOpen
        }

        /// Whether this payload only feeds a live channel and never opens one.
        @inlinable
        public var isPipeOnly: Bool { start == nil }

        /// Transforms the actions the opened channel sends.
        @inlinable
        public func map<NewAction: Sendable>(_ transform: @escaping @Sendable (Action) -> NewAction) -> Effect<NewAction>.Component.ChannelPayload {
            var mappedStart: Effect<NewAction>.Component.ChannelPayload.Start?
            if let start {
                mappedStart = { first, send, complete in
                    start(first, { (action: DispatchedAction<Action>) in send(action.map(transform)) }, complete)
                }
            }
            return Effect<NewAction>.Component.ChannelPayload(value: value, start: mappedStart, delivery: delivery, deliversOnOpen: deliversOnOpen)
        }

        /// The same payload with another delivery pacing.
        @inlinable
        public func withDelivery(_ delivery: ChannelDelivery) -> ChannelPayload {
            ChannelPayload(value: value, start: start, delivery: delivery, deliversOnOpen: deliversOnOpen)
        }
    }
}

/// The marker value of a channel that does not broadcast: delivered to no sink.
@usableFromInline
internal struct SilentChannelMarker: Sendable {
    @inlinable init() {}
}

extension Effect {
    /// Opens (once) a channel under `scheduling.id` and delivers `value` into it; later components
    /// under the same id deliver their value into the live channel, paced by `scheduling`'s
    /// coalescing (throttle or debounce) — opening is never delayed.
    ///
    /// Once the channel has closed (cancelled, completed, or its Store gone), `send` drops what it
    /// is given and reports it once as a ``StoreDiagnostic/Kind/actionAfterClose`` diagnostic. A
    /// body that throws opens nothing: the channel counts as completed at once and the error is
    /// reported as a ``StoreDiagnostic/Kind/channelFailed`` diagnostic.
    ///
    /// - Important: give `scheduling` an id; without one, every dispatch opens a new channel that
    ///   nothing can feed or cancel.
    @inlinable
    public static func channel<Value: Sendable>(
        value: Value,
        scheduling: EffectScheduling,
        file: String = #fileID, function: String = #function, line: UInt = #line,
        _ body:
            @escaping @Sendable (
                _ send: @escaping @Sendable (Action) -> Void,
                _ complete: @escaping @Sendable () -> Void
            ) throws -> ChannelHandler<Value>
    ) -> Effect {
        let source = ActionSource(file: file, function: function, line: line)
        let payload = Component.ChannelPayload(
            value: value,
            // One closure captures the body and what opening needs (the adapter is not escaping).
            start: { [id = scheduling.id] first, send, complete in
                openChannel(first: first, send: send, complete: complete, source: source, id: id, deliversOnOpen: true, sink: { valueSink($0) }) {
                    send, complete in
                    try body({ send(DispatchedAction($0, dispatcher: source)) }, complete)
                }
            },
            delivery: ChannelDelivery(scheduling.coalesce) ?? .immediate,
            deliversOnOpen: true
        )
        return Effect(Component(work: .cancelOnly, scheduling: scheduling, channel: payload))
    }

    /// Delivers `value` into the channel live under `channel`; dropped when none is live, or when
    /// the channel receives another value type.
    @inlinable
    public static func broadcast(_ value: some Hashable & Sendable, channel: AnyHashableSendable) -> Effect {
        let payload = Component.ChannelPayload(value: value, start: nil, delivery: .immediate, deliversOnOpen: false)
        return Effect(Component(work: .cancelOnly, scheduling: .keyed(id: channel), channel: payload))
    }

    /// ``broadcast(_:channel:)-swift.type.method`` with any hashable channel id.
    @_disfavoredOverload @inlinable
    public static func broadcast(_ value: some Hashable & Sendable, channel: some Hashable & Sendable) -> Effect {
        broadcast(value, channel: AnyHashableSendable(channel))
    }

    /// Opens one channel: runs its body behind a gate that closes when the channel is cancelled
    /// or completes, so a `dispatch` kept by the body drops what it is given from then on (and
    /// reports it once). A body that throws opens nothing: the failure is reported, `complete` is
    /// called at once and the token cancels nothing. Inlinable: specialised for the value type,
    /// its optional's metadata is a constant rather than a run-time lookup.
    @inlinable
    internal static func openChannel<Value>(
        first: any Sendable,
        send: @escaping @Sendable (DispatchedAction<Action>) -> Void,
        complete: @escaping @Sendable () -> Void,
        source: ActionSource,
        id: AnyHashableSendable?,
        deliversOnOpen: Bool,
        sink: (@escaping @Sendable (Value) -> Void) -> @Sendable (any Sendable) -> Void,
        _ open: (
            _ send: @escaping @Sendable (DispatchedAction<Action>) -> Void,
            _ complete: @escaping @Sendable () -> Void
        ) throws -> ChannelHandler<Value>
    ) -> (token: SubscriptionToken, sink: @Sendable (any Sendable) -> Void) {
        let gate = ChannelGate(id: id, source: source)
        let handler: ChannelHandler<Value>
        do {
            handler = try open(
                { action in
                    if gate.isRunning { send(action) } else { gate.reportLate(action.action) }
                },
                { if gate.finish() { complete() } }
            )
        } catch {
            gate.cancel()
            reportChannelFailure(id: id, source: source, error: error, whileOpening: true)
            complete()
            return (.empty, { _ in })
        }
        if deliversOnOpen, gate.isRunning, let value = first as? Value { handler.receive(value) }
        return (
            SubscriptionToken {
                gate.cancel()
                handler.cancel()
            },
            sink(handler.receive)
        )
    }

    /// A channel's value sink: hands what it is given to `receive` when it is a `Value`. Made
    /// where the channel is declared (passed to `openChannel` by its inlinable callers), so the
    /// cast runs specialised for the value type: unspecialised, every delivery looked up the
    /// metadata of `Optional<Value>`.
    @inlinable
    static func valueSink<Value>(_ receive: @escaping @Sendable (Value) -> Void) -> @Sendable (any Sendable) -> Void {
        { value in
            if let value = opened(value, as: Value.self) { receive(value) }
        }
    }

    /// `value` cast to `Value` from its own type, the existential opened first: a value of that
    /// very type then takes the runtime's same-type path instead of unwrapping the box.
    @inlinable
    static func opened<Opened: Sendable, Value>(_ value: Opened, as _: Value.Type) -> Value? {
        value as? Value
    }
}
