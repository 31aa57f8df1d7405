import Testing

@testable import SwiftRex

/// An observer of one element (an element projection made with a scope) is called after a
/// dispatch that changed that element, and not after one that changed another element alone.
@MainActor
@Suite struct ElementObserverTests {
    struct Row: Identifiable, Equatable, Sendable {
        var id: Int
        var count = 0
    }

    struct Section: Identifiable, Equatable, Sendable {
        var id: Int
        var rows: [Row] = []
    }

    struct Inner: Equatable, Sendable {
        var rows: [Row] = []
    }

    struct State: Equatable, Sendable {
        var title = ""
        var rows: [Row] = (0..<5).map { Row(id: $0) }
        var table: [String: Row] = ["a": Row(id: 0), "b": Row(id: 1)]
        var inner = Inner(rows: (0..<3).map { Row(id: $0) })
        var sections: [Section] = (0..<3).map { Section(id: $0, rows: (0..<3).map { Row(id: $0) }) }
        var optionalRows: Inner? = Inner(rows: (0..<3).map { Row(id: $0) })
    }

    enum Action: Sendable {
        case row(ElementAction<Int, Int>)
        case other(ElementAction<Int, Int>)
        case entry(ElementAction<String, Int>)
        case inner(ElementAction<Int, Int>)
        case section(ElementAction<Int, ElementAction<Int, Int>>)
        case optional(ElementAction<Int, Int>)
        case append(Int)
        case retitle(String)
    }

    static func prism<Value>(_ extract: @escaping @Sendable (Action) -> Value?, _ embed: @escaping @Sendable (Value) -> Action) -> Prism<
        Action, Value
    > {
        Prism(preview: extract, review: embed)
    }

    static let row = prism({ if case .row(let value) = $0 { value } else { nil } }, Action.row)
    static let other = prism({ if case .other(let value) = $0 { value } else { nil } }, Action.other)
    static let entry = prism({ if case .entry(let value) = $0 { value } else { nil } }, Action.entry)
    static let inner = prism({ if case .inner(let value) = $0 { value } else { nil } }, Action.inner)
    static let section = prism({ if case .section(let value) = $0 { value } else { nil } }, Action.section)
    static let optional = prism({ if case .optional(let value) = $0 { value } else { nil } }, Action.optional)
    /// An element action handed on as it is: the lane of a feature whose action is one already.
    static let same = Prism<ElementAction<Int, Int>, ElementAction<Int, Int>>(preview: { $0 }, review: { $0 })

    static let bump = Behavior<Int, Row, Void>.reduce { amount, row in row.count += amount }
    static let innerRows: Behavior<ElementAction<Int, Int>, Inner, Void> = bump.liftCollection(.action(same).state(\Inner.rows))
    static let sectionRows: Behavior<ElementAction<Int, Int>, Section, Void> = bump.liftCollection(.action(same).state(\Section.rows))
    static let rowsByID: Behavior<Action, State, Void> = bump.liftCollection(.action(row).state(\State.rows))
    static let otherRowsByID: Behavior<Action, State, Void> = bump.liftCollection(.action(other).state(\State.rows))
    static let entries: Behavior<Action, State, Void> = bump.liftCollection(.action(entry).state(dictionary: \State.table))
    static let innerLifted: Behavior<Action, State, Void> = innerRows.lift(.action(inner).state(\State.inner))
    static let sections: Behavior<Action, State, Void> = sectionRows.liftCollection(.action(section).state(\State.sections))
    static let optionalRows: Behavior<Action, State, Void> = innerRows.liftOptional(\State.optionalRows).lift(.action(optional))
    static let append = prism({ if case .append(let value) = $0 { value } else { nil } }, Action.append)
    static let retitle = prism({ if case .retitle(let value) = $0 { value } else { nil } }, Action.retitle)
    static let appending: Behavior<Action, State, Void> = Behavior<Int, [Row], Void>.reduce { id, rows in rows.append(Row(id: id)) }
        .lift(.action(append).state(\State.rows))
    static let retitling: Behavior<Action, State, Void> = Behavior<String, String, Void>.reduce { title, current in current = title }
        .lift(.action(retitle).state(\State.title))

    /// Rows by id (twice, through two action cases), a dictionary, rows inside a key-path lift,
    /// rows inside sections, rows inside an optional, a unit that adds a row and one that retitles.
    static let app = Behavior<Action, State, Void>.combine([
        rowsByID, otherRowsByID, entries, innerLifted, sections, optionalRows, appending, retitling,
    ])

    /// How many times each observer was called, by name.
    @MainActor
    final class Calls {
        var counts: [String: Int] = [:]
        var order: [String] = []

        func watch(_ store: some StoreType, _ name: String) -> SubscriptionToken {
            store.observe(
                willChange: nil,
                didChange: {
                    self.counts[name, default: 0] += 1
                    self.order.append(name)
                })
        }

        /// The names called since the last look, and forgets them.
        func take() -> Set<String> {
            defer { order = [] }
            return Set(order)
        }
    }

    static func rowObservers(_ store: Store<Action, State, Void>, _ calls: Calls) -> [SubscriptionToken] {
        (0..<5).map { calls.watch(store.projection(.action(row).state(\State.rows), element: $0), "row\($0)") }
    }

    @Test func aDispatchToOneRowCallsThatRowsObserverAlone() {
        let store = Store(initial: State(), behavior: Self.app)
        let calls = Calls()
        let tokens = Self.rowObservers(store, calls)
        store.dispatch(.row(ElementAction(2, action: 1)))
        #expect(calls.take() == ["row2"])
        // Another lift over the same rows, located the same way, routes by id as well.
        store.dispatch(.other(ElementAction(4, action: 1)))
        #expect(calls.take() == ["row4"])
        #expect(store.state.rows[2].count == 1 && store.state.rows[4].count == 1)
        _ = tokens
    }

    @Test func aStructuralEditCallsEveryRowsObserverAndAnotherSliceCallsNone() {
        let store = Store(initial: State(), behavior: Self.app)
        let calls = Calls()
        let tokens = Self.rowObservers(store, calls)
        store.dispatch(.append(9))
        #expect(calls.take() == ["row0", "row1", "row2", "row3", "row4"])
        store.dispatch(.retitle("x"))
        #expect(calls.take().isEmpty)
        _ = tokens
    }

    @Test func anActionForAMissingRowCallsNobody() {
        let store = Store(initial: State(), behavior: Self.app)
        let calls = Calls()
        let tokens = Self.rowObservers(store, calls)
        store.dispatch(.row(ElementAction(42, action: 1)))
        #expect(calls.take().isEmpty)
        _ = tokens
    }

    @Test func elementObserversAndOthersAreCalledInSubscriptionOrder() {
        let store = Store(initial: State(), behavior: Self.app)
        let calls = Calls()
        let first = calls.watch(store.projection(.action(Self.row).state(\State.rows), element: 1), "row1")
        let whole = calls.watch(store, "store")
        let second = calls.watch(store.projection(.action(Self.row).state(\State.rows), element: 1), "row1again")
        let rows = calls.watch(store.projection(action: Self.append, state: \State.rows), "rows")
        store.dispatch(.row(ElementAction(1, action: 1)))
        #expect(calls.order == ["row1", "store", "row1again", "rows"])
        _ = (first, whole, second, rows)
    }

    @Test func aRowAddressedByPositionReachesRowsObservedByIdAsAFallback() {
        // The same rows, lifted by position: an id and a position name different rows, so every
        // row observer is called.
        let byPosition: Behavior<Action, State, Void> = Self.bump.liftCollection(.action(Self.row).state(indexed: \State.rows))
        let store = Store(initial: State(), behavior: byPosition)
        let calls = Calls()
        let tokens = Self.rowObservers(store, calls)
        store.dispatch(.row(ElementAction(3, action: 1)))
        #expect(calls.take() == ["row0", "row1", "row2", "row3", "row4"])
        _ = tokens
    }

    @Test func dictionaryEntriesAndRowsInsideALiftedFeatureRouteByKey() {
        let store = Store(initial: State(), behavior: Self.app)
        let calls = Calls()
        let entries = ["a", "b"].map { calls.watch(store.projection(.action(Self.entry).state(dictionary: \State.table), element: $0), $0) }
        let nested = (0..<3).map { calls.watch(store.projection(.action(Self.inner).state(\State.inner.rows), element: $0), "inner\($0)") }
        let projected = (0..<3).map { id in
            calls.watch(
                store.projection(action: Self.inner, state: \State.inner)
                    .projection(.action(Self.same).state(\Inner.rows), element: id),
                "projected\(id)")
        }
        store.dispatch(.entry(ElementAction("b", action: 1)))
        #expect(calls.take() == ["b"])
        store.dispatch(.inner(ElementAction(1, action: 1)))
        #expect(calls.take() == ["inner1", "projected1"])
        #expect(store.state.inner.rows[1].count == 1 && store.state.table["b"]?.count == 1)
        _ = (entries, nested, projected)
    }

    @Test func aRowInsideASectionReachesThatSectionsObserverAlone() {
        let store = Store(initial: State(), behavior: Self.app)
        let calls = Calls()
        let tokens = (0..<3).map {
            calls.watch(store.projection(.action(Self.section).state(\State.sections), element: $0), "section\($0)")
        }
        store.dispatch(.section(ElementAction(2, action: ElementAction(1, action: 1))))
        #expect(calls.take() == ["section2"])
        #expect(store.state.sections[2].rows[1].count == 1)
        _ = tokens
    }

    @Test func aRowInsideAnOptionalReachesTheOptionalsObserversAndNoOtherRows() {
        let store = Store(initial: State(), behavior: Self.app)
        let calls = Calls()
        let rows = Self.rowObservers(store, calls)
        let optional = calls.watch(store.projection(action: Self.optional, state: \State.optionalRows), "optional")
        store.dispatch(.optional(ElementAction(1, action: 1)))
        #expect(calls.take() == ["optional"])
        #expect(store.state.optionalRows?.rows[1].count == 1)
        _ = (rows, optional)
    }

    @Test func aCancelledRowObserverIsNotCalledAndLeavesTheCount() {
        let store = Store(initial: State(), behavior: Self.app)
        let calls = Calls()
        var tokens = Self.rowObservers(store, calls)
        #expect(store.observerCount == 5)
        tokens[2].cancel()
        #expect(store.observerCount == 4)
        store.dispatch(.row(ElementAction(2, action: 1)))
        #expect(calls.take().isEmpty)
        tokens.removeAll()
        #expect(store.observerCount == 0)
        store.dispatch(.append(7))
        #expect(calls.take().isEmpty)
    }

    @Test func aRowObserverCancelledByAnotherDuringANotificationIsNotCalled() {
        let store = Store(initial: State(), behavior: Self.app)
        let calls = Calls()
        var second: SubscriptionToken?
        let first = store.projection(.action(Self.row).state(\State.rows), element: 1).observe(didChange: {
            calls.order.append("first")
            second?.cancel()
        })
        second = calls.watch(store.projection(.action(Self.row).state(\State.rows), element: 1), "second")
        store.dispatch(.row(ElementAction(1, action: 1)))
        #expect(calls.order == ["first"])
        _ = first
    }

    @Test func everyRowObserverHearsWillChangeBeforeEachMutation() {
        let store = Store(initial: State(), behavior: Self.app)
        var heard: [Int] = []
        let tokens = (0..<3).map { id in
            store.projection(.action(Self.row).state(\State.rows), element: id).observe(willChange: { heard.append(id) }, didChange: nil)
        }
        store.dispatch(.row(ElementAction(0, action: 1)))
        #expect(heard == [0, 1, 2])
        _ = tokens
    }

    @Test func manyRowObserversCanBeRemovedOneByOne() {
        let store = Store(initial: State(rows: (0..<2_000).map { Row(id: $0) }), behavior: Self.app)
        var count = 0
        var tokens = (0..<2_000).map { id in
            store.projection(.action(Self.row).state(\State.rows), element: id).observe(didChange: { count += 1 })
        }
        for index in stride(from: 0, to: 2_000, by: 2) { tokens[index].cancel() }
        store.dispatch(.row(ElementAction(10, action: 1)))
        store.dispatch(.row(ElementAction(11, action: 1)))
        #expect(count == 1)
        #expect(store.observerCount == 1_000)
        tokens.removeAll()
        #expect(store.observerCount == 0)
    }
}
