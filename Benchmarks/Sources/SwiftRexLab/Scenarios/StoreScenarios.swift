import Baselines
import LabCore
import SwiftRex

/// Store dispatch: the full pipeline as a user calls it, from this (another) module.
@MainActor
enum StoreScenarios {
    /// `store.dispatch.*` scenarios.
    static var all: [Scenario] {
        [
            Scenario(name: "store.dispatch.reducer.noObserver") {
                dispatchLoop(Store(initial: CounterState(), reducer: counterReducer), observers: 0)
            },
            Scenario(name: "store.dispatch.reducer") {
                dispatchLoop(Store(initial: CounterState(), reducer: counterReducer), observers: 1)
            },
            Scenario(name: "store.dispatch.reducer.identityMiddleware") {
                dispatchLoop(
                    Store(
                        initial: CounterState(), reducer: counterReducer, middleware: Middleware<CounterAction, CounterState, Void>.identity,
                        environment: ()),
                    observers: 1
                )
            },
            Scenario(name: "store.dispatch.behavior.combine8") {
                dispatchLoop(Store(initial: CounterState(), behavior: fluentBehavior(units: 8)), observers: 1)
            },
            Scenario(name: "store.dispatch.behavior.combine64") {
                dispatchLoop(Store(initial: CounterState(), behavior: fluentBehavior(units: 64)), observers: 1)
            },
            Scenario(name: "store.dispatch.buffered") {
                // Dispatch through a deduplicating buffer over a projection of the count's parity:
                // the buffer's observer runs only when the projected value changes.
                let store = Store(initial: CounterState(), reducer: counterReducer)
                let buffer = store.projection(action: { $0 }, state: { $0.count & 1 }).buffer()
                let notifications = Slot(0)
                let token = buffer.observe(didChange: { notifications.value &+= 1 })
                let actions = makeCounterActions()
                let mask = actions.count - 1
                return { iterations in
                    for index in 0..<iterations { buffer.dispatch(actions[index & mask]) }
                    blackHole(token)
                }
            },
            Scenario(name: "store.dispatch.fromObserver") {
                // Each action the loop dispatches is followed by one its observer dispatches
                // (queued while the Store processes, run in the same turn, after it): one
                // operation is the two dispatches, as an app whose views react by dispatching.
                let store = Store(initial: CounterState(), reducer: counterReducer)
                let turn = Alternation()
                let token = store.observe(didChange: {
                    turn.isFollowUp.toggle()
                    if turn.isFollowUp { store.dispatch(.done) }
                })
                let actions = makeCounterActions()
                let mask = actions.count - 1
                return { iterations in
                    for index in 0..<iterations { store.dispatch(actions[index & mask]) }
                    blackHole(token)
                }
            },
            Scenario(name: "store.dispatch.unchanged") {
                // A behavior that reacts to nothing: the fold stays `.unchanged`, no observer runs.
                let store = Store(initial: CounterState(), behavior: Behavior<CounterAction, CounterState, Void>.react { _, _ in .doNothing })
                let notifications = Slot(0)
                let token = store.observe(willChange: { notifications.value &+= 1 }, didChange: { notifications.value &+= 1 })
                store.dispatch(.increment)
                precondition(notifications.value == 0, "an .unchanged action notified an observer")
                return { iterations in
                    for _ in 0..<iterations { store.dispatch(.increment) }
                    blackHole(token)
                }
            },
        ]
    }

    /// A fluent chain of `units` reduce units; each adds its own step.
    static func fluentBehavior(units: Int) -> Behavior<CounterAction, CounterState, Void> {
        (0..<units).reduce(Behavior<CounterAction, CounterState, Void>.identity) { behavior, step in
            behavior.reduce { action, state in
                switch action {
                case .increment: state.count &+= step
                case .decrement: state.count &-= step
                case .done: break
                }
            }
        }
    }

    /// The measured loop: `store.dispatch` with `observers` didChange observers.
    static func dispatchLoop<Environment>(_ store: Store<CounterAction, CounterState, Environment>, observers: Int) -> Measured {
        let actions = makeCounterActions()
        let mask = actions.count - 1
        let notifications = Slot(0)
        let tokens = (0..<observers).map { _ in store.observe(didChange: { notifications.value &+= 1 }) }
        return { iterations in
            for index in 0..<iterations { store.dispatch(actions[index & mask]) }
            blackHole(tokens)
        }
    }
}

/// Reconcile: a supervised store with N channels, dispatching actions that mutate state.
@MainActor
enum ReconcileScenarios {
    /// Channel counts of the reconcile scenarios.
    static let sizes = [1_000, 10_000, 100_000]

    /// Instructions counted at 1,000 and 100,000 channels (setting up 100,000 under valgrind takes
    /// a few seconds): the growth check needs the two ends a decade and a half apart, where an
    /// O(n log n) pass grows 1.67× faster than the O(n) reconcile.
    static let countedAtBothEnds = InstructionCounting.counted()

    /// `reconcile.unchanged`, `reconcile.oneChanged`, `reconcile.addRemove`.
    static var all: [Scenario] {
        [
            Scenario(name: "reconcile.unchanged", sizes: sizes, allocationIterations: 4, instructions: countedAtBothEnds) { size in
                // Two equal desired sets built apart (distinct arrays, distinct keys): every
                // reconcile compares the whole set, as it must when a supervision rebuilds its list.
                reconcileLoop([channels(size, broadcastOffset: 0), channels(size, broadcastOffset: 0)])
            },
            Scenario(name: "reconcile.oneChanged", sizes: sizes, allocationIterations: 4, instructions: countedAtBothEnds) { size in
                // Two desired sets that differ in one channel's broadcast value.
                reconcileLoop([channels(size, broadcastOffset: 0), channels(size, broadcastOffset: 0, changing: size / 2)])
            },
            Scenario(name: "reconcile.addRemove", sizes: sizes, allocationIterations: 4, instructions: countedAtBothEnds) { size in
                // Two desired sets: one channel leaves and another arrives.
                let base = channels(size, broadcastOffset: 0)
                var swapped = base
                swapped[size / 2] = channel(id: size + 1, value: 0)
                return reconcileLoop([base, swapped])
            },
        ]
    }

    static func channel(id: Int, value: Int) -> Channel<CounterAction> {
        Channel(id: id, broadcasting: .onChange(value)) { _ in
            ChannelHandler(receive: { _ in }, cancel: {})
        }
    }

    static func channels(_ count: Int, broadcastOffset: Int, changing changed: Int? = nil) -> Keep<CounterAction> {
        (0..<count).map { id in channel(id: id, value: id == changed ? -1 : id + broadcastOffset) }
    }

    /// Each dispatch mutates the state; the supervisor alternates between prebuilt desired sets
    /// (built once, so the measurement is the Store's reconcile, not the user's channel building).
    static func reconcileLoop(_ sets: [Keep<CounterAction>]) -> Measured {
        let supervisions = sets.map { keep in Supervision<CounterAction, Void> { _ in keep } }
        let behavior = Behavior<CounterAction, CounterState, Void>
            .reduce { action, state in counterReduce(action, &state) }
            .supervise { state in supervisions[state.count & 1] }
        let store = Store(initial: CounterState(), behavior: behavior)
        return { iterations in
            for _ in 0..<iterations { store.dispatch(.increment) }
        }
    }
}

/// Whether the next change an observer hears is the follow-up it dispatched itself. Unchecked:
/// only the main actor's observer touches it, and a checked class property costs the scenario
/// about 150 instructions of dynamic exclusivity checks per operation.
final class Alternation {
    @exclusivity(unchecked) var isFollowUp = false
}
