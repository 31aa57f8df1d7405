/// The effect machine's pending timers (delayed and debounced starts, debounced deliveries, settles)
/// in one binary min-heap, ordered by deadline, then by when each was last scheduled, with one
/// clock timer (the wake) for the earliest deadline.
///
/// A plain value with no clock and no callbacks: scheduling a timer answers whether the wake must
/// be armed earlier; the owner arms it and reports its token (``wakeArmed(_:)``). Each slot holds
/// at most one timer per purpose, found through a position table, so rescheduling one (a debounce
/// restarted by the next keystroke) updates it in place: O(log n), no allocation, and no new wake
/// unless its deadline moved before the armed one. A wake that comes early (its head moved later)
/// finds nothing due and asks for the next one (``rearm()``).
@usableFromInline
internal struct TimerQueue {
    /// One pending timer: its identity (slot and purpose), registration and deadline.
    @usableFromInline
    struct Entry {
        /// The deadline in attoseconds: compared inline, where `Duration`'s `<` is a call.
        @usableFromInline var deadline: Int128
        /// When the timer was last scheduled: ties on the deadline fire in scheduling order.
        @usableFromInline var sequence: UInt64
        @usableFromInline var generation: UInt64
        /// `slot * 3 + purpose`.
        @usableFromInline let id: Int

        @inlinable
        init(deadline: Int128, sequence: UInt64, generation: UInt64, id: Int) {
            self.deadline = deadline
            self.sequence = sequence
            self.generation = generation
            self.id = id
        }

        @inlinable
        func precedes(_ other: Entry) -> Bool {
            deadline < other.deadline || (deadline == other.deadline && sequence < other.sequence)
        }

        @inlinable
        var timer: EffectTimer {
            let purpose: EffectTimerPurpose
            switch id % 3 {
            case 0: purpose = .start
            case 1: purpose = .deliver
            default: purpose = .settle
            }
            return EffectTimer(slot: id / 3, generation: generation, purpose: purpose, deadline: Duration(attoseconds: deadline))
        }
    }

    @usableFromInline var heap: [Entry] = []
    /// The heap index of each timer id (-1: none pending).
    @usableFromInline var position: [Int] = []
    @usableFromInline var sequenceCounter: UInt64 = 0
    /// The deadline the wake is armed for; `nil` when no wake is armed.
    @usableFromInline var armedDeadline: Duration?
    /// The armed wake's token, once reported.
    @usableFromInline var wakeToken: SubscriptionToken?

    @inlinable
    init() {}

    @inlinable
    static func id(slot: Int, purpose: EffectTimerPurpose) -> Int { slot * 3 + purpose.rawValue }

    /// The number of pending timers.
    @inlinable var count: Int { heap.count }

    /// Every pending timer, in no particular order.
    var pending: [EffectTimer] { heap.map(\.timer) }

    /// Whether `timer` (its slot, purpose and generation) is pending.
    @inlinable
    func contains(_ timer: EffectTimer) -> Bool {
        let id = Self.id(slot: timer.slot, purpose: timer.purpose)
        guard id < position.count, position[id] >= 0 else { return false }
        return heap[position[id]].generation == timer.generation
    }

    // MARK: Scheduling

    /// Schedules `timer`, replacing in place the one pending for its slot and purpose. Returns
    /// `true` when the wake must be armed at `timer.deadline` (none is armed, or it is armed later):
    /// take the old wake's token out with ``takeWakeToken()``, arm, report with ``wakeArmed(_:)``.
    @inlinable
    mutating func schedule(_ timer: EffectTimer) -> Bool {
        let id = Self.id(slot: timer.slot, purpose: timer.purpose)
        sequenceCounter &+= 1
        let entry = Entry(deadline: timer.deadline.attoseconds, sequence: sequenceCounter, generation: timer.generation, id: id)
        if id < position.count, position[id] >= 0 {
            let index = position[id]
            let movesEarlier = entry.precedes(heap[index])
            heap[index] = entry
            if movesEarlier { siftUp(index) } else { siftDown(index) }
        } else {
            while position.count <= id { position.append(-1) }
            heap.append(entry)
            position[id] = heap.count - 1
            siftUp(heap.count - 1)
        }
        if let armed = armedDeadline, armed <= timer.deadline { return false }
        armedDeadline = timer.deadline
        return true
    }

    /// Removes the timer pending for `slot` and `purpose`, if any. When none is left, the wake is
    /// disarmed and its token returned, to cancel.
    @inlinable
    mutating func remove(slot: Int, purpose: EffectTimerPurpose) -> SubscriptionToken? {
        let id = Self.id(slot: slot, purpose: purpose)
        guard id < position.count, position[id] >= 0 else { return nil }
        removeEntry(at: position[id])
        guard heap.isEmpty else { return nil }
        armedDeadline = nil
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
        armedDeadline = nil
        wakeToken = nil
    }

    /// Takes out the earliest timer if it is due at `now`.
    @inlinable
    mutating func popDue(now: Duration) -> EffectTimer? {
        guard let head = heap.first, head.deadline <= now.attoseconds else { return nil }
        removeEntry(at: 0)
        return head.timer
    }

    /// The deadline to arm the wake for, when a timer is pending and no wake is armed at or before
    /// the earliest deadline (take the old wake's token out first).
    @inlinable
    mutating func rearm() -> Duration? {
        guard let first = heap.first else { return nil }
        let earliest = Duration(attoseconds: first.deadline)
        if let armed = armedDeadline, armed <= earliest { return nil }
        armedDeadline = earliest
        return earliest
    }

    // MARK: Heap

    @inlinable
    mutating func removeEntry(at index: Int) {
        position[heap[index].id] = -1
        let last = heap.removeLast()
        guard index < heap.count else { return }
        let movesEarlier = last.precedes(heap[index])
        heap[index] = last
        position[last.id] = index
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
            position[heap[index].id] = index
            index = parent
        }
        heap[index] = entry
        position[entry.id] = index
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
            position[heap[index].id] = index
            index = child
        }
        heap[index] = entry
        position[entry.id] = index
    }
}
