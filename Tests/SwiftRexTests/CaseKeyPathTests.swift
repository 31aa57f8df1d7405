import SwiftRex
import SwiftRexTestSupport
import Testing

/// A domain with hand-written case properties and a hand-written `Prismatic` conformance: what
/// `@Prisms` generates, without the macro (this target does not build swift-syntax).
enum CaseApp {
    enum CounterAction: Sendable, Equatable {
        case increment
        case incremented(Int)
    }
    enum RowAction: Sendable, Equatable { case bump }

    enum Action: Sendable, Equatable {
        case counter(CounterAction)
        case row(ElementAction<Int, RowAction>)
        case bumpAll(RowAction)
        case load(id: Int, force: Bool)
        case reset

        var counter: CounterAction? {
            get { if case .counter(let value) = self { value } else { nil } }
            set { if let newValue { self = .counter(newValue) } }
        }
        var row: ElementAction<Int, RowAction>? {
            get { if case .row(let value) = self { value } else { nil } }
            set { if let newValue { self = .row(newValue) } }
        }
        var bumpAll: RowAction? {
            get { if case .bumpAll(let value) = self { value } else { nil } }
            set { if let newValue { self = .bumpAll(newValue) } }
        }
        var load: (id: Int, force: Bool)? {
            get { if case .load(let id, let force) = self { (id, force) } else { nil } }
            set { if let newValue { self = .load(id: newValue.id, force: newValue.force) } }
        }
        var reset: Void? {
            get { if case .reset = self { () } else { nil } }
            set { if newValue != nil { self = .reset } }
        }
        /// Not a case property: reads two cases.
        var anyRow: RowAction? {
            get { row?.action ?? bumpAll }
            set {}
        }
    }

    struct Row: Sendable, Equatable, Identifiable {
        var id: Int
        var bumps = 0
    }

    struct State: Sendable, Equatable {
        var count = 0
        var rows: [Row] = []
        var screen = Screen.loggedOut
    }

    enum Screen: Sendable, Equatable {
        case loggedOut
        case loggedIn(Session)

        var loggedIn: Session? {
            get { if case .loggedIn(let value) = self { value } else { nil } }
            set { if let newValue { self = .loggedIn(newValue) } }
        }
    }

    struct Session: Sendable, Equatable { var visits = 0 }
}

extension CaseApp.Action: Prismatic {
    static func prism<Value>(for path: WritableKeyPath<CaseApp.Action, Value?>) -> Prism<CaseApp.Action, Value>? {
        let path = path as AnyKeyPath
        if path == \CaseApp.Action.counter as AnyKeyPath {
            return Prism<Self, CaseApp.CounterAction>(preview: { $0.counter }, review: { .counter($0) }) as? Prism<Self, Value>
        }
        if path == \CaseApp.Action.row as AnyKeyPath {
            return Prism<Self, ElementAction<Int, CaseApp.RowAction>>(preview: { $0.row }, review: { .row($0) }) as? Prism<Self, Value>
        }
        if path == \CaseApp.Action.bumpAll as AnyKeyPath {
            return Prism<Self, CaseApp.RowAction>(preview: { $0.bumpAll }, review: { .bumpAll($0) }) as? Prism<Self, Value>
        }
        if path == \CaseApp.Action.load as AnyKeyPath {
            return Prism<Self, (id: Int, force: Bool)>(preview: { $0.load }, review: { .load(id: $0.id, force: $0.force) }) as? Prism<Self, Value>
        }
        if path == \CaseApp.Action.reset as AnyKeyPath {
            return Prism<Self, Void>(preview: { $0.reset }, review: { _ in .reset }) as? Prism<Self, Value>
        }
        return nil
    }
}

extension CaseApp.Screen: Prismatic {
    static func prism<Value>(for path: WritableKeyPath<CaseApp.Screen, Value?>) -> Prism<CaseApp.Screen, Value>? {
        guard path == \CaseApp.Screen.loggedIn as AnyKeyPath else { return nil }
        return Prism<Self, CaseApp.Session>(preview: { $0.loggedIn }, review: { .loggedIn($0) }) as? Prism<Self, Value>
    }
}

/// The case-key-path action lane, accepted wherever a prism is: lifts (all three hosts), the
/// builder's element and broadcast forms, `.on`, projections, and an enum case as a state lane.
@MainActor
@Suite struct CaseKeyPathTests {
    typealias Action = CaseApp.Action
    typealias State = CaseApp.State

    static let counter = Reducer<CaseApp.CounterAction, Int>.reduce { action, count in
        if action == .increment { count += 1 }
    }
    static let counterBehavior = Behavior<CaseApp.CounterAction, Int, Void>
        .reduce { action, count in if action == .increment { count += 1 } }
        .produce { action, context in
            let after = (context.stateBefore ?? -1) + 1
            return action == .increment ? Producer { _ in .just(.incremented(after)) } : .doNothing
        }
    static let row = Reducer<CaseApp.RowAction, CaseApp.Row>.reduce { _, row in row.bumps += 1 }

    @Test func aCaseKeyPathResolvesToItsPrismBothWays() {
        let prism = Prism(\Action.counter)
        #expect(prism.preview(.counter(.increment)) == .increment)
        #expect(prism.preview(.reset) == nil)
        #expect(prism.review(.increment) == .counter(.increment))
        let load = Prism(\Action.load)
        #expect(load.review((id: 7, force: true)) == .load(id: 7, force: true))
        #expect(Prism(\Action.reset).preview(.reset) != nil)
    }

    @Test func everyHostLiftsThroughACaseKeyPathAsThroughThePrism() {
        let reducer = Self.counter.lift(action: \Action.counter, state: \State.count)
        var state = State()
        reducer.apply(.counter(.increment), to: &state)
        #expect(state.count == 1)
        #expect(!reducer.willMutate(.reset, in: state))

        let behavior = Self.counterBehavior.lift(action: \Action.counter, state: \State.count)
        let step = behavior.step(.counter(.increment), state: &state, environment: ())
        #expect(state.count == 2)
        #expect(step.effect.emittedActionValues() == [.counter(.incremented(2))])
        #expect(!behavior.step(.reset, state: &state, environment: ()).mutated)

        let middleware = Middleware<CaseApp.CounterAction, Int, Void>
            .produce { _, _ in Producer { _ in .just(.incremented(0)) } }
            .lift(action: \Action.counter, state: \State.count)
        let pre = PreReducerContext<State>(source: ActionSource(), stateBefore: { state })
        let effect = middleware.handle(.counter(.increment), pre).runReader(PostReducerContext(environment: (), liveState: { state }))
        #expect(effect.emittedActionValues() == [.counter(.incremented(0))])

        let actionOnly: Behavior<Action, Int, Void> = Self.counterBehavior.liftAction(\Action.counter)
        var count = 0
        _ = actionOnly.step(.counter(.increment), state: &count, environment: ())
        #expect(count == 1)
    }

    @Test func collectionLiftsTakeCaseKeyPathsForTheElementAndBroadcastCases() {
        let byID: Reducer<Action, State> = Self.row.liftCollection(.action(\.row).state(\.rows))
        let each: Reducer<Action, State> = Self.row.liftEach(.action(broadcast: \.bumpAll, into: \.row).state(\.rows))
        var state = State(rows: [.init(id: 1), .init(id: 2)])
        byID.apply(.row(ElementAction(2, action: .bump)), to: &state)
        each.apply(.bumpAll(.bump), to: &state)
        #expect(state.rows.map(\.bumps) == [1, 2])
    }

    @Test func routingTakesCaseKeyPathsForTriggerAndDispatch() {
        let routing = Behavior<Action, State, Void>.identity
            .on(.action(\.bumpAll), dispatch: .action(\.bumpAll))
            .on(.action(\.reset), reduce: { _, state in state.count = 0 })
        var state = State(count: 3)
        #expect(routing.step(.bumpAll(.bump), state: &state, environment: ()).effect.emittedActionValues() == [.bumpAll(.bump)])
        _ = routing.step(.reset, state: &state, environment: ())
        #expect(state.count == 0)
    }

    @Test func aProjectionDispatchesThroughTheCaseKeyPath() {
        let store = Store(initial: State(), reducer: Self.counter.lift(action: \Action.counter, state: \State.count))
        let counter = store.projection(action: \.counter, state: \.count)
        counter.dispatch(.increment)
        #expect(counter.state == 1)
    }

    @Test func anEnumCaseIsAStateLaneMutatedInPlaceOnlyInThatCase() {
        let visits = Behavior<Action, CaseApp.Session, Void>.reduce { _, session in session.visits += 1 }
        let lifted = visits.liftState(\CaseApp.Screen.loggedIn)
        var screen = CaseApp.Screen.loggedOut
        #expect(!lifted.step(.reset, state: &screen, environment: ()).mutated)
        #expect(screen == .loggedOut)
        screen = .loggedIn(.init())
        _ = lifted.step(.reset, state: &screen, environment: ())
        #expect(screen == .loggedIn(.init(visits: 1)))
    }

    @Test func theLaneResolvesTheKeyPathOnceAndDispatchesThroughThePrism() {
        // The key path is resolved when the lane is built: the lane holds the prism itself.
        let scope: Relay.Scope<Relay.ActionPrism<Action, CaseApp.CounterAction>, Relay.Identity<State>, Relay.Identity<Void>> = .action(\.counter)
        #expect(scope.action.prism.preview(.counter(.increment)) == .increment)
        #expect(scope.action.prism.review(.increment) == .counter(.increment))
    }
}
