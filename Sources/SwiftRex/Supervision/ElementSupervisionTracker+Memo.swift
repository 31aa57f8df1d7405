// The tracker's memo operations: static and inlinable, so each tracker gets them specialised for
// its element id type (its own methods run unspecialised, behind a protocol).

extension ElementSupervisionTracker {
    /// Refills the memo with recorded ids, keys and ordinals (first occurrence of an id wins),
    /// and the memo's id at each ordinal, reusing both tables' storage.
    @inlinable
    static func buildMemo(_ memo: inout [ID: ElementMemo], _ ids: [ID], _ keys: [ElementKeys], _ ordinals: [Int], _ memoIDs: inout [ID?]) {
        memo.removeAll(keepingCapacity: true)
        memo.reserveCapacity(ids.count)
        memoIDs.removeAll(keepingCapacity: true)
        memoIDs.append(contentsOf: repeatElement(nil, count: (ordinals.max() ?? -1) + 1))
        for index in ids.indices where memo[ids[index]] == nil {
            memo[ids[index]] = ElementMemo(keys: keys[index], ordinal: ordinals[index])
            memoIDs[ordinals[index]] = ids[index]
        }
    }

    /// Writes recorded keys into a memo that holds exactly the recorded ids at their ordinals.
    @inlinable
    static func updateMemoKeys(_ memo: inout [ID: ElementMemo], _ ids: [ID], _ keys: [ElementKeys]) {
        for index in ids.indices {
            // Present by the caller's check; a write only where the keys changed.
            guard let entry = memo.index(forKey: ids[index]), !memo.values[entry].keys.isSame(as: keys[index]) else { continue }
            memo.values[entry].keys = keys[index]
        }
    }

    /// Whether a memo of `count` entries, whose id at each ordinal `memoIDs` gives, holds exactly
    /// `ids` at `ordinals`.
    @inlinable
    static func memoMatches(_ ids: [ID], _ ordinals: [Int], _ count: Int, _ memoIDs: [ID?]) -> Bool {
        // `memoIDs` is the memo's exact inverse: each id at its ordinal, with as many elements,
        // is the memo itself.
        guard ids.count == count else { return false }
        for index in ids.indices {
            let ordinal = ordinals[index]
            guard ordinal >= 0, ordinal < memoIDs.count, memoIDs[ordinal] == ids[index] else { return false }
        }
        return true
    }

    /// Remembers edited elements' keys and ordinals (`nil` keys: the element is gone), keeping the
    /// memo's inverse in step.
    @inlinable
    static func applyEdits(_ memo: inout [ID: ElementMemo], _ memoIDs: inout [ID?], _ edits: [(id: ID, keys: ElementKeys?, ordinal: Int)]) {
        for edit in edits {
            // The id leaves its former ordinal (unless another id took it meanwhile), then sits
            // at its new one.
            if let former = memo[edit.id]?.ordinal, former < memoIDs.count, memoIDs[former] == edit.id {
                memoIDs[former] = nil
            }
            if let keys = edit.keys {
                memo[edit.id] = ElementMemo(keys: keys, ordinal: edit.ordinal)
                if edit.ordinal >= memoIDs.count {
                    memoIDs.append(contentsOf: repeatElement(nil, count: edit.ordinal + 1 - memoIDs.count))
                }
                memoIDs[edit.ordinal] = edit.id
            } else {
                memo[edit.id] = nil
            }
        }
    }

    /// Whether two id lists are equal (a plain loop, no hashing).
    @inlinable
    static func sameIDs(_ lhs: [ID], _ rhs: [ID]) -> Bool {
        guard lhs.count == rhs.count else { return false }
        for index in lhs.indices where lhs[index] != rhs[index] { return false }
        return true
    }

    /// Appends every remembered key.
    @inlinable
    static func rememberedKeys(_ memo: [ID: ElementMemo], _ keys: inout [AnyHashableSendable]) {
        for element in memo.values { keys.append(contentsOf: element.keys) }
    }
}
