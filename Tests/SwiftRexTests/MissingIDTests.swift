@_spi(Testing) import SwiftRex
import SwiftRexTestSupport
import Testing

/// An action for an id absent from a plain array is dropped in time independent
/// of the array's size. The position cache proves absence with a *witness* (a copy of the array its
/// table was built from, which pins that storage); these tests count the ids the cache reads, and
/// check that every present id, after any edit, is still found at the right element.
@Suite struct MissingIDTests {
    struct Row: Identifiable, Sendable, Equatable {
        var id: Int
        var hits = 0
    }

    struct State: Sendable, Equatable {
        var rows: [Row]
        var other = 0
    }

    static func lane() -> Relay.IdentifiedElements<State, [Row], Int> {
        Relay.IdentifiedElements(container: Lens(\State.rows), id: { $0.id })
    }

    static func address(_ rows: [Row]) -> UnsafeRawPointer? {
        rows.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
    }

    @Test func absentIdsAreAnsweredWithoutScanningOnceTheTableIsWitnessed() {
        let lane = Self.lane()
        var state = State(rows: (0..<10_000).map { Row(id: $0) })
        // Two misses on the same storage: a scan, then a scan and a witnessed rebuild.
        #expect(!lane.containsElement(-1, in: &state))
        #expect(!lane.containsElement(-2, in: &state))
        let read = lane.positionCacheIDsRead
        for id in 10_000..<10_500 {
            #expect(!lane.containsElement(id, in: &state))
            #expect(lane.element(id, in: state) == nil)
            #expect(!lane.modifyElement(id, in: &state) { $0.hits += 1 })
        }
        #expect(lane.positionCacheIDsRead == read)
        // Writes elsewhere in the state leave the array's storage, and the witness, alone.
        state.other += 1
        #expect(!lane.containsElement(-3, in: &state))
        #expect(lane.positionCacheIDsRead == read)
    }

    @Test func aRemovedElementsIdCostsOneRebuildNotARebuildAndAScan() {
        let lane = Self.lane()
        var state = State(rows: (0..<1_000).map { Row(id: $0) })
        #expect(lane.containsElement(500, in: &state))
        state.rows.remove(at: 500)
        let read = lane.positionCacheIDsRead
        // The table (and its last-found memo) still place 500: the stale table is rebuilt once,
        // and that rebuild is the answer.
        #expect(!lane.modifyElement(500, in: &state) { $0.hits += 1 })
        #expect(lane.positionCacheIDsRead == read + 999)
        #expect(lane.modifyElement(501, in: &state) { $0.hits += 1 })
        #expect(state.rows[500] == Row(id: 501, hits: 1))
        #expect(lane.positionCacheIDsRead == read + 999)
    }

    @Test func writesThroughTheLaneStayInPlaceAndKeepTheWitness() {
        let lane = Self.lane()
        var state = State(rows: (0..<1_000).map { Row(id: $0) })
        #expect(!lane.containsElement(-1, in: &state))
        #expect(!lane.containsElement(-1, in: &state))
        let read = lane.positionCacheIDsRead
        let storage = Self.address(state.rows)
        for id in 0..<100 {
            #expect(lane.modifyElement(id * 7, in: &state) { $0.hits += 1 })
            #expect(!lane.containsElement(-1 - id, in: &state))
        }
        #expect(Self.address(state.rows) == storage)
        #expect(lane.positionCacheIDsRead == read)
        #expect(state.rows.filter { $0.hits == 1 }.map(\.id) == (0..<100).map { $0 * 7 })
    }

    @Test func anElementWriteThatChangesItsIdIsFoundUnderItsNewId() {
        let lane = Self.lane()
        var state = State(rows: (0..<100).map { Row(id: $0) })
        #expect(!lane.containsElement(-1, in: &state))
        #expect(!lane.containsElement(-1, in: &state))
        #expect(lane.modifyElement(42, in: &state) { $0.id = 4_200 })
        #expect(lane.containsElement(4_200, in: &state))
        #expect(lane.modifyElement(4_200, in: &state) { $0.hits += 1 })
        #expect(!lane.containsElement(42, in: &state))
        #expect(state.rows[42] == Row(id: 4_200, hits: 1))
    }

    @Test func outsideWritesAreSeenEvenWhenTheyKeepTheCount() {
        let lane = Self.lane()
        var state = State(rows: (0..<100).map { Row(id: $0) })
        func witness() {
            #expect(!lane.containsElement(-1, in: &state))
            #expect(!lane.containsElement(-1, in: &state))
        }
        witness()
        state.rows[10] = Row(id: 1_000) // in-place replacement: same count
        #expect(lane.modifyElement(1_000, in: &state) { $0.hits += 1 })
        #expect(state.rows[10] == Row(id: 1_000, hits: 1))
        witness()
        state.rows[20].id = 2_000 // an id written in place
        #expect(lane.element(2_000, in: state) == Row(id: 2_000))
        witness()
        state.rows.swapAt(0, 99)
        #expect(lane.inspectElement(99, in: &state) { $0 } == Row(id: 99))
        #expect(lane.modifyElement(0, in: &state) { $0.hits += 5 })
        #expect(state.rows[99] == Row(id: 0, hits: 5))
        witness()
        state.rows.append(Row(id: 3_000))
        #expect(lane.containsElement(3_000, in: &state))
        witness()
        state.rows = (0..<100).map { Row(id: $0 + 5_000) } // a new array, possibly at a reused address
        #expect(lane.containsElement(5_050, in: &state))
        witness()
        state.rows.removeAll()
        #expect(!lane.containsElement(5_050, in: &state))
        state.rows.append(Row(id: 6_000))
        #expect(lane.containsElement(6_000, in: &state))
    }

    @Test func aCopyOfTheStateIsFoundThroughTheSameLane() {
        // One lane, two states sharing storage then diverging (a lane reused by two stores).
        let lane = Self.lane()
        var first = State(rows: (0..<50).map { Row(id: $0) })
        #expect(!lane.containsElement(-1, in: &first))
        #expect(!lane.containsElement(-1, in: &first))
        var second = first
        second.rows[3].id = 300
        #expect(lane.containsElement(300, in: &second))
        #expect(!lane.containsElement(300, in: &first))
        #expect(lane.containsElement(3, in: &first))
        #expect(!lane.containsElement(3, in: &second))
    }

    @Test func containersWhoseStorageCannotBePinnedAreStillScanned() {
        struct Sliced: Sendable { var rows: ArraySlice<Row> }
        let lane = Relay.IdentifiedElements<Sliced, ArraySlice<Row>, Int>(container: Lens(\Sliced.rows), id: { $0.id })
        var state = Sliced(rows: ArraySlice((0..<100).map { Row(id: $0) }))
        for _ in 0..<3 { #expect(!lane.containsElement(-1, in: &state)) }
        let read = lane.positionCacheIDsRead
        #expect(!lane.containsElement(-1, in: &state))
        #expect(lane.positionCacheIDsRead == read + 100)
        state.rows[state.rows.startIndex + 5].id = 500
        #expect(lane.containsElement(500, in: &state))
    }

    @Test func randomEditsAgreeWithALinearSearch() {
        var random = SplitMix64(seed: 10_5)
        let lane = Self.lane()
        var state = State(rows: (0..<30).map { Row(id: $0) })
        var retained: [State] = []
        for _ in 0..<6_000 {
            let id = Int(random.next() % 80)
            switch random.next() % 12 {
            case 0: state.rows.shuffle(using: &random)
            case 1:
                if !state.rows.isEmpty { state.rows.remove(at: Int(random.next() % UInt64(state.rows.count))) }
            case 2:
                if !state.rows.contains(where: { $0.id == id }) { state.rows.append(Row(id: id)) }
            case 3:
                // An id written in place, outside the lane.
                if !state.rows.isEmpty, !state.rows.contains(where: { $0.id == id }) {
                    state.rows[Int(random.next() % UInt64(state.rows.count))].id = id
                }
            case 4:
                // An id written through the lane.
                let target = Int(random.next() % 80)
                if !state.rows.contains(where: { $0.id == id }), let present = state.rows.firstIndex(where: { $0.id == target }) {
                    #expect(lane.modifyElement(target, in: &state) { $0.id = id })
                    #expect(state.rows[present].id == id)
                }
            case 5:
                // A copy kept alive (shared storage), or dropped.
                if retained.count < 3 { retained.append(state) } else { retained.removeAll() }
            case 6: lane.modifyEach(in: &state) { _, row in row.hits += 1 }
            case 7:
                #expect(lane.element(id, in: state) == state.rows.first { $0.id == id })
            case 8:
                #expect(lane.inspectElement(id, in: &state) { $0 } == state.rows.first { $0.id == id })
            default:
                let expected = state.rows.firstIndex { $0.id == id }
                let before = state.rows
                let found = lane.modifyElement(id, in: &state) { $0.hits += 1 }
                #expect(found == (expected != nil))
                var after = before
                if let expected { after[expected].hits += 1 }
                #expect(state.rows == after)
            }
            #expect(lane.containsElement(id, in: &state) == state.rows.contains { $0.id == id })
        }
        _ = retained
    }
}

/// The same through a Store: late actions for removed rows are dropped and reported, present rows
/// (added after the late actions) are routed.
@MainActor
@Suite struct MissingIDStoreTests {
    typealias App = LiftApp

    @Test func lateActionsAreReportedAndNewRowsRouted() {
        let store = Store(
            initial: BadInput.state(rows: Array(0..<200)), behavior: App.rowsAdmin <> BadInput.rowsByID, environment: App.AppEnvironment())
        for round in 0..<5 {
            let diagnostics = collectingDiagnostics {
                for late in 0..<10 { store.dispatch(.row(ElementAction(2_000 + late, action: .touch))) }
            }
            #expect(diagnostics.map(\.kind) == Array(repeating: .missingElement, count: 10))
            store.dispatch(.addRow(1_000 + round))
            store.dispatch(.row(ElementAction(1_000 + round, action: .touch)))
            store.dispatch(.removeRow(round))
            let noDiagnostics = collectingDiagnostics { store.dispatch(.row(ElementAction(100 + round, action: .touch))) }
            #expect(noDiagnostics.isEmpty)
        }
        #expect(store.state.rows.filter { $0.touches == 1 }.map(\.id) == Array(100..<105) + Array(1_000..<1_005))
        #expect(store.state.rows.count == 200)
    }
}
