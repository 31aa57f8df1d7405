/// An ordered collection of elements with unique ids: O(1) lookup, replacement and removal by id,
/// and a journal of every edit so the Store reconciles only the elements that came, went or changed.
///
/// Use it instead of an `Array` for a large collection lifted with `liftCollection` or `liftEach`:
/// routing an action to an id (present or absent) costs one hash lookup, removing an element
/// costs O(1) amortised, and the Store's supervision learns which elements an app-level reducer
/// touched without comparing the whole collection.
///
/// ```swift
/// struct AppState {
///     var rows: IdentifiedArray<Row> = []
/// }
/// state.rows.append(Row(id: 7))          // .inserted(7)
/// state.rows[id: 7]?.title = "Groceries"  // in place
/// state.rows.remove(id: 3)
/// row.liftCollection(.action(AppAction.prism.row).state(\.rows))
/// ```
///
/// It is a `BidirectionalCollection` but not a `MutableCollection`: a positional write could
/// create a duplicate id midway through a generic algorithm. Mutate with the methods below.
///
/// > Important: Changing an element's `id` through any write (`subscript(id:)`, the positional
/// > subscript, ``updateEach(_:)``) re-keys the element under its new id at the same position. If
/// > another element already had the new id, that other element is removed, so ids stay unique.
///
/// Indices are invalidated by every mutation, as for `Array`.
public struct IdentifiedArray<Element: Identifiable> where Element.ID: Sendable {
    /// Elements in container order; `nil` is a tombstone left by a removal (the element itself is
    /// released at once). No trailing tombstone: the last slot, if any, is live.
    @usableFromInline var slots: ContiguousArray<Element?>
    /// The slot of every live element, by id.
    @usableFromInline var slotByID: [Element.ID: Int]
    /// The number of live elements (`slotByID.count`, read without hashing state).
    @usableFromInline var liveCount: Int
    /// The first live slot (`0` when empty): every slot before it is a tombstone.
    @usableFromInline var head: Int
    /// The edit journal and the content version.
    @usableFromInline var journal: EditJournal<Element.ID>

    /// An empty collection.
    ///
    /// - Complexity: O(1).
    @inlinable
    public init() {
        slots = []
        slotByID = [:]
        liveCount = 0
        head = 0
        journal = EditJournal(version: 0)
    }

    /// A collection of `elements` in order. For a repeated id, the later value replaces the earlier
    /// one at the earlier one's position (as a dictionary keeps the first key and the last value):
    /// `[A(1), B(2), C(1)]` becomes `[C(1), B(2)]`.
    ///
    /// - Complexity: O(n).
    @inlinable
    public init(_ elements: some Sequence<Element>) {
        self.init()
        let expected = elements.underestimatedCount
        slots.reserveCapacity(expected)
        slotByID.reserveCapacity(expected)
        for element in elements {
            let id = element.id
            if let earlier = slotByID.updateValue(slots.count, forKey: id) {
                slotByID[id] = earlier
                slots[earlier] = element
            } else {
                slots.append(element)
            }
        }
        liveCount = slots.count
        if liveCount > 0 { journal = EditJournal(version: nextContentVersion()) }
    }
}

extension IdentifiedArray: Sendable where Element: Sendable {}

// MARK: - Internal bookkeeping

extension IdentifiedArray {
    /// Whether `slot` (in range) holds no element.
    @inlinable
    func isTombstone(_ slot: Int) -> Bool {
        if case .none = slots[slot] { return true }
        return false
    }

    /// Whether `slot` holds a live element.
    @inlinable
    func isLive(_ slot: Int) -> Bool {
        slot >= head && slot < slots.count && !isTombstone(slot)
    }

    /// The slot an index names, checked to hold a live element.
    @inlinable
    func liveSlot(_ index: Index, _ operation: StaticString) -> Int {
        precondition(isLive(index.slot), "\(operation): the index does not name an element of this IdentifiedArray")
        return index.slot
    }

    /// Records what a write through `slot`, which held the element with `id`, did: a modification,
    /// a removal (the write left `nil`) or a re-key (the element's id changed). With `settle`,
    /// restores the tombstone invariants after a removal (callers in a loop settle once at the end).
    @inlinable
    mutating func noteWrite(slot: Int, formerID id: Element.ID, settle: Bool = true) {
        if let newID = slots[slot]?.id {
            if newID == id {
                journal.record(.modified(id))
                return
            }
            rekey(slot: slot, from: id, to: newID)
        } else {
            slotByID.removeValue(forKey: id)
            liveCount &-= 1
            journal.record(.removed(id))
        }
        if settle { settleRemovals() }
    }

    /// The element at `slot` now has id `new` instead of `old`: it keeps its slot under the new id;
    /// another element holding `new` is removed. Does not settle.
    @inlinable
    mutating func rekey(slot: Int, from old: Element.ID, to new: Element.ID) {
        slotByID.removeValue(forKey: old)
        journal.record(.removed(old))
        if let displaced = slotByID.updateValue(slot, forKey: new) {
            slots[displaced] = nil
            liveCount &-= 1
            journal.record(.removed(new))
        }
        journal.record(.inserted(new))
    }

    /// Stores `element` under its own id: replaces the value in place when the id is present,
    /// appends it otherwise. Returns whether it was appended.
    @inlinable
    mutating func store(_ element: Element) -> Bool {
        let id = element.id
        let end = slots.count
        if let present = slotByID.updateValue(end, forKey: id) {
            slotByID[id] = present
            slots[present] = element
            journal.record(.modified(id))
            return false
        }
        slots.append(element)
        liveCount &+= 1
        journal.record(.inserted(id))
        return true
    }

    /// Restores the invariants after tombstones were made: pops trailing tombstones, moves `head`
    /// to the first live slot, and compacts when tombstones outnumber max(16, live elements).
    /// Amortised O(1) per tombstone made.
    @inlinable
    mutating func settleRemovals() {
        while let last = slots.indices.last, isTombstone(last) { slots.removeLast() }
        if slots.isEmpty {
            head = 0
            return
        }
        while isTombstone(head) { head &+= 1 }
        if slots.count &- liveCount > Swift.max(16, liveCount) { compact() }
    }

    /// Drops every tombstone, renumbering slots, and records `.reordered`. O(n), in place.
    @inlinable
    mutating func compact() {
        compactSlots()
        journal.record(.reordered)
    }

    /// Drops every tombstone in place (no allocation), keeping `slotByID` for every element it
    /// moves. Does not record: callers record `.reordered` once their whole edit is done.
    @inlinable
    mutating func compactSlots() {
        guard slots.count != liveCount else { return }
        var write = 0
        var read = head
        while read < slots.count {
            if !isTombstone(read) {
                if read != write {
                    slots.swapAt(read, write)
                    slotByID[slots[write].unsafelyUnwrapped.id] = write
                }
                write &+= 1
            }
            read &+= 1
        }
        slots.removeLast(slots.count &- write)
        head = 0
    }

    /// Sets `slotByID` for every slot in `range` (no tombstone there).
    @inlinable
    mutating func renumber(_ range: Range<Int>) {
        for slot in range {
            slotByID[slots[slot].unsafelyUnwrapped.id] = slot
        }
    }

    /// Checks every structural invariant; for tests (never called on a hot path).
    func checkInvariants() -> [String] {
        var problems: [String] = []
        if let last = slots.indices.last, isTombstone(last) { problems.append("trailing tombstone") }
        let live = slots.indices.filter { !isTombstone($0) }
        if live.count != liveCount { problems.append("liveCount \(liveCount), live slots \(live.count)") }
        if slotByID.count != liveCount { problems.append("slotByID.count \(slotByID.count), liveCount \(liveCount)") }
        if head != (live.first ?? 0) { problems.append("head \(head), first live \(live.first ?? 0)") }
        for (id, slot) in slotByID where slot >= slots.count || slots[slot]?.id != id {
            problems.append("slotByID[\(id)] = \(slot) does not hold that id")
        }
        if slots.count - liveCount > Swift.max(16, liveCount) { problems.append("too many tombstones: \(slots.count - liveCount)") }
        return problems
    }
}
