/// A FIFO in memory it owns: elements are moved in and moved out, never copied, and a drained
/// buffer is emptied without visiting its slots. (An `Array` would need a marker written into
/// every slot a drain moves out of, then destroy every marker through the element type's generic
/// value witness, on every action.) Its storage is kept when it empties, so buffers swapped
/// between the mailbox and the Store, or refilled every turn, stop allocating. The mailbox's
/// entries and the Store's synchronous queue live in one.
@usableFromInline
internal struct MoveBuffer<Element: Sendable>: ~Copyable, @unchecked Sendable {
    // `@unchecked`: a buffer is only reached under the mailbox's lock or on the main actor.
    @usableFromInline var base: UnsafeMutablePointer<Element>?
    /// Elements before `head` were moved out; `head..<end` are live.
    @usableFromInline var head = 0
    @usableFromInline var end = 0
    @usableFromInline var capacity = 0

    @inlinable init() {}

    @inlinable
    deinit {
        guard let base else { return }
        (base + head).deinitialize(count: end - head)
        base.deallocate()
    }

    /// The number of live elements.
    @inlinable var count: Int { end - head }

    /// Appends `element`, moving it in.
    @inlinable
    mutating func append(_ element: consuming Element) {
        if end == capacity { grow() }
        (base.unsafelyUnwrapped + end).initialize(to: element)
        end &+= 1
    }

    /// Moves the live elements to the front of a larger allocation.
    @usableFromInline
    mutating func grow() {
        let newCapacity = Swift.max(16, count * 2)
        let newBase = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        if let base {
            newBase.moveInitialize(from: base + head, count: end - head)
            base.deallocate()
        }
        base = newBase
        end -= head
        head = 0
        capacity = newCapacity
    }

    /// Whether no element is live.
    @inlinable var isEmpty: Bool { head == end }

    /// Moves the first live element out, or returns `nil` when there is none (the storage is then
    /// reused from its start).
    @inlinable
    mutating func popFirst() -> Element? {
        guard head < end else {
            head = 0
            end = 0
            return nil
        }
        return removeFirst()
    }

    /// Moves the first live element out; there must be one. No optional is made, tested and
    /// destroyed around it, as `popFirst()` makes.
    @inlinable
    mutating func removeFirst() -> Element {
        let element = (base.unsafelyUnwrapped + head).move()
        head &+= 1
        return element
    }

    /// Destroys every live element, keeping the storage.
    @inlinable
    mutating func removeAll() {
        // Usually empty (a drained buffer): no call into the runtime's generic array destroy.
        if head < end, let base { (base + head).deinitialize(count: end - head) }
        head = 0
        end = 0
    }

    /// Exchanges contents (elements and storage) with `other`.
    @inlinable
    mutating func exchange(with other: inout MoveBuffer) {
        let (base, head, end, capacity) = (self.base, self.head, self.end, self.capacity)
        (self.base, self.head, self.end, self.capacity) = (other.base, other.head, other.end, other.capacity)
        (other.base, other.head, other.end, other.capacity) = (base, head, end, capacity)
    }

    /// This buffer's contents, leaving it empty without storage.
    @inlinable
    mutating func take() -> MoveBuffer {
        var taken = MoveBuffer()
        exchange(with: &taken)
        return taken
    }
}
