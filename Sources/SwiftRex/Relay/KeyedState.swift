/// A state lane over a keyed container: locates one element by id in O(1) amortised, mutates it
/// in place, and walks every element once in a stable order.
public protocol KeyedState: Sendable {
    /// The app's state type.
    associatedtype GlobalState
    /// The element identifier.
    associatedtype ID: Hashable & Sendable
    /// The element (the feature's state).
    associatedtype Element

    /// The element with `id`, or `nil` when absent. O(1) amortised.
    func element(_ id: ID, in state: GlobalState) -> Element?
    /// Mutates the element with `id` in place; returns whether it was present. O(1) amortised.
    func modifyElement(_ id: ID, in state: inout GlobalState, _ body: (inout Element) -> Void) -> Bool
    /// Whether the container holds no element. O(1).
    func isEmpty(in state: GlobalState) -> Bool
    /// Calls `body` for every element, in container order (dictionaries: ascending keys). O(n).
    func forEachElement(in state: GlobalState, _ body: (ID, Element) -> Void)
    /// Mutates every element in place, in container order, walking storage once. O(n).
    func modifyEach(in state: inout GlobalState, _ body: (ID, inout Element) -> Void)
    /// Applies `run(action, &element)` to every element in place, in container order, without
    /// reading ids: the broadcast reducer's loop, one call per element. O(n).
    func modifyEach<Action>(in state: inout GlobalState, applying run: (Action, inout Element) -> Void, with action: Action)

    // Reads made before any mutation. Each takes the app's state `inout` for its address only and
    // writes nothing: the library's lanes reach a container stored at a fixed offset where it
    // lies, so a large app state is never copied to answer them. The defaults call the by-value
    // forms above (which copy the state).

    /// Whether the element with `id` is present, reading no element. O(1) amortised.
    func containsElement(_ id: ID, in state: inout GlobalState) -> Bool
    /// `body` applied to the element with `id`, or `nil` when it is absent. O(1) amortised.
    func inspectElement<Result>(_ id: ID, in state: inout GlobalState, _ body: (Element) -> Result) -> Result?
    /// Whether the container holds no element. O(1).
    func isEmpty(inPlace state: inout GlobalState) -> Bool
    /// Calls `body` for every element, in container order. O(n).
    func forEachElement(inPlace state: inout GlobalState, _ body: (ID, Element) -> Void)

    // A decision and the write it leads to resolve the id once: the read hands back where the
    // element lies, and the write of the same, unchanged state goes there. The defaults locate
    // nothing (`0`) and write through ``modifyElement(_:in:_:)``.

    /// Where the element with `id` lies (an array lane's offset, an identified array's slot,
    /// else `0`), or `nil` when it is absent, reading no element; for
    /// ``modifyElement(_:at:in:_:)`` on this state, unchanged. O(1) amortised.
    func locateElement(_ id: ID, in state: inout GlobalState) -> Int?
    /// `body` applied to the element with `id`, with where it lies (as ``locateElement(_:in:)``
    /// says), or `nil` when it is absent. O(1) amortised.
    func inspectElement<Result>(_ id: ID, in state: inout GlobalState, locating body: (Element) -> Result) -> (result: Result, location: Int)?
    /// Mutates the element with `id`, which ``locateElement(_:in:)`` or
    /// ``inspectElement(_:in:locating:)`` found at `location` in this state, unchanged since;
    /// returns whether it was present. O(1).
    func modifyElement(_ id: ID, at location: Int, in state: inout GlobalState, _ body: (inout Element) -> Void) -> Bool
}

extension KeyedState {
    /// `element(id, in: state) != nil`.
    @inlinable
    public func containsElement(_ id: ID, in state: inout GlobalState) -> Bool {
        element(id, in: state) != nil
    }

    /// `element(id, in: state).map(body)`.
    @inlinable
    public func inspectElement<Result>(_ id: ID, in state: inout GlobalState, _ body: (Element) -> Result) -> Result? {
        element(id, in: state).map(body)
    }

    /// `isEmpty(in: state)`.
    @inlinable
    public func isEmpty(inPlace state: inout GlobalState) -> Bool {
        isEmpty(in: state)
    }

    /// `forEachElement(in: state, body)`.
    @inlinable
    public func forEachElement(inPlace state: inout GlobalState, _ body: (ID, Element) -> Void) {
        forEachElement(in: state, body)
    }

    /// `containsElement(id, in: &state) ? 0 : nil`.
    @inlinable
    public func locateElement(_ id: ID, in state: inout GlobalState) -> Int? {
        containsElement(id, in: &state) ? 0 : nil
    }

    /// `inspectElement(id, in: &state, body)` located at `0`.
    @inlinable
    public func inspectElement<Result>(_ id: ID, in state: inout GlobalState, locating body: (Element) -> Result) -> (result: Result, location: Int)?
    {
        inspectElement(id, in: &state, body).map { ($0, 0) }
    }

    /// `modifyElement(id, in: &state, body)`: the location is not used.
    @inlinable
    public func modifyElement(_ id: ID, at location: Int, in state: inout GlobalState, _ body: (inout Element) -> Void) -> Bool {
        modifyElement(id, in: &state, body)
    }
}

extension KeyedState {
    /// Applies `run(action, &element)` to every element through ``modifyEach(in:_:)``.
    @inlinable
    public func modifyEach<Action>(in state: inout GlobalState, applying run: (Action, inout Element) -> Void, with action: Action) {
        modifyEach(in: &state) { _, element in run(action, &element) }
    }
}

/// A keyed lane that knows where its container lies and how it identifies elements (the library's
/// lanes over a key path do), so that element observers can be matched with its lift's units.
@usableFromInline
internal protocol LocatesElements {
    /// The container and how ids name its elements; `nil` when either is unknown.
    var elementContainer: ElementContainer? { get }
}

/// Where `lane`'s container lies and how it identifies elements, when the lane can tell.
@inlinable
internal func elementContainer(of lane: some Sendable) -> ElementContainer? {
    (lane as? any LocatesElements)?.elementContainer
}
