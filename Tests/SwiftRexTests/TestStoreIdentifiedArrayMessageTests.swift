@_spi(Testing) import SwiftRex
@_spi(Testing) import SwiftRexTesting
import Testing

/// A failing assertion on a state holding an `IdentifiedArray` reads like one on an array: the
/// elements that differ, found by id, never the collection's storage, journal or version.
@MainActor
@Suite struct TestStoreIdentifiedArrayMessageTests {
    struct Row: Sendable, Equatable, Identifiable {
        var id: Int
        var title: String
        var done = false
    }

    struct State: Sendable, Equatable {
        var rows: IdentifiedArray<Row> = []
        var filter = ""
    }

    enum Action: Sendable, Equatable {
        case rename(id: Int, title: String)
        case remove(id: Int)
    }

    static let rows = Behavior<Action, State, Void>.reduce { action, state in
        switch action {
        case .rename(let id, let title): state.rows[id: id]?.title = title
        case .remove(let id): state.rows.remove(id: id)
        }
    }

    static func state(rows count: Int) -> State {
        State(rows: IdentifiedArray((0..<count).map { Row(id: $0, title: "row \($0)") }))
    }

    /// The storage's names, which a message must never show.
    static let internals = ["slots", "slotByID", "journal", "version", "liveCount", "head"]

    @Test func aWrongAssertionOnOneRowOfAHundredThousandShowsThatRowByID() async {
        let store = TestStore(initial: Self.state(rows: 100_000), behavior: Self.rows)
        let message = await recordedMessage {
            store.send(.rename(id: 41_999, title: "buy oat milk")) { $0.rows[id: 41_999]?.title = "buy milk" }
        }
        #expect(message.contains(".rows (100000 elements)"), "\(message)")
        #expect(message.contains("[41999] (id: 41999)"), "\(message)")
        #expect(message.contains("−       .title: \"buy milk\""), "\(message)")
        #expect(message.contains("+       .title: \"buy oat milk\""), "\(message)")
        for name in Self.internals { #expect(!message.contains(name), "\(name) in:\n\(message)") }
        #expect(message.utf8.count < 600, "message of \(message.utf8.count) bytes:\n\(message)")
    }

    @Test func aRemovedRowIsShownAsThatRowAndTheRowsAfterItAreNotShifted() async {
        let store = TestStore(initial: Self.state(rows: 1_000), behavior: Self.rows)
        let message = await recordedMessage {
            store.send(.remove(id: 10))
        }
        #expect(message.contains("−     [10]: Row(id: 10, title: \"row 10\", done: false)"), "\(message)")
        #expect(!message.contains("[11]"), "later rows are paired by id, not by position:\n\(message)")
        for name in Self.internals { #expect(!message.contains(name), "\(name) in:\n\(message)") }
    }

    @Test func rowsChangedRemovedAndInsertedArePairedByID() {
        let expected = Self.state(rows: 1_000)
        var actual = expected
        actual.rows.remove(id: 10)
        actual.rows[id: 500]?.done = true
        actual.rows.append(Row(id: 5_000, title: "new"))
        let text = stateDifference(expected: expected, actual: actual)
        #expect(text.contains("[500] (id: 500)"), "the changed row is found by id despite the removal:\n\(text)")
        #expect(text.contains("−       .done: false") && text.contains("+       .done: true"), "\(text)")
        #expect(text.contains("−     [10]: Row(id: 10, title: \"row 10\", done: false)"), "\(text)")
        #expect(text.contains("+     [999]: Row(id: 5000, title: \"new\", done: false)"), "\(text)")
        #expect(text.split(separator: "\n").count < 12, "\(text)")
    }

    @Test func theDifferenceDoesWorkLinearInTheCollectionSize() {
        func work(rows count: Int) -> Int {
            let expected = Self.state(rows: count)
            var actual = expected
            actual.rows[id: count / 2]?.title = "changed"
            let report = stateDifferenceReport(expected: expected, actual: actual)
            #expect(report.differences == 1)
            return report.comparisons
        }
        let small = work(rows: 1_000)
        let large = work(rows: 100_000)
        #expect(large <= 2 * 100_000 + 50, "\(large) comparisons for 100,000 rows")
        #expect(large <= 101 * small)
    }

    @Test func aCollectionShownWholeIsShownAsItsElements() {
        let expected: IdentifiedArray<Row>? = nil
        let actual: IdentifiedArray<Row>? = [Row(id: 1, title: "a"), Row(id: 2, title: "b")]
        let text = stateDifference(expected: expected, actual: actual)
        #expect(text.contains(": [Row(id: 1, title: \"a\", done: false), Row(id: 2, title: \"b\", done: false)]"), "\(text)")
        for name in Self.internals { #expect(!text.contains(name), "\(name) in:\n\(text)") }
    }

    @Test func elementsThatAreNotEquatableArePairedByIDThroughReflection() {
        struct Opaque: Identifiable {
            var id: Int
            var note: String
        }
        struct Holder { var items: IdentifiedArray<Opaque> }
        let expected = Holder(items: [Opaque(id: 1, note: "a"), Opaque(id: 2, note: "b"), Opaque(id: 3, note: "c")])
        var actual = expected
        actual.items.remove(id: 1)
        actual.items[id: 3]?.note = "changed"
        let text = stateDifference(expected: expected, actual: actual)
        #expect(text.contains("−     [0]: Opaque(id: 1, note: \"a\")"), "\(text)")
        #expect(text.contains("[2] (id: 3)") && text.contains(".note: \"c\"") && text.contains(".note: \"changed\""), "\(text)")
        #expect(!text.contains("(id: 2)"), "the unchanged element is paired by id, not shifted:\n\(text)")
        for name in Self.internals { #expect(!text.contains(name), "\(name) in:\n\(text)") }
    }

    @Test func theIDsViewIsComparedAsItsIDs() {
        let expected: IdentifiedArray<Row> = [Row(id: 1, title: "a"), Row(id: 2, title: "b")]
        let actual: IdentifiedArray<Row> = [Row(id: 1, title: "a"), Row(id: 3, title: "b")]
        let text = stateDifference(expected: expected.ids, actual: actual.ids)
        #expect(text.contains("[1]: 2") && text.contains("[1]: 3"), "\(text)")
        #expect(!text.contains("base"), "\(text)")
        for name in Self.internals { #expect(!text.contains(name), "\(name) in:\n\(text)") }
    }
}
