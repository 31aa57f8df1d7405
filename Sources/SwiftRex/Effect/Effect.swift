/// A description of side effects that produce actions: an ordered list of ``Component``s.
///
/// Effects are inert values. Building one starts nothing; the Store performs it in phase 4, each
/// component scheduled by its ``EffectScheduling``. An effect can be subscribed any number of times,
/// each subscription independent. `Effect` is a ``Monoid``: ``combine(_:_:)`` concatenates the
/// components (lhs first) and ``empty`` has none.
///
/// ```swift
/// Effect<AppAction>.just(.loaded)
/// Effect<AppAction>.sequence([.a, .b]).scheduling(.debounce(id: "search", delay: .milliseconds(300)))
/// ```
public struct Effect<Action: Sendable>: Sendable {
    /// The empty effect is `.many([])`: the components are stored inline, so a payload-less case
    /// would zero-fill the whole payload (hundreds of bytes, a `memset` per empty effect), where
    /// `.many([])` writes one pointer and a tag.
    @usableFromInline
    internal enum Storage: Sendable {
        /// Work scheduled `.immediately` with no channel and no owner (`Effect.just`, `Effect.task`
        /// without a scheduling): exactly `.single` of that component, held without building it, so
        /// the usual answers of a producer are moved into the mailbox or a task, not made into a
        /// component and destroyed again.
        case immediate(Component.Work)
        /// An `Effect.task` keyed or replacing under `key`, with no delay, no coalescing, no
        /// channel and no owner: exactly `.single` of ``keyedComponent(_:key:exclusive:)``, held as
        /// its work and key, so phase 4 hands them to the engine without building the component
        /// (a large value, moved through each call) and destroying it again.
        case keyedTask(TaskWork<Action>, key: AnyHashableSendable, exclusive: Bool)
        case single(Component)
        case many([Component])
    }

    /// The component a `.keyedTask` stands for. Never inlined: it is built only while the engine
    /// is busy, and inlined into phase 4 it made the common cases' code slower.
    @inlinable @inline(never)
    internal static func keyedComponent(_ work: TaskWork<Action>, key: AnyHashableSendable, exclusive: Bool) -> Component {
        Component(work: .task(work), scheduling: EffectScheduling(id: key, exclusive: exclusive))
    }

    @usableFromInline
    internal var storage: Storage

    @inlinable
    internal init(storage: Storage) {
        self.storage = storage
    }

    /// An effect made of `components`, in order.
    @inlinable
    public init(components: [Component]) {
        switch components.count {
        case 0: storage = .many([])
        case 1: storage = .single(components[0])
        default: storage = .many(components)
        }
    }

    /// A one-component effect.
    @inlinable
    public init(_ component: Component) {
        storage = .single(component)
    }

    /// The components, in scheduling order.
    @inlinable
    public var components: [Component] {
        switch storage {
        case .immediate(let work): return [Component(work: work, scheduling: .immediately)]
        case .keyedTask(let work, let key, let exclusive): return [Self.keyedComponent(work, key: key, exclusive: exclusive)]
        case .single(let component): return [component]
        case .many(let components): return components
        }
    }

    /// Whether the effect has no component.
    @inlinable
    public var isEmpty: Bool {
        switch storage {
        case .immediate, .keyedTask, .single: return false
        case .many(let components): return components.isEmpty
        }
    }

    /// Calls `body` for each component in order without building an array.
    @inlinable
    public func forEachComponent(_ body: (Component) throws -> Void) rethrows {
        switch storage {
        case .immediate(let work): try body(Component(work: work, scheduling: .immediately))
        case .keyedTask(let work, let key, let exclusive): try body(Self.keyedComponent(work, key: key, exclusive: exclusive))
        case .single(let component): try body(component)
        case .many(let components): for component in components { try body(component) }
        }
    }

    /// The effect with no component.
    @inlinable
    public static var empty: Effect { Effect(storage: .many([])) }

    /// Sends `action` once and completes synchronously on subscription, scheduled
    /// ``EffectScheduling/immediately``. The source is the call site.
    @inlinable
    public static func just(_ action: Action, file: String = #fileID, function: String = #function, line: UInt = #line) -> Effect {
        Effect(storage: .immediate(.just(DispatchedAction(action, dispatcher: ActionSource(file: file, function: function, line: line)))))
    }

    /// Sends `action` once under `scheduling` and completes synchronously on subscription. The
    /// source is the call site.
    @inlinable @inline(__always)
    public static func just(
        _ action: Action,
        scheduling: consuming EffectScheduling,
        file: String = #fileID, function: String = #function, line: UInt = #line
    ) -> Effect {
        // Moved on: borrowed, the scheduling was copied into the component.
        just(DispatchedAction(action, dispatcher: ActionSource(file: file, function: function, line: line)), scheduling: consume scheduling)
    }

    /// Sends an already-stamped action once, keeping its source, scheduled
    /// ``EffectScheduling/immediately``.
    @inlinable
    public static func just(_ action: DispatchedAction<Action>) -> Effect {
        Effect(storage: .immediate(.just(action)))
    }

    /// Sends an already-stamped action once under `scheduling`, keeping its source.
    @inlinable @inline(__always)
    public static func just(_ action: DispatchedAction<Action>, scheduling: consuming EffectScheduling) -> Effect {
        if EffectScheduling.isImmediately(scheduling) { return Effect(storage: .immediate(.just(action))) }
        return Effect(Component(work: .just(action), scheduling: consume scheduling))
    }

    /// Sends every action in order, synchronously, then completes. The source is the call site.
    @inlinable
    public static func sequence(
        _ actions: [Action],
        scheduling: EffectScheduling = .immediately,
        file: String = #fileID, function: String = #function, line: UInt = #line
    ) -> Effect {
        let source = ActionSource(file: file, function: function, line: line)
        return sequence(actions.map { DispatchedAction($0, dispatcher: source) }, scheduling: scheduling)
    }

    /// Sends every stamped action in order, synchronously, then completes.
    @inlinable
    public static func sequence(_ actions: [DispatchedAction<Action>], scheduling: EffectScheduling = .immediately) -> Effect {
        Effect(Component(work: .sequence(actions), scheduling: scheduling))
    }

    /// An effect from a subscription function: it receives `send` (callable from any thread, any
    /// number of times) and `complete` (call it at most once, never after cancellation) and returns
    /// a token that cancels the work.
    @inlinable
    public static func subscribe(
        scheduling: EffectScheduling = .immediately,
        _ subscribe:
            @escaping @Sendable (
                _ send: @escaping @Sendable (DispatchedAction<Action>) -> Void,
                _ complete: @escaping @Sendable () -> Void
            ) -> SubscriptionToken
    ) -> Effect {
        Effect(Component(work: .subscribe(subscribe), scheduling: scheduling))
    }

    /// Cancels everything registered under `id`: runs, pending timers, throttle stamps and channels.
    @inlinable
    public static func cancel(id: AnyHashableSendable) -> Effect {
        Effect(Component(work: .cancelOnly, scheduling: .cancelInFlight(id: id)))
    }

    /// ``cancel(id:)-swift.type.method`` with any hashable id.
    @_disfavoredOverload @inlinable
    public static func cancel(id: some Hashable & Sendable) -> Effect {
        cancel(id: AnyHashableSendable(id))
    }

    /// Transforms every action the effect emits (channels included), keeping sources, scheduling and payloads.
    @inlinable
    public func map<NewAction: Sendable>(_ transform: @escaping @Sendable (Action) -> NewAction) -> Effect<NewAction> {
        switch storage {
        case .immediate(let work): return Effect<NewAction>(storage: .immediate(Component.map(work, transform)))
        case .keyedTask(let work, let key, let exclusive):
            return Effect<NewAction>(storage: .keyedTask(work.map(transform), key: key, exclusive: exclusive))
        case .single(let component): return Effect<NewAction>(component.map(transform))
        case .many(let components): return Effect<NewAction>(storage: .many(components.map { $0.map(transform) }))
        }
    }

    /// Replaces every component's scheduling. A channel payload is kept; its delivery follows the
    /// policy's coalescing (throttle → throttle, debounce → debounce, none → unchanged).
    @inlinable
    public func scheduling(_ policy: EffectScheduling) -> Effect {
        switch storage {
        case .immediate(let work): return Effect(Component(work: work, scheduling: .immediately).rescheduled(policy))
        case .keyedTask(let work, let key, let exclusive):
            return Effect(Self.keyedComponent(work, key: key, exclusive: exclusive).rescheduled(policy))
        case .single(let component): return Effect(component.rescheduled(policy))
        case .many(let components): return Effect(storage: .many(components.map { $0.rescheduled(policy) }))
        }
    }
}

extension Effect: Monoid {
    /// The effect with no component.
    @inlinable
    public static var identity: Effect { .empty }

    /// Concatenates the components, `lhs` first.
    @inlinable
    public static func combine(_ lhs: Effect, _ rhs: Effect) -> Effect {
        if lhs.isEmpty { return rhs }
        if rhs.isEmpty { return lhs }
        return Effect(components: lhs.components + rhs.components)
    }

    /// Concatenates every effect's components in one pass.
    @inlinable
    public static func mconcat(_ values: [Effect]) -> Effect {
        var components: [Component] = []
        for value in values { value.forEachComponent { components.append($0) } }
        return Effect(components: components)
    }
}
