import Baselines
import LabCore

/// The reference points measured in every run: time gates are ratios to these.
@MainActor
enum BaselineScenarios {
    /// `raw.dispatch` and `naive.dispatch`.
    static var all: [Scenario] {
        [
            Scenario(name: "raw.dispatch", isBaseline: true) {
                let actions = makeCounterActions()
                let slot = Slot(CounterState())
                return { iterations in
                    slot.withValue { state in
                        rawDispatchLoop(state: &state, actions: actions, iterations: iterations)
                    }
                }
            },
            Scenario(name: "naive.dispatch", isBaseline: true) {
                let actions = makeCounterActions()
                let mask = actions.count - 1
                let store = NaiveStore<CounterAction, CounterState>(initial: CounterState()) { action, state in
                    switch action {
                    case .increment: state.count &+= 1
                    case .decrement: state.count &-= 1
                    case .done: break
                    }
                }
                let notifications = Slot(0)
                store.subscribe { notifications.value &+= 1 }
                return { iterations in
                    for index in 0..<iterations { store.dispatch(actions[index & mask]) }
                }
            },
        ]
    }
}
