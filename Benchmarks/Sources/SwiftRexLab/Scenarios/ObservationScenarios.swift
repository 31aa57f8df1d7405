import Baselines
import LabCore
import Observation
import SwiftRex
import Synchronization

/// `withObservationTracking` through the Store, as SwiftUI drives it: one client reads one value,
/// is told of the change, and tracks again (a view's body evaluated after each invalidation).
@MainActor
enum ObservationScenarios {
    /// `store.observe.tracking` and its control, `store.observe.slices` and its closure twin,
    /// `store.observe.rows`.
    static var all: [Scenario] {
        [
            Scenario(
                name: "store.observe.rows", sizes: [100, 10_000, 100_000], allocationIterations: 64,
                instructions: .counted(maxSize: 10_000)
            ) { size in
                // One observer per row, each on its row's element projection, as a list UI with an
                // observer per row; each dispatch edits one row, so one row's observer has news.
                rowObserverLoop(size: size)
            },
            Scenario(name: "store.observe.slices") {
                // The case-indexed app with one observer per feature, each on its feature's
                // key-path projection: a dispatch calls the one observer of the feature it writes.
                wideSliceLoop(byKeyPath: true)
            },
            Scenario(name: "store.observe.slices.closures") {
                // The same fifty observers on closure projections, which no key path locates:
                // every dispatch calls all fifty.
                wideSliceLoop(byKeyPath: false)
            },
            Scenario(name: "store.observe.tracking") {
                // The counter dispatch of `store.dispatch.reducer`, its one observer being a
                // tracked read of `count` that every action changes.
                let store = Store(initial: CounterState(), reducer: counterReducer)
                let changes = ChangeCount()
                let track = { blackHole(withObservationTracking({ store.observed.count }, onChange: { changes.increment() })) }
                return trackingLoop(changes, track: track) { store.dispatch($0) }
            },
            Scenario(name: "store.observe.tracking.raw") {
                // The control: what Observation itself costs for the same client, a class whose
                // one property is registered and mutated as `@Observable` expands it.
                let counter = ObservedCounter()
                let changes = ChangeCount()
                let track = { blackHole(withObservationTracking({ counter.count }, onChange: { changes.increment() })) }
                return trackingLoop(changes, track: track) { action in
                    counter.count &+= action == .increment ? 1 : -1
                }
            },
        ]
    }

    /// The measured loop: each action changes the tracked value, the client is told once, then
    /// tracks again; setup checks that it is told exactly once per action.
    static func trackingLoop(_ changes: ChangeCount, track: @escaping () -> Void, apply: @escaping (CounterAction) -> Void) -> Measured {
        let actions = makeCounterActions()
        let mask = actions.count - 1
        track()
        for index in 0..<8 {
            apply(actions[index & mask])
            track()
        }
        precondition(changes.value == 8, "a tracked client was not told exactly once per change")
        return { iterations in
            for index in 0..<iterations {
                apply(actions[index & mask])
                track()
            }
        }
    }
}

/// How many times tracked clients were told (from a `@Sendable` callback).
final class ChangeCount: Sendable {
    private let count = Atomic<Int>(0)

    func increment() { count.add(1, ordering: .relaxed) }

    var value: Int { count.load(ordering: .relaxed) }
}

/// One observable property, written as the `@Observable` macro expands it.
@MainActor
final class ObservedCounter: Observable {
    private let registrar = ObservationRegistrar()
    private var storedCount = 0

    var count: Int {
        get {
            registrar.access(self, keyPath: \.count)
            return storedCount
        }
        set {
            registrar.withMutation(of: self, keyPath: \.count) { storedCount = newValue }
        }
    }
}

extension ObservationScenarios {
    /// The case-indexed fifty-feature app with one observer per feature, on a key-path projection
    /// (`byKeyPath`) or a closure projection of the feature.
    static func wideSliceLoop(byKeyPath: Bool) -> Measured {
        let store = Store(initial: NestedLiftScenarios.WideState(), reducer: NestedLiftScenarios.wide50CaseIndexed)
        let notifications = Slot(0)
        let tokens = (0..<50).map { index in
            let path = NestedLiftScenarios.widePaths[index]
            let projection =
                byKeyPath
                ? store.projection(action: NestedLiftScenarios.caseIndexedPrisms[index], state: path)
                : store.projection(action: NestedLiftScenarios.caseIndexedPrisms[index].review, state: { $0[keyPath: path] })
            return projection.observe(didChange: { notifications.value &+= 1 })
        }
        let counters = makeCounterActions()
        let actions = (0..<64).map { NestedLiftScenarios.caseIndexedPrisms[($0 &* 37) % 50].review(counters[$0]) }
        return { iterations in
            for index in 0..<iterations { store.dispatch(actions[index & 63]) }
            blackHole(tokens)
        }
    }

    /// `size` rows, one element-projection observer per row, one row edited per dispatch.
    static func rowObserverLoop(size: Int) -> Measured {
        typealias L = LiftScenarios
        let store = Store(
            initial: L.Rows(rows: (0..<size).map { L.Row(id: $0) }), reducer: L.rowReducer.liftCollection(.action(L.rowPrism).state(\L.Rows.rows)))
        let notifications = Slot(0)
        let tokens = (0..<size).map { id in
            store.projection(.action(L.rowPrism).state(\L.Rows.rows), element: id).observe(didChange: { notifications.value &+= 1 })
        }
        let ids = (0..<1_024).map { ($0 &* 7_919) % size }
        return { iterations in
            for index in 0..<iterations { store.dispatch(.row(ElementAction(ids[index & 1_023], action: .increment))) }
            blackHole(tokens)
        }
    }
}
