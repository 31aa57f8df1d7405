import SwiftRexTestSupport
import Testing

@testable import SwiftRex

/// Bad input: writes that change an element's id, or store a value under another id than its
/// own, in an `IdentifiedArray`. Defined outcome, never a crash: the element is re-keyed under its
/// new id at the same position, and any other element that had that id is removed (released at
/// once), so ids stay unique. The journal reports the leaver, the displaced and the comer.
@Suite("Bad input: identified array misuse")
struct IdentifiedArrayMisuseTests {
    struct Row: Identifiable, Sendable, Equatable {
        var id: Int
        var name = ""
    }

    static func rows(_ ids: [Int]) -> IdentifiedArray<Row> { IdentifiedArray(ids.map { Row(id: $0, name: "row \($0)") }) }

    static func edits(_ rows: IdentifiedArray<Row>, since version: UInt64) -> [ContainerEdit<Int>]? {
        var edits: [ContainerEdit<Int>] = []
        return rows.forEachEdit(since: version) { edits.append($0) } ? edits : nil
    }

    @Test func changingAnIdThroughTheIdSubscriptReKeysTheElementInPlace() {
        var rows = Self.rows([1, 2, 3])
        let version = rows.contentVersion
        rows[id: 2]?.id = 9
        #expect(Array(rows.ids) == [1, 9, 3])
        #expect(rows[id: 2] == nil)
        #expect(rows[id: 9]?.name == "row 2")
        #expect(rows.index(id: 9).map { rows.distance(from: rows.startIndex, to: $0) } == 1)
        #expect(Self.edits(rows, since: version) == [.removed(2), .inserted(9)])
        Identified.expectSound(rows)
    }

    @Test func changingAnIdToAnotherElementsIdRemovesThatElement() {
        let tracker = LifetimeTracker()
        var rows = IdentifiedArray([1, 2, 3].map { (id: Int) in (Row(id: id), tracker.instance(id)) }.map(TrackedRow.init))
        let version = rows.contentVersion
        rows[id: 1]?.row.id = 3
        #expect(Array(rows.ids) == [3, 2])
        #expect(rows[id: 3]?.token.payload == 1, "the re-keyed element kept its place and value")
        #expect(tracker.liveCount == 2, "the displaced element was released at once")
        #expect(Self.trackedEdits(rows, since: version) == [.removed(1), .removed(3), .inserted(3)])
        Identified.expectSound(rows)
    }

    @Test func changingAnIdThroughThePositionalSubscriptReKeysTheElement() {
        var rows = Self.rows([1, 2, 3])
        rows[rows.index(id: 3)!].id = 1
        #expect(Array(rows.ids) == [2, 1])
        #expect(rows[id: 1]?.name == "row 3")
        Identified.expectSound(rows)
    }

    @Test func updateEachReKeysInOrderAndADisplacedLaterElementIsNotVisited() {
        var rows = Self.rows([1, 2, 3])
        var visited: [String] = []
        rows.updateEach { row in
            visited.append(row.name)
            row.id += 1
        }
        // Row 1 became 2 and displaced row 2 before it was visited; row 3 became 4.
        #expect(visited == ["row 1", "row 3"])
        #expect(rows.map(\.id) == [2, 4])
        #expect(rows.map(\.name) == ["row 1", "row 3"])
        Identified.expectSound(rows)
    }

    @Test func settingAValueWithAnotherIdOverAPresentElementReKeysIt() {
        var rows = Self.rows([1, 2, 3])
        rows[id: 2] = Row(id: 7, name: "seven")
        #expect(Array(rows.ids) == [1, 7, 3])
        rows[id: 7] = Row(id: 1, name: "one")
        #expect(Array(rows) == [Row(id: 1, name: "one"), Row(id: 3, name: "row 3")])
        Identified.expectSound(rows)
    }

    @Test func settingAValueWithAnotherIdForAnAbsentIdStoresItUnderItsOwnId() {
        var rows = Self.rows([1, 2])
        rows[id: 9] = Row(id: 1, name: "one")
        #expect(Array(rows) == [Row(id: 1, name: "one"), Row(id: 2, name: "row 2")])
        rows[id: 10] = Row(id: 11)
        #expect(rows[id: 10] == nil)
        #expect(Array(rows.ids) == [1, 2, 11])
        Identified.expectSound(rows)
    }

    @Test func aLaneWriteThatChangesTheIdReKeysTheRow() {
        struct State: Sendable { var rows: IdentifiedArray<Row> }
        let lane = Relay.IdentifiedArrayElements<State, Row>(container: Lens(\State.rows))
        var state = State(rows: Self.rows([1, 2]))
        #expect(lane.modifyElement(1, in: &state) { $0.id = 2 })
        #expect(Array(state.rows) == [Row(id: 2, name: "row 1")])
        #expect(lane.element(1, in: state) == nil)
    }

    @Test func repeatedIdsInInitKeepTheEarlierPositionAndTheLaterValue() {
        let rows = IdentifiedArray([Row(id: 1, name: "a"), Row(id: 2), Row(id: 1, name: "b")])
        #expect(Array(rows) == [Row(id: 1, name: "b"), Row(id: 2)])
    }

    // MARK: Helpers

    struct TrackedRow: Identifiable, Sendable {
        var row: Row
        var token: Tracked<Int>
        var id: Int { row.id }

        init(_ pair: (Row, Tracked<Int>)) {
            row = pair.0
            token = pair.1
        }
    }

    static func trackedEdits(_ rows: IdentifiedArray<TrackedRow>, since version: UInt64) -> [ContainerEdit<Int>]? {
        var edits: [ContainerEdit<Int>] = []
        return rows.forEachEdit(since: version) { edits.append($0) } ? edits : nil
    }

    @Test func anIndexOfARemovedElementTraps() async {
        await #expect(processExitsWith: .failure) {
            var rows = IdentifiedArrayMisuseTests.rows([1, 2, 3])
            let stale = rows.index(id: 2)!
            rows.remove(id: 2)
            _ = rows[stale]
        }
    }
}
