@_spi(Testing) import SwiftRex

extension ModelBased {
    /// Where and how the Store and the model first disagreed.
    struct Failure: Error, CustomStringConvertible {
        /// The index of the failing step (`nil`: at initialisation or at teardown).
        let index: Int?
        let step: Step?
        let message: String

        var description: String {
            if let index, let step { return "step \(index) \(step): \(message)" }
            return message
        }
    }

    /// Runs `steps` on a fresh Store and a fresh model, comparing them after initialisation, after
    /// every step and after teardown.
    ///
    /// Effect and channel actions reach the Store only at ``Step/drain`` steps: the Store's own
    /// mailbox drains are intercepted (as `TestStore` does), so they only collect letters, in order,
    /// and a drain step processes what was posted before it. The one asynchronous part left is an
    /// effect's completion, which hops to the main actor when `complete` is called off the main
    /// thread (as under the test runner here): after each step the runner yields until the Store's
    /// `isIdle` agrees with the model's, a bounded number of times.
    ///
    /// Missing-element diagnostics are counted through the task-local override, in debug and
    /// release builds alike (the long mode of `Scripts/soak` runs in release).
    @MainActor
    static func run(_ steps: [Step], plantedBug: PlantedBug? = nil) async -> Failure? {
        let harness = Harness()
        return await DiagnosticOverride.$handler.withValue({ diagnostic in
            if diagnostic.kind == .missingElement { harness.noteMissingElement() }
        }) {
            await runSteps(steps, harness: harness, plantedBug: plantedBug)
        }
    }

    @MainActor
    private static func runSteps(_ steps: [Step], harness: Harness, plantedBug: PlantedBug?) async -> Failure? {
        let clock = ManualClock()
        var model = ReferenceModel(initial: initialState, plantedBug: plantedBug)
        var letters: [(DispatchedAction<Action>, Int)] = []
        var store: Store<Action, State, Environment>? = Store(
            initial: initialState,
            behavior: behavior(harness: harness),
            environment: Environment(clock: clock, harness: harness),
            clock: { $0.clock }
        )
        store!.effectActionInterceptor = { letters.append(($0, $1)) }
        if let mismatch = compare(store!, harness, &model) {
            return Failure(index: nil, step: nil, message: "at initialisation: \(mismatch)")
        }
        for (index, step) in steps.enumerated() {
            guard canRun(step, on: model) else { continue }
            switch step {
            case .dispatch(let action): store!.dispatch(action)
            case .complete(let serial): harness.respond(serial: serial, finish: true)
            case .emit(let serial): harness.respond(serial: serial, finish: false)
            case .echo(let key): harness.echo(from: key)
            case .advance(let milliseconds): clock.advance(by: .milliseconds(milliseconds))
            case .drain:
                store!.drainEffectActionsNow()
                let batch = letters
                letters = []
                for (action, depth) in batch { store!.processEffectAction(action, depth: depth) }
            }
            apply(step, to: &model)
            var turns = 0
            while isIdle(store!, letters) != model.isIdle, turns < 10_000 {
                await Task.yield()
                turns += 1
            }
            if let mismatch = compare(store!, harness, &model, pendingLetters: letters.count) {
                return Failure(index: index, step: step, message: mismatch)
            }
        }
        store = nil
        model.tearDown()
        let observed = harness.take()
        let expected = model.take()
        if observed.events.sorted() != expected.events.sorted() {
            return Failure(
                index: nil, step: nil, message: "at teardown, channel events: store \(observed.events.sorted()) model \(expected.events.sorted())")
        }
        if observed.cancelledEffects.sorted() != expected.cancelledEffects.sorted() {
            return Failure(
                index: nil, step: nil,
                message: "at teardown, cancelled effects: store \(observed.cancelledEffects.sorted()) model \(expected.cancelledEffects.sorted())")
        }
        return nil
    }

    /// The Store is idle when its engine is and no effect action waits, in its mailbox or intercepted.
    @MainActor
    private static func isIdle(_ store: Store<Action, State, Environment>, _ letters: [(DispatchedAction<Action>, Int)]) -> Bool {
        store.isIdle && letters.isEmpty
    }

    /// The first disagreement between the Store (and what its effects and channels did) and the model.
    @MainActor
    private static func compare(
        _ store: Store<Action, State, Environment>, _ harness: Harness, _ model: inout ReferenceModel, pendingLetters: Int = 0
    ) -> String? {
        let observed = harness.take()
        let expected = model.take()
        if observed.processed != expected.processed {
            return "processed actions: store \(observed.processed) model \(expected.processed)"
        }
        if store.state != model.state {
            return "state: store \(store.state) model \(model.state)"
        }
        if observed.events != expected.events {
            return "channel events: store \(observed.events) model \(expected.events)"
        }
        if observed.cancelledEffects != expected.cancelledEffects {
            return "cancelled effects: store \(observed.cancelledEffects) model \(expected.cancelledEffects)"
        }
        if observed.missingElements != expected.missingElements {
            return "missing-element diagnostics: store \(observed.missingElements) model \(expected.missingElements)"
        }
        let expectedOpen = Set(model.live.keys.map { AnyHashableSendable(ElementEffectID(site: "rows", element: $0.element, inner: $0.name)) })
        if Set(store.openChannelIDs) != expectedOpen || store.openChannelIDs.count != expectedOpen.count {
            return "open channel ids: store \(store.openChannelIDs) model \(model.live.keys.sorted())"
        }
        if harness.liveChannels != Set(model.live.keys) {
            return "live channel bodies: store \(harness.liveChannels.sorted()) model \(model.live.keys.sorted())"
        }
        if harness.heldSerials != Set(model.pending.map(\.serial)) {
            return "running held effects: store \(harness.heldSerials.sorted()) model \(model.pending.map(\.serial).sorted())"
        }
        if (store.isIdle && pendingLetters == 0) != model.isIdle {
            return "isIdle: store \(store.isIdle) (\(pendingLetters) letters intercepted) model \(model.isIdle)"
        }
        return nil
    }

    /// Shrinks a failing sequence (delta debugging): removes chunks, halving their size down to
    /// single steps, keeping each removal after which the sequence still fails, re-run each time
    /// from a fresh Store. Returns the shortest failing sequence found and its failure.
    @MainActor
    static func shrink(_ steps: [Step], failure: Failure, plantedBug: PlantedBug? = nil, budget: Int = 4_000) async -> ([Step], Failure) {
        var current = failure.index.map { Array(steps.prefix($0 + 1)) } ?? steps
        var currentFailure = failure
        var runs = 0
        var chunk = max(1, current.count / 2)
        while runs < budget {
            var start = 0
            var progressed = false
            while start < current.count, runs < budget {
                var candidate = current
                candidate.removeSubrange(start..<min(start + chunk, current.count))
                runs += 1
                if let candidateFailure = await run(candidate, plantedBug: plantedBug) {
                    current = candidateFailure.index.map { Array(candidate.prefix($0 + 1)) } ?? candidate
                    currentFailure = candidateFailure
                    progressed = true
                } else {
                    start += chunk
                }
            }
            if !progressed {
                if chunk == 1 { break }
                chunk = max(1, chunk / 2)
            }
        }
        return (current, currentFailure)
    }
}
