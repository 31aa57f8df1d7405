import Foundation
import SwiftRexTestSupport
import Testing

@testable import SwiftRex

/// Fixtures shared by the identified-array suites.
enum Identified {
    struct Item: Identifiable, Hashable, Sendable, Codable, CustomStringConvertible {
        var id: Int
        var value: Int

        init(_ id: Int, _ value: Int = 0) {
            self.id = id
            self.value = value
        }

        var description: String { "\(id):\(value)" }
    }

    /// Records the structural invariants' violations as test issues.
    static func expectSound<Element>(_ elements: IdentifiedArray<Element>, sourceLocation: SourceLocation = #_sourceLocation) {
        let problems = elements.checkInvariants()
        #expect(problems.isEmpty, "\(problems)", sourceLocation: sourceLocation)
    }
}

/// The collection semantics of `IdentifiedArray`: each operation on its own, then random
/// operation sequences checked against a plain `[Element]` model.
@Suite struct IdentifiedArrayTests {
    typealias Item = Identified.Item

    static func items(_ ids: [Int]) -> IdentifiedArray<Item> { IdentifiedArray(ids.map { Item($0) }) }

    // MARK: Construction

    @Test func aRepeatedIdKeepsTheEarlierPositionAndTheLaterValue() {
        let elements = IdentifiedArray([Item(1, 10), Item(2, 20), Item(1, 11), Item(3, 30), Item(2, 21)])
        #expect(Array(elements) == [Item(1, 11), Item(2, 21), Item(3, 30)])
        #expect(elements.count == 3)
        Identified.expectSound(elements)
        let literal: IdentifiedArray<Item> = [Item(5, 1), Item(5, 2)]
        #expect(Array(literal) == [Item(5, 2)])
    }

    @Test func anEmptyCollectionHasNoElementAndAnEmptyIdView() {
        let empty = IdentifiedArray<Item>()
        #expect(empty.isEmpty)
        #expect(empty.startIndex == empty.endIndex)
        #expect(Array(empty.ids).isEmpty)
        #expect(empty[id: 1] == nil)
        #expect(empty.index(id: 1) == nil)
    }

    // MARK: Lookup and writes by id

    @Test func theIdSubscriptReadsReplacesAppendsAndRemoves() {
        var elements = Self.items([1, 2, 3])
        #expect(elements[id: 2] == Item(2))
        #expect(elements[id: 9] == nil)
        elements[id: 2] = Item(2, 5)
        elements[id: 4] = Item(4, 7)
        elements[id: 1] = nil
        elements[id: 8] = nil
        #expect(Array(elements) == [Item(2, 5), Item(3), Item(4, 7)])
        elements[id: 3]?.value += 1
        #expect(elements[id: 3]?.value == 1)
        elements[id: 6]?.value += 1
        #expect(!elements.contains(id: 6))
        Identified.expectSound(elements)
    }

    @Test func appendReplacesAPresentIdInPlace() {
        var elements = Self.items([1, 2])
        let appended = elements.append(Item(3))
        let replaced = !elements.append(Item(1, 9))
        #expect(appended)
        #expect(replaced)
        #expect(Array(elements) == [Item(1, 9), Item(2), Item(3)])
    }

    @Test func indexOfAnIdNamesThatElement() {
        var elements = Self.items([1, 2, 3, 4])
        elements.remove(id: 2)
        for id in [1, 3, 4] {
            let index = elements.index(id: id)
            #expect(index.map { elements[$0].id } == id)
        }
        #expect(elements.index(id: 2) == nil)
        #expect(elements.ids.contains(3))
        #expect(!elements.ids.contains(2))
        #expect(Array(elements.ids) == [1, 3, 4])
    }

    // MARK: Structural edits

    @Test func insertPlacesAtAnOffsetAndMovesAPresentId() {
        var elements = Self.items([1, 2, 3])
        elements.insert(Item(9), at: 1)
        #expect(elements.ids.elementsEqual([1, 9, 2, 3]))
        elements.insert(Item(3, 5), at: 0)
        #expect(Array(elements) == [Item(3, 5), Item(1), Item(9), Item(2)])
        elements.insert(Item(1, 1), at: 4)
        #expect(Array(elements) == [Item(3, 5), Item(9), Item(2), Item(1, 1)])
        elements.insert(Item(7), at: 4)
        #expect(elements.ids.elementsEqual([3, 9, 2, 1, 7]))
        Identified.expectSound(elements)
    }

    @Test func removalsByIdByIndexAndByPredicateKeepTheOrder() {
        var elements = Self.items(Array(0..<10))
        let four = elements.remove(id: 4)
        let again = elements.remove(id: 4)
        let first = elements.remove(at: elements.startIndex)
        #expect(four == Item(4))
        #expect(again == nil)
        #expect(first == Item(0))
        elements.removeAll { $0.id % 3 == 0 }
        #expect(elements.ids.elementsEqual([1, 2, 5, 7, 8]))
        #expect(elements.first == Item(1))
        #expect(elements.last == Item(8))
        Identified.expectSound(elements)
        elements.removeAll()
        #expect(elements.isEmpty)
        Identified.expectSound(elements)
    }

    @Test func sortSwapAndMoveReorder() {
        var elements = IdentifiedArray([Item(1, 3), Item(2, 1), Item(3, 2)])
        elements.sort { $0.value < $1.value }
        #expect(elements.ids.elementsEqual([2, 3, 1]))
        elements.swapAt(elements.startIndex, elements.index(before: elements.endIndex))
        #expect(elements.ids.elementsEqual([1, 3, 2]))
        elements.move(fromOffset: 0, toOffset: 2)
        #expect(elements.ids.elementsEqual([3, 2, 1]))
        elements.move(fromOffset: 2, toOffset: 0)
        #expect(elements.ids.elementsEqual([1, 3, 2]))
        Identified.expectSound(elements)
    }

    @Test func updateEachAndThePositionalSubscriptMutateInPlace() {
        var elements = Self.items([1, 2, 3])
        elements.updateEach { $0.value = $0.id * 10 }
        elements[elements.index(id: 2)!].value += 1
        #expect(Array(elements) == [Item(1, 10), Item(2, 21), Item(3, 30)])
    }

    // MARK: Traversal

    @Test func traversalSkipsRemovedElementsBothWays() {
        var elements = Self.items(Array(0..<30))
        for id in stride(from: 1, to: 30, by: 2) { elements.remove(id: id) }
        let forward = Array(elements.ids)
        #expect(forward == Array(stride(from: 0, to: 30, by: 2)))
        #expect(Array(elements.reversed().map(\.id)) == forward.reversed())
        #expect(elements.distance(from: elements.startIndex, to: elements.endIndex) == 15)
        #expect(elements.distance(from: elements.endIndex, to: elements.startIndex) == -15)
        let third = elements.index(elements.startIndex, offsetBy: 3)
        #expect(elements[third].id == 6)
        #expect(elements.index(third, offsetBy: -2) == elements.index(id: 2))
        #expect(elements.index(elements.startIndex, offsetBy: 20, limitedBy: elements.endIndex) == nil)
        #expect(elements.index(elements.startIndex, offsetBy: 15, limitedBy: elements.endIndex) == elements.endIndex)
    }

    @Test func offsetsAreExactWithoutTombstones() {
        let elements = Self.items(Array(0..<10))
        let fifth = elements.index(elements.startIndex, offsetBy: 5)
        #expect(elements[fifth].id == 5)
        #expect(elements.distance(from: fifth, to: elements.endIndex) == 5)
        #expect(elements.index(fifth, offsetBy: 6, limitedBy: elements.endIndex) == nil)
        #expect(elements.index(fifth, offsetBy: -6, limitedBy: elements.startIndex) == nil)
        #expect(elements.index(fifth, offsetBy: -5, limitedBy: elements.startIndex) == elements.startIndex)
    }

    // MARK: Conformances

    @Test func equalityAndHashingFollowTheElementsInOrder() {
        var a = Self.items([1, 2, 3])
        let b = Self.items([1, 2, 3])
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        a.remove(id: 2)
        a.insert(Item(2), at: 1)
        #expect(a == b)
        a.swapAt(a.startIndex, a.index(after: a.startIndex))
        #expect(a != b)
    }

    @Test func itEncodesAsAPlainArrayAndDecodesRepeatedIdsLikeInit() throws {
        let elements = IdentifiedArray([Item(2, 1), Item(1, 2)])
        let data = try JSONEncoder().encode(elements)
        #expect(try JSONDecoder().decode([Item].self, from: data) == Array(elements))
        #expect(try JSONDecoder().decode(IdentifiedArray<Item>.self, from: data) == elements)
        let repeated = Data(#"[{"id":1,"value":1},{"id":2,"value":2},{"id":1,"value":3}]"#.utf8)
        #expect(Array(try JSONDecoder().decode(IdentifiedArray<Item>.self, from: repeated)) == [Item(1, 3), Item(2, 2)])
    }

    @Test func itPrintsLikeAnArray() {
        let elements = IdentifiedArray([Item(1, 2)])
        #expect(elements.description == "[1:2]")
        #expect(elements.debugDescription.hasPrefix("IdentifiedArray(["))
    }

    // MARK: Against a reference model

    /// One random operation applied to both the container and the `[Item]` model (ids in
    /// `0..<idRange`, so present and absent ids both come up).
    static func step(_ elements: inout IdentifiedArray<Item>, _ model: inout [Item], _ rng: inout SplitMix64, idRange: Int = 48) {
        let id = Int.random(in: 0..<idRange, using: &rng)
        let value = Int.random(in: 0..<1_000, using: &rng)
        let at = model.firstIndex { $0.id == id }
        switch Int.random(in: 0..<15, using: &rng) {
        case 0, 1:
            elements.append(Item(id, value))
            if let at { model[at] = Item(id, value) } else { model.append(Item(id, value)) }
        case 2:
            elements[id: id] = Item(id, value)
            if let at { model[at] = Item(id, value) } else { model.append(Item(id, value)) }
        case 3:
            elements[id: id] = nil
            if let at { model.remove(at: at) }
        case 4:
            elements[id: id]?.value = value
            if let at { model[at].value = value }
        case 5:
            let removed = elements.remove(id: id)
            #expect(removed == at.map { model[$0] })
            if let at { model.remove(at: at) }
        case 6:
            guard !model.isEmpty else { return }
            let offset = Int.random(in: 0..<model.count, using: &rng)
            let removed = elements.remove(at: elements.index(elements.startIndex, offsetBy: offset))
            #expect(removed == model.remove(at: offset))
        case 7:
            let offset = Int.random(in: 0...model.count, using: &rng)
            elements.insert(Item(id, value), at: offset)
            if let at { model.remove(at: at) }
            model.insert(Item(id, value), at: Swift.min(offset, model.count))
        case 8:
            let modulus = Int.random(in: 2...9, using: &rng)
            elements.removeAll { $0.value % modulus == 0 }
            model.removeAll { $0.value % modulus == 0 }
        case 9:
            guard Int.random(in: 0..<8, using: &rng) == 0 else { return }
            elements.removeAll()
            model.removeAll()
        case 10:
            let byValue: (Item, Item) -> Bool = { ($0.value, $0.id) < ($1.value, $1.id) }
            elements.sort(by: byValue)
            model.sort(by: byValue)
        case 11:
            guard !model.isEmpty else { return }
            let i = Int.random(in: 0..<model.count, using: &rng)
            let j = Int.random(in: 0..<model.count, using: &rng)
            elements.swapAt(elements.index(elements.startIndex, offsetBy: i), elements.index(elements.startIndex, offsetBy: j))
            model.swapAt(i, j)
        case 12:
            guard !model.isEmpty else { return }
            let from = Int.random(in: 0..<model.count, using: &rng)
            let to = Int.random(in: 0..<model.count, using: &rng)
            elements.move(fromOffset: from, toOffset: to)
            model.insert(model.remove(at: from), at: to)
        case 13:
            elements.updateEach { $0.value &+= 1 }
            for offset in model.indices { model[offset].value &+= 1 }
        default:
            guard let at else { return }
            elements[elements.index(id: id)!].value = value
            model[at].value = value
        }
    }

    static func expectMatches(
        _ elements: IdentifiedArray<Item>, _ model: [Item], idRange: Int = 48, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(Array(elements) == model, sourceLocation: sourceLocation)
        #expect(Array(elements.reversed()) == model.reversed(), sourceLocation: sourceLocation)
        #expect(elements.count == model.count, sourceLocation: sourceLocation)
        #expect(Array(elements.ids) == model.map(\.id), sourceLocation: sourceLocation)
        for id in 0..<idRange {
            let expected = model.first { $0.id == id }
            #expect(elements[id: id] == expected, sourceLocation: sourceLocation)
            #expect(elements.index(id: id).map { elements[$0] } == expected, sourceLocation: sourceLocation)
        }
        Identified.expectSound(elements, sourceLocation: sourceLocation)
    }

    @Test(arguments: [UInt64(1), 2, 3, 4])
    func randomOperationsAgreeWithAnArrayModel(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var elements = IdentifiedArray<Item>()
        var model: [Item] = []
        for _ in 0..<3_000 {
            Self.step(&elements, &model, &rng)
            Self.expectMatches(elements, model)
        }
    }

    @Test(arguments: [UInt64(5), 6])
    func randomOperationsOnASharedCopyLeaveTheCopyAlone(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var elements = IdentifiedArray<Item>()
        var model: [Item] = []
        for _ in 0..<1_000 {
            let hidden = elements
            let hiddenModel = model
            Self.step(&elements, &model, &rng)
            Self.expectMatches(elements, model)
            Self.expectMatches(hidden, hiddenModel)
        }
    }
}
