import Baselines
import LabCore
import SwiftRex

/// Lifting: routing an addressed action to one element of N, broadcasting to every element, and a
/// lifted mutation of a large payload against the unlifted one.
@MainActor
enum LiftScenarios {
    /// Collection sizes of the sized lift scenarios.
    static let sizes = [100, 1_000, 10_000, 100_000]

    struct Row: Identifiable, Sendable, Equatable {
        var id: Int
        var count = 0
    }

    struct IdentifiedRows: Sendable, Equatable {
        var rows: IdentifiedArray<Row>
    }

    struct Rows: Sendable, Equatable {
        var rows: [Row]
        var payload = CounterState(payloadSize: 100_000)
        var detail: CounterState?
    }

    enum RowsAction: Sendable, Equatable {
        case row(ElementAction<Int, CounterAction>)
        case all(CounterAction)
        case payload(CounterAction)
    }

    static let rowPrism = Prism<RowsAction, ElementAction<Int, CounterAction>>(
        preview: { if case .row(let action) = $0 { action } else { nil } }, review: RowsAction.row)
    static let allPrism = Prism<RowsAction, CounterAction>(
        preview: { if case .all(let action) = $0 { action } else { nil } }, review: RowsAction.all)
    static let payloadPrism = Prism<RowsAction, CounterAction>(
        preview: { if case .payload(let action) = $0 { action } else { nil } }, review: RowsAction.payload)

    /// A preview and an in-place reduce that a hand-written lift calls, held generically (as a
    /// prism and a reducer unit hold theirs), so each is called without a re-abstraction thunk.
    struct HandLift<Global, Local, Part>: Sendable {
        let preview: @Sendable (Global) -> Local?
        let run: @Sendable (Local, inout Part) -> Void
    }

    /// `lift.payload` written by hand: one unlifted reducer on the whole state that calls the
    /// prism's preview, then the counter, both known only at run time.
    static func handLifted(_ lift: HandLift<RowsAction, CounterAction, CounterState>) -> Reducer<RowsAction, Rows> {
        .reduce { action, rows in
            guard let local = lift.preview(action) else { return }
            lift.run(local, &rows.payload)
        }
    }

    static let rowReducer = Reducer<CounterAction, Row>.reduce { action, row in
        switch action {
        case .increment: row.count &+= 1
        case .decrement: row.count &-= 1
        case .done: break
        }
    }

    /// Rows held by a class with a raw `[ID: Int]` index of their positions: the control of routing
    /// an action to one row by id (a hashed lookup and an array write).
    final class RawIndexedRows {
        var rows: [Row]
        let positions: [Int: Int]
        init(rows: [Row]) {
            self.rows = rows
            positions = Dictionary(uniqueKeysWithValues: rows.indices.map { (rows[$0].id, $0) })
        }

        @inline(never)
        func increment(id: Int) {
            if let position = positions[id] { rows[position].count &+= 1 }
        }
    }

    /// Rows held by a class and incremented by a plain loop: the raw control of a broadcast.
    final class RawRows {
        var rows: [Row]
        init(rows: [Row]) { self.rows = rows }

        @inline(never)
        func incrementAll() {
            for index in rows.indices { rows[index].count &+= 1 }
        }
    }

    /// The counter reducer on an optional slice, through `liftOptional`.
    static let optionalCounter = Behavior<CounterAction, CounterState, Void>(reducer: counterReducer, middleware: .identity)
        .liftOptional(.state(\Rows.detail))

    /// Sizes of the supervised fan-out scenario.
    static let reconcileSizes = [1_000, 10_000, 100_000]

    /// Rows that each keep a channel broadcasting the row's count (its body does nothing).
    /// Each row keeps one channel open that broadcasts the row's count.
    static let rowSupervision: @MainActor @Sendable (Row) -> Supervision<CounterAction, Void> = { row in
        Supervision { _ in
            [
                Channel<CounterAction>(id: 0, broadcasting: .onChange(row.count)) { _ in
                    ChannelHandler(receive: { _ in }, cancel: {})
                }
            ]
        }
    }

    static let supervisedRows = Behavior<CounterAction, Row, Void>(reducer: rowReducer, middleware: .identity)
        .supervise(rowSupervision)
        .liftCollection(.action(rowPrism).state(\Rows.rows))

    /// The control of a one-row reconcile: rows routed by a raw `[ID: Int]` index, the changed
    /// row's supervision evaluated with the same closure, its channel compared by hand with the
    /// one it replaces, and a new broadcast value handed straight to the handler.
    @MainActor
    final class RawSupervisedRows {
        var rows: [Row]
        let positions: [Int: Int]
        var channelIDs: [AnyHashableSendable?]
        var broadcasts: [AnyHashableSendable?]
        let handler = ChannelHandler<Int>(receive: { _ in }, cancel: {})

        init(rows: [Row]) {
            self.rows = rows
            positions = Dictionary(uniqueKeysWithValues: rows.indices.map { (rows[$0].id, $0) })
            channelIDs = Array(repeating: nil, count: rows.count)
            broadcasts = Array(repeating: nil, count: rows.count)
            for position in rows.indices { evaluate(position) }
        }

        @inline(never)
        func increment(id: Int) {
            guard let position = positions[id] else { return }
            rows[position].count &+= 1
            evaluate(position)
        }

        private func evaluate(_ position: Int) {
            for channel in rowSupervision(rows[position]).runReader(()) {
                if channel.id != channelIDs[position] { channelIDs[position] = channel.id }
                if channel.broadcastIdentity != broadcasts[position] {
                    broadcasts[position] = channel.broadcastIdentity
                    handler.receive(rows[position].count)
                }
            }
        }
    }

    /// `reconcile.oneRowChanged` (and its raw control), `lift.optional.present`/`.absent`, `lift.collection.byId` (and its raw dictionary control, and the same over an `IdentifiedArray`), `lift.each.broadcast`, `lift.projection.element`, `lift.payload`,
    /// `lift.payload.staticLane`, `lift.payload.byHand` and `lift.payload.unlifted`.
    static var all: [Scenario] {
        [
            Scenario(name: "lift.collection.byId", sizes: sizes) { size in
                // One addressed action per dispatch, spread over the collection: O(1) each.
                let store = Store(
                    initial: Rows(rows: (0..<size).map { Row(id: $0) }),
                    reducer:
                        rowReducer.liftCollection(.action(rowPrism).state(\Rows.rows)))
                let ids = (0..<1_024).map { ($0 &* 7_919) % size }
                return { iterations in
                    for index in 0..<iterations {
                        store.dispatch(.row(ElementAction(ids[index & 1_023], action: .increment)))
                    }
                }
            },
            Scenario(name: "lift.collection.byId.identifiedArray", sizes: sizes) { size in
                // lift.collection.byId over an IdentifiedArray: the lane's own id index.
                let store = Store(
                    initial: IdentifiedRows(rows: IdentifiedArray((0..<size).map { Row(id: $0) })),
                    reducer: rowReducer.liftCollection(.action(rowPrism).state(\IdentifiedRows.rows)))
                let ids = (0..<1_024).map { ($0 &* 7_919) % size }
                return { iterations in
                    for index in 0..<iterations {
                        store.dispatch(.row(ElementAction(ids[index & 1_023], action: .increment)))
                    }
                }
            },
            Scenario(name: "lift.collection.byId.rawDictionary", sizes: sizes) { size in
                // The control for lift.collection.byId: the same varying ids routed through a raw
                // `[ID: Int]` index to an array write.
                let holder = RawIndexedRows(rows: (0..<size).map { Row(id: $0) })
                let ids = (0..<1_024).map { ($0 &* 7_919) % size }
                return { iterations in
                    for index in 0..<iterations { holder.increment(id: ids[index & 1_023]) }
                }
            },
            Scenario(name: "lift.each.broadcast", sizes: sizes, allocationIterations: 4) { size in
                // One broadcast action reaches every element in place: cost per op grows with N,
                // cost per element stays flat.
                let store = Store(
                    initial: Rows(rows: (0..<size).map { Row(id: $0) }),
                    reducer:
                        rowReducer.liftEach(.action(broadcast: allPrism, into: rowPrism).state(\Rows.rows)))
                return { iterations in
                    for _ in 0..<iterations { store.dispatch(.all(.increment)) }
                }
            },
            Scenario(name: "lift.each.broadcast.raw", sizes: sizes, allocationIterations: 4) { size in
                // The control for lift.each.broadcast: the same increment of every row written as
                // a plain loop over the array held by a class (compare the per-element cost).
                let holder = RawRows(rows: (0..<size).map { Row(id: $0) })
                return { iterations in
                    for _ in 0..<iterations { holder.incrementAll() }
                }
            },
            Scenario(name: "lift.projection.element", sizes: sizes) { size in
                // Reading one element through an element projection: O(1) amortised at any size.
                let store = Store(
                    initial: Rows(rows: (0..<size).map { Row(id: $0) }), reducer: rowReducer.liftCollection(.action(rowPrism).state(\Rows.rows)))
                let projections = (0..<64).map { store.projection(.action(rowPrism).state(\Rows.rows), element: ($0 &* 7_919) % size) }
                return { iterations in
                    var total = 0
                    for index in 0..<iterations { total &+= projections[index & 63].state?.count ?? 0 }
                    blackHole(total)
                }
            },
            Scenario(name: "reconcile.oneRowChanged", sizes: reconcileSizes, instructions: ReconcileScenarios.countedAtBothEnds) { size in
                // Incremental reconcile: every row supervises a channel broadcasting its count; each dispatch
                // increments one row, so exactly one channel's broadcast changes and is delivered.
                // Only that row is re-evaluated and reconciled: flat from 1k to 100k rows.
                let store = Store(
                    initial: Rows(rows: (0..<size).map { Row(id: $0) }, payload: CounterState()), behavior: supervisedRows, environment: ())
                let ids = (0..<1_024).map { ($0 &* 7_919) % size }
                return { iterations in
                    for index in 0..<iterations {
                        store.dispatch(.row(ElementAction(ids[index & 1_023], action: .increment)))
                    }
                }
            },
            Scenario(name: "reconcile.oneRowChanged.raw", sizes: reconcileSizes, instructions: ReconcileScenarios.countedAtBothEnds) { size in
                // The control for reconcile.oneRowChanged: the same rows, ids and supervision
                // closure, the changed row's channel compared and its broadcast delivered by hand.
                let holder = RawSupervisedRows(rows: (0..<size).map { Row(id: $0) })
                let ids = (0..<1_024).map { ($0 &* 7_919) % size }
                return { iterations in
                    for index in 0..<iterations { holder.increment(id: ids[index & 1_023]) }
                }
            },
            Scenario(name: "lift.optional.present") {
                // liftOptional while the optional slice is present: the counter runs in place.
                let store = Store(initial: Rows(rows: [], detail: CounterState(payloadSize: 100_000)), behavior: optionalCounter, environment: ())
                let actions = makeCounterActions()
                let mask = actions.count - 1
                return { iterations in
                    for index in 0..<iterations { store.dispatch(actions[index & mask]) }
                }
            },
            Scenario(name: "lift.optional.absent") {
                // liftOptional while the slice is nil: a complete no-op (nothing asked, nothing notified).
                let store = Store(initial: Rows(rows: []), behavior: optionalCounter, environment: ())
                let actions = makeCounterActions()
                let mask = actions.count - 1
                return { iterations in
                    for index in 0..<iterations { store.dispatch(actions[index & mask]) }
                }
            },
            Scenario(name: "lift.payload") {
                // A lifted reducer mutating a state that carries a 100k-element payload.
                let store = Store(initial: Rows(rows: []), reducer: counterReducer.lift(.action(payloadPrism).state(\Rows.payload)))
                let actions = makeCounterActions()
                let mask = actions.count - 1
                return { iterations in
                    for index in 0..<iterations { store.dispatch(.payload(actions[index & mask])) }
                }
            },
            Scenario(name: "lift.payload.staticLane") {
                // lift.payload through an action lane whose extract is a method of its own type
                // (what a macro could generate), not a closure: the lift's forwarder is
                // specialised for the lane and holds its `switch`.
                let store = Store(
                    initial: Rows(rows: []),
                    reducer: counterReducer.lift(
                        Relay.Scope(action: PayloadLane(), state: Relay.StateLens(Lens(\Rows.payload)), environment: Relay.Identity<Void>())
                    ))
                let actions = makeCounterActions()
                let mask = actions.count - 1
                return { iterations in
                    for index in 0..<iterations { store.dispatch(.payload(actions[index & mask])) }
                }
            },
            Scenario(name: "lift.payload.byHand") {
                // The floor under lift.payload for a prism and a reducer given as closures: the
                // same two calls written by hand in an unlifted reducer on the whole state.
                let lift = opaque(
                    HandLift<RowsAction, CounterAction, CounterState>(preview: payloadPrism.preview) { action, state in
                        switch action {
                        case .increment: state.count &+= 1
                        case .decrement: state.count &-= 1
                        case .done: break
                        }
                    })
                let store = Store(initial: Rows(rows: []), reducer: handLifted(lift))
                let actions = makeCounterActions()
                let mask = actions.count - 1
                return { iterations in
                    for index in 0..<iterations { store.dispatch(.payload(actions[index & mask])) }
                }
            },
            Scenario(name: "lift.payload.unlifted") {
                // The same mutation through an unlifted reducer on the payload state itself.
                let store = Store(initial: CounterState(payloadSize: 100_000), reducer: counterReducer)
                let actions = makeCounterActions()
                let mask = actions.count - 1
                return { iterations in
                    for index in 0..<iterations { store.dispatch(actions[index & mask]) }
                }
            },
        ]
    }
}

extension LiftScenarios {
    /// The `.payload` case of `RowsAction` as an action lane with a static extract.
    struct PayloadLane: ExtractsAction {
        func extract(_ action: RowsAction) -> CounterAction? {
            if case .payload(let local) = action { local } else { nil }
        }
        var extractedCase: Int? { nil }
    }
}
