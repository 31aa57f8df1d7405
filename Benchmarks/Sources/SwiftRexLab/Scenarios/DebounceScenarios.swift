import LabCore
import SwiftRex

/// Debounces at scale: many keyed debounces pending on one store, one restarted per dispatch.
/// Next to `effects.debounce.storm` (one key restarted by every dispatch), this one shows what a
/// restart costs when many other timers wait: the ratio of its two sizes is a target.
@MainActor
enum DebounceScenarios {
    /// `effects.debounce.pending`.
    static var all: [Scenario] {
        [
            Scenario(name: "effects.debounce.pending", sizes: [100, 10_000]) { size in
                // `size` keys debounced on a manual clock that never moves: every dispatch
                // restarts one of them, in turn, and all stay pending.
                let store = pendingStore()
                for id in 0..<size { store.dispatch(.restart(id)) }
                precondition(store.registeredEffectCount == size, "the debounces are not all pending")
                var next = 0
                return { iterations in
                    for _ in 0..<iterations {
                        store.dispatch(.restart(next))
                        next = next + 1 == size ? 0 : next + 1
                    }
                }
            }
        ]
    }

    /// A store whose `.restart(id)` debounces, under `id`, an effect answering `.fired(id)`.
    static func pendingStore() -> Store<DebounceAction, DebounceState, Void> {
        let behavior = Behavior<DebounceAction, DebounceState, Void>
            .reduce { action, state in
                if case .fired = action { state.fired &+= 1 }
            }
            .produce { action, _ in
                guard case .restart(let id) = action else { return .doNothing }
                return Producer { _ in .just(.fired(id), scheduling: .debounce(id: id, delay: .milliseconds(300))) }
            }
        let clock = ManualClock()
        return Store(initial: DebounceState(), behavior: behavior, environment: (), clock: { _ in clock })
    }
}

/// Actions of `effects.debounce.pending`: restart the debounce under an id; its answer.
enum DebounceAction: Sendable, Equatable {
    case restart(Int)
    case fired(Int)
}

/// State of `effects.debounce.pending`: how many debounced effects answered (none, while measured).
struct DebounceState: Sendable, Equatable {
    var fired = 0
}
