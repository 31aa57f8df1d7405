import Baselines
import LabCore
import SwiftRex
import SwiftRexTestSupport

/// Stack high-water of one dispatch through a real `Store` whose state is 64 KiB of inline value
/// type (`BigState`, fixed-size fields, no heap storage): the stack is painted below the
/// dispatching call, one action is dispatched, and the deepest byte written is the figure
/// (`stackBytes`); `stackMarkBytes` is how deep the reducer body's frame was. A layer that copies
/// the state, even in a getter whose frame is gone before the body runs, shows as ≥ 64 KiB more.
/// `stack.raw` is the control: the same reducer in a naive class store.
@MainActor
enum StackScenarios {
    /// One level of nesting: the state lane of each lift is `\Nest.inner`.
    struct Nest<Inner: Sendable>: Sendable {
        var inner: Inner
    }

    /// The state of `stack.liftOptional`.
    struct OptionalRoot: Sendable {
        var detail: BigState?
    }

    /// One element of `stack.liftCollection`: 64 KiB inline.
    struct BigRow: Identifiable, Sendable {
        var id: Int
        var big = BigState()
    }

    /// The state of `stack.liftCollection`: 64 KiB inline plus four 64 KiB elements.
    struct BigRows: Sendable {
        var inline = BigState()
        var rows: [BigRow] = (0..<4).map { BigRow(id: $0) }
    }

    enum RowsAction: Sendable {
        case row(ElementAction<Int, CounterAction>)
    }

    static let rowPrism = Prism<RowsAction, ElementAction<Int, CounterAction>>(
        preview: { if case .row(let action) = $0 { action } else { nil } }, review: RowsAction.row)

    /// `stack.raw`, `stack.lift1`…`stack.lift3`, `stack.lift3.producer`, `stack.lift3.supervision`,
    /// `stack.liftOptional`, `stack.liftCollection`.
    static var all: [Scenario] {
        [
            stackScenario("stack.raw") { marker in
                // The control: a naive class store running the same body on the same state.
                let store = NaiveStore<CounterAction, BigState>(initial: BigState()) { action, state in
                    bigReduce(action, &state)
                    marker.mark()
                }
                return { store.dispatch($0) }
            },
            stackScenario("stack.lift1") { marker in
                let store = Store(initial: Nest(inner: BigState()), reducer: markedReducer(marker).lift(.state(\Nest<BigState>.inner)))
                return { store.dispatch($0) }
            },
            stackScenario("stack.lift2") { marker in
                let reducer = markedReducer(marker)
                    .lift(.state(\Nest<BigState>.inner))
                    .lift(.state(\Nest<Nest<BigState>>.inner))
                let store = Store(initial: Nest(inner: Nest(inner: BigState())), reducer: reducer)
                return { store.dispatch($0) }
            },
            stackScenario("stack.lift3") { marker in
                let reducer = markedReducer(marker)
                    .lift(.state(\Nest<BigState>.inner))
                    .lift(.state(\Nest<Nest<BigState>>.inner))
                    .lift(.state(\Nest<Nest<Nest<BigState>>>.inner))
                let store = Store(initial: Nest(inner: Nest(inner: Nest(inner: BigState()))), reducer: reducer)
                return { store.dispatch($0) }
            },
            stackScenario("stack.lift3.producer") { marker in
                // A reducer plus a producer (it produces nothing), lifted three levels.
                let behavior = Behavior<CounterAction, BigState, Void>
                    .reduce { action, state in
                        bigReduce(action, &state)
                        marker.mark()
                    }
                    .produce { _, _ in .doNothing }
                let store = Store(initial: Nest(inner: Nest(inner: Nest(inner: BigState()))), behavior: lift3(behavior), environment: ())
                return { store.dispatch($0) }
            },
            stackScenario("stack.lift3.supervision") { marker in
                // A reducer plus a supervision keeping one channel that broadcasts the count.
                let behavior = Behavior<CounterAction, BigState, Void>
                    .reduce { action, state in
                        bigReduce(action, &state)
                        marker.mark()
                    }
                    .supervise { state in
                        Supervision { _ in
                            [
                                Channel<CounterAction>(id: 0, broadcasting: .onChange(state.count)) { _ in
                                    ChannelHandler(receive: { _ in }, cancel: {})
                                }
                            ]
                        }
                    }
                let store = Store(initial: Nest(inner: Nest(inner: Nest(inner: BigState()))), behavior: lift3(behavior), environment: ())
                return { store.dispatch($0) }
            },
            stackScenario("stack.liftOptional") { marker in
                let behavior = Behavior<CounterAction, BigState, Void>
                    .reduce { action, state in
                        bigReduce(action, &state)
                        marker.mark()
                    }
                    .liftOptional(\OptionalRoot.detail)
                let store = Store(initial: OptionalRoot(detail: BigState()), behavior: behavior, environment: ())
                return { store.dispatch($0) }
            },
            stackScenario("stack.liftCollection", wrap: { RowsAction.row(ElementAction($1 & 3, action: $0)) }) { marker in
                // An element reducer over four 64 KiB elements of a state with 64 KiB inline.
                let reducer = Reducer<CounterAction, BigRow>
                    .reduce { action, row in
                        bigReduce(action, &row.big)
                        marker.mark()
                    }
                    .liftCollection(.action(rowPrism).state(\BigRows.rows))
                let store = Store(initial: BigRows(), reducer: reducer)
                return { store.dispatch($0) }
            },
        ]
    }

    /// The reducer body shared by the scenarios.
    nonisolated static func bigReduce(_ action: CounterAction, _ state: inout BigState) {
        switch action {
        case .increment: state.count &+= 1
        case .decrement: state.count &-= 1
        case .done: break
        }
    }

    /// The counter reducer on `BigState`, marking its frame.
    static func markedReducer(_ marker: StackMarker) -> Reducer<CounterAction, BigState> {
        .reduce { action, state in
            bigReduce(action, &state)
            marker.mark()
        }
    }

    /// `behavior` lifted three levels through `\Nest.inner` key paths.
    static func lift3(_ behavior: Behavior<CounterAction, BigState, Void>) -> Behavior<CounterAction, Nest<Nest<Nest<BigState>>>, Void> {
        behavior
            .lift(.state(\Nest<BigState>.inner))
            .lift(.state(\Nest<Nest<BigState>>.inner))
            .lift(.state(\Nest<Nest<Nest<BigState>>>.inner))
    }

    /// A stack scenario: `build` makes the store (its reducer body calls `marker.mark()`) and
    /// returns its dispatch; `wrap` turns a counter action and the iteration index into the
    /// store's action. The timed loop dispatches a fixed sequence of counter actions; the stack
    /// probe dispatches one `.increment`.
    static func stackScenario<Action>(
        _ name: String,
        wrap: @escaping @MainActor (CounterAction, Int) -> Action,
        build: @escaping @MainActor (StackMarker) -> @MainActor (Action) -> Void
    ) -> Scenario {
        Scenario(name: name) { _ in
            let marker = StackMarker()
            let dispatch = build(marker)
            let actions = makeCounterActions()
            let mask = actions.count - 1
            var probes = 0
            return ScenarioBody(
                stackProbe: {
                    probes &+= 1
                    let action = wrap(.increment, probes)
                    let highWater = StackHighWater.measure(marker: marker) { dispatch(action) }.highWater
                    return StackFigures(highWater: highWater.bytes, markBytes: highWater.markedBytes, isSaturated: highWater.isSaturated)
                },
                run: { iterations in
                    for index in 0..<iterations { dispatch(wrap(actions[index & mask], index)) }
                }
            )
        }
    }

    /// A stack scenario whose store takes counter actions as they are.
    static func stackScenario(_ name: String, build: @escaping @MainActor (StackMarker) -> @MainActor (CounterAction) -> Void) -> Scenario {
        stackScenario(name, wrap: { action, _ in action }, build: build)
    }
}
