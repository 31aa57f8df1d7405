import SwiftRexTestSupport
import Testing

@testable import SwiftRex

/// The edit journal of `IdentifiedArray`: replaying the edits reported since a version onto a
/// model of that version's content reproduces the current content, no edit is ever missing,
/// slots stay put until `.reordered`, and versions tell diverging copies apart.
@Suite struct IdentifiedArrayJournalTests {
    typealias Item = Identified.Item

    /// What a reader of the journal remembers of one content state.
    struct Snapshot {
        var version: UInt64
        var elements: [Item]
        var slots: [Int: Int]

        init(_ elements: IdentifiedArray<Item>) {
            version = elements.contentVersion
            self.elements = Array(elements)
            slots = Dictionary(uniqueKeysWithValues: elements.ids.map { ($0, elements.slot(of: $0)!) })
        }
    }

    static func edits(of elements: IdentifiedArray<Item>, since version: UInt64) -> [ContainerEdit<Int>]? {
        var edits: [ContainerEdit<Int>] = []
        return elements.forEachEdit(since: version) { edits.append($0) } ? edits : nil
    }

    /// Replays `edits` onto `snapshot` as the engine would (membership from the edits, values
    /// read from the current content for the ids they name) and checks the result is `current`:
    /// an id no edit names must be unchanged, in value, presence and (without `.reordered`) slot.
    static func expectReplay(
        _ edits: [ContainerEdit<Int>], from snapshot: Snapshot, reaches current: IdentifiedArray<Item>,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        var present = Set(snapshot.elements.map(\.id))
        var named = Set<Int>()
        var reordered = false
        for edit in edits {
            switch edit {
            case .inserted(let id):
                #expect(!present.contains(id), "inserted \(id) while present", sourceLocation: sourceLocation)
                present.insert(id)
                named.insert(id)
            case .removed(let id):
                #expect(present.contains(id), "removed \(id) while absent", sourceLocation: sourceLocation)
                present.remove(id)
                named.insert(id)
            case .modified(let id):
                #expect(present.contains(id), "modified \(id) while absent", sourceLocation: sourceLocation)
                named.insert(id)
            case .reordered:
                reordered = true
            }
        }
        #expect(present == Set(current.ids), sourceLocation: sourceLocation)
        var model = Dictionary(uniqueKeysWithValues: snapshot.elements.map { ($0.id, $0) })
        for id in named { model[id] = current[id: id] }
        for id in present {
            #expect(model[id] == current[id: id], "element \(id) changed with no edit naming it", sourceLocation: sourceLocation)
            if !reordered, !named.contains(id) {
                #expect(snapshot.slots[id] == current.slot(of: id), "slot of \(id) moved without .reordered", sourceLocation: sourceLocation)
            }
        }
        let slots = current.ids.map { current.slot(of: $0)! }
        #expect(slots == slots.sorted() && Set(slots).count == slots.count, "slots not increasing in order", sourceLocation: sourceLocation)
    }

    // MARK: Basics

    @Test func theCurrentVersionReportsNoEditAndSucceeds() {
        var elements = IdentifiedArray([Item(1)])
        elements.append(Item(2))
        var calls = 0
        #expect(elements.forEachEdit(since: elements.contentVersion) { _ in calls += 1 })
        #expect(calls == 0)
    }

    @Test func emptyContentStartsAtVersionZeroAndAnythingElseAtAFreshVersion() {
        #expect(IdentifiedArray<Item>().contentVersion == 0)
        #expect(IdentifiedArray<Item>([]).contentVersion == 0)
        let a = IdentifiedArray([Item(1)])
        let b: IdentifiedArray<Item> = [Item(1)]
        #expect(a.contentVersion != 0)
        #expect(a.contentVersion != b.contentVersion)
        #expect(Self.edits(of: a, since: 0) == nil)
    }

    @Test func eachMutationRecordsWhatItDid() {
        var elements = IdentifiedArray<Item>()
        func record(_ mutate: (inout IdentifiedArray<Item>) -> Void) -> [ContainerEdit<Int>]? {
            let version = elements.contentVersion
            mutate(&elements)
            #expect(elements.contentVersion != version)
            return Self.edits(of: elements, since: version)
        }
        #expect(record { $0.append(Item(1)) } == [.inserted(1)])
        #expect(record { $0.append(Item(2)) } == [.inserted(2)])
        #expect(record { $0.append(Item(1, 5)) } == [.modified(1)])
        #expect(record { $0[id: 1]?.value += 1 } == [.modified(1)])
        #expect(record { $0[id: 3] = Item(3) } == [.inserted(3)])
        #expect(record { $0[id: 3] = Item(3, 1) } == [.modified(3)])
        #expect(record { $0[$0.index(id: 2)!].value = 4 } == [.modified(2)])
        #expect(record { $0.insert(Item(4), at: 3) } == [.inserted(4)])
        #expect(record { $0.insert(Item(5), at: 0) } == [.inserted(5), .reordered])
        #expect(record { $0.insert(Item(1), at: 4) } == [.modified(1), .reordered])
        #expect(record { $0.updateEach { $0.value += 1 } } == [.modified(5), .modified(2), .modified(3), .modified(4), .modified(1)])
        #expect(record { $0.remove(id: 2) } == [.removed(2)])
        #expect(record { $0[id: 3] = nil } == [.removed(3)])
        #expect(record { $0.remove(at: $0.startIndex) } == [.removed(5)])
        #expect(record { $0.sort { $0.id < $1.id } } == [.reordered])
        #expect(record { $0.swapAt($0.startIndex, $0.index(after: $0.startIndex)) } == [.reordered])
        #expect(record { $0.move(fromOffset: 0, toOffset: 1) } == [.reordered])
        #expect(record { $0.removeAll { $0.id == 4 } } == [.removed(4)])
        #expect(record { $0.removeAll() } == [.removed(1)])
    }

    @Test func anUnchangedRemovalOrAMissingIdRecordsNothing() {
        var elements = IdentifiedArray([Item(1)])
        let version = elements.contentVersion
        elements.remove(id: 9)
        elements[id: 9] = nil
        elements[id: 9]?.value += 1
        elements.removeAll { _ in false }
        #expect(elements.contentVersion == version)
    }

    @Test func compactionRecordsReorderedAndRenumbersSlots() {
        var elements = IdentifiedArray((0..<40).map { Item($0) })
        let before = Snapshot(elements)
        for id in 0..<21 { elements.remove(id: id) }
        // 21 tombstones > max(16, 19 live): the last removal compacted.
        let edits = Self.edits(of: elements, since: before.version)
        #expect(edits?.last == .reordered)
        #expect(edits?.filter { if case .removed = $0 { true } else { false } }.count == 21)
        #expect(elements.slot(of: 21) == 0)
        Self.expectReplay(edits ?? [], from: before, reaches: elements)
    }

    struct Stop: Error {}

    @Test func aWriteThatThrowsMidwayKeepsWhatItWroteAndJournalsIt() {
        var elements = IdentifiedArray([Item(1), Item(2), Item(3)])
        let before = Snapshot(elements)
        func bump(_ item: inout Item?) throws {
            item?.value = 9
            throw Stop()
        }
        func put(_ item: inout Item?) throws {
            item = Item(5, 5)
            throw Stop()
        }
        func rekey(_ item: inout Item) throws {
            item.id = 3
            throw Stop()
        }
        #expect(throws: Stop.self) { try bump(&elements[id: 1]) }
        #expect(throws: Stop.self) { try bump(&elements[id: 8]) }
        #expect(throws: Stop.self) { try put(&elements[id: 7]) }
        #expect(throws: Stop.self) { try rekey(&elements[elements.index(id: 2)!]) }
        #expect(throws: Stop.self) {
            try elements.updateEach { item in
                if item.id == 5 { throw Stop() }
                item.value += 1
            }
        }
        #expect(throws: Stop.self) {
            try elements.sort { lhs, rhs in
                if lhs.id == 5 || rhs.id == 5 { throw Stop() }
                return lhs.id > rhs.id
            }
        }
        #expect(Array(elements.ids).sorted() == [1, 3, 5])
        #expect(elements[id: 1]?.value == 10)
        #expect(elements[id: 5]?.value == 5)
        Identified.expectSound(elements)
        Self.expectReplay(Self.edits(of: elements, since: before.version) ?? [], from: before, reaches: elements)
    }

    // MARK: Bounds of the journal

    @Test func sixtyFourRecordsAreReplayedAndTheSixtyFifthOverflows() {
        var elements = IdentifiedArray([Item(1)])
        let start = elements.contentVersion
        for value in 1...64 { elements[id: 1]?.value = value }
        #expect(Self.edits(of: elements, since: start)?.count == 64)
        elements[id: 1]?.value = 65
        var calls = 0
        #expect(!elements.forEachEdit(since: start) { _ in calls += 1 })
        #expect(calls == 0)
    }

    @Test func bulkEditsBeyondTheRingResetTheJournal() {
        var elements = IdentifiedArray((0..<100).map { Item($0) })
        elements.append(Item(100))
        let before = elements.contentVersion
        elements.updateEach { $0.value += 1 }
        #expect(Self.edits(of: elements, since: before) == nil)
        let next = elements.contentVersion
        elements.removeAll()
        #expect(Self.edits(of: elements, since: next) == nil)
        #expect(elements.contentVersion != next)
    }

    @Test func divergingCopiesHaveDistinctVersionsAndShareTheirCommonHistory() {
        var original = IdentifiedArray([Item(1), Item(2)])
        original.append(Item(3))
        let common = original.contentVersion
        var a = original
        var b = original
        a.append(Item(4))
        b.remove(id: 1)
        #expect(a.contentVersion != b.contentVersion)
        #expect(Self.edits(of: a, since: common) == [.inserted(4)])
        #expect(Self.edits(of: b, since: common) == [.removed(1)])
        #expect(Self.edits(of: a, since: b.contentVersion) == nil)
        #expect(Self.edits(of: b, since: a.contentVersion) == nil)
        // Same edit, still different versions: a version names one content state of one lineage.
        var c = original
        c.append(Item(4))
        #expect(c == a)
        #expect(c.contentVersion != a.contentVersion)
    }

    @Test func anUnrelatedContainersVersionIsUnknown() {
        var a = IdentifiedArray([Item(1)])
        var b = IdentifiedArray([Item(1)])
        a.append(Item(2))
        b.append(Item(2))
        #expect(Self.edits(of: a, since: b.contentVersion) == nil)
    }

    // MARK: Random sequences

    @Test(arguments: [UInt64(11), 12, 13, 14])
    func replayingEveryStepReachesTheCurrentContent(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var elements = IdentifiedArray<Item>()
        var model: [Item] = []
        for _ in 0..<3_000 {
            let before = Snapshot(elements)
            IdentifiedArrayTests.step(&elements, &model, &rng)
            // Ids stay below 48, so no single step writes more than the ring holds.
            let edits = Self.edits(of: elements, since: before.version)
            #expect(edits != nil)
            Self.expectReplay(edits ?? [], from: before, reaches: elements)
        }
    }

    @Test(arguments: [UInt64(21), 22])
    func replayingAcrossSeveralStepsReachesTheCurrentContentOrAdmitsItCannot(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var elements = IdentifiedArray<Item>()
        var model: [Item] = []
        var replayed = 0
        for _ in 0..<400 {
            let before = Snapshot(elements)
            for _ in 0..<Int.random(in: 1...12, using: &rng) { IdentifiedArrayTests.step(&elements, &model, &rng) }
            if let edits = Self.edits(of: elements, since: before.version) {
                replayed += 1
                Self.expectReplay(edits, from: before, reaches: elements)
            }
        }
        #expect(replayed > 100)
    }

    @Test func rekeyingRecordsTheLeaverTheDisplacedAndTheComer() {
        var elements = IdentifiedArray([Item(1), Item(2), Item(3)])
        let before = Snapshot(elements)
        elements[id: 1]?.id = 3
        let edits = Self.edits(of: elements, since: before.version)
        #expect(edits == [.removed(1), .removed(3), .inserted(3)])
        Self.expectReplay(edits ?? [], from: before, reaches: elements)
    }
}
