extension IdentifiedArray {
    /// The element with `id`, or `nil`.
    ///
    /// - Get: O(1); an absent id costs the same one hash lookup.
    /// - Set: `nil` removes the element (O(1) amortised); a value for a present id replaces it in
    ///   place; a value for an absent id is appended (O(1) amortised).
    /// - Modify (`rows[id: 7]?.title = …`): in place, no copy of the element or of the storage
    ///   when it is uniquely referenced, no allocation; O(1). Modifying an absent id allocates one
    ///   scratch cell for the duration of the access.
    ///
    /// A value whose own id differs from `id` is a misuse with a defined outcome: written over a
    /// present element, it re-keys that element under the value's id at the same position (any
    /// other element with that id is removed); written to an absent id, it is stored under its
    /// own id (appended, or replacing the element that has it in place).
    @inlinable
    public subscript(id id: Element.ID) -> Element? {
        get {
            guard let slot = slotByID[id] else { return nil }
            return slots[slot]
        }
        set {
            guard let slot = slotByID[id] else {
                if let newValue { _ = store(newValue) }
                return
            }
            slots[slot] = newValue
            noteWrite(slot: slot, formerID: id)
        }
        // Called out of line (an optional-chained write such as `rows[id: 7]?.title = …` cannot
        // be inlined), a `_modify` coroutine heap-allocates its frame when what it keeps across
        // the yield exceeds four words: keep only `self`, `id` and one pointer there.
        @inline(__always)
        _modify {
            let cell = beginModify(id: id)
            defer { endModify(id: id, cell: cell) }
            yield &cell.pointee
        }
    }

    /// Whether an element has `id`. - Complexity: O(1).
    @inlinable
    public func contains(id: Element.ID) -> Bool {
        slotByID[id] != nil
    }

    /// The position of the element with `id`, or `nil`. - Complexity: O(1).
    @inlinable
    public func index(id: Element.ID) -> Index? {
        guard let slot = slotByID[id] else { return nil }
        return Index(slot: slot)
    }

    /// Mutates the element with `id` in place; returns whether it was present. One hash lookup.
    /// (The lane's entry point: `subscript(id:)` would wrap the element in an optional.)
    @inlinable
    @discardableResult
    mutating func modifyElement(id: Element.ID, _ body: (inout Element) throws -> Void) rethrows -> Bool {
        guard let slot = slotByID[id] else { return false }
        try writeElement(id: id, slot: slot, body)
        return true
    }

    /// Mutates the element with `id`, which ``slot(of:)`` placed at `slot`, in place; returns
    /// whether it was present. No hash lookup when `slot` still holds `id`; any other slot (the
    /// collection changed since, or any other number) is looked up again by id.
    @inlinable
    @discardableResult
    mutating func modifyElement(id: Element.ID, slot: Int, _ body: (inout Element) throws -> Void) rethrows -> Bool {
        guard holds(id, slot: slot) else { return try modifyElement(id: id, body) }
        try writeElement(id: id, slot: slot, body)
        return true
    }

    /// Writes the live element at `slot`, which has `id`, in place and records the write.
    @inlinable
    mutating func writeElement(id: Element.ID, slot: Int, _ body: (inout Element) throws -> Void) rethrows {
        defer { noteWrite(slot: slot, formerID: id) }
        try body(&slots[slot]!)
    }
}

// MARK: - The journal, for the Store's supervision

extension IdentifiedArray {
    /// The current content version: equal versions mean equal contents, even across copies.
    /// Every mutation moves it to a version never used before.
    @inlinable
    var contentVersion: UInt64 { journal.version }

    /// Calls `body` with every edit made since the content had `version`, oldest first, and returns
    /// `true`; returns `false` without calling it when the journal cannot tell (more than 64
    /// records since, or this content does not descend from `version`). Returns `true` without a
    /// call when `version` is current. O(64) at most; no allocation.
    @inlinable
    func forEachEdit(since version: UInt64, _ body: (ContainerEdit<Element.ID>) -> Void) -> Bool {
        journal.forEachEdit(since: version, body)
    }

    /// The storage slot of the element with `id`: increasing in container order, and stable until
    /// an edit records `.reordered`. O(1).
    @inlinable
    func slot(of id: Element.ID) -> Int? {
        slotByID[id]
    }
}
