/// The effect machine's pending timers (delayed and debounced starts, debounced deliveries, settles)
/// in one binary min-heap, ordered by deadline, then by when each was last scheduled, with one
/// clock timer (the wake) for the earliest deadline.
///
/// A plain value with no clock and no callbacks: scheduling a timer answers whether the wake must
/// be armed earlier; the owner arms it and reports its token (``wakeArmed(_:)``). Each slot holds
/// at most one timer per purpose, with a record (its deadline, order, registration and heap
/// position) found by index, so rescheduling one updates it in place with no allocation. A timer
/// moved later (a debounce restarted by the next keystroke) only rewrites its record, in O(1):
/// its heap entry keeps the earlier key and is moved down when it reaches the top. A timer moved
/// earlier moves up at once, and arms the wake when it is due before the armed one. A wake that
/// comes early finds nothing due and asks for the next one (``rearm()``).
@usableFromInline
internal struct TimerQueue {
    /// One pending timer: its identity (slot and purpose), registration and deadline.
    /// A heap entry: the key it is ordered by (never later than its timer's record) and the
    /// timer's id (`slot * 3 + purpose`).
    @usableFromInline
    struct Entry {
        /// Deadlines in attoseconds: compared inline, where `Duration`'s `<` is a call.
        @usableFromInline var deadline: Int128
        /// When the timer was scheduled: ties on the deadline fire in scheduling order.
        @usableFromInline var sequence: UInt64
        @usableFromInline let id: Int

        @inlinable
        init(deadline: Int128, sequence: UInt64, id: Int) {
            self.deadline = deadline
            self.sequence = sequence
            self.id = id
        }

        @inlinable
        func precedes(_ other: Entry) -> Bool {
            deadline < other.deadline || (deadline == other.deadline && sequence < other.sequence)
        }
    }

    /// What a timer id holds: its current deadline, order and registration, and where its entry
    /// is in the heap (-1: none pending).
    @usableFromInline
    struct Record {
        @usableFromInline var deadline: Int128 = 0
        @usableFromInline var sequence: UInt64 = 0
        @usableFromInline var generation: UInt64 = 0
        @usableFromInline var position = -1

        @inlinable
        init() {}
    }

    @usableFromInline var heap: [Entry] = []
    /// The record of each timer id.
    @usableFromInline var records: [Record] = []
    @usableFromInline var sequenceCounter: UInt64 = 0
    /// The deadline the wake is armed for, in attoseconds; `nil` when no wake is armed.
    @usableFromInline var armedAt: Int128?
    /// The armed wake's token, once reported.
    @usableFromInline var wakeToken: SubscriptionToken?

    @inlinable
    init() {}

    @inlinable
    static func id(slot: Int, purpose: EffectTimerPurpose) -> Int { slot * 3 + purpose.rawValue }

    /// The number of pending timers.
    @inlinable var count: Int { heap.count }

    /// The deadline the wake is armed for; `nil` when no wake is armed.
    var armedDeadline: Duration? { armedAt.map { Duration(attoseconds: $0) } }

    /// Every pending timer, in no particular order.
    var pending: [EffectTimer] { heap.map { timer($0.id) } }

    /// Whether `timer` (its slot, purpose and generation) is pending.
    @inlinable
    func contains(_ timer: EffectTimer) -> Bool {
        let id = Self.id(slot: timer.slot, purpose: timer.purpose)
        guard id < records.count, records[id].position >= 0 else { return false }
        return records[id].generation == timer.generation
    }

    /// The timer recorded under `id`.
    @inlinable
    func timer(_ id: Int) -> EffectTimer {
        let purpose: EffectTimerPurpose
        switch id % 3 {
        case 0: purpose = .start
        case 1: purpose = .deliver
        default: purpose = .settle
        }
        let record = records[id]
        return EffectTimer(slot: id / 3, generation: record.generation, purpose: purpose, deadline: Duration(attoseconds: record.deadline))
    }

    // MARK: Scheduling

    /// Schedules `timer`, replacing in place the one pending for its slot and purpose. Returns
    /// `true` when the wake must be armed at `timer.deadline` (none is armed, or it is armed later):
    /// take the old wake's token out with ``takeWakeToken()``, arm, report with ``wakeArmed(_:)``.
    @inlinable
    mutating func schedule(_ timer: EffectTimer) -> Bool {
        let id = Self.id(slot: timer.slot, purpose: timer.purpose)
        sequenceCounter &+= 1
        let entry = Entry(deadline: timer.deadline.attoseconds, sequence: sequenceCounter, id: id)
        while records.count <= id { records.append(Record()) }
        records[id].deadline = entry.deadline
        records[id].sequence = entry.sequence
        records[id].generation = timer.generation
        let index = records[id].position
        if index < 0 {
            heap.append(entry)
            records[id].position = heap.count - 1
            siftUp(heap.count - 1)
        } else if entry.precedes(heap[index]) {
            heap[index] = entry
            siftUp(index)
        }
        // Otherwise the entry keeps its earlier key until it reaches the top.
        if let armed = armedAt, armed <= entry.deadline { return false }
        armedAt = entry.deadline
        return true
    }

    /// Removes the timer pending for `slot` and `purpose`, if any. When none is left, the wake is
    /// disarmed and its token returned, to cancel.
    @inlinable
    mutating func remove(slot: Int, purpose: EffectTimerPurpose) -> SubscriptionToken? {
        let id = Self.id(slot: slot, purpose: purpose)
        guard id < records.count, records[id].position >= 0 else { return nil }
        removeEntry(at: records[id].position)
        guard heap.isEmpty else { return nil }
        armedAt = nil
        return wakeToken.take()
    }

    /// The armed wake's token, taken out (to cancel: a new wake replaces it).
    @inlinable
    mutating func takeWakeToken() -> SubscriptionToken? { wakeToken.take() }

    /// The owner armed the wake ``schedule(_:)`` or ``rearm()`` asked for.
    @inlinable
    mutating func wakeArmed(_ token: SubscriptionToken) { wakeToken = token }

    // MARK: Waking

    /// The wake fired: none is armed any more (its token is let go; cancelling a fired timer is a
    /// no-op).
    @inlinable
    mutating func wakeFired() {
        armedAt = nil
        wakeToken = nil
    }

    /// Takes out the earliest timer if it is due at `now`.
    @inlinable
    mutating func popDue(now: Duration) -> EffectTimer? {
        settleHead()
        guard let head = heap.first, head.deadline <= now.attoseconds else { return nil }
        removeEntry(at: 0)
        return timer(head.id)
    }

    /// The deadline to arm the wake for, when a timer is pending and no wake is armed at or before
    /// the earliest deadline (take the old wake's token out first).
    @inlinable
    mutating func rearm() -> Duration? {
        settleHead()
        guard let earliest = heap.first?.deadline else { return nil }
        if let armed = armedAt, armed <= earliest { return nil }
        armedAt = earliest
        return Duration(attoseconds: earliest)
    }

    // MARK: Heap

    /// Moves down the entries at the top whose timers were moved later, until the top one is
    /// keyed by its own record: then it is the earliest timer.
    @inlinable
    mutating func settleHead() {
        while let head = heap.first {
            let record = records[head.id]
            guard head.deadline != record.deadline || head.sequence != record.sequence else { return }
            heap[0] = Entry(deadline: record.deadline, sequence: record.sequence, id: head.id)
            siftDown(0)
        }
    }

    @inlinable
    mutating func removeEntry(at index: Int) {
        records[heap[index].id].position = -1
        let last = heap.removeLast()
        guard index < heap.count else { return }
        let movesEarlier = last.precedes(heap[index])
        heap[index] = last
        records[last.id].position = index
        if movesEarlier { siftUp(index) } else { siftDown(index) }
    }

    @inlinable
    mutating func siftUp(_ start: Int) {
        var index = start
        let entry = heap[index]
        while index > 0 {
            let parent = (index - 1) / 2
            guard entry.precedes(heap[parent]) else { break }
            heap[index] = heap[parent]
            records[heap[index].id].position = index
            index = parent
        }
        heap[index] = entry
        records[entry.id].position = index
    }

    @inlinable
    mutating func siftDown(_ start: Int) {
        var index = start
        let entry = heap[index]
        let count = heap.count
        while true {
            var child = 2 * index + 1
            guard child < count else { break }
            if child + 1 < count, heap[child + 1].precedes(heap[child]) { child += 1 }
            guard heap[child].precedes(entry) else { break }
            heap[index] = heap[child]
            records[heap[index].id].position = index
            index = child
        }
        heap[index] = entry
        records[entry.id].position = index
    }
}
