/// A store's view of one collection lift's supervision: evaluates every element (remembering each
/// element's keys as pending), or just the element an action addresses.
@MainActor
@usableFromInline
internal protocol ElementSupervisionTracking<State, Action, Environment>: AnyObject {
    associatedtype State
    associatedtype Action: Sendable
    associatedtype Environment

    /// Appends every element's channels, in container order, recording each element's keys as
    /// pending. The state is `inout` for its address only (read where it lies, never written),
    /// here and in the other evaluations.
    func evaluateAll(_ state: inout State, _ environment: Environment, into keep: inout Keep<Action>)
    /// Forgets the pending keys (the focus was absent: no element).
    func clearPending()
    /// Makes the pending keys the remembered ones.
    func commitAll()
    /// Forgets the pending keys, which match the memo, and notes that the memo describes the
    /// evaluated content (a journaled container's version).
    func keepMemo()
    /// Whether the memo already describes the last evaluation: the same elements at the same
    /// ordinals (an unchanged desired set can still hide moved or inserted channel-less elements).
    var pendingMatchesMemo: Bool { get }
    /// Appends the container order of every channel the last `evaluateAll` produced.
    func appendOrders(segment: Int, into orders: inout [UInt64])
    /// The keys the element addressed by `action` wanted last and its ordinal, its channels now
    /// appended to `keep` (none when it is gone: `keep` is a buffer the caller reuses, so a
    /// dispatch allocates no list of them); `nil` when the action addresses no element this lift knew.
    func evaluateAddressed(_ action: Action, _ state: inout State, _ environment: Environment, into keep: inout Keep<Action>) -> (
        previous: ElementKeys, ordinal: Int
    )?
    /// Feeds the element addressed by `action` in place when its channels are the ones it wanted
    /// (see `ChannelReconciler.feedElement`), from its own channels: they are lifted into the
    /// store's actions, appended to `keep`, only when the feed cannot decide (`.lifted`, then as
    /// `evaluateAddressed` appends them) or for a channel that must be opened. An element whose
    /// channels are unchanged allocates nothing beyond what its supervision allocates.
    func feedAddressed(
        _ action: Action, _ state: inout State, _ environment: Environment, target: ElementFeedTarget<Action>,
        reconciler: inout ChannelReconciler<Action>, into keep: inout Keep<Action>
    ) -> AddressedFeed
    /// Remembers `keys` for the element the last `evaluateAddressed` or `feedAddressed` call addressed.
    func commitAddressed(_ keys: ElementKeys)
    /// The elements the container's edit journal says changed since the memo was last brought up
    /// to date, each with the keys it wanted, its channels now (empty when it is gone) and its
    /// ordinal, appended to `changes` in journal order (a buffer the caller reuses, so a dispatch
    /// allocates no list of them); `false` when the journal cannot say (no journal, too many
    /// edits, a reorder, the focus gone): the segment must be evaluated whole. The state is
    /// `inout` for its address only: it is read in place, never written.
    /// A plain array's edits come from the Store's bracketed writes instead (see
    /// `ContainerWatch`), with the element `action` addresses, which its own lift wrote unbracketed.
    func evaluateEdits(_ state: inout State, _ environment: Environment, action: Action?, into changes: inout [ElementChange<Action>]) -> Bool
    /// Remembers what the last `evaluateEdits` call found.
    func commitEdits()
    /// Whether the container keeps an edit journal, which records the addressed element's writes too.
    var hasJournal: Bool { get }
    /// The watch over a plain array container, for the Store to bracket the writes that may reach it.
    var containerWatch: (any ContainerWatching<State>)? { get }
    /// Appends the keys every remembered element wanted (in no particular order).
    func appendRememberedKeys(into keys: inout [AnyHashableSendable])
}
