// How a supervised plain array tells which elements a write changed, without a journal: a Store
// holds a copy of the array while a unit that may write it runs (a reducer's write then copies
// the pinned array once; a reaction's mutation, which will write, is given an exact copy first),
// then compares the two, and phase 5 re-evaluates only the elements that came, went or changed.

/// One difference between an array before a write and after it, in the array's order.
@usableFromInline
internal enum ArrayEdit<ID> {
    /// The element with this id is at the same place among the others, with other bytes; it
    /// now lies at offset `at`.
    case modified(ID, at: Int)
    /// The element with this id left.
    case removed(ID)
    /// An element with this id came, at offset `at`, after the unchanged element `after` (`nil`:
    /// at the front) and before `before` (`nil`: at the end).
    case inserted(ID, at: Int, after: ID?, before: ID?)
}

/// A Store's view of a container it brackets writes to: a copy taken before a unit that may
/// write it runs, compared with the container after it.
@usableFromInline
internal protocol ContainerWatching<State>: AnyObject, Sendable {
    associatedtype State
    /// Keeps a copy of the container, before a unit that may write it runs; `writes`: the unit
    /// is known to write (a reaction's mutation), so the copy is made now, in storage of its own,
    /// rather than by the write.
    func begin(_ state: inout State, writes: Bool)
    /// Records what the unit changed, and lets the copy go.
    func end(_ state: inout State)
    /// Notes that the Store brackets every write that may reach the container (but its own
    /// lift's addressed element writes): only then do the recorded edits say what changed.
    func arm()
}

/// Runs `body` on `state` with its writes bracketed by `watches` (`writes`: `body` is known to write).
@inlinable
internal func bracketing<State>(
    _ watches: [any ContainerWatching<State>], _ state: inout State, writes: Bool, _ body: (inout State) -> Void
) {
    for watch in watches { watch.begin(&state, writes: writes) }
    body(&state)
    for watch in watches { watch.end(&state) }
}

/// A mutable cell for the copy a watch keeps, made per Store by the lane (which knows the
/// container's type).
@usableFromInline
internal final class SnapshotCell<Value>: @unchecked Sendable {
    // Only the Store that owns the watch touches it, while it processes an action (on its actor).
    @usableFromInline var value: Value?
    /// Where the container's elements lay when the copy was taken (compared, never followed).
    @usableFromInline var storage: UInt?

    @inlinable init() {}
}

/// The edits of one supervised plain array since its tracker last brought its memo up to date.
///
/// Not isolated: the units a Store wraps with it are not. Only that Store touches it, while it
/// processes an action, on its actor (the same confinement as the Store's own state).
@usableFromInline
internal final class ContainerWatch<State, ID>: ContainerWatching, @unchecked Sendable {
    /// More edits than this: the tracker evaluates the whole container instead.
    @inlinable static var limit: Int { 64 }

    /// Takes the copy (`true`: now, in storage of its own).
    @usableFromInline let take: (inout State, Bool) -> Void
    /// Compares the copy with the container, appending the edits (at most `limit`) and letting
    /// the copy go; the element count before the write, or `nil` when it cannot tell.
    @usableFromInline let compare: (inout State, inout [ArrayEdit<ID>]) -> Int?
    /// Whether a Store brackets every unit that may write the container (other than its own lift's
    /// addressed element writes): only then do the edits say everything that changed.
    @usableFromInline var isArmed = false
    /// The edits since the last reset, in the order they happened.
    @usableFromInline var edits: [ArrayEdit<ID>] = []
    /// The element count before the first recorded write since the last reset.
    @usableFromInline var countBefore: Int?
    /// Whether a write since the last reset could not be told (too many edits, a second write
    /// after one that changed something, a container without contiguous storage).
    @usableFromInline var isLost = false

    @inlinable
    init(take: @escaping (inout State, Bool) -> Void, compare: @escaping (inout State, inout [ArrayEdit<ID>]) -> Int?) {
        self.take = take
        self.compare = compare
    }

    @inlinable
    func begin(_ state: inout State, writes: Bool) {
        take(&state, writes)
    }

    @inlinable
    func end(_ state: inout State) {
        let start = edits.count
        guard let count = compare(&state, &edits) else {
            isLost = true
            return
        }
        guard edits.count > start else { return }
        // Edits of a second write would name neighbours the memo never saw.
        if start > 0 { isLost = true }
        countBefore = count
    }

    @inlinable
    func arm() { isArmed = true }

    /// Forgets the edits: the tracker's memo describes the container now.
    @inlinable
    func reset() {
        if !edits.isEmpty { edits.removeAll(keepingCapacity: true) }
        countBefore = nil
        isLost = false
    }
}

/// Makes a Store's watch over one lane's container.
///
/// Unchecked: `make` captures only the lane, which is `Sendable`, and builds a new watch per call.
/// (A `@Sendable` closure could not name the container's type: its metatype is not `Sendable`.)
@usableFromInline
internal struct WatchFactory<State, ID>: @unchecked Sendable {
    @usableFromInline let make: () -> ContainerWatch<State, ID>

    @inlinable init(_ make: @escaping () -> ContainerWatch<State, ID>) { self.make = make }
}
