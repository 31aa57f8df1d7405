import SwiftRexTestSupport
import Synchronization
import Testing

@testable import SwiftRex

// The effect machine's timer queue on its own: the order timers fire in, a rescheduled timer
// updated in place, removal, and the one wake it asks its owner to arm.

@Suite struct TimerQueueTests {
    private func timer(_ slot: Int, _ purpose: EffectTimerPurpose = .start, generation: UInt64 = 1, at deadline: Int) -> EffectTimer {
        EffectTimer(slot: slot, generation: generation, purpose: purpose, deadline: .milliseconds(deadline))
    }

    /// Pops everything due by `now`, as slots.
    private func drain(_ queue: inout TimerQueue, until now: Int) -> [Int] {
        var slots: [Int] = []
        while let due = queue.popDue(now: .milliseconds(now)) { slots.append(due.slot) }
        return slots
    }

    @Test func timersFireInDeadlineOrderAndTiesInSchedulingOrder() {
        var queue = TimerQueue()
        for (slot, deadline) in [(0, 300), (1, 100), (2, 200), (3, 100), (4, 300)] {
            _ = queue.schedule(timer(slot, at: deadline))
        }
        let early = drain(&queue, until: 150)
        let late = drain(&queue, until: 1_000)
        #expect(early == [1, 3])
        #expect(late == [2, 0, 4])
        #expect(queue.count == 0)
    }

    @Test func aSlotHoldsOneTimerPerPurpose() {
        var queue = TimerQueue()
        _ = queue.schedule(timer(0, .start, at: 100))
        _ = queue.schedule(timer(0, .deliver, at: 50))
        _ = queue.schedule(timer(0, .settle, at: 75))
        #expect(queue.count == 3)
        var purposes: [EffectTimerPurpose] = []
        while let due = queue.popDue(now: .seconds(1)) { purposes.append(due.purpose) }
        #expect(purposes == [.deliver, .settle, .start])
    }

    @Test func reschedulingATimerUpdatesItInPlace() {
        var queue = TimerQueue()
        _ = queue.schedule(timer(0, generation: 1, at: 100))
        _ = queue.schedule(timer(1, generation: 2, at: 200))
        _ = queue.schedule(timer(0, generation: 3, at: 300))
        #expect(queue.count == 2)
        #expect(!queue.contains(timer(0, generation: 1, at: 100)))
        #expect(queue.contains(timer(0, generation: 3, at: 300)))
        let first = queue.popDue(now: .seconds(1))
        let second = queue.popDue(now: .seconds(1))
        #expect(first == timer(1, generation: 2, at: 200))
        #expect(second == timer(0, generation: 3, at: 300))
    }

    @Test func aRescheduledTimerFiresAfterTheOnesDueAtTheSameTime() {
        var queue = TimerQueue()
        _ = queue.schedule(timer(0, at: 100))
        _ = queue.schedule(timer(1, at: 100))
        _ = queue.schedule(timer(0, generation: 2, at: 100))
        let order = drain(&queue, until: 100)
        #expect(order == [1, 0])
    }

    @Test func theWakeIsArmedOnlyWhenTheEarliestDeadlineMovesEarlier() {
        var queue = TimerQueue()
        let armsFirst = queue.schedule(timer(0, at: 300))
        #expect(armsFirst)
        queue.wakeArmed(SubscriptionToken {})
        // Later deadlines, a restart moving the head later: the armed wake stays.
        let armsLater = queue.schedule(timer(1, at: 400))
        let armsRestart = queue.schedule(timer(0, generation: 2, at: 500))
        #expect(!armsLater && !armsRestart)
        #expect(queue.armedDeadline == .milliseconds(300))
        // Earlier than the armed wake: armed again, the old wake's token handed back.
        let armsEarlier = queue.schedule(timer(2, at: 200))
        let oldWake = queue.takeWakeToken()
        #expect(armsEarlier && oldWake != nil)
        #expect(queue.armedDeadline == .milliseconds(200))
    }

    @Test func aWakeThatComesEarlyFindsNothingDueAndAsksForTheNextOne() {
        var queue = TimerQueue()
        _ = queue.schedule(timer(0, at: 300))
        _ = queue.schedule(timer(0, generation: 2, at: 600))
        queue.wakeFired()
        let early = queue.popDue(now: .milliseconds(300))
        #expect(early == nil)
        let next = queue.rearm()
        #expect(next == .milliseconds(600))
        // Armed at the head already: nothing more to arm.
        let again = queue.rearm()
        #expect(again == nil)
    }

    @Test func removingTheLastTimerHandsBackTheWake() {
        var queue = TimerQueue()
        let cancelled = Mutex(0)
        _ = queue.schedule(timer(0, at: 100))
        _ = queue.schedule(timer(1, .deliver, at: 200))
        queue.wakeArmed(SubscriptionToken { cancelled.withLock { $0 += 1 } })
        let first = queue.remove(slot: 0, purpose: .start)
        let twice = queue.remove(slot: 0, purpose: .start)
        let neverQueued = queue.remove(slot: 1, purpose: .start)
        #expect(first == nil && twice == nil && neverQueued == nil)
        let wake = queue.remove(slot: 1, purpose: .deliver)
        wake?.cancel()
        #expect(cancelled.withLock { $0 } == 1)
        #expect(queue.count == 0)
        #expect(queue.armedDeadline == nil)
        let due = queue.popDue(now: .seconds(1))
        #expect(due == nil)
    }

    @Test func manyTimersRescheduledAndRemovedFireInOrder() {
        var queue = TimerQueue()
        var expected: [Int: (deadline: Int, sequence: Int)] = [:]
        var generator = SplitMix64(seed: 42)
        var sequence = 0
        for step in 0..<20_000 {
            let slot = Int(generator.next() % 5_000)
            if step % 7 == 0 {
                _ = queue.remove(slot: slot, purpose: .start)
                expected[slot] = nil
            } else {
                let deadline = Int(generator.next() % 1_000)
                sequence += 1
                _ = queue.schedule(timer(slot, generation: UInt64(sequence), at: deadline))
                expected[slot] = (deadline, sequence)
            }
        }
        #expect(queue.count == expected.count)
        let order = expected.sorted { ($0.value.deadline, $0.value.sequence) < ($1.value.deadline, $1.value.sequence) }.map(\.key)
        let fired = drain(&queue, until: 1_000)
        #expect(fired == order)
    }
}
