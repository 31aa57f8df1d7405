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
    /// This lane's journal as closures, type-erased (see `laneJournal(of:)`).
    @usableFromInline var erasedJournal: Any {
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
    @usableFromInline var erasedSlottedForEach: Any {
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
