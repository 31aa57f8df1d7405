import SwiftRexTestSupport
import Testing

@testable import SwiftRex

extension IdentifiedArray: CoWObservable {
    /// The base address of the slots.
    public var storageAddress: UnsafeRawPointer? {
        slots.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
    }

    /// `nil`: the slots do not count their copies (compare ``storageAddress`` instead).
    public var countedCopies: Int? { nil }

    /// Asks for mutable access to the slots and checks they did not move.
    public mutating func checkUniquelyReferenced() -> Bool {
        let before = storageAddress
        let after = slots.withUnsafeMutableBufferPointer { UnsafeRawPointer($0.baseAddress) }
        return before == after
    }

    /// The base address of the journal's ring.
    var journalAddress: UnsafeRawPointer? {
        journal.records.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
    }
}

/// Where `IdentifiedArray` keeps its elements: removed elements are released at once (tombstones
/// hold nothing), compaction keeps tombstones bounded, and every write path mutates in place
/// (no copy of the slots, the journal or the element) unless a copy shares the storage.
@Suite struct IdentifiedArrayStorageTests {
    struct Held: Identifiable, Sendable {
        var id: Int
        var token: Tracked<Int>
    }

    struct Row: Identifiable, Sendable, Equatable {
        var id: Int
        var payload = ProbeBuffer(count: 10_000)
    }

    struct Holder: Sendable, Equatable {
        var rows: IdentifiedArray<Row>

        init(payload: Int = 10_000) {
            rows = IdentifiedArray((0..<100).map { Row(id: $0, payload: ProbeBuffer(count: payload)) })
        }
    }

    enum Action: Sendable, Equatable {
        case row(ElementAction<Int, Bump>)
        case bumpAll
    }

    enum Bump: Sendable, Equatable { case bump }

    static let rowPrism = Prism<Action, ElementAction<Int, Bump>>(
        preview: { if case .row(let action) = $0 { action } else { nil } }, review: Action.row)
    static let bumpAllPrism = Prism<Action, Bump>(
        preview: { $0 == .bumpAll ? .bump : nil }, review: { _ in .bumpAll })
    static let bump = Reducer<Bump, Row>.reduce { _, row in row.payload[0] += 1 }

    static func held(_ count: Int, _ tracker: LifetimeTracker) -> IdentifiedArray<Held> {
        IdentifiedArray((0..<count).map { Held(id: $0, token: tracker.instance($0)) })
    }

    // MARK: Removed elements are released at once

    @Test func everyRemovalPathReleasesTheElementBeforeAnyCompaction() {
        let tracker = LifetimeTracker()
        var elements = Self.held(100, tracker)
        func expectLive(_ live: Int, sourceLocation: SourceLocation = #_sourceLocation) {
            #expect(tracker.liveCount == live, sourceLocation: sourceLocation)
            #expect(elements.count == live, sourceLocation: sourceLocation)
            Identified.expectSound(elements, sourceLocation: sourceLocation)
        }
        func clear(_ element: inout Held?) { element = nil }

        _ = elements.remove(id: 10)
        expectLive(99)
        elements[id: 11] = nil
        expectLive(98)
        clear(&elements[id: 12])
        expectLive(97)
        _ = elements.remove(at: elements.index(id: 13)!)
        expectLive(96)
        elements.removeAll { $0.id >= 14 && $0.id < 18 }
        expectLive(92)
        #expect(elements.slots.count == 100, "the tombstones are still there")
        elements[id: 20]?.id = 21
        expectLive(91)
        elements.append(Held(id: 22, token: tracker.instance(-1)))
        expectLive(91)
        elements.removeAll()
        expectLive(0)
    }

    @Test func droppingTheCollectionReleasesEverything() {
        let tracker = LifetimeTracker()
        do {
            var elements = Self.held(50, tracker)
            elements.remove(id: 3)
            elements.sort { $0.id > $1.id }
        }
        tracker.expectAllReleased()
    }

    // MARK: Compaction

    @Test func removingFromTheFrontKeepsTombstonesBoundedAndStartIndexCurrent() {
        let tracker = LifetimeTracker()
        var elements = Self.held(1_000, tracker)
        for id in 0..<990 {
            elements.remove(id: id)
            #expect(elements.first?.id == id + 1)
            #expect(elements.slots.count - elements.count <= Swift.max(16, elements.count))
        }
        #expect(tracker.liveCount == 10)
        #expect(elements.slots.count <= 10 + 16)
        Identified.expectSound(elements)
    }

    @Test func removingTheLastElementPopsItsSlot() {
        var elements = IdentifiedArray((0..<5).map { Identified.Item($0) })
        elements.remove(id: 2)
        elements.remove(id: 4)
        #expect(elements.slots.count == 4)
        elements.remove(id: 3)
        #expect(elements.slots.count == 2, "trailing tombstones are popped with the last element")
        elements.append(Identified.Item(9))
        #expect(elements.slot(of: 9) == 2)
        Identified.expectSound(elements)
    }

    // MARK: In place

    /// Runs `mutate` on `holder` and checks that the slots, the journal's ring and the element
    /// payloads were neither copied nor moved.
    static func expectInPlace(_ holder: inout Holder, sourceLocation: SourceLocation = #_sourceLocation, _ mutate: (inout Holder) -> Void) {
        holder.rows[id: 0]?.id = 0 // journal ring allocated: steady state from here on
        let ledgers = holder.rows.map(\.payload.ledger)
        let copiesBefore = ledgers.map(\.copies)
        let ring = holder.rows.journalAddress
        let report = CoWProbe.trace(&holder, payload: \.rows, during: mutate)
        #expect(report.isInPlace, "\(report)", sourceLocation: sourceLocation)
        #expect(holder.rows.journalAddress == ring, "the journal's ring moved", sourceLocation: sourceLocation)
        #expect(ledgers.map(\.copies) == copiesBefore, "an element was copied", sourceLocation: sourceLocation)
    }

    @Test func writesThroughTheIdSubscriptAreInPlace() {
        var holder = Holder()
        Self.expectInPlace(&holder) { $0.rows[id: 7]?.payload[0] += 1 }
        #expect(holder.rows[id: 7]?.payload[0] == 1)
    }

    @Test func writesThroughThePositionalSubscriptAreInPlace() {
        var holder = Holder()
        let index = holder.rows.index(id: 7)!
        Self.expectInPlace(&holder) { $0.rows[index].payload[0] += 1 }
        #expect(holder.rows[id: 7]?.payload[0] == 1)
    }

    @Test func updateEachIsInPlace() {
        var holder = Holder()
        Self.expectInPlace(&holder) { $0.rows.updateEach { $0.payload[0] += 1 } }
        #expect(holder.rows.allSatisfy { $0.payload[0] == 1 })
    }

    @Test func theLaneModifiesOneElementAndEveryElementInPlace() {
        let lane = Relay.IdentifiedArrayElements<Holder, Row>(container: Lens(\Holder.rows))
        var holder = Holder()
        Self.expectInPlace(&holder) { #expect(lane.modifyElement(3, in: &$0) { $0.payload[0] += 1 }) }
        let slot = lane.locateElement(3, in: &holder)!
        Self.expectInPlace(&holder) { #expect(lane.modifyElement(3, at: slot, in: &$0) { $0.payload[0] += 1 }) }
        Self.expectInPlace(&holder) { lane.modifyEach(in: &$0) { _, row in row.payload[1] += 1 } }
        Self.expectInPlace(&holder) { lane.modifyEach(in: &$0, applying: { (_: Bump, row: inout Row) in row.payload[2] += 1 }, with: .bump) }
        #expect(holder.rows[id: 3]?.payload[0] == 2)
        #expect(holder.rows.allSatisfy { $0.payload[1] == 1 + 1 && $0.payload[2] == 2 + 1 })
    }

    @Test func liftedReducersMutateTheRoutedElementInPlace() {
        let byID = Self.bump.liftCollection(.action(Self.rowPrism).state(\Holder.rows))
        let each = Self.bump.liftEach(.action(broadcast: Self.bumpAllPrism, into: Self.rowPrism).state(\Holder.rows))
        var holder = Holder()
        Self.expectInPlace(&holder) { byID.apply(.row(ElementAction(42, action: .bump)), to: &$0) }
        Self.expectInPlace(&holder) { each.apply(.bumpAll, to: &$0) }
        #expect(holder.rows[id: 42]?.payload[0] == 2)
        #expect(holder.rows[id: 41]?.payload[0] == 1)
    }

    @Test func theProbeSeesACopyWhenTheStorageIsShared() {
        var holder = Holder()
        let hidden = holder
        let report = CoWProbe.trace(&holder, payload: \.rows) { $0.rows[id: 7]?.payload[0] += 1 }
        #expect(report.copied)
        #expect(hidden.rows[id: 7]?.payload[0] == 0)
    }

    @Test func everyWritePathHasValueSemanticsWithAHiddenSharedCopy() {
        let lane = Relay.IdentifiedArrayElements<Holder, Row>(container: Lens(\Holder.rows))
        let paths: [(String, (inout Holder) -> Void)] = [
            ("subscript(id:) modify", { $0.rows[id: 7]?.payload[0] += 1 }),
            ("subscript(id:) set", { $0.rows[id: 7] = Row(id: 7, payload: ProbeBuffer(count: 1)) }),
            ("positional modify", { $0.rows[$0.rows.index(id: 7)!].payload[0] += 1 }),
            ("updateEach", { $0.rows.updateEach { $0.payload[0] += 1 } }),
            ("append", { $0.rows.append(Row(id: 1_000)) }),
            ("insert", { $0.rows.insert(Row(id: 1_000), at: 3) }),
            ("remove(id:)", { $0.rows.remove(id: 7) }),
            ("removeAll(where:)", { $0.rows.removeAll { $0.id % 2 == 0 } }),
            ("sort", { $0.rows.sort { $0.id > $1.id } }),
            ("swapAt", { $0.rows.swapAt($0.rows.startIndex, $0.rows.index(id: 9)!) }),
            ("move", { $0.rows.move(fromOffset: 1, toOffset: 50) }),
            ("re-key", { $0.rows[id: 7]?.id = 8 }),
            ("lane modifyElement", { _ = lane.modifyElement(7, in: &$0) { $0.payload[0] += 1 } }),
            ("lane located modifyElement", { _ = lane.modifyElement(7, at: $0.rows.slot(of: 7)!, in: &$0) { $0.payload[0] += 1 } }),
            ("lane modifyEach", { lane.modifyEach(in: &$0) { _, row in row.payload[0] += 1 } }),
        ]
        for (name, mutate) in paths {
            let report = CoWProbe.checkSharedCopy(make: { Holder(payload: 8) }, mutate: mutate)
            #expect(report.passed, "\(name): \(report)")
        }
    }
}
