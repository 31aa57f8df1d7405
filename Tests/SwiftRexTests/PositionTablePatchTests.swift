import SwiftRexTestSupport
import Testing

@_spi(Testing) @testable import SwiftRex

/// A supervised plain array's id table follows an app-level insert or removal: the Store already
/// compares the array before and after the write, and hands the edits to the table, so the next
/// action routed by id finds its element without reading every id again.
@MainActor
@Suite struct PositionTablePatchTests {
    typealias Lane = Relay.IdentifiedElements<PlainGrid.State, [Grid.Cell], Int>

    static func table(_ ids: [Int]) -> [Int: Int] {
        var table: [Int: Int] = [:]
        for (offset, id) in ids.enumerated() where table[id] == nil { table[id] = offset }
        return table
    }

    @Test func aTableGivenTheEditsOfAWriteEqualsOneBuiltFromTheArrayAfterIt() {
        var random = SplitMix64(seed: 11)
        var next = 1_000
        // Scratch space reused across patches, as the cache reuses its own.
        var (removedScratch, insertedScratch): ([Int], [Int]) = ([], [])
        for _ in 0..<500 {
            let before = Array(0..<Int(random.next() % 40)).shuffled(using: &random)
            var after = before
            var edits: [ArrayEdit<Int>] = []
            for _ in 0..<Int(random.next() % 4) where !after.isEmpty {
                let id = after.remove(at: Int(random.next() % UInt64(after.count)))
                if before.contains(id) { edits.append(.removed(id)) }
            }
            var inserted: [Int] = []
            for _ in 0..<Int(random.next() % 4) {
                after.insert(next, at: Int(random.next() % UInt64(after.count + 1)))
                inserted.append(next)
                next += 1
            }
            // In the new array's order, with their final offsets.
            for (offset, id) in after.enumerated() where inserted.contains(id) {
                edits.append(.inserted(id, at: offset, after: nil, before: nil))
            }
            var table = Self.table(before)
            #expect(PositionCache<Int>.apply(edits[...], to: &table, count: before.count, removed: &removedScratch, inserted: &insertedScratch))
            #expect(table == Self.table(after), "\(before) → \(after)")
        }
    }

    @Test func aMovedIdAndChangedRowsFollowAsWell() {
        var table = Self.table([1, 2, 3, 4])
        var (removedScratch, insertedScratch): ([Int], [Int]) = ([], [])
        let edits: [ArrayEdit<Int>] = [.removed(1), .modified(3, at: 1), .inserted(1, at: 3, after: 4, before: nil)]
        #expect(PositionCache<Int>.apply(edits[...], to: &table, count: 4, removed: &removedScratch, inserted: &insertedScratch))
        #expect(table == Self.table([2, 3, 4, 1]))
    }

    @Test func anIdInsertedWhereItIsAlreadyPresentIsNotPatched() {
        var table = Self.table([1, 2, 3])
        var (removedScratch, insertedScratch): ([Int], [Int]) = ([], [])
        #expect(
            !PositionCache<Int>.apply(
                [ArrayEdit<Int>.inserted(2, at: 0, after: nil, before: 1)][...], to: &table, count: 3, removed: &removedScratch,
                inserted: &insertedScratch))
    }

    @Test func actionsRoutedByIdAfterAppLevelInsertsAndRemovalsReadNoIds() {
        let scope: Relay.Scope<Relay.ActionElement<PlainGrid.Action, Int, Grid.CellAction>, Lane, Relay.Identity<Void>> =
            .action(PlainGrid.rowPrism).state(\PlainGrid.State.rows)
        let cell = Grid.cell("r", events: Grid.Events(), evaluations: CoreFixtures.Counter())
        let edits = Behavior<PlainGrid.Action, PlainGrid.State, Void>.react { action, _ in
            guard case .edit(let edit) = action else { return .doNothing }
            return .reduce { PlainGrid.apply(edit, to: &$0.rows) }
        }.confined(to: \PlainGrid.State.rows)
        let store = Store(
            initial: PlainGrid.initial(1_000), behavior: .combine([cell.liftCollection(scope, site: "rows"), edits]), environment: ())
        store.dispatch(.row(ElementAction(5, action: .setLevel(1))))
        let read = scope.state.positionCacheIDsRead

        for step in 0..<40 {
            store.dispatch(.edit(.rotate(append: 1_000 + step, remove: step)))
            store.dispatch(.edit(.insert(2_000 + step, at: 300 + step)))
            for target in [999, 1_000 + step, 2_000 + step, 500] {
                store.dispatch(.row(ElementAction(target, action: .setLevel(step))))
                #expect(store.state.rows.first { $0.id == target }?.level == step)
            }
        }
        #expect(scope.state.positionCacheIDsRead == read)
        #expect(store.state.rows.count == 1_040)
    }
}
