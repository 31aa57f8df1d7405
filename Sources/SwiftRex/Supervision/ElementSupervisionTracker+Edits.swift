// The tracker's work over edits, static and inlinable like its memo operations: each tracker gets
// it specialised for its types. Its own methods run unspecialised, behind a protocol, where every
// operation on a list of ids or of edits, and every memo lookup, asks the runtime for type
// metadata.

extension ElementSupervisionTracker {
    /// One edited element: its id, the keys it wants (`nil`: it is gone) and its ordinal.
    @usableFromInline typealias Edit = (id: ID, keys: ElementKeys?, ordinal: Int)

    /// The tracker's lists whose elements are typed by the id. All arrays, so the struct's layout
    /// is the same for every id type, and the unspecialised methods reach its fields directly.
    @usableFromInline
    struct IDLists {
        /// The ids of the last whole evaluation, in container order.
        @usableFromInline var pendingIDs: [ID] = []
        /// The edits the last `evaluateEdits` found, waiting for their commit.
        @usableFromInline var edits: [Edit] = []
        /// A reused buffer of the ids a journal says were edited.
        @usableFromInline var edited: [ID] = []

        @inlinable init() {}
    }

    /// The journal's edits since `synced`: each edited element evaluated, given the keys the memo
    /// (`inout` only to be read without a retain) remembers for it, recorded in `lists.edits` and
    /// appended to `changes`. The content version the edits reach; `nil` when the journal cannot
    /// say, or the edits include a reorder.
    @MainActor @inlinable
    static func journaledEdits(
        _ journal: LaneJournal<GS, ID>, evaluate: EvaluateOne, state: GS, environment: GE, since synced: UInt64,
        memo: inout [ID: ElementMemo], lists: inout IDLists, changes: inout [ElementChange<GA>]
    ) -> UInt64? {
        if !lists.edited.isEmpty { lists.edited.removeAll(keepingCapacity: true) }
        var reordered = false
        let known = journal.forEachEdit(state, synced) { edit in
            switch edit {
            case .inserted(let id), .removed(let id), .modified(let id):
                // At most 64 edits: a scan dedupes without a set.
                if !lists.edited.contains(id) { lists.edited.append(id) }
            case .reordered:
                reordered = true
            }
        }
        guard known, !reordered else { return nil }
        if !lists.edits.isEmpty { lists.edits.removeAll(keepingCapacity: true) }
        for id in lists.edited {
            var keep: Keep<GA> = []
            let remembered = memo[id]
            let present = evaluate(id, state, environment, remembered?.keys ?? .none, &keep)
            guard let ordinal = present ? journal.slot(id, state) : remembered?.ordinal else { continue }
            lists.edits.append((id, present ? ElementKeys(keep) : nil, ordinal))
            changes.append(ElementChange(previous: remembered?.keys ?? .none, channels: keep, ordinal: ordinal))
        }
        return journal.version(state)
    }

    /// A plain array's edits, as the Store's bracketed writes told them, each element evaluated
    /// where its edit says it lies, then the element `action` addresses (its own lift's writes are
    /// not bracketed), recorded in `lists.edits` and appended to `changes`. Removed elements keep
    /// their ordinals; an inserted one takes the first ordinal after its unchanged neighbour (and
    /// after every earlier insertion), which must come before the next one's; `ordinals` is the
    /// memo's ordinal range. `false` when only a whole evaluation can say (an edit the memo cannot
    /// place, an element edited twice), with `changes` and `lists.edits` as they were.
    @MainActor @inlinable
    static func watchedEdits(
        _ edits: [ArrayEdit<ID>], action: GA?, evaluateAt: EvaluateAt, evaluateAddressed: EvaluateAddressed, state: GS, environment: GE,
        ordinals: Int, memo: inout [ID: ElementMemo], lists: inout IDLists, changes: inout [ElementChange<GA>]
    ) -> Bool {
        let start = changes.count
        if !lists.edits.isEmpty { lists.edits.removeAll(keepingCapacity: true) }
        func fail() -> Bool {
            changes.removeSubrange(start...)
            lists.edits.removeAll(keepingCapacity: true)
            return false
        }
        func isPending(_ id: ID) -> Bool { lists.edits.contains { $0.id == id } }
        var lastInserted = -1
        for edit in edits {
            switch edit {
            case .removed(let id):
                guard let remembered = memo[id], !isPending(id) else { return fail() }
                lists.edits.append((id, nil, remembered.ordinal))
                changes.append(ElementChange(previous: remembered.keys, channels: [], ordinal: remembered.ordinal))
            case .modified(let id, let offset):
                guard let remembered = memo[id], !isPending(id) else { return fail() }
                var keep: Keep<GA> = []
                guard evaluateAt(id, offset, state, environment, remembered.keys, &keep) else { return fail() }
                lists.edits.append((id, ElementKeys(keep), remembered.ordinal))
                changes.append(ElementChange(previous: remembered.keys, channels: keep, ordinal: remembered.ordinal))
            case .inserted(let id, let offset, let after, let before):
                // An id the memo knows moved, or is a duplicate: only a whole evaluation can say.
                guard memo[id] == nil, !isPending(id) else { return fail() }
                var lower = -1
                if let after {
                    guard let neighbour = memo[after] else { return fail() }
                    lower = neighbour.ordinal
                }
                var ordinal = max(lower, lastInserted) + 1
                if let before {
                    guard let neighbour = memo[before], ordinal < neighbour.ordinal else { return fail() }
                } else {
                    ordinal = max(ordinal, ordinals)
                }
                lastInserted = ordinal
                var keep: Keep<GA> = []
                guard evaluateAt(id, offset, state, environment, .none, &keep) else { return fail() }
                lists.edits.append((id, ElementKeys(keep), ordinal))
                changes.append(ElementChange(previous: .none, channels: keep, ordinal: ordinal))
            }
        }
        if let action {
            var addressed: ID?
            var keep: Keep<GA> = []
            if let remembered = evaluateAddressed(action, state, environment, &memo, &addressed, &keep), let id = addressed, !isPending(id) {
                lists.edits.append((id, ElementKeys(keep), remembered.ordinal))
                changes.append(ElementChange(previous: remembered.keys, channels: keep, ordinal: remembered.ordinal))
            }
        }
        return true
    }

    /// Remembers `lists.edits` in the memo and its inverse; whether any of them added, removed or
    /// moved an element (the last full commit's lists then no longer describe the memo).
    @inlinable
    static func rememberEdits(_ memo: inout [ID: ElementMemo], _ memoIDs: inout [ID?], _ lists: inout IDLists) -> Bool {
        var moved = false
        for edit in lists.edits where edit.keys == nil || memo[edit.id]?.ordinal != edit.ordinal {
            moved = true
            break
        }
        applyEdits(&memo, &memoIDs, lists.edits)
        return moved
    }

    /// Empties the pending ids and edits, keeping their storage. Only a list that holds something
    /// is emptied: emptying an empty array still walks the generic range-replacement path.
    @inlinable
    static func emptyPending(_ lists: inout IDLists) {
        if !lists.pendingIDs.isEmpty { lists.pendingIDs.removeAll(keepingCapacity: true) }
        if !lists.edits.isEmpty { lists.edits.removeAll(keepingCapacity: true) }
    }
}
