@_spi(Testing) import SwiftRex
import Testing

/// Several Stores built from one Behavior share its collection lift, and so the lift's position
/// cache (two windows, an app store and a test store, previews). Each container keeps its own
/// table, chosen by storage: alternating actions between the Stores reads no ids once every
/// table is built, and every action still lands on its own Store's element.
@MainActor
@Suite struct SharedPositionCacheTests {
    struct Row: Identifiable, Sendable, Equatable {
        var id: Int
        var hits = 0
    }

    struct State: Sendable, Equatable {
        var rows: [Row]
    }

    enum Action: Sendable {
        case row(ElementAction<Int, Void>)
    }

    static let rowPrism = Prism<Action, ElementAction<Int, Void>>(
        preview: { if case .row(let action) = $0 { action } else { nil } }, review: Action.row)

    static let row = Behavior<Void, Row, Void>.reduce { _, row in row.hits += 1 }

    typealias Lane = Relay.IdentifiedElements<State, [Row], Int>

    /// A fresh behavior and the lane its lift holds (the lane is a value sharing the cache).
    static func lifted() -> (Behavior<Action, State, Void>, Lane) {
        let scope: Relay.Scope<Relay.ActionElement<Action, Int, Void>, Lane, Relay.Identity<Void>> =
            .action(rowPrism).state(\State.rows)
        return (row.liftCollection(scope, site: "rows"), scope.state)
    }

    static func hit(_ id: Int) -> Action { .row(ElementAction(id, action: ())) }

    /// Hits expected per id after the given ids were dispatched to rows `ids`.
    static func expected(_ ids: [Int], hitting hits: [Int]) -> [Row] {
        let present = Set(ids)
        var counts: [Int: Int] = [:]
        for id in hits where present.contains(id) { counts[id, default: 0] += 1 }
        return ids.map { Row(id: $0, hits: counts[$0] ?? 0) }
    }

    @Test func twoStoresAlternatingKeepPresentAndAbsentIdsInConstantTime() {
        let (behavior, lane) = Self.lifted()
        // Different orders and sizes: every shared id lies at a different position in each.
        let firstIDs = Array(0..<1_000)
        let secondIDs = Array((0..<1_000).reversed()) + Array(1_000..<1_500)
        let first = Store(initial: State(rows: firstIDs.map { Row(id: $0) }), behavior: behavior, environment: ())
        let second = Store(initial: State(rows: secondIDs.map { Row(id: $0) }), behavior: behavior, environment: ())
        var firstHits: [Int] = []
        var secondHits: [Int] = []
        var readAfterWarmUp = 0
        for round in 0..<300 {
            if round == 3 { readAfterWarmUp = lane.positionCacheIDsRead }
            let shared = (round &* 37) % 1_000
            let onlySecond = 1_000 + (round &* 11) % 500
            let nowhere = 10_000 + round
            let diagnostics = collectingDiagnostics {
                first.dispatch(Self.hit(shared))
                second.dispatch(Self.hit(shared))
                second.dispatch(Self.hit(onlySecond))
                first.dispatch(Self.hit(onlySecond))
                second.dispatch(Self.hit(nowhere))
                first.dispatch(Self.hit(nowhere))
            }
            firstHits += [shared, onlySecond, nowhere]
            secondHits += [shared, onlySecond, nowhere]
            #expect(diagnostics.map(\.kind) == [.missingElement, .missingElement, .missingElement], "round \(round)")
        }
        // Each container: a scan, then a scan and a witnessed build; nothing after.
        #expect(readAfterWarmUp <= 2 * (1_000 + 1_500) * 3)
        #expect(lane.positionCacheIDsRead == readAfterWarmUp)
        #expect(lane.positionCacheTables == 2)
        #expect(first.state.rows == Self.expected(firstIDs, hitting: firstHits))
        #expect(second.state.rows == Self.expected(secondIDs, hitting: secondHits))
    }

    @Test func moreStoresThanTablesStayCorrectAndBounded() {
        let (behavior, lane) = Self.lifted()
        let rows = (0..<6).map { store in (0..<200).map { ($0 + store &* 31) % 200 } + [1_000 + store] }
        let stores = rows.map { ids in Store(initial: State(rows: ids.map { Row(id: $0) }), behavior: behavior, environment: ()) }
        var hits = Array(repeating: [Int](), count: stores.count)
        for round in 0..<40 {
            for (index, store) in stores.enumerated() {
                let present = (round &* 13 &+ index) % 200
                let other = 1_000 + (index + 1) % stores.count
                let diagnostics = collectingDiagnostics {
                    store.dispatch(Self.hit(present))
                    store.dispatch(Self.hit(other))
                }
                hits[index] += [present, other]
                #expect(diagnostics.map(\.kind) == [.missingElement])
                #expect(lane.positionCacheTables <= 4)
            }
        }
        for (index, store) in stores.enumerated() {
            #expect(store.state.rows == Self.expected(rows[index], hitting: hits[index]))
        }
    }

    @Test func aContainerThatMovedLeavesNoTableBehindForLong() {
        // One lane, one container moved to fresh storage by outside edits, again and again: the
        // table of storage no lookup chooses any more is dropped when the next table is built.
        let lane = Lane(container: Lens(\State.rows), id: { $0.id })
        var state = State(rows: (0..<100).map { Row(id: $0) })
        for edit in 0..<20 {
            #expect(!lane.containsElement(-1, in: &state))
            #expect(!lane.containsElement(-2, in: &state))
            #expect(lane.positionCacheTables <= 2)
            var kept = state
            state.rows.insert(Row(id: 100 + edit), at: 0) // copy-on-write: the witness pins the old storage
            #expect(lane.modifyElement(100 + edit, in: &state) { $0.hits += 1 })
            #expect(state.rows[0] == Row(id: 100 + edit, hits: 1))
            #expect(!lane.containsElement(100 + edit, in: &kept))
        }
        #expect(lane.positionCacheTables <= 2)
    }
}
