/// What identifies one tracked read: the member read and the projections it was read through.
///
/// Two reads with equal keys read the same value, so they share one entry and one key path of the
/// registrar. A projection whose mapping has no identity of its own (a closure) scopes its reads
/// with a ``ScopeToken`` made with the projection, so its reads are never confused with another's.
@usableFromInline
internal struct SliceKey: Hashable {
    /// A key path, hashed and compared as itself (no `AnyHashable` box to open).
    @usableFromInline let member: AnyKeyPath
    @usableFromInline var scopes: [AnyHashable]

    @usableFromInline
    init(member: AnyKeyPath) {
        self.member = member
        scopes = []
    }

    /// The same read made through a projection scoped by `scope`.
    @usableFromInline
    func scoped(_ scope: AnyHashable) -> SliceKey {
        var key = self
        key.scopes.append(scope)
        return key
    }

    /// The key path from the store's state to the value read, when every projection it was read
    /// through is scoped by a key path; `nil` otherwise.
    var path: AnyKeyPath? {
        var path: AnyKeyPath?
        // The outermost projection's scope was appended last.
        for scope in scopes.reversed() {
            guard let next = scope.base as? AnyKeyPath else { return nil }
            guard let current = path else {
                path = next
                continue
            }
            guard let joined = current.appending(path: next) else { return nil }
            path = joined
        }
        guard let current = path else { return member }
        return current.appending(path: member)
    }
}

/// The scope of a projection whose mapping is a closure: equal only to itself.
@usableFromInline
internal final class ScopeToken: Hashable, Sendable {
    @usableFromInline
    init() {}

    @usableFromInline
    static func == (lhs: ScopeToken, rhs: ScopeToken) -> Bool { lhs === rhs }

    @usableFromInline
    func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

/// Where a tracked read, or an observer, of a `State` goes: the Store records it, a projection
/// maps it onto the store it projects. Each read returns what `value` reads from the current
/// state; `value` is not kept, so the caller's reading code can be specialised and inlined where
/// the read is made.
@MainActor
@usableFromInline
internal protocol TrackingRoute<State>: AnyObject {
    associatedtype State

    /// Registers an observer whose `didChange` hears only of the changes whose writes may reach
    /// `slice`, a key path from `State` (`nil`: a part no key path names, heard of at every change).
    func observe(slice: AnyKeyPath?, willChange: (@MainActor () -> Void)?, didChange: (@MainActor () -> Void)?) -> SubscriptionToken
    /// Registers an observer of the element `id` of `container` (located in `State`), whose
    /// `didChange` hears of the changes that may reach the container, save those that wrote
    /// another of its elements alone.
    func observe(
        element id: AnyHashableSendable, of container: ElementContainer, willChange: (@MainActor () -> Void)?, didChange: (@MainActor () -> Void)?
    ) -> SubscriptionToken

    /// Reads and tracks a value compared with `==` after each change; `read` makes the reading
    /// kept for those comparisons, and is called only by a first read of `key`.
    func trackedRead<Value: Equatable>(_ key: SliceKey, _ value: (State) -> Value, making read: () -> (State) -> Value) -> Value
    /// Reads and tracks a value that cannot be compared: any change that may mutate notifies.
    func trackedRead<Value>(_ key: SliceKey, _ value: (State) -> Value) -> Value
}

/// The route of a projection: its reads are the store's reads through `map`, scoped by `scope`.
/// It holds the projected store's route (as the projection holds the store) and pure mappings only,
/// so what the Store records never holds the Store.
@MainActor
@usableFromInline
internal final class MappedRoute<Parent, Child>: TrackingRoute {
    @usableFromInline let parent: any TrackingRoute<Parent>
    @usableFromInline let scope: AnyHashable
    @usableFromInline let map: (Parent) -> Child

    @usableFromInline
    init(parent: any TrackingRoute<Parent>, scope: AnyHashable, map: @escaping (Parent) -> Child) {
        self.parent = parent
        self.scope = scope
        self.map = map
    }

    @usableFromInline
    func trackedRead<Value: Equatable>(_ key: SliceKey, _ value: (Child) -> Value, making read: () -> (Child) -> Value) -> Value {
        let map = self.map
        return parent.trackedRead(key.scoped(scope), { value(map($0)) }) {
            let read = read()
            return { read(map($0)) }
        }
    }

    @usableFromInline
    func trackedRead<Value>(_ key: SliceKey, _ value: (Child) -> Value) -> Value {
        let map = self.map
        return parent.trackedRead(key.scoped(scope)) { value(map($0)) }
    }

    /// A slice of the projected state is the same slice of the parent's through a key-path
    /// mapping; through a closure it is a part no key path names.
    @usableFromInline
    func observe(slice: AnyKeyPath?, willChange: (@MainActor () -> Void)?, didChange: (@MainActor () -> Void)?) -> SubscriptionToken {
        let path = slice.flatMap { slice in (scope.base as? AnyKeyPath)?.appending(path: slice) }
        return parent.observe(slice: path, willChange: willChange, didChange: didChange)
    }

    /// The container lies in the parent's state where the key-path mapping puts the projected
    /// state; through a closure it cannot be located, and the observer hears of every change.
    @usableFromInline
    func observe(
        element id: AnyHashableSendable, of container: ElementContainer, willChange: (@MainActor () -> Void)?, didChange: (@MainActor () -> Void)?
    ) -> SubscriptionToken {
        guard let path = scope.base as? PartialKeyPath<Parent>, let embedded = container.embedded(at: inlineRange(of: path)) else {
            return parent.observe(slice: nil, willChange: willChange, didChange: didChange)
        }
        return parent.observe(element: id, of: embedded, willChange: willChange, didChange: didChange)
    }
}

/// The route of `store` when it takes part in observation tracking (a Store, or a projection made
/// by this library's factories), `nil` otherwise.
@MainActor
@usableFromInline
internal func trackingRoute<S: StoreType>(of store: S) -> (any TrackingRoute<S.State>)? {
    if let projection = store as? StoreProjection<S.Action, S.State> { return projection.route }
    return store as? any TrackingRoute<S.State>
}
