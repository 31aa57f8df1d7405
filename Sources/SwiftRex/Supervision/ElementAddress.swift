// Element observers: a collection lift's addressed unit writes one element, the one its action
// names. When it is all a dispatch changed, a Store calls the observers of that element alone, so
// a list with an observer per row pays for one row per dispatch, not for every row.
//
// An observer and a lift name the same element when they read the same container (its bytes in
// the Store's state and its type) and identify elements the same way (`ElementKeying`): then an
// equal id is the same element. Anything the library cannot match that way falls back to calling
// every observer of the container.

/// How a keyed container's lane identifies its elements.
@usableFromInline
internal enum ElementKeying: Hashable, Sendable {
    /// By `Identifiable.id`.
    case identifiable
    /// By the value of a key path on the element.
    case keyPath(ElementKeyPath)
    /// By position.
    case position
    /// By dictionary key.
    case dictionaryKey
}

/// The key path a lane reads ids through, compared by value. Held by reference, so a lane that
/// carries it stays a few words long and is copied cheaply on every dispatch.
@usableFromInline
internal final class ElementKeyPath: Hashable, Sendable {
    @usableFromInline let keyPath: AnyHashableSendable

    @inlinable
    init(_ keyPath: some Hashable & Sendable) {
        self.keyPath = AnyHashableSendable(keyPath)
    }

    @usableFromInline
    static func == (lhs: ElementKeyPath, rhs: ElementKeyPath) -> Bool { lhs.keyPath == rhs.keyPath }

    @usableFromInline
    func hash(into hasher: inout Hasher) { hasher.combine(keyPath) }
}

/// Which elements an id names: the container's type and how its lane identifies elements.
@usableFromInline
internal struct ElementIdentity: Hashable, Sendable {
    @usableFromInline let container: ObjectIdentifier
    @usableFromInline let keying: ElementKeying

    @inlinable
    init<Container>(_: Container.Type, keying: ElementKeying) {
        container = ObjectIdentifier(Container.self)
        self.keying = keying
    }
}

/// Where a keyed container lies in a state and how it names elements: what an element observer
/// registers under and what a lift's addressed unit writes.
@usableFromInline
internal struct ElementContainer: Hashable, Sendable {
    /// The container's bytes in the state.
    @usableFromInline let range: Range<Int>
    @usableFromInline let identity: ElementIdentity

    @inlinable
    init(range: Range<Int>, identity: ElementIdentity) {
        self.range = range
        self.identity = identity
    }

    /// The same container seen from a state that holds this one's state inline at `outer`, or
    /// `nil` when `outer` is unknown (the container can then not be matched).
    @inlinable
    func embedded(at outer: Range<Int>?) -> ElementContainer? {
        guard let outer, range.upperBound <= outer.count else { return nil }
        return ElementContainer(range: (outer.lowerBound + range.lowerBound)..<(outer.lowerBound + range.upperBound), identity: identity)
    }
}

/// What a collection lift's addressed reducer unit writes when it applies: the element its action
/// names, in one container of the state. Outer lifts map it into the app's state and action.
@usableFromInline
internal final class ElementAddress<Action, State>: Sendable {
    /// The lift whose units carry this address (their ``MutationScope`` is `.addressed(token)`).
    @usableFromInline let token: LiftToken
    @usableFromInline let container: ElementContainer
    /// The id of the element an action addresses, `nil` for an action the lift does not address.
    @usableFromInline let id: @Sendable (Action) -> AnyHashableSendable?

    @inlinable
    init(token: LiftToken, container: ElementContainer, id: @escaping @Sendable (Action) -> AnyHashableSendable?) {
        self.token = token
        self.container = container
        self.id = id
    }

    /// This address seen through a lift whose local state lies at `placement` and whose actions
    /// `extract` reads, or `nil` where the container can no longer be located (an optional, an
    /// enum case, a collection's elements, a closure lens).
    @inlinable
    func lifted<GlobalAction, GlobalState>(
        placement: FocusPlacement, extract: @escaping @Sendable (GlobalAction) -> Action?
    ) -> ElementAddress<GlobalAction, GlobalState>? {
        let embedded: ElementContainer?
        switch placement {
        case .identity: embedded = container
        case .exact(let range): embedded = container.embedded(at: range)
        case .within: embedded = nil
        }
        guard let embedded else { return nil }
        let id = self.id
        return ElementAddress<GlobalAction, GlobalState>(token: token, container: embedded) { action in extract(action).flatMap(id) }
    }
}
