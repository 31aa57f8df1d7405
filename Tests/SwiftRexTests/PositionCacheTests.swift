import SwiftRex
import SwiftRexTestSupport
import Testing

/// The identified-collection lane finds elements through a position cache (with a one-entry memo
/// of the last id found): after any structural change the element found is still the one with the
/// id, never whatever now sits at the remembered position.
@Suite struct PositionCacheTests {
    struct Row: Identifiable, Sendable, Equatable {
        var id: Int
        var hits = 0
    }

    struct State: Sendable, Equatable {
        var rows: [Row]
    }

    let lane = Relay.IdentifiedElements<State, [Row], Int>(container: Lens(\State.rows), id: { $0.id })

    @Test func theRememberedIdFollowsItsElementThroughStructuralChanges() {
        var state = State(rows: (0..<5).map { Row(id: $0) })
        #expect(lane.modifyElement(3, in: &state) { $0.hits += 1 })
        state.rows.reverse()
        #expect(lane.element(3, in: state)?.hits == 1)
        #expect(lane.modifyElement(3, in: &state) { $0.hits += 1 })
        state.rows.removeFirst()
        state.rows.insert(Row(id: 9), at: 0)
        #expect(lane.modifyElement(3, in: &state) { $0.hits += 1 })
        #expect(state.rows.first { $0.id == 3 }?.hits == 3)
        #expect(state.rows.filter { $0.id != 3 }.allSatisfy { $0.hits == 0 })
    }

    @Test func aRememberedIdThatLeftIsAbsent() {
        var state = State(rows: (0..<3).map { Row(id: $0) })
        #expect(lane.element(1, in: state) != nil)
        state.rows.removeAll { $0.id == 1 }
        #expect(lane.element(1, in: state) == nil)
        #expect(!lane.modifyElement(1, in: &state) { $0.hits += 1 })
        #expect(state.rows.allSatisfy { $0.hits == 0 })
    }

    @Test func randomLookupsAgreeWithALinearSearch() {
        var random = SplitMix64(seed: 7)
        var state = State(rows: (0..<20).map { Row(id: $0) })
        var model: [Int: Int] = Dictionary(uniqueKeysWithValues: (0..<20).map { ($0, 0) })
        for _ in 0..<2_000 {
            switch random.next() % 6 {
            case 0: state.rows.shuffle(using: &random)
            case 1:
                if !state.rows.isEmpty {
                    model[state.rows.remove(at: Int(random.next() % UInt64(state.rows.count))).id] = nil
                }
            case 2:
                let id = Int(random.next() % 40)
                if model[id] == nil {
                    state.rows.append(Row(id: id))
                    model[id] = 0
                }
            default:
                let id = Int(random.next() % 40)
                let found = lane.modifyElement(id, in: &state) { $0.hits += 1 }
                #expect(found == (model[id] != nil))
                if found { model[id, default: 0] += 1 }
            }
        }
        #expect(Dictionary(uniqueKeysWithValues: state.rows.map { ($0.id, $0.hits) }) == model)
    }

    @Test func aWriteAtTheLocationAReadFoundReachesThatElement() {
        var state = State(rows: (0..<5).map { Row(id: $0) })
        let location = lane.locateElement(3, in: &state)
        #expect(location == 3)
        #expect(lane.inspectElement(4, in: &state, locating: { $0.id })! == (result: 4, location: 4))
        #expect(lane.modifyElement(3, at: location!, in: &state) { $0.hits += 1 })
        #expect(state.rows.map(\.hits) == [0, 0, 0, 1, 0])
        #expect(lane.locateElement(7, in: &state) == nil)
        #expect(lane.inspectElement(7, in: &state, locating: { $0.id }) == nil)
    }

    @Test func aLocationThatNoLongerHoldsItsIdIsLookedUpAgain() {
        var state = State(rows: (0..<5).map { Row(id: $0) })
        let location = lane.locateElement(3, in: &state)!
        state.rows.reverse()
        #expect(lane.modifyElement(3, at: location, in: &state) { $0.hits += 1 })
        for stray in [-1, 5, Int.min, Int.max] {
            #expect(lane.modifyElement(3, at: stray, in: &state) { $0.hits += 1 })
        }
        #expect(state.rows.first { $0.id == 3 }?.hits == 5)
        #expect(state.rows.filter { $0.id != 3 }.allSatisfy { $0.hits == 0 })
        state.rows.removeAll { $0.id == 3 }
        #expect(!lane.modifyElement(3, at: location, in: &state) { $0.hits += 1 })
        #expect(state.rows.allSatisfy { $0.hits == 0 })
    }
}
