import SwiftRex
import Testing

/// An app action that names its state and environment lets lifts infer their key paths' roots,
/// and still lifts into other types where the host names them.
@MainActor
@Suite struct DomainActionTests {
    enum RowAction: Sendable, Equatable { case bump }
    struct Row: Sendable, Equatable, Identifiable {
        var id: Int
        var bumps = 0
    }
    struct Environment: Sendable { var step = 1 }
    struct State: Sendable, Equatable {
        var count = 0
        var rows: [Row] = []
    }
    enum Action: Sendable, Equatable, DomainAction {
        typealias DomainState = State
        typealias DomainEnvironment = Environment
        case count(Int)
        case row(ElementAction<Int, RowAction>)
    }
    static let countPrism = Prism<Action, Int>(preview: { if case .count(let n) = $0 { n } else { nil } }, review: Action.count)
    static let rowPrism = Prism<Action, ElementAction<Int, RowAction>>(
        preview: { if case .row(let a) = $0 { a } else { nil } }, review: Action.row)

    @Test func leadingDotKeyPathsTakeTheirRootsFromTheActionsDomain() {
        let counter = Behavior<Int, Int, Int>.reduce { amount, count in count += amount }
        let rows = Reducer<RowAction, Row>.reduce { _, row in row.bumps += 1 }

        let lifted = counter.lift(.action(Self.countPrism).state(\.count).environment(\.step))
        let routed = rows.liftCollection(.action(Self.rowPrism).state(\.rows))
        let app = Behavior.combine(lifted, routed.asBehavior())

        let store = Store(initial: State(rows: [Row(id: 1)]), behavior: app, environment: Environment())
        store.dispatch(.count(2))
        store.dispatch(.row(ElementAction(1, action: .bump)))
        #expect(store.state == State(count: 2, rows: [Row(id: 1, bumps: 1)]))
    }

    @Test func aHostThatNamesOtherTypesStillLiftsTheSameAction() {
        struct Other: Sendable, Equatable { var total = 0 }
        let counter = Reducer<Int, Int>.reduce { amount, count in count += amount }

        let lifted: Reducer<Action, Other> = counter.lift(.action(Self.countPrism).state(\Other.total))

        var other = Other()
        lifted.apply(.count(3), to: &other)
        #expect(other == Other(total: 3))
    }
}
