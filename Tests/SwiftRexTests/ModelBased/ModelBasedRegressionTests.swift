import SwiftRex
import Testing

/// Shrunk sequences the model-based test found, kept as plain regression tests.
@MainActor
@Suite struct ModelBasedRegressionTests {
    typealias M = ModelBased

    /// Leavers are cancelled in the previous state's container order. A pure reorder changes
    /// no channel, but it is still the order the next reconcile must follow: the Store used to keep
    /// the order of the last reconcile that changed something, so after `reverse` the leavers were
    /// closed in the pre-reverse order (found by the model with seed 1592590337, sequence 32).
    @Test func leaversAreCancelledInThePreviousContainerOrderAfterAPureReorder() async {
        let steps: [M.Step] = [
            .dispatch(.row(ElementAction(1, action: .toggleFeed))),
            .dispatch(.insert(4)),
            .dispatch(.reverse),
            .dispatch(.rebuild([1, 2, 0, 5])),
        ]
        let failure = await M.run(steps)
        #expect(failure == nil, "\(String(describing: failure))")
    }

    /// The same through the Store alone, with the closing order spelled out.
    @Test func aReorderedDesiredSetIsRememberedInItsNewOrder() {
        let log = EventLog()
        let behavior = Behavior<[Int], [Int], Void>
            .reduce { action, state in state = action }
            .supervise { ids in
                Supervision { _ in
                    ids.map { id in Channel<[Int]>(id: id) { _ in .cancelOnly { log.append("close \(id)") } } }
                }
            }
        let store = Store(initial: [1, 2, 3], behavior: behavior)
        store.dispatch([3, 2, 1])
        store.dispatch([])
        #expect(log.events == ["close 3", "close 2", "close 1"])
    }
}
