import SwiftRex
import SwiftRexTestSupport
import Synchronization
import Testing

/// The app of the lifting tests: a counter feature, an optional detail, rows by id, configs by key.
enum LiftApp {
    enum CounterAction: Sendable, Equatable { case increment, decrement }
    enum RowAction: Sendable, Equatable {
        case rename(String)
        case touch, autosave, saved
    }
    enum AppAction: Sendable, Equatable {
        case counter(CounterAction)
        case detail(CounterAction)
        case row(ElementAction<Int, RowAction>)
        case config(ElementAction<String, RowAction>)
        case slot(ElementAction<Int, RowAction>)
        case touchAll
        case other
        case removeRow(Int)
        case addRow(Int)
        case loaded([Int])
        case render([Int])
    }

    struct Row: Identifiable, Sendable, Equatable {
        var id: Int
        var name: String
        var touches = 0
        var saves = 0
    }

    struct AppState: Sendable, Equatable {
        var counter = 0
        var detail: Int?
        var rows: [Row] = []
        var configs: [String: Row] = [:]
        var payload: [Int] = Array(0..<100_000)
        var rendered: [Int] = []
        var isLoaded = false
    }

    struct AppEnvironment: Sendable {
        var rowEnvironment: String = "row-env"
    }

    static let counterPrism = Prism<AppAction, CounterAction>(
        preview: { if case .counter(let action) = $0 { action } else { nil } }, review: AppAction.counter)
    static let detailPrism = Prism<AppAction, CounterAction>(
        preview: { if case .detail(let action) = $0 { action } else { nil } }, review: AppAction.detail)
    static let rowPrism = Prism<AppAction, ElementAction<Int, RowAction>>(
        preview: { if case .row(let action) = $0 { action } else { nil } }, review: AppAction.row)
    static let configPrism = Prism<AppAction, ElementAction<String, RowAction>>(
        preview: { if case .config(let action) = $0 { action } else { nil } }, review: AppAction.config)
    static let slotPrism = Prism<AppAction, ElementAction<Int, RowAction>>(
        preview: { if case .slot(let action) = $0 { action } else { nil } }, review: AppAction.slot)
    static let touchAllPrism = Prism<AppAction, RowAction>(
        preview: { if case .touchAll = $0 { .touch } else { nil } }, review: { _ in .touchAll })
    static let loadedPrism = Prism<AppAction, [Int]>(
        preview: { if case .loaded(let items) = $0 { items } else { nil } }, review: AppAction.loaded)
    static let renderPrism = Prism<AppAction, [Int]>(
        preview: { if case .render(let items) = $0 { items } else { nil } }, review: AppAction.render)

    static let counter = Reducer<CounterAction, Int>.reduce { action, state in
        switch action {
        case .increment: state += 1
        case .decrement: state -= 1
        }
    }

    static let row = Behavior<RowAction, Row, String>
        .reduce { action, row in
            switch action {
            case .rename(let name): row.name = name
            case .touch: row.touches += 1
            case .saved: row.saves += 1
            case .autosave: break
            }
        }
        .produce { action, _ in
            guard action == .autosave else { return .doNothing }
            return Producer { _ in .just(.saved, scheduling: .debounce(id: "autosave", delay: .seconds(1))) }
        }

    static let rowsAdmin = Behavior<AppAction, AppState, AppEnvironment>.reduce { action, state in
        switch action {
        case .removeRow(let id): state.rows.removeAll { $0.id == id }
        case .addRow(let id): state.rows.append(Row(id: id, name: "row \(id)"))
        default: break
        }
    }
}

/// Collects diagnostics reported while `body` runs.
func collectingDiagnostics(_ body: () throws -> Void) rethrows -> [StoreDiagnostic] {
    let collected = Mutex<[StoreDiagnostic]>([])
    try DiagnosticOverride.$handler.withValue({ diagnostic in collected.withLock { $0.append(diagnostic) } }) {
        try body()
    }
    return collected.withLock { $0 }
}

@MainActor
@Suite struct LiftingTests {
    typealias App = LiftApp

    @Test func aLiftedReducerMutatesItsSliceAndAMissReportsUnchanged() {
        let lifted = App.counter.lift(.action(App.counterPrism).state(\App.AppState.counter))
        let store = Store(initial: App.AppState(), reducer: lifted)
        var notifications = 0
        let token = store.observe(didChange: { notifications += 1 })
        store.dispatch(.counter(.increment))
        store.dispatch(.other)
        #expect(store.state.counter == 1)
        #expect(notifications == 1)
        _ = token
    }

    @Test func aStoreWithoutObserversRunsALiftedReducerTheSameWay() {
        // No observer and no supervision: the Store runs the lifted unit without asking whether it
        // applied. Hits, misses and an absent affine focus behave as with an observer, and an
        // observer added later hears only the dispatches that mutate.
        let counter = App.counter.lift(.action(App.counterPrism).state(\App.AppState.counter))
        let detail = App.counter.lift(.action(App.detailPrism).state(\App.AppState.detail))
        let store = Store(initial: App.AppState(), reducer: counter <> detail)
        let soleCounter = Store(initial: App.AppState(), reducer: counter)
        let soleDetail = Store(initial: App.AppState(), reducer: detail)
        for target in [store, soleCounter] {
            target.dispatch(.counter(.increment))
            target.dispatch(.other)
            target.dispatch(.counter(.increment))
            #expect(target.state.counter == 2)
        }
        soleDetail.dispatch(.detail(.increment))
        #expect(soleDetail.state == App.AppState())
        var notifications = 0
        let token = soleCounter.observe(didChange: { notifications += 1 })
        soleCounter.dispatch(.other)
        soleCounter.dispatch(.counter(.decrement))
        #expect(soleCounter.state.counter == 1)
        #expect(notifications == 1)
        _ = token
    }

    @Test func theLiftSpellingsAgree() {
        var viaScope = App.AppState()
        var viaLens = App.AppState()
        App.counter.lift(.action(App.counterPrism).state(\App.AppState.counter)).apply(.counter(.increment), to: &viaScope)
        App.counter.lift(.action(App.counterPrism).state(Lens(\App.AppState.counter))).apply(.counter(.increment), to: &viaLens)
        #expect(viaScope.counter == 1)
        #expect(viaLens == viaScope)
    }

    @available(*, deprecated, message: "exercises the deprecated labelled lifts")
    @Test func theDeprecatedLabelledLiftsWithAPrismStillLiftAsTheScopeDoes() {
        var viaScope = App.AppState()
        var viaKeyPath = App.AppState()
        var viaLens = App.AppState()
        App.counter.lift(.action(App.counterPrism).state(\App.AppState.counter)).apply(.counter(.increment), to: &viaScope)
        App.counter.lift(action: App.counterPrism, state: \App.AppState.counter).apply(.counter(.increment), to: &viaKeyPath)
        App.counter.lift(action: App.counterPrism, state: Lens(\App.AppState.counter)).apply(.counter(.increment), to: &viaLens)
        #expect(viaScope.counter == 1)
        #expect(viaKeyPath == viaScope)
        #expect(viaLens == viaScope)
        let behavior = App.counter.asBehavior().lift(action: App.counterPrism, state: \App.AppState.counter)
        var viaBehavior = App.AppState()
        _ = behavior.step(.counter(.increment), state: &viaBehavior, environment: ())
        #expect(viaBehavior == viaScope)
    }

    @Test func anAffineLiftSkipsWhileTheFocusIsAbsent() {
        let lifted = App.counter.lift(.action(App.detailPrism).state(\App.AppState.detail))
        var state = App.AppState()
        #expect(!lifted.willMutate(.detail(.increment), in: state))
        lifted.apply(.detail(.increment), to: &state)
        #expect(state.detail == nil)
        state.detail = 5
        #expect(lifted.willMutate(.detail(.increment), in: state))
        lifted.apply(.detail(.increment), to: &state)
        #expect(state.detail == 6)
    }

    @Test func liftOptionalIsACompleteNoOpWhileAbsent() {
        let produced = Mutex(0)
        let detail = Behavior<App.AppAction, Int, App.AppEnvironment>
            .reduce { action, value in if action == .other { value += 1 } }
            .produce { _, _ in
                produced.withLock { $0 += 1 }
                return .doNothing
            }
            .supervise { _ in Supervision { _ in [Channel<App.AppAction>(id: "detail") { _ in .cancelOnly {} }] } }
        let lifted = detail.liftOptional(\App.AppState.detail)
        var state = App.AppState()
        let absent = lifted.step(.other, state: &state, environment: App.AppEnvironment())
        #expect(!absent.mutated)
        #expect(produced.withLock { $0 } == 0)
        #expect(lifted.supervisor?(state).runReader(App.AppEnvironment()).isEmpty == true)
        state.detail = 1
        let present = lifted.step(.other, state: &state, environment: App.AppEnvironment())
        #expect(present.mutated)
        #expect(state.detail == 2)
        #expect(produced.withLock { $0 } == 1)
        #expect(lifted.supervisor?(state).runReader(App.AppEnvironment()).map(\.id) == [AnyHashableSendable("detail")])
    }

    @Test func liftCollectionRoutesAnAddressedActionToItsElementOnly() {
        let rows = App.row.liftCollection(.action(App.rowPrism).state(\App.AppState.rows).environment(\App.AppEnvironment.rowEnvironment))
        var state = App.AppState()
        state.rows = (0..<10).map { App.Row(id: $0, name: "row \($0)") }
        _ = rows.step(.row(ElementAction(7, action: .rename("seven"))), state: &state, environment: App.AppEnvironment())
        #expect(state.rows[7].name == "seven")
        #expect(state.rows.filter { $0.name.hasPrefix("row") }.count == 9)
    }

    @Test func anActionForAMissingElementIsDroppedAndReported() {
        let rows = App.row.liftCollection(.action(App.rowPrism).state(\App.AppState.rows).environment(\App.AppEnvironment.rowEnvironment))
        var state = App.AppState()
        state.rows = [App.Row(id: 1, name: "one")]
        let before = state
        var step: BehaviorStep<App.AppAction>?
        let diagnostics = collectingDiagnostics {
            step = rows.step(.row(ElementAction(99, action: .touch)), state: &state, environment: App.AppEnvironment())
        }
        #expect(step?.mutated == false)
        #expect(state == before)
        #expect(diagnostics.map(\.kind) == [.missingElement])
        #expect(diagnostics.first?.message.contains("99") == true)
    }

    @Test func duplicateIdsAreReportedAndTheFirstOccurrenceWins() {
        let rows = App.row.liftCollection(.action(App.rowPrism).state(\App.AppState.rows).environment(\App.AppEnvironment.rowEnvironment))
        var state = App.AppState()
        state.rows = [App.Row(id: 1, name: "a"), App.Row(id: 1, name: "b")]
        let diagnostics = collectingDiagnostics {
            _ = rows.step(.row(ElementAction(1, action: .rename("z"))), state: &state, environment: App.AppEnvironment())
        }
        #expect(diagnostics.map(\.kind) == [.duplicateID])
        #expect(state.rows.map(\.name) == ["z", "b"])
    }

    @Test func liftEachReachesEveryElementInPlace() {
        let rows = App.row.liftEach(
            .action(broadcast: App.touchAllPrism, into: App.rowPrism).state(\App.AppState.rows).environment(\App.AppEnvironment.rowEnvironment))
        var state = App.AppState()
        state.rows = (0..<5).map { App.Row(id: $0, name: "\($0)") }
        let step = rows.step(.touchAll, state: &state, environment: App.AppEnvironment())
        #expect(step.mutated)
        #expect(state.rows.map(\.touches) == [1, 1, 1, 1, 1])
        var empty = App.AppState()
        #expect(!rows.step(.touchAll, state: &empty, environment: App.AppEnvironment()).mutated)
    }

    @Test func dictionaryAndIndexedLocatorsRouteByKeyAndPosition() {
        let configs = App.row.liftCollection(
            .action(App.configPrism).state(dictionary: \App.AppState.configs).environment(\App.AppEnvironment.rowEnvironment))
        let slots = App.row.liftCollection(.action(App.slotPrism).state(indexed: \App.AppState.rows).environment(\App.AppEnvironment.rowEnvironment))
        var state = App.AppState()
        state.configs = ["a": App.Row(id: 0, name: "a"), "b": App.Row(id: 1, name: "b")]
        state.rows = [App.Row(id: 10, name: "x"), App.Row(id: 20, name: "y")]
        _ = configs.step(.config(ElementAction("b", action: .rename("B"))), state: &state, environment: App.AppEnvironment())
        _ = slots.step(.slot(ElementAction(1, action: .rename("Y"))), state: &state, environment: App.AppEnvironment())
        #expect(state.configs["b"]?.name == "B")
        #expect(state.configs["a"]?.name == "a")
        #expect(state.rows.map(\.name) == ["x", "Y"])
    }

    @Test func elementEffectsAreStampedWithTheElementAndTheLiftSite() {
        let rows = App.row.liftCollection(
            .action(App.rowPrism).state(\App.AppState.rows).environment(\App.AppEnvironment.rowEnvironment), site: "rows")
        var state = App.AppState()
        state.rows = [App.Row(id: 1, name: "a"), App.Row(id: 2, name: "b")]
        let step = rows.step(.row(ElementAction(2, action: .autosave)), state: &state, environment: App.AppEnvironment())
        let ids = step.effect.components.map(\.scheduling.id)
        #expect(ids == [AnyHashableSendable(ElementEffectID(site: "rows", element: 2, inner: "autosave"))])
        #expect(ids != [AnyHashableSendable(ElementEffectID(site: "other", element: 2, inner: "autosave"))])
    }

    @Test func eachRowsDebounceIsIndependentAndItsActionsComeBackAddressed() async {
        let clock = ManualClock()
        let rows = App.row.liftCollection(.action(App.rowPrism).state(\App.AppState.rows).environment(\App.AppEnvironment.rowEnvironment))
        var initial = App.AppState()
        initial.rows = [App.Row(id: 1, name: "a"), App.Row(id: 2, name: "b")]
        let store = Store(initial: initial, behavior: rows, environment: App.AppEnvironment(), clock: { _ in clock })
        store.dispatch(.row(ElementAction(1, action: .autosave)))
        store.dispatch(.row(ElementAction(2, action: .autosave)))
        clock.advance(by: .seconds(1))
        #expect(await eventually { store.state.rows.map(\.saves) == [1, 1] })
    }

    @Test func removingAnElementClosesItsChannels() {
        let log = EventLog()
        let row = Behavior<App.RowAction, App.Row, String>.supervise { row in
            Supervision { _ in
                [
                    Channel<App.RowAction>(id: "socket") { _ in
                        log.append("open \(row.id)")
                        return .cancelOnly { log.append("close \(row.id)") }
                    }
                ]
            }
        }
        let behavior =
            App.rowsAdmin <> row.liftCollection(.action(App.rowPrism).state(\App.AppState.rows).environment(\App.AppEnvironment.rowEnvironment))
        var initial = App.AppState()
        initial.rows = [App.Row(id: 1, name: "a"), App.Row(id: 2, name: "b")]
        let store = Store(initial: initial, behavior: behavior, environment: App.AppEnvironment())
        #expect(log.events == ["open 1", "open 2"])
        store.dispatch(.removeRow(1))
        #expect(log.events == ["open 1", "open 2", "close 1"])
        store.dispatch(.addRow(3))
        #expect(log.events == ["open 1", "open 2", "close 1", "open 3"])
    }

    @Test func onRoutesThePayloadOnALaterTurnAndCoLocatesTheMutation() async {
        let behavior = Behavior<App.AppAction, App.AppState, App.AppEnvironment>
            .reduce { action, state in if case .render(let items) = action { state.rendered = items } }
            .on(.action(App.loadedPrism), dispatch: .action(App.renderPrism), reduce: { _, state in state.isLoaded = true })
        let store = Store(initial: App.AppState(), behavior: behavior, environment: App.AppEnvironment())
        store.dispatch(.loaded([1, 2]))
        #expect(store.state.isLoaded)
        #expect(store.state.rendered.isEmpty)
        #expect(await eventually { store.state.rendered == [1, 2] })
    }

    @Test func onWithAFalseGuardNeitherDispatchesNorReduces() {
        let behavior = Behavior<App.AppAction, App.AppState, App.AppEnvironment>.identity
            .on(.action(App.loadedPrism), when: { $0.counter > 0 }, dispatch: .action(App.renderPrism), reduce: { _, state in state.isLoaded = true })
        var state = App.AppState()
        let step = behavior.step(.loaded([1]), state: &state, environment: App.AppEnvironment())
        #expect(!step.mutated)
        #expect(step.effect.isEmpty)
    }

    @Test func aRoutingOnlyOnNeverTouchesState() {
        let behavior = Behavior<App.AppAction, App.AppState, App.AppEnvironment>.identity
            .on(.action(App.loadedPrism), dispatch: .action { App.AppAction.render($0) })
        var state = App.AppState()
        let step = behavior.step(.loaded([3]), state: &state, environment: App.AppEnvironment())
        #expect(!step.mutated)
        #expect(step.effect.components.count == 1)
    }

    @Test func liftingDistributesOverCombine() {
        let first = Reducer<App.CounterAction, Int>.reduce { action, state in if action == .increment { state *= 2 } }
        let combinedThenLifted = (App.counter <> first).lift(.action(App.counterPrism).state(\App.AppState.counter))
        let liftedThenCombined =
            App.counter.lift(.action(App.counterPrism).state(\App.AppState.counter))
            <> first.lift(.action(App.counterPrism).state(\App.AppState.counter))
        for action in [App.AppAction.counter(.increment), .counter(.decrement), .other] {
            var lhs = App.AppState()
            var rhs = App.AppState()
            lhs.counter = 3
            rhs.counter = 3
            combinedThenLifted.apply(action, to: &lhs)
            liftedThenCombined.apply(action, to: &rhs)
            #expect(lhs == rhs)
            #expect(combinedThenLifted.willMutate(action, in: lhs) == liftedThenCombined.willMutate(action, in: rhs))
        }
    }

    @Test func everyStateLaneMutatesInPlace() {
        struct Big: Sendable, Equatable {
            var values: [Int] = Array(0..<100_000)
            var count = 0
        }
        struct Holder: Sendable, Equatable {
            var big = Big()
            var optional: Big? = Big()
            var rows: [Big] = [Big()]
            var dictionary: [String: Big] = ["k": Big()]
        }
        enum Action: Sendable { case bump }
        let bump = Reducer<Action, Big>.reduce { _, big in
            big.count += 1
            big.values[0] += 1
        }
        let byKeyPath = bump.lift(.action(Prism<Action, Action>.identity).state(\Holder.big))
        let byLens = bump.lift(.action(Prism<Action, Action>.identity).state(Lens(\Holder.big)))
        let byOptional = bump.lift(.action(Prism<Action, Action>.identity).state(\Holder.optional))
        var holder = Holder()
        #expect(CoWProbe.trace(&holder, payload: \.big.values) { byKeyPath.apply(.bump, to: &$0) }.isInPlace)
        #expect(CoWProbe.trace(&holder, payload: \.big.values) { byLens.apply(.bump, to: &$0) }.isInPlace)
        let optionalReport = CoWProbe.trace(&holder, read: { $0.optional?.values }) { byOptional.apply(.bump, to: &$0) }
        #expect(optionalReport.addressKept)
        #expect(holder.big.count == 2)
        #expect(holder.optional?.count == 1)
    }
}

@MainActor
@Suite struct ElementProjectionTests {
    typealias App = LiftApp

    @Test func anElementProjectionReadsItsElementAndAddressesItsActions() {
        let rows = App.row.liftCollection(.action(App.rowPrism).state(\App.AppState.rows).environment(\App.AppEnvironment.rowEnvironment))
        var initial = App.AppState()
        initial.rows = (0..<1_000).map { App.Row(id: $0, name: "row \($0)") }
        let store = Store(initial: initial, behavior: rows, environment: App.AppEnvironment())
        let row = store.projection(.action(App.rowPrism).state(\App.AppState.rows), element: 640)
        #expect(row.state?.name == "row 640")
        row.dispatch(.rename("renamed"))
        #expect(store.state.rows[640].name == "renamed")
        #expect(row.state?.name == "renamed")
        let missing = store.projection(.action(App.rowPrism).state(\App.AppState.rows), element: 5_000)
        #expect(missing.state == nil)
    }

    @Test func aDictionaryElementProjectionReadsByKey() {
        var initial = App.AppState()
        initial.configs = ["a": App.Row(id: 1, name: "A")]
        let store = Store(initial: initial, reducer: Reducer<App.AppAction, App.AppState>.identity)
        let config = store.projection(.action(App.configPrism).state(dictionary: \App.AppState.configs), element: "a")
        #expect(config.state?.name == "A")
    }
}
