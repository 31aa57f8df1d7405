// swift-format-ignore-file
// (A documentation example, kept verbatim: not reformatted.)
import SwiftRex
import SwiftRexTesting
import Testing

// The code of SwiftRex's landing page (Sources/SwiftRex/Documentation.docc/SwiftRex.md), verbatim
// (types file-private here).
private enum CounterAction: Sendable, Equatable {
    case increment, decrement, fetchFact
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
        case .factLoaded(let fact): state.fact = fact; state.isLoading = false
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
@Suite struct LandingPageTests {
    @Test func theCounterCountsAndFetchesAFactForTheCountBeforeTheAction() async {
        let store = TestStore(initial: CounterState(), behavior: counter, environment: CounterEnvironment(fact: { "fact \($0)" }))
        store.send(.increment) { $0.count = 1 }
        store.send(.fetchFact) { $0.isLoading = true }
        await store.receive(.factLoaded("fact 1")) {
            $0.fact = "fact 1"
            $0.isLoading = false
        }
        store.send(.decrement) { $0.count = 0 }
        await store.finish()
    }
}
