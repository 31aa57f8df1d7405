// swift-format-ignore-file
// (A documentation example, kept verbatim: not reformatted.)
import Testing
import SwiftRex
import SwiftRexTesting

// The code of the Getting Started article (Sources/SwiftRex/Documentation.docc/Articles/
// GettingStarted.md), verbatim: it must compile and behave as the article says.
private enum CounterAction: Sendable, Equatable {
    case increment
    case decrement
    case fetchFact
    case factLoaded(String)
}

private struct CounterState: Sendable, Equatable {
    var count = 0
    var fact: String?
    var isLoading = false
}

private struct CounterEnvironment: Sendable {
    var fact: @Sendable (Int) async -> String
}

private let counter = Behavior<CounterAction, CounterState, CounterEnvironment>
    .reduce { action, state in
        switch action {
        case .increment: state.count += 1
        case .decrement: state.count -= 1
        case .fetchFact: state.isLoading = true
        case .factLoaded(let fact):
            state.fact = fact
            state.isLoading = false
        }
    }
    .produce { action, context in
        guard case .fetchFact = action, let count = context.stateBefore?.count else { return .doNothing }
        return Producer { context in
            .task(scheduling: .replacing(id: "fact")) { send in
                send(.factLoaded(await context.environment.fact(count)))
            }
        }
    }

@MainActor
private final class CounterModel {
    let store = Store(
        initial: CounterState(),
        behavior: counter,
        environment: CounterEnvironment(fact: { number in "\(number) is a number." })
    )
    private var token: SubscriptionToken?

    func start(render: @escaping @MainActor (CounterState) -> Void) {
        token = store.observe(didChange: { [store] in render(store.state) })
    }

    func tapped() {
        store.dispatch(.increment)
        store.dispatch(.fetchFact)
    }
}

private enum AppAction: Sendable {
    case counter(CounterAction)
    case signOut
}

private struct AppState: Sendable, Equatable {
    var counter = CounterState()
    var user: String?
}

private struct AppEnvironment: Sendable {
    var counter: CounterEnvironment
}

private let counterAction = Prism<AppAction, CounterAction>(
    preview: { if case .counter(let action) = $0 { action } else { nil } },
    review: AppAction.counter
)

private let session = Behavior<AppAction, AppState, AppEnvironment>.reduce { action, state in
    if case .signOut = action { state.user = nil }
}

private let app = Behavior.combine(
    counter.lift(.action(counterAction).state(\AppState.counter).environment(\AppEnvironment.counter)),
    session
)

@MainActor
@Suite struct GettingStartedExampleTests {
    @Test func fetchingAFactShowsIt() async {
        let store = TestStore(
            initial: CounterState(),
            behavior: counter,
            environment: CounterEnvironment(fact: { number in "\(number) is a good number." })
        )
        store.send(.increment) { $0.count = 1 }
        store.send(.fetchFact) { $0.isLoading = true }
        await store.receive(.factLoaded("1 is a good number.")) {
            $0.fact = "1 is a good number."
            $0.isLoading = false
        }
        await store.finish()
    }

    @Test func theModelRendersEveryChange() async {
        let model = CounterModel()
        var rendered: [CounterState] = []
        model.start { rendered.append($0) }
        model.tapped()
        #expect(await eventually { model.store.state.fact == "1 is a number." })
        #expect(rendered.map(\.count) == [1, 1, 1])
        #expect(rendered.last?.isLoading == false)
    }

    @Test func theLiftedCounterIgnoresOtherActions() {
        let store = Store(
            initial: AppState(user: "ana"),
            behavior: app,
            environment: AppEnvironment(counter: CounterEnvironment(fact: { _ in "" }))
        )
        var counts: [Int] = []
        let token = store.observe(changesOf: \.counter.count) { counts.append($0) }
        store.dispatch(.counter(.increment))
        store.dispatch(.signOut)
        #expect(counts == [1])
        #expect(store.state.user == nil)
        _ = token
    }
}
