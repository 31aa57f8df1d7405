/// How a keyed container reports its edits (an `IdentifiedArray`'s journal), over the app's state.
@usableFromInline
internal struct LaneJournal<GlobalState, ID>: Sendable {
    /// The container's content version (equal versions, equal contents).
    @usableFromInline let version: @Sendable (GlobalState) -> UInt64
    /// Calls the body with every edit since a version; `false` when the journal cannot tell.
    @usableFromInline let forEachEdit: @Sendable (GlobalState, UInt64, (ContainerEdit<ID>) -> Void) -> Bool
    /// An element's slot: increasing in container order, stable until an edit reorders.
    @usableFromInline let slot: @Sendable (ID, GlobalState) -> Int?

    @inlinable
    init(
        version: @escaping @Sendable (GlobalState) -> UInt64,
        forEachEdit: @escaping @Sendable (GlobalState, UInt64, (ContainerEdit<ID>) -> Void) -> Bool,
        slot: @escaping @Sendable (ID, GlobalState) -> Int?
    ) {
        self.version = version
        self.forEachEdit = forEachEdit
        self.slot = slot
    }
}
