extension IdentifiedArray: BidirectionalCollection {
    /// A position in an ``IdentifiedArray``: opaque, ordered like the elements, invalidated by
    /// every mutation.
    public struct Index: Comparable, Hashable, Sendable {
        /// The storage slot (tombstones included).
        @usableFromInline let slot: Int

        @inlinable init(slot: Int) { self.slot = slot }

        /// Container order.
        @inlinable
        public static func < (lhs: Index, rhs: Index) -> Bool { lhs.slot < rhs.slot }
    }

    /// Iterates the live elements in order, skipping tombstones.
    public struct Iterator: IteratorProtocol {
        @usableFromInline let slots: ContiguousArray<Element?>
        @usableFromInline var slot: Int

        @inlinable init(slots: ContiguousArray<Element?>, from slot: Int) {
            self.slots = slots
            self.slot = slot
        }

        /// The next element, or `nil` at the end.
        @inlinable
        public mutating func next() -> Element? {
            while slot < slots.count {
                defer { slot &+= 1 }
                if let element = slots[slot] { return element }
            }
            return nil
        }
    }

    /// An iterator over the elements in order.
    @inlinable
    public func makeIterator() -> Iterator { Iterator(slots: slots, from: head) }

    /// The position of the first element. - Complexity: O(1).
    @inlinable
    public var startIndex: Index { Index(slot: head) }

    /// The position past the last element. - Complexity: O(1).
    @inlinable
    public var endIndex: Index { Index(slot: slots.count) }

    /// The number of elements. - Complexity: O(1).
    @inlinable
    public var count: Int { liveCount }

    /// Whether there is no element. - Complexity: O(1).
    @inlinable
    public var isEmpty: Bool { liveCount == 0 }

    /// The position after `index`. - Complexity: O(1) amortised over a traversal.
    @inlinable
    public func index(after index: Index) -> Index {
        precondition(index.slot < slots.count, "IdentifiedArray: cannot advance past endIndex")
        var slot = index.slot &+ 1
        while slot < slots.count, isTombstone(slot) { slot &+= 1 }
        return Index(slot: slot)
    }

    /// The position before `index`. - Complexity: O(1) amortised over a traversal.
    @inlinable
    public func index(before index: Index) -> Index {
        precondition(index.slot > head && index.slot <= slots.count, "IdentifiedArray: cannot move before startIndex")
        var slot = index.slot &- 1
        while isTombstone(slot) { slot &-= 1 }
        return Index(slot: slot)
    }

    /// The position `distance` elements from `index`.
    ///
    /// - Complexity: O(1) when no removal left a tombstone (always true right after a compaction,
    ///   an `insert(_:at:)`, a sort or a move); O(|distance| + tombstones crossed) otherwise.
    @inlinable
    public func index(_ index: Index, offsetBy distance: Int) -> Index {
        if slots.count == liveCount {
            let slot = index.slot + distance
            precondition(slot >= 0 && slot <= slots.count, "IdentifiedArray: index out of bounds")
            return Index(slot: slot)
        }
        var index = index
        if distance >= 0 {
            for _ in 0..<distance { index = self.index(after: index) }
        } else {
            for _ in 0..<(-distance) { index = self.index(before: index) }
        }
        return index
    }

    /// The position `distance` elements from `index`, or `nil` when that passes `limit`.
    ///
    /// - Complexity: as ``index(_:offsetBy:)``.
    @inlinable
    public func index(_ index: Index, offsetBy distance: Int, limitedBy limit: Index) -> Index? {
        if slots.count == liveCount {
            let slot = index.slot + distance
            if distance >= 0 ? (limit >= index && slot > limit.slot) : (limit <= index && slot < limit.slot) { return nil }
            precondition(slot >= 0 && slot <= slots.count, "IdentifiedArray: index out of bounds")
            return Index(slot: slot)
        }
        var index = index
        if distance >= 0 {
            for _ in 0..<distance {
                if index == limit { return nil }
                index = self.index(after: index)
            }
        } else {
            for _ in 0..<(-distance) {
                if index == limit { return nil }
                index = self.index(before: index)
            }
        }
        return index
    }

    /// The number of elements from `start` to `end` (negative when `end` comes first).
    ///
    /// - Complexity: O(1) without tombstones; O(distance + tombstones crossed) otherwise.
    @inlinable
    public func distance(from start: Index, to end: Index) -> Int {
        if slots.count == liveCount { return end.slot - start.slot }
        var distance = 0
        var slot = Swift.min(start.slot, end.slot)
        let upper = Swift.max(start.slot, end.slot)
        while slot < upper {
            if !isTombstone(slot) { distance &+= 1 }
            slot &+= 1
        }
        return start.slot <= end.slot ? distance : -distance
    }

    /// The element at `position`; writing through it (`_modify`) mutates the element in place.
    ///
    /// A write that changes the element's id re-keys it under the new id at the same position,
    /// removing any other element that had that id. A positional write is journaled as
    /// `.modified(id)`.
    ///
    /// - Complexity: O(1).
    @inlinable
    public subscript(position: Index) -> Element {
        get {
            let slot = liveSlot(position, "IdentifiedArray subscript")
            return slots[slot].unsafelyUnwrapped
        }
        // As `subscript(id:)`'s: a small frame, so an out-of-line call does not allocate.
        @inline(__always)
        _modify {
            let slot = liveSlot(position, "IdentifiedArray subscript")
            let id = slots[slot].unsafelyUnwrapped.id
            let cell = slotPointer(slot)
            defer { endModify(id: id, cell: cell) }
            yield &cell.pointee!
        }
    }
}
