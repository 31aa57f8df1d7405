import Synchronization
import Testing

@testable import SwiftRex

/// Anonymous `Effect.task` runs (no id, started at once) live in a list linked through the runs:
/// linked on the main actor when they start, each unlinks itself from its own thread when its task
/// ends, and the Store's teardown cancels the ones still linked. These tests hold the list to what
/// the engine promises: ended runs leave it, running ones are pending, teardown cancels each one
/// once, and a run that ends after its Store is gone still leaves it (ASan and TSan run them too).
@MainActor
@Suite("Anonymous Effect.task runs")
struct AnonymousTaskRunTests {
    enum Action: Sendable, Equatable {
        case quick(Int)
        case slow(Int)
        case got(Int)
    }
    struct State: Sendable, Equatable { var got: [Int] = [] }

    /// Holds slow bodies until opened (or until their cancellation handler has run), counting those
    /// that reached it and recording how each left it.
    final class Gate: Sendable {
        let isOpen = Atomic<Bool>(false)
        let reached = Atomic<Int>(0)
        /// The slow bodies that left the gate, each with whether its task was cancelled then: when
        /// a cancellation is missing from the log, this tells a run never cancelled (it left when
        /// the gate opened) from a cancelled run whose handler did not run.
        let left = Mutex<[Int: Bool]>([:])

        /// The slow bodies that left the gate with their task cancelled.
        var cancelledDepartures: Set<Int> {
            left.withLock { left in Set(left.filter(\.value).keys) }
        }

        /// How the slow bodies left the gate, for a failure's message.
        var departures: String {
            left.withLock { left in left.keys.sorted().map { "\($0): \(left[$0]! ? "cancelled" : "opened")" }.joined(separator: ", ") }
        }
    }

    static func behavior(gate: Gate, log: EventLog) -> Behavior<Action, State, Void> {
        Behavior<Action, State, Void>.reduce { action, state in
            if case .got(let value) = action { state.got.append(value) }
        }
        .produce { action, _ in
            switch action {
            case .quick(let value):
                return Producer { _ in .task { send in send(.got(value)) } }
            case .slow(let value):
                return Producer { _ in
                    .task { send in
                        gate.reached.add(1, ordering: .relaxed)
                        // The body waits for its handler, not for `Task.isCancelled`: the runtime
                        // sets a task's cancelled flag first and runs its handlers afterwards, so a
                        // body that returned on the flag could leave the handler's scope before
                        // the handler ran, and the handler would then never run (a runtime
                        // guarantee the Store cannot give).
                        let handled = Flag()
                        await withTaskCancellationHandler {
                            while !gate.isOpen.load(ordering: .acquiring), !handled.isSet.load(ordering: .acquiring) {
                                try? await Task.sleep(for: .milliseconds(1))
                            }
                        } onCancel: {
                            log.append("cancelled \(value)")
                            handled.isSet.store(true, ordering: .releasing)
                        }
                        let cancelled = Task.isCancelled
                        gate.left.withLock { $0[value] = cancelled }
                        send(.got(value))
                    }
                }
            case .got:
                return .doNothing
            }
        }
    }

    /// Set once by a slow body's cancellation handler.
    final class Flag: Sendable {
        let isSet = Atomic<Bool>(false)
    }

    static func store(gate: Gate, log: EventLog) -> Store<Action, State, Void> {
        Store(initial: State(), behavior: behavior(gate: gate, log: log))
    }

    /// A Store that `drive` dispatches to, released when `drive` returns: its list of anonymous
    /// runs (which outlives it) and whether it is gone yet.
    static func releasedStore(
        gate: Gate, log: EventLog, _ drive: (Store<Action, State, Void>) async -> Void
    ) async -> (runs: AnonymousTaskRuns<Action>, isGone: () -> Bool) {
        let store = Self.store(gate: gate, log: log)
        weak let weakStore = store
        await drive(store)
        return (store.engine.anonymousRuns, { weakStore == nil })
    }

    @Test func endedRunsLeaveTheListRunningOnesArePendingAndTeardownCancelsEachOnce() async {
        let gate = Gate()
        let log = EventLog()
        let (runs, isGone) = await Self.releasedStore(gate: gate, log: log) { store in
            let runs = store.engine.anonymousRuns
            for value in 0..<50 {
                store.dispatch(.quick(value))
                store.dispatch(.slow(100 + value))
            }
            // The quick runs answer and leave the list; the slow ones stay, running, each in its
            // body (a run cancelled before its body starts never calls it, nor its handler). The
            // list holding 50 runs that are all still running is what tells the 50 slow runs from
            // 49 and a quick run that answered but has not left yet: a quick run is finished as
            // soon as its body returns, before it unlinks.
            #expect(
                await adversarialWait {
                    store.state.got.count == 50 && runs.linked().count == 50 && runs.runningCount == 50
                        && gate.reached.load(ordering: .relaxed) == 50
                })
            #expect(store.state.got.sorted() == Array(0..<50))
            #expect(store.pendingEffects.count == 50)
            #expect(store.pendingEffects.allSatisfy { $0.id == nil && $0.kind == .running })
            #expect(store.registeredEffectCount == 50)
            #expect(!store.isIdle)
        }
        // Releasing the Store cancels each slow run once; each handler runs, then its body leaves
        // the gate with its task cancelled, ends and unlinks itself from its own thread, after the
        // Store is gone (none waited for the gate to open).
        #expect(await adversarialWait { isGone() && runs.linked().isEmpty })
        #expect(gate.cancelledDepartures == Set(100..<150), "left the gate: \(gate.departures)")
        // Every slow run's cancellation handler ran exactly once, and no quick run's.
        let handled = log.events
        #expect(handled.count == 50)
        #expect(Set(handled) == Set((100..<150).map { "cancelled \($0)" }), "left the gate: \(gate.departures)")
        gate.isOpen.store(true, ordering: .releasing)
        await adversarialQuiesce()
        #expect(log.events.count == handled.count)
        #expect(gate.cancelledDepartures == Set(100..<150))
        #expect(runs.linked().isEmpty)
    }

    @Test func aRunThatEndsAfterItsStoreIsGoneStillLeavesTheList() async {
        // Dispatched and released in one turn: the runs start, end and unlink on worker threads
        // while, and after, the Store is torn down.
        let (runs, isGone) = await Self.releasedStore(gate: Gate(), log: EventLog()) { store in
            for value in 0..<1_000 { store.dispatch(.quick(value)) }
        }
        #expect(await adversarialWait { isGone() && runs.linked().isEmpty })
    }

    @Test func completedRunsStopCountingAsRunningAndLeaveTheList() async {
        let gate = Gate()
        let log = EventLog()
        let store = Self.store(gate: gate, log: log)
        for value in 0..<10 { store.dispatch(.slow(value)) }
        #expect(store.pendingEffects.count == 10)
        #expect(store.engine.anonymousRuns.runningCount == 10)
        gate.isOpen.store(true, ordering: .releasing)
        #expect(await adversarialWait { store.state.got.count == 10 && store.isIdle })
        #expect(store.pendingEffects.isEmpty)
        #expect(store.engine.anonymousRuns.linked().isEmpty)
        #expect(log.events.isEmpty)
    }
}
