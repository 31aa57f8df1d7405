/// A keyed-state lane over a container that keeps an edit journal.
@usableFromInline
internal protocol JournaledKeyedState: KeyedState {
    /// The container's content version (equal versions, equal contents).
    func contentVersion(in state: GlobalState) -> UInt64
    /// Calls `body` with every edit since `version`; `false` when the journal cannot tell.
    func forEachEdit(in state: GlobalState, since version: UInt64, _ body: (ContainerEdit<ID>) -> Void) -> Bool
    /// The element's slot: increasing in container order, stable until an edit reorders.
    func slot(of id: ID, in state: GlobalState) -> Int?
    /// Calls `body` for every element with its id and slot, in container order (ids are unique).
    func forEachElementWithSlot(in state: GlobalState, _ body: (ID, Int, Element) -> Void)
}

extension JournaledKeyedState {
    /// This lane's journal as closures, type-erased (see `laneJournal(of:)`). Inlinable: where the
    /// lift is made, the closures are specialised for the lane's types.
    @inlinable var erasedJournal: Any {
        let lane = self
        return LaneJournal<GlobalState, ID>(
            version: { lane.contentVersion(in: $0) },
            forEachEdit: { state, version, body in lane.forEachEdit(in: state, since: version, body) },
            slot: { id, state in lane.slot(of: id, in: state) }
        )
    }
}

extension JournaledKeyedState {
    /// ``forEachElementWithSlot(in:_:)`` as a closure, type-erased (see `laneSlottedForEach(of:)`).
    @inlinable var erasedSlottedForEach: Any {
        let lane = self
        let walk: @Sendable (GlobalState, (ID, Int, Element) -> Void) -> Void = { state, body in lane.forEachElementWithSlot(in: state, body) }
        return walk
    }
}

/// The walk over `lane`'s elements with their slots, when it keeps a journal.
@inlinable
internal func laneSlottedForEach<Lane: KeyedState>(of lane: Lane) -> (@Sendable (Lane.GlobalState, (Lane.ID, Int, Lane.Element) -> Void) -> Void)? {
    (lane as? any JournaledKeyedState)?.erasedSlottedForEach as? @Sendable (Lane.GlobalState, (Lane.ID, Int, Lane.Element) -> Void) -> Void
}

/// The journal of `lane`, when it keeps one.
@inlinable
internal func laneJournal<Lane: KeyedState>(of lane: Lane) -> LaneJournal<Lane.GlobalState, Lane.ID>? {
    (lane as? any JournaledKeyedState)?.erasedJournal as? LaneJournal<Lane.GlobalState, Lane.ID>
}

/// A keyed-state lane over a plain array, whose writes a Store can bracket to tell which elements
/// changed (see `ContainerWatch`).
@usableFromInline
internal protocol WatchedKeyedState: KeyedState {
    /// A factory of per-Store watches over this lane's container, type-erased (see
    /// `laneWatchFactory(of:)`); `nil` when the container's storage cannot be pinned.
    var erasedWatchFactory: Any? { get }
    /// `body` applied to the element at `offset`, read where the container lies; `false` when the
    /// offset is out of bounds. The watch's edits name where each element lies, so evaluating
    /// one reads no id table (a new id would have the table rebuilt).
    func withElement(atOffset offset: Int, inPlace state: inout GlobalState, _ body: (Element) -> Void) -> Bool
}

extension WatchedKeyedState {
    /// ``withElement(atOffset:inPlace:_:)`` as a closure, type-erased (see `laneElementAtOffset(of:)`).
    @usableFromInline var erasedElementAtOffset: Any {
        let lane = self
        let read: @Sendable (Int, GlobalState, (Element) -> Void) -> Bool = { offset, state, body in
            LentPart.lend(state) { lane.withElement(atOffset: offset, inPlace: &$0, body) }
        }
        return read
    }
}

/// The read of `lane`'s element at an offset, when the lane is watched.
@inlinable
internal func laneElementAtOffset<Lane: KeyedState>(of lane: Lane) -> (@Sendable (Int, Lane.GlobalState, (Lane.Element) -> Void) -> Bool)? {
    (lane as? any WatchedKeyedState)?.erasedElementAtOffset as? @Sendable (Int, Lane.GlobalState, (Lane.Element) -> Void) -> Bool
}

/// The factory of watches over `lane`'s container, when it is a plain array.
@inlinable
internal func laneWatchFactory<Lane: KeyedState>(of lane: Lane) -> WatchFactory<Lane.GlobalState, Lane.ID>? {
    (lane as? any WatchedKeyedState)?.erasedWatchFactory as? WatchFactory<Lane.GlobalState, Lane.ID>
}
