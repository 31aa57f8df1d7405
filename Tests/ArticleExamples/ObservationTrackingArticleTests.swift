// swift-format-ignore-file
// (A documentation example, kept verbatim: not reformatted.)
import Observation
import SwiftRex
import Synchronization
import Testing
#if canImport(SwiftUI)
import SwiftUI
#endif

// The code of the Observation Tracking article (Sources/SwiftRex/Documentation.docc/Articles/
// ObservationTracking.md), verbatim (types file-private here): it must compile and behave as the
// article says. The SwiftUI views compile where SwiftUI exists.
private struct Row: Identifiable, Equatable, Sendable {
    let id: Int
    var title: String
    var done = false
}

private enum RowAction: Sendable {
    case toggle
    case rename(String)
}

private enum ListAction: Sendable {
    case row(ElementAction<Int, RowAction>)
}

private struct ListState: Sendable {
    var rows = IdentifiedArray((0..<10_000).map { Row(id: $0, title: "Row \($0)") })
    /// The ids in order: what the list itself depends on.
    var rowIDs: [Int] { Array(rows.ids) }
}

private let listBehavior = Behavior<ListAction, ListState, Void>.reduce { action, state in
    switch action {
    case .row(let element):
        switch element.action {
        case .toggle: state.rows[id: element.id]?.done.toggle()
        case .rename(let title): state.rows[id: element.id]?.title = title
        }
    }
}

#if canImport(SwiftUI)
private struct ListView: View {
    let store: Store<ListAction, ListState, Void>

    var body: some View {
        List(store.observed.rowIDs, id: \.self) { id in
            RowView(row: store.projection(element: id, action: ListAction.row, collection: \.rows))
        }
    }
}

private struct RowView: View {
    let row: StoreProjection<RowAction, Row?>

    var body: some View {
        Button(row.observed[\.?.title] ?? "") { row.dispatch(.toggle) }
    }
}
#endif

/// A thread-safe count of the client's updates.
private final class Updates: Sendable {
    let count = Mutex(0)
}

@MainActor
@Suite struct ObservationTrackingArticleTests {
    @Test func aRowsClientIsToldOnlyOfItsRowsChange() {
        let store = Store(initial: ListState(), behavior: listBehavior)
        let row = store.projection(element: 42, action: ListAction.row, collection: \.rows)
        let title = withObservationTracking {
            row.observed[\.?.title]
        } onChange: {
            print("row 42 changed")
        }
        store.dispatch(.row(ElementAction(7, action: .toggle)))
        store.dispatch(.row(ElementAction(42, action: .rename("Milk"))))
        #expect(title == "Row 42")
        #expect(store.state.rows[id: 42]?.title == "Milk")
    }

    @Test func theListIsToldWhenTheIdsChangeAndEachRowWhenItDoes() {
        let store = Store(initial: ListState(), behavior: listBehavior)
        let updates = Updates()
        let ids = withObservationTracking { store.observed.rowIDs } onChange: { updates.count.withLock { $0 += 100 } }
        let row = store.projection(element: 42, action: ListAction.row, collection: \.rows)
        _ = withObservationTracking { row.observed[\.?.title] } onChange: { updates.count.withLock { $0 += 1 } }
        store.dispatch(.row(ElementAction(7, action: .toggle)))
        #expect(updates.count.withLock { $0 } == 0, "neither the ids nor row 42 changed")
        store.dispatch(.row(ElementAction(42, action: .rename("Milk"))))
        #expect(updates.count.withLock { $0 } == 1, "row 42's client only")
        #expect(ids.count == 10_000)
    }
}
