extension IdentifiedArray {
    /// Appends `element`, or, when its id is present, replaces that element's value in place.
    /// Returns whether it was appended.
    ///
    /// - Complexity: O(1) amortised.
    @inlinable
    @discardableResult
    public mutating func append(_ element: Element) -> Bool {
        store(element)
    }

    /// Inserts `element` so that it has `offset` in the collection's order (`0...count`). When an
    /// element with the same id is present, it is moved instead: removed from its place, then
    /// inserted with the new value at `offset` (clamped to the new end).
    ///
    /// - Complexity: O(n), except at the end for a new id (O(1) amortised, as ``append(_:)``).
    @inlinable
    public mutating func insert(_ element: Element, at offset: Int) {
        precondition(offset >= 0 && offset <= liveCount, "IdentifiedArray.insert(_:at:): offset \(offset) out of range 0...\(liveCount)")
        let id = element.id
        let present = slotByID[id]
        if present == nil, offset == liveCount {
            _ = store(element)
            return
        }
        if let present {
            slots[present] = nil
            liveCount &-= 1
        }
        compactSlots()
        let target = Swift.min(offset, liveCount)
        slots.insert(element, at: target)
        liveCount &+= 1
        renumber(target..<slots.count)
        journal.record(present == nil ? .inserted(id) : .modified(id))
        journal.record(.reordered)
    }

    /// Removes the element with `id` and returns it, or returns `nil` when absent. The element is
    /// released at once (its slot becomes a tombstone, compacted away later).
    ///
    /// - Complexity: O(1) amortised.
    @inlinable
    @discardableResult
    public mutating func remove(id: Element.ID) -> Element? {
        guard let slot = slotByID.removeValue(forKey: id) else { return nil }
        return vacate(slot: slot, id: id)
    }

    /// Removes and returns the element at `index`.
    ///
    /// - Complexity: O(1) amortised.
    @inlinable
    @discardableResult
    public mutating func remove(at index: Index) -> Element {
        let slot = liveSlot(index, "IdentifiedArray.remove(at:)")
        let id = slots[slot].unsafelyUnwrapped.id
        slotByID.removeValue(forKey: id)
        return vacate(slot: slot, id: id)
    }

    /// Removes every element that satisfies `shouldBeRemoved`, keeping the others in order.
    ///
    /// - Complexity: O(n).
    @inlinable
    public mutating func removeAll(where shouldBeRemoved: (Element) throws -> Bool) rethrows {
        defer { settleRemovals() }
        var slot = head
        while slot < slots.count {
            if !isTombstone(slot), try shouldBeRemoved(slots[slot].unsafelyUnwrapped) {
                let id = slots[slot].unsafelyUnwrapped.id
                slots[slot] = nil
                slotByID.removeValue(forKey: id)
                liveCount &-= 1
                journal.record(.removed(id))
            }
            slot &+= 1
        }
    }

    /// Removes every element.
    ///
    /// - Complexity: O(n).
    @inlinable
    public mutating func removeAll(keepingCapacity keepCapacity: Bool = false) {
        guard liveCount > 0 else { return }
        if liveCount <= EditJournal<Element.ID>.capacity {
            for slot in head..<slots.count where !isTombstone(slot) {
                journal.record(.removed(slots[slot].unsafelyUnwrapped.id))
            }
        } else {
            // More removals than the journal keeps: whoever reads it reconciles everything anyway.
            journal.reset()
        }
        slots.removeAll(keepingCapacity: keepCapacity)
        slotByID.removeAll(keepingCapacity: keepCapacity)
        liveCount = 0
        head = 0
    }

    /// Sorts the elements in place by `areInIncreasingOrder` (not stable, as `Array.sort`).
    ///
    /// - Complexity: O(n log n).
    @inlinable
    public mutating func sort(by areInIncreasingOrder: (Element, Element) throws -> Bool) rethrows {
        compactSlots()
        defer {
            renumber(0..<slots.count)
            journal.record(.reordered)
        }
        try slots.sort { try areInIncreasingOrder($0.unsafelyUnwrapped, $1.unsafelyUnwrapped) }
    }

    /// Exchanges the elements at `i` and `j`.
    ///
    /// - Complexity: O(1).
    @inlinable
    public mutating func swapAt(_ i: Index, _ j: Index) {
        let first = liveSlot(i, "IdentifiedArray.swapAt(_:_:)")
        let second = liveSlot(j, "IdentifiedArray.swapAt(_:_:)")
        guard first != second else { return }
        slots.swapAt(first, second)
        slotByID[slots[first].unsafelyUnwrapped.id] = first
        slotByID[slots[second].unsafelyUnwrapped.id] = second
        journal.record(.reordered)
    }

    /// Moves the element at `source` so that it has offset `destination` afterwards (both in
    /// `0..<count`); the elements in between shift by one.
    ///
    /// - Complexity: O(n).
    @inlinable
    public mutating func move(fromOffset source: Int, toOffset destination: Int) {
        precondition(
            source >= 0 && source < liveCount && destination >= 0 && destination < liveCount,
            "IdentifiedArray.move(fromOffset:toOffset:): offsets \(source), \(destination) out of range 0..<\(liveCount)")
        guard source != destination else { return }
        compactSlots()
        let element = slots.remove(at: source)
        slots.insert(element, at: destination)
        renumber(Swift.min(source, destination)..<(Swift.max(source, destination) &+ 1))
        journal.record(.reordered)
    }

    /// Mutates every element in place, in order.
    ///
    /// Each element is journaled as `.modified(id)` when the collection holds at most 64
    /// elements; beyond that the journal is reset (a reader reconciles everything, as it would
    /// have to). A changed id re-keys the element as a write through `subscript(id:)` does.
    ///
    /// - Complexity: O(n).
    @inlinable
    public mutating func updateEach(_ body: (inout Element) throws -> Void) rethrows {
        let journaled = liveCount <= EditJournal<Element.ID>.capacity
        defer {
            if !journaled { journal.reset() }
            settleRemovals()
        }
        var slot = head
        while slot < slots.count {
            if !isTombstone(slot) {
                let id = slots[slot].unsafelyUnwrapped.id
                defer { noteElementWrite(slot: slot, formerID: id, journaled: journaled) }
                try body(&slots[slot]!)
            }
            slot &+= 1
        }
    }

    /// Mutates every element in place with its id, in order (the lane's loop); journaled as
    /// ``updateEach(_:)``.
    @inlinable
    mutating func updateEachWithID(_ body: (Element.ID, inout Element) throws -> Void) rethrows {
        try updateEach { element in try body(element.id, &element) }
    }

    /// `noteWrite` inside a loop: never settles; records `.modified` only when `journaled`.
    @inlinable
    mutating func noteElementWrite(slot: Int, formerID id: Element.ID, journaled: Bool) {
        if journaled {
            noteWrite(slot: slot, formerID: id, settle: false)
        } else if let newID = slots[slot]?.id, newID != id {
            rekey(slot: slot, from: id, to: newID)
        }
    }

    /// Empties `slot` (whose id was already removed from `slotByID`) and returns its element.
    @inlinable
    mutating func vacate(slot: Int, id: Element.ID) -> Element {
        var removed: Element? = nil
        swap(&removed, &slots[slot])
        liveCount &-= 1
        journal.record(.removed(id))
        settleRemovals()
        return removed.unsafelyUnwrapped
    }
}
