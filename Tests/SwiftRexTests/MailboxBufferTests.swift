import SwiftRexTestSupport
import Testing

@testable import SwiftRex

/// The mailbox's entry buffer: FIFO through growth, entries moved out exactly once, and whatever
/// is still in it released when it is emptied or dropped.
@Suite struct MailboxBufferTests {
    typealias Entry = MailboxEntry<Tracked<Int>>

    static func letter(_ tracker: LifetimeTracker, _ value: Int) -> Entry {
        .letter(Letter(action: DispatchedAction(tracker.instance(value)), depth: 0))
    }

    static func value(_ entry: Entry?) -> Int? {
        guard case .letter(let letter) = entry else { return nil }
        return letter.action.action.payload
    }

    @Test func entriesComeOutInOrderAcrossGrowthAndTheStorageIsReused() {
        let tracker = LifetimeTracker()
        var buffer = MailboxBuffer<Tracked<Int>>()
        for value in 0..<10 { buffer.append(Self.letter(tracker, value)) }
        var seen: [Int] = []
        for _ in 0..<4 { seen.append(Self.value(buffer.popFirst())!) }
        // Growing moves the six live entries to the front of the new storage.
        for value in 10..<40 { buffer.append(Self.letter(tracker, value)) }
        #expect(buffer.count == 36)
        while let entry = buffer.popFirst() { seen.append(Self.value(entry)!) }
        #expect(seen == Array(0..<40))
        #expect(buffer.count == 0)
        #expect(tracker.liveCount == 0)
        let storage = buffer.base
        buffer.append(Self.letter(tracker, 40))
        #expect(buffer.base == storage)
        #expect(Self.value(buffer.popFirst()) == 40)
        #expect(buffer.popFirst() == nil)
    }

    @Test func whatIsLeftIsReleasedWhenEmptiedOrDropped() {
        let tracker = LifetimeTracker()
        do {
            var buffer = MailboxBuffer<Tracked<Int>>()
            for value in 0..<5 { buffer.append(Self.letter(tracker, value)) }
            _ = buffer.popFirst()
            #expect(tracker.liveCount == 4)
            buffer.removeAll()
            #expect(tracker.liveCount == 0)
            for value in 0..<3 { buffer.append(Self.letter(tracker, value)) }
            _ = buffer.popFirst()
            #expect(tracker.liveCount == 2)
        }
        #expect(tracker.liveCount == 0)
    }

    @Test func exchangingAndTakingSwapContents() {
        let tracker = LifetimeTracker()
        var waiting = MailboxBuffer<Tracked<Int>>()
        for value in 0..<3 { waiting.append(Self.letter(tracker, value)) }
        var spare = MailboxBuffer<Tracked<Int>>()
        spare.exchange(with: &waiting)
        #expect(waiting.count == 0)
        #expect(spare.count == 3)
        var taken = spare.take()
        #expect(spare.count == 0)
        #expect(spare.base == nil)
        #expect(Self.value(taken.popFirst()) == 0)
        #expect(taken.count == 2)
    }
}
