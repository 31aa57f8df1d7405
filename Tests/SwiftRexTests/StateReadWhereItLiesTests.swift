import Testing

@testable import SwiftRex

/// Lifted features read their state where it lies, never a copy: what a producer, a supervision
/// and an optional or collection lift see, and what a context kept past its read sees.
@MainActor
struct StateReadWhereItLiesTests {
    struct Row: Sendable, Equatable, Identifiable {
        var id: Int
        var count = 0
    }

    struct Rows: Sendable, Equatable {
        var rows: [Row]
        var detail: Row?
    }

    enum RowAction: Sendable, Equatable { case bump }

    enum RowsAction: Sendable, Equatable {
        case all(RowAction)
        case row(ElementAction<Int, RowAction>)
        case detail(RowAction)
    }

    static let all = Prism<RowsAction, RowAction>(preview: { if case .all(let a) = $0 { a } else { nil } }, review: RowsAction.all)
    static let row = Prism<RowsAction, ElementAction<Int, RowAction>>(
        preview: { if case .row(let a) = $0 { a } else { nil } }, review: RowsAction.row)
    static let detail = Prism<RowsAction, RowAction>(preview: { if case .detail(let a) = $0 { a } else { nil } }, review: RowsAction.detail)

    /// Contexts a producer kept past its phase 1, and what each read while it ran.
    final class Kept {
        var contexts: [PreReducerContext<Row>] = []
        var seen: [Row] = []
    }

    static func bumping(_ kept: Kept) -> Behavior<RowAction, Row, Void> {
        Behavior<RowAction, Row, Void>.reduce { _, row in row.count += 1 }
            .produce { _, context in
                if let row = context.stateBefore { kept.seen.append(row) }
                kept.contexts.append(context)
                return .doNothing
            }
    }

    @Test("a producer under liftEach reads each element as it was before the reducer; a context kept past it reads nothing")
    func broadcastProducerReadsEachElement() {
        let kept = Kept()
        let store = Store(
            initial: Rows(rows: [Row(id: 1), Row(id: 2, count: 5)]),
            behavior: Self.bumping(kept).liftEach(.action(broadcast: Self.all, into: Self.row).state(\Rows.rows)), environment: ())
        store.dispatch(.all(.bump))
        #expect(kept.seen == [Row(id: 1), Row(id: 2, count: 5)])
        #expect(store.state.rows == [Row(id: 1, count: 1), Row(id: 2, count: 6)])
        #expect(kept.contexts.count == 2)
        #expect(kept.contexts.allSatisfy { $0.stateBefore == nil })
    }

    @Test("a producer under liftCollection reads the addressed element; under liftOptional the present focus, and nothing when absent")
    func addressedAndOptionalProducersReadTheirFocus() {
        let kept = Kept()
        let feature = Behavior<RowsAction, Rows, Void>.combine(
            Self.bumping(kept).liftCollection(.action(Self.row).state(\Rows.rows)),
            Self.bumping(kept).liftOptional(\Rows.detail).lift(.action(Self.detail)))
        let store = Store(initial: Rows(rows: [Row(id: 1), Row(id: 2, count: 5)], detail: Row(id: 9, count: 3)), behavior: feature, environment: ())
        store.dispatch(.row(ElementAction(2, action: .bump)))
        store.dispatch(.detail(.bump))
        #expect(kept.seen == [Row(id: 2, count: 5), Row(id: 9, count: 3)])
        #expect(store.state.rows == [Row(id: 1), Row(id: 2, count: 6)])
        #expect(store.state.detail == Row(id: 9, count: 4))
        store.dispatch(.row(ElementAction(7, action: .bump)))
        #expect(kept.seen.count == 2)
    }

    @Test("an optional lift's reducer and supervision see the focus while present, and neither runs once it is nil")
    func optionalFocusIsReadInPlace() {
        let opened = OpenedIDs()
        let detail = Behavior<RowAction, Row, Void>.reduce { _, row in row.count += 1 }
            .supervise { row in
                let count = row.count
                return Supervision { _ in
                    [
                        Channel<RowAction>(id: "count", broadcasting: .onChange(count)) { _ in
                            ChannelHandler(receive: { opened.values.append($0) }, cancel: {})
                        }
                    ]
                }
            }
        let clear = Behavior<RowsAction, Rows, Void>.reduce { action, rows in
            if case .all = action { rows.detail = nil }
        }
        let store = Store(
            initial: Rows(rows: [], detail: Row(id: 9)),
            behavior: .combine(detail.liftOptional(\Rows.detail).lift(.action(Self.detail)), clear), environment: ())
        store.dispatch(.detail(.bump))
        store.dispatch(.detail(.bump))
        #expect(store.state.detail == Row(id: 9, count: 2))
        #expect(opened.values == [0, 1, 2])
        store.dispatch(.all(.bump))
        store.dispatch(.detail(.bump))
        #expect(store.state.detail == nil)
        #expect(opened.values == [0, 1, 2])
    }

    /// The values a channel received.
    final class OpenedIDs: @unchecked Sendable {
        var values: [Int] = []
    }
}
