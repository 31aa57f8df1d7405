// One of the library's files with unsafe code (a pointer to a slot, kept across a `_modify` yield;
// a slot's id read through a buffer pointer valid only for the call).

// The in-place write path shared by `subscript(id:)` and the positional subscript.
//
// A `_modify` coroutine yields storage that must stay valid across the yield; whatever the
// coroutine keeps alive across it lives in a four-word buffer the caller provides, and anything
// larger is heap-allocated on every call. Yielding `&slots[slot]` keeps the array's own nested
// coroutine in that frame (too large), and yielding a moved-out local keeps the element there.
// So the accessors yield through a pointer to the slot and keep only `self`, the id and that
// pointer: no allocation, no copy of the element, whether or not the optimiser inlines them.

extension IdentifiedArray {
    /// A pointer to the storage of `slot`, after making the slots uniquely referenced.
    ///
    /// The pointer outlives `withUnsafeMutableBufferPointer`'s closure. That is sound only as
    /// used here: the caller holds exclusive access to `self` until it stops using the pointer,
    /// so nothing can reallocate, share or release the buffer in between (a `ContiguousArray`
    /// keeps its elements in place in its buffer until it reallocates).
    @inlinable
    mutating func slotPointer(_ slot: Int) -> UnsafeMutablePointer<Element?> {
        slots.withUnsafeMutableBufferPointer { $0.baseAddress.unsafelyUnwrapped + slot }
    }

    /// The cell a write through `subscript(id:)` goes to: the element's slot, or, for an absent
    /// id, a fresh scratch cell holding `nil` (one small allocation, freed by ``endModify(id:cell:)``).
    @inlinable
    mutating func beginModify(id: Element.ID) -> UnsafeMutablePointer<Element?> {
        if let slot = slotByID[id] { return slotPointer(slot) }
        let scratch = UnsafeMutablePointer<Element?>.allocate(capacity: 1)
        scratch.initialize(to: nil)
        return scratch
    }

    /// Completes a write to `cell`: for a slot that held `id`, records the modification, the
    /// removal (the write left `nil`) or the re-key; for a scratch cell, stores what was written
    /// there under its own id and frees the cell.
    @inlinable
    mutating func endModify(id: Element.ID, cell: UnsafeMutablePointer<Element?>) {
        let target = UnsafePointer(cell)
        let slot = slots.withUnsafeBufferPointer { buffer -> Int? in
            guard let base = buffer.baseAddress, target >= base, target < base + buffer.count else { return nil }
            return target - base
        }
        if let slot {
            noteWrite(slot: slot, formerID: id)
            return
        }
        let written = cell.move()
        cell.deallocate()
        if let written { _ = store(written) }
    }
}

extension IdentifiedArray {
    /// Whether `slot` is in range and holds the element with `id`: the id is read where the
    /// element lies (the slots' subscript getter would copy the element). The buffer pointer is
    /// used only inside the call, at a slot checked to be in range.
    @inlinable
    func holds(_ id: Element.ID, slot: Int) -> Bool {
        guard UInt(bitPattern: slot) < UInt(bitPattern: slots.count) else { return false }
        return slots.withUnsafeBufferPointer { $0[slot]?.id == id }
    }
}
