import Baselines
import LabCore
@_spi(Testing) import SwiftRex
import Synchronization

/// Effects through the Store: round trips of effect actions against one `Task` per action, the
/// `Effect.task` path, bursts, single actions, a channel fed by eight producers, and a debounce
/// storm on the injected clock.
///
/// Every measured loop waits for its last answer through a continuation the store resumes (its
/// reducer through ``Arrivals``, or an observer through ``RoundTripChain``), never by polling
/// with `Task.yield()`, which would compete with the drain it waits for.
///
/// Their allocations are counted like every other scenario's, exactly: the allocation pass runs
/// every job on the main thread, in the order enqueued, so the count does not depend on which
/// thread's libdispatch cache serves a hop (see `AllocationPass`).
@MainActor
enum EffectScenarios {
    /// Where the lab starts sizing an asynchronous scenario's samples: every call pays at least
    /// one hop back onto the main actor, which a loaded machine can stretch to milliseconds; from
    /// one iteration, one slow hop would size the samples at a handful of operations.
    static let asyncStart = 1_000
    /// The iterations the instruction pass differences (with twice as many) for the asynchronous
    /// scenarios it counts. A burst of tasks refills the allocators' slabs at points that move
    /// with the heap's history (the environment's size is enough): over 64-256 iterations one
    /// refill more or less moved `effects.roundtrip.taskPerAction` by 4.4 % between two runs of
    /// one binary; over 1,024 the refills average out.
    static let serializedIterations = 1_024
    /// The instruction tolerance of the scenarios whose count follows the heap's history:
    /// `effects.task.keyed.raw.dispatch`, a thousand main-actor `Task`s created in a loop before
    /// any runs (one binary read it at 2,871 and 2,917 instructions per op, 1.6 %, with nothing
    /// changed but the size of the environment), and `effects.roundtrip.taskPerAction`, a `Task`
    /// per action (one binary read it from 5,440 to 5,547 in the quick suite, 2.0 %, run from two
    /// checkouts). It is also the slack the ratio targets over them allow. See Results/README.md.
    static let liveTasksInstructionTolerance = 0.03

    /// `effects.roundtrip.*`, `effects.task.*`, `effects.channel.fanIn`, `effects.debounce.storm`.
    static var all: [Scenario] {
        [
            Scenario(name: "effects.roundtrip.dispatches") {
                // The control of the burst: the same behavior, the same two actions dispatched
                // synchronously, no effect — the part of a round trip no mailbox can remove.
                let (store, _) = countingStore(answering: .doNothing)
                return { iterations in
                    for _ in 0..<iterations {
                        store.dispatch(.increment)
                        store.dispatch(.done)
                    }
                }
            },
            Scenario(name: "effects.roundtrip.burst.drained") {
                // The burst's own work without its hop, so it can be counted in instructions:
                // turns of 1,000 `.increment`s, each answered by `Effect.just(.done)`, the mailbox
                // drained synchronously after each turn. (Each turn's scheduled drain task finds the
                // mailbox empty when it runs, after the sample.)
                let (store, _) = justStore()
                return { iterations in
                    var remaining = iterations
                    while remaining > 0 {
                        let turn = min(1_000, remaining)
                        for _ in 0..<turn { store.dispatch(.increment) }
                        store.drainEffectActionsNow()
                        remaining -= turn
                    }
                }
            },
            Scenario(
                name: "effects.roundtrip.burst", minimumIterations: asyncStart,
                instructions: .serialized(iterations: serializedIterations)
            ) {
                // Turns of 1,000 `.increment`s, each answered by `Effect.just(.done)`: one drain
                // hop per turn; the turn's last answer starts the next (see `RoundTripChain`).
                let (store, arrivals) = justStore()
                let chain = RoundTripChain(store: store, arrivals: arrivals, turn: 1_000) { count in
                    for _ in 0..<count { store.dispatch(.increment) }
                }
                return { iterations in await chain.run(iterations) }
            },
            Scenario(
                name: "effects.roundtrip.mailbox", minimumIterations: asyncStart,
                instructions: .serialized(iterations: serializedIterations)
            ) {
                // Each `.increment` produces `Effect.just(.done)`; all the answers of a sample come
                // back through the mailbox.
                let (store, arrivals) = justStore()
                return { iterations in
                    let target = store.state.count + iterations
                    for _ in 0..<iterations { store.dispatch(.increment) }
                    await arrivals.wait(for: target, current: store.state.count)
                }
            },
            Scenario(
                name: "effects.roundtrip.single", minimumIterations: asyncStart,
                instructions: .serialized(iterations: serializedIterations)
            ) {
                // One action in flight at a time: the latency of one answer. Each answer the store
                // reduces starts the next round trip from an observer, as an app reacting to it
                // would; the sample awaits its last answer once (see `RoundTripChain`).
                let (store, arrivals) = justStore()
                let chain = RoundTripChain(store: store, arrivals: arrivals) { _ in store.dispatch(.increment) }
                return { iterations in await chain.run(iterations) }
            },
            Scenario(
                name: "effects.roundtrip.taskPerAction", minimumIterations: asyncStart,
                instructionTolerance: liveTasksInstructionTolerance, instructions: .serialized(iterations: serializedIterations)
            ) {
                // The reference mechanism: the same store, each answer sent by its own Task.
                let (store, arrivals) = reducerOnlyCountingStore()
                return { iterations in
                    let target = store.state.count + iterations
                    for _ in 0..<iterations {
                        store.dispatch(.increment)
                        Task { @MainActor in store.dispatch(.done) }
                    }
                    await arrivals.wait(for: target, current: store.state.count)
                }
            },
            Scenario(
                name: "effects.roundtrip.taskPerAction.single", minimumIterations: asyncStart,
                instructions: .serialized(iterations: serializedIterations)
            ) {
                // The latency control of `effects.roundtrip.single`: one Task per action, one in
                // flight at a time, each answer starting the next round trip the same way.
                let (store, arrivals) = reducerOnlyCountingStore()
                let chain = RoundTripChain(store: store, arrivals: arrivals) { _ in
                    store.dispatch(.increment)
                    Task { @MainActor in store.dispatch(.done) }
                }
                return { iterations in await chain.run(iterations) }
            },
            Scenario(
                name: "effects.task.roundtrip", minimumIterations: asyncStart,
                instructions: .serialized(iterations: serializedIterations)
            ) {
                // Each `.increment` produces `Effect.task { send in send(.done) }`.
                let answer = Producer<CounterAction, CounterState, Void> { _ in .task { send in send(.done) } }
                let (store, arrivals) = countingStore(answering: answer)
                return { iterations in
                    let target = store.state.count + iterations
                    for _ in 0..<iterations { store.dispatch(.increment) }
                    await arrivals.wait(for: target, current: store.state.count)
                }
            },
            Scenario(
                name: "effects.task.roundtrip.raw", minimumIterations: asyncStart,
                instructions: .serialized(iterations: serializedIterations)
            ) {
                // The floor under `effects.task.roundtrip`: a plain Task per action on the global
                // executor (created the way the library creates one), each counting its answer
                // under a lock; the last resumes the loop. No store, no dispatch, no mailbox.
                let tasks = RawTaskRoundTrip()
                return { iterations in await tasks.run(iterations) }
            },
            Scenario(
                name: "effects.task.keyed", minimumIterations: asyncStart,
                instructions: .serialized(iterations: serializedIterations)
            ) {
                // Search-style: each query starts a task under one id, replacing the previous one;
                // the loop waits for the answer to the last query.
                let search = SearchStore()
                return { iterations in
                    guard iterations > 0 else { return }
                    search.query(iterations)
                    await search.settle()
                }
            },
            Scenario(
                name: "effects.task.keyed.raw", minimumIterations: asyncStart,
                instructions: .serialized(iterations: serializedIterations)
            ) {
                // The floor under `effects.task.keyed`, by hand: per query, the previous run is
                // cancelled (its flag and its Task) and a new main-actor Task is created that
                // checks its flag; the survivor hops to the global executor and answers.
                let tasks = RawKeyedTasks()
                return { iterations in await tasks.run(iterations) }
            },
            Scenario(
                name: "effects.task.keyed.dispatch",
                instructions: .counted(iterations: serializedIterations),
                body: { _ in
                    // The dispatches of `effects.task.keyed` alone, on the main thread: each query
                    // starts a task under one id and replaces the previous one. The answer is awaited
                    // after each measured loop (the settle step), so the figures are the dispatch's
                    // own. Its tasks start on the main actor, so its instructions can be counted (see
                    // `ScenarioBody.settle`), and its allocations are exact.
                    let search = SearchStore()
                    return ScenarioBody(settle: { await search.settle() }) { iterations in search.query(iterations) }
                }),
            Scenario(
                name: "effects.task.keyed.raw.dispatch", instructionTolerance: liveTasksInstructionTolerance,
                instructions: .counted(iterations: serializedIterations),
                body: { _ in
                    // The floor under `effects.task.keyed.dispatch`, by hand: per query, the previous
                    // run's flag and Task cancelled and a main-actor Task created. One more run, awaited
                    // after each measured loop, answers.
                    let tasks = RawKeyedTasks()
                    return ScenarioBody(settle: { await tasks.run(1) }) { iterations in tasks.start(iterations) }
                }),
            Scenario(
                name: "effects.channel.fanIn", minimumIterations: asyncStart, instructions: .asynchronous
            ) {
                // Eight detached producers call one supervised channel's `dispatch`; one operation
                // is one action reduced (actions/s = 1e9 / ns per op).
                let arrivals = Arrivals()
                let dispatch = Mutex<(@Sendable (FanInAction) -> Void)?>(nil)
                let behavior = Behavior<FanInAction, FanInState, Void>
                    .reduce { action, state in
                        switch action {
                        case .open: state.isOpen = true
                        case .got:
                            state.count &+= 1
                            arrivals.arrived(state.count)
                        }
                    }
                    .supervise { state in
                        Supervision { _ in
                            state.isOpen
                                ? [
                                    Channel<FanInAction>(id: "fanIn") { send in
                                        dispatch.withLock { $0 = send }
                                        return .cancelOnly {}
                                    }
                                ] : []
                        }
                    }
                let store = Store(initial: FanInState(), behavior: behavior)
                store.dispatch(.open)
                guard let send = dispatch.withLock({ $0 }) else { preconditionFailure("the fan-in channel did not open") }
                // Warm-up (see `justStore`): one action through the channel, drained synchronously.
                send(.got(producer: 0, sequence: 0))
                store.drainEffectActionsNow()
                return { iterations in
                    let target = store.state.count + iterations
                    let producers = 8
                    for producer in 0..<producers {
                        let count = iterations / producers + (producer < iterations % producers ? 1 : 0)
                        Task.detached {
                            for sequence in 0..<count { send(.got(producer: producer, sequence: sequence)) }
                        }
                    }
                    await arrivals.wait(for: target, current: store.state.count)
                }
            },
            Scenario(
                name: "effects.debounce.storm", minimumIterations: asyncStart,
                instructions: .serialized(iterations: serializedIterations)
            ) {
                // Every dispatch restarts one debounced effect on a manual clock; the burst ends with
                // a single delivery.
                let clock = ManualClock()
                let debounced = Producer<CounterAction, CounterState, Void> { _ in
                    .just(.done, scheduling: .debounce(id: "storm", delay: .milliseconds(300)))
                }
                let (store, arrivals) = countingStore(answering: debounced, clock: clock)
                return { iterations in
                    let target = store.state.count + 1
                    for _ in 0..<iterations { store.dispatch(.increment) }
                    clock.advance(by: .milliseconds(300))
                    await arrivals.wait(for: target, current: store.state.count)
                }
            },
        ]
    }

    /// A store whose `.increment` is answered by `Effect.just(.done)`; `.done` counts. Two turns of
    /// 1,000 round trips run in setup (drained synchronously), so the drain task exists and its code
    /// is warm before the first measured call (the lab sizes its samples from that first call), and
    /// both buffers the mailbox swaps have grown to a full turn: a count taken while one was still
    /// growing read about 260 instructions more per round trip.
    static func justStore() -> (Store<CounterAction, CounterState, Void>, Arrivals) {
        let (store, arrivals) = countingStore(answering: Producer { _ in .just(.done) })
        for _ in 0..<2 {
            for _ in 0..<1_000 { store.dispatch(.increment) }
            store.drainEffectActionsNow()
        }
        precondition(store.state.count == 2_000, "the warm-up round trips did not complete")
        return (store, arrivals)
    }

    /// The reference mechanism's store: a reducer alone (no producer, so no effect), each `.done`
    /// counting and reporting its count; the scenario sends the answers itself.
    static func reducerOnlyCountingStore() -> (Store<CounterAction, CounterState, Void>, Arrivals) {
        let arrivals = Arrivals()
        let store = Store(
            initial: CounterState(),
            reducer: Reducer<CounterAction, CounterState>.reduce { action, state in
                if action == .done {
                    state.count &+= 1
                    arrivals.arrived(state.count)
                }
            })
        return (store, arrivals)
    }

    /// A store whose `.increment` runs `answer`; each `.done` counts and reports its count.
    static func countingStore(
        answering answer: Producer<CounterAction, CounterState, Void>,
        clock: ManualClock? = nil
    ) -> (Store<CounterAction, CounterState, Void>, Arrivals) {
        let arrivals = Arrivals()
        let idle = Producer<CounterAction, CounterState, Void>.doNothing
        let behavior = Behavior<CounterAction, CounterState, Void>
            .reduce { action, state in
                if action == .done {
                    state.count &+= 1
                    arrivals.arrived(state.count)
                }
            }
            .produce { action, _ in action == .increment ? answer : idle }
        if let clock {
            return (Store(initial: CounterState(), behavior: behavior, environment: (), clock: { _ in clock }), arrivals)
        }
        return (Store(initial: CounterState(), behavior: behavior), arrivals)
    }
}
