import SwiftRex
import Testing

@MainActor
@Suite struct StoreProjectionTests {
    struct Todo: Identifiable, Equatable, Sendable {
        let id: Int
        var title: String
        var done = false
    }

    enum TodoAction: Sendable, Equatable {
        case toggle
        case rename(String)
    }
    enum CounterAction: Sendable, Equatable { case add(Int) }
    enum ConfigAction: Sendable, Equatable { case set(Int) }

    enum Action: Sendable, Equatable {
        case counter(CounterAction)
        case todo(ElementAction<Int, TodoAction>)
        case config(ElementAction<String, ConfigAction>)
        case setDetail(Int?)
        case touch
    }

    struct State: Sendable, Equatable {
        var counter = 0
        var todos: [Todo] = [Todo(id: 1, title: "one"), Todo(id: 2, title: "two")]
        var configs: [String: Int] = ["a": 1]
        var detail: Int?
        var touches = 0
    }

    /// Records every action's source, as seen by the Store.
    @MainActor final class SourceLog {
        var entries: [(Action, ActionSource)] = []
    }

    static let counterPrism = Prism<Action, CounterAction>(
        preview: { if case .counter(let action) = $0 { action } else { nil } },
        review: Action.counter
    )

    static let reducer = Reducer<Action, State>.reduce { action, state in
        switch action {
        case .counter(.add(let amount)): state.counter += amount
        case .todo(let element):
            guard let index = state.todos.firstIndex(where: { $0.id == element.id }) else { return }
            switch element.action {
            case .toggle: state.todos[index].done.toggle()
            case .rename(let title): state.todos[index].title = title
            }
        case .config(let element):
            if case .set(let value) = element.action { state.configs[element.id] = value }
        case .setDetail(let detail): state.detail = detail
        case .touch: state.touches += 1
        }
    }

    func makeStore(log: SourceLog = SourceLog()) -> Store<Action, State, Void> {
        let behavior =
            Self.reducer.asBehavior()
            <> Behavior<Action, State, Void>.produce { action, context in
                log.entries.append((action, context.source))
                return .doNothing
            }
        return Store(initial: State(), behavior: behavior)
    }

    @Test func stateIsReadThroughTheMappingOnEveryRead() {
        let store = makeStore()
        let projection = store.projection(action: Action.counter, state: { $0.counter * 10 })
        #expect(projection.state == 0)
        store.dispatch(.counter(.add(2)))
        #expect(projection.state == 20)
        store.dispatch(.counter(.add(1)))
        #expect(projection.state == 30)
    }

    @Test func dispatchMapsTheActionAndKeepsTheSameSource() {
        let log = SourceLog()
        let store = makeStore(log: log)
        let projection = store.projection(action: Action.counter, state: \.counter)
        let source = ActionSource(file: "Feature.swift", function: "tap()", line: 42)
        projection.dispatch(.add(5), source: source)
        #expect(store.state.counter == 5)
        #expect(log.entries.map(\.0) == [.counter(.add(5))])
        #expect(log.entries.map(\.1) == [source])
    }

    @Test func theCallSiteDispatchStampsTheProjectionsCaller() {
        let log = SourceLog()
        let store = makeStore(log: log)
        let projection = store.projection(action: Action.counter, state: \.counter)
        let line: UInt = #line + 1
        projection.dispatch(.add(1))
        #expect(log.entries.first?.1.line == line)
        #expect(log.entries.first?.1.file == #fileID)
    }

    @Test func observeForwardsEveryUnderlyingChangeEvenWhenTheSliceIsUnchanged() {
        let store = makeStore()
        let projection = store.projection(action: Action.counter, state: \.counter)
        var calls: [String] = []
        let token = projection.observe(
            willChange: { calls.append("will \(projection.state)") },
            didChange: { calls.append("did \(projection.state)") }
        )
        store.dispatch(.counter(.add(3)))
        store.dispatch(.touch)
        #expect(calls == ["will 0", "did 3", "will 3", "did 3"])
        #expect(store.observerCount == 1)
        token.cancel()
        store.dispatch(.counter(.add(1)))
        #expect(calls.count == 4)
        #expect(store.observerCount == 0)
    }

    @Test func aPrismAndKeyPathProjectionUsesThePrismsReview() {
        let store = makeStore()
        let projection = store.projection(action: Self.counterPrism, state: \.counter)
        projection.dispatch(.add(7))
        #expect(store.state.counter == 7)
        #expect(projection.state == 7)
    }

    @Test func projectionsOfProjectionsCompose() {
        let log = SourceLog()
        let store = makeStore(log: log)
        let counter = store.projection(action: Self.counterPrism, state: \.self)
        let doubled = counter.projection(action: { (amount: Int) in CounterAction.add(amount * 2) }, state: { $0.counter })
        let source = ActionSource(file: "Nested.swift", function: "f()", line: 1)
        doubled.dispatch(4, source: source)
        #expect(store.state.counter == 8)
        #expect(doubled.state == 8)
        #expect(log.entries.map(\.1) == [source])
        var didChange = 0
        let token = doubled.observe(didChange: { didChange += 1 })
        store.dispatch(.touch)
        #expect(didChange == 1)
        _ = token
    }

    @Test func anElementProjectionReadsTheElementAndAddressesItsActions() {
        let store = makeStore()
        let second = store.projection(element: 2, action: Action.todo, collection: \.todos)
        #expect(second.state == Todo(id: 2, title: "two"))
        second.dispatch(.toggle)
        #expect(store.state.todos[1].done)
        #expect(second.state?.done == true)
        #expect(store.state.todos[0].done == false)
    }

    @Test func anElementProjectionIsNilWhileTheElementIsAbsent() {
        let store = makeStore()
        let missing = store.projection(element: 99, action: Action.todo, collection: \.todos)
        #expect(missing.state == nil)
        missing.dispatch(.toggle)
        #expect(store.state == State())
    }

    @Test func anElementProjectionByACustomIdentifierFindsTheElement() {
        let store = makeStore()
        let byTitle = store.projection(
            element: 1,
            action: Action.todo,
            collection: \.todos,
            identifier: \Todo.id
        )
        byTitle.dispatch(.rename("uno"))
        #expect(byTitle.state?.title == "uno")
    }

    @Test func anElementProjectionByAnIdentifierClosureFindsTheElement() {
        let store = makeStore()
        let byTitle = store.projection(element: "one", action: { Action.todo(ElementAction(1, action: $0.action)) }, collection: \.todos) {
            $0.title
        }
        byTitle.dispatch(.rename("uno"))
        #expect(store.state.todos[0].title == "uno")
        #expect(byTitle.state == nil)
        #expect(
            store.projection(element: "two", action: { Action.todo(ElementAction(2, action: $0.action)) }, collection: \.todos) { $0.title }.state?.id
                == 2)
    }

    @Test func aDictionaryProjectionReadsTheValueUnderItsKey() {
        let store = makeStore()
        let a = store.projection(key: "a", action: Action.config, dictionary: \.configs)
        let b = store.projection(key: "b", action: Action.config, dictionary: \.configs)
        #expect(a.state == 1)
        #expect(b.state == nil)
        b.dispatch(.set(5))
        #expect(b.state == 5)
        #expect(store.state.configs == ["a": 1, "b": 5])
    }

    @Test func transposeIsNilWhileTheStateIsNil() {
        let store = makeStore()
        let detail = store.projection(action: { $0 }, state: \.detail)
        #expect(detail.transpose() == nil)
    }

    @Test func transposeReadsTheLiveValueAndFallsBackToTheOneCapturedAtCallTime() throws {
        let store = makeStore()
        let detail = store.projection(action: { $0 }, state: \.detail)
        store.dispatch(.setDetail(1))
        let transposed = try #require(detail.transpose())
        #expect(transposed.state == 1)
        store.dispatch(.setDetail(2))
        #expect(transposed.state == 2)
        store.dispatch(.setDetail(nil))
        #expect(transposed.state == 1)
        #expect(detail.transpose() == nil)
    }

    @Test func transposePassesActionsThroughWithTheirSource() throws {
        let log = SourceLog()
        let store = makeStore(log: log)
        let detail = store.projection(action: { $0 }, state: \.detail)
        store.dispatch(.setDetail(3))
        let transposed = try #require(detail.transpose())
        let source = ActionSource(file: "Detail.swift", function: "close()", line: 9)
        transposed.dispatch(.setDetail(nil), source: source)
        #expect(store.state.detail == nil)
        #expect(log.entries.last?.1 == source)
        var notified = 0
        let token = transposed.observe(didChange: { notified += 1 })
        store.dispatch(.touch)
        #expect(notified == 1)
        _ = token
    }
}
