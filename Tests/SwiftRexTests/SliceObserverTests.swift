import Observation
import Testing

@testable import SwiftRex

/// An observer of one slice (a key-path projection, `observe(changesOf:)` with a key path) is
/// called only after an action whose applied units may write that slice.
@MainActor
@Suite struct SliceObserverTests {
    struct Counter: Equatable, Sendable {
        var count = 0
    }

    struct Search: Equatable, Sendable {
        var query = ""
        var pages = 0
    }

    struct State: Equatable, Sendable {
        var counter = Counter()
        var search = Search()
        var title = "untitled"
        /// Computed: no byte range locates it.
        var doubled: Int { counter.count * 2 }
    }

    enum Action: Sendable {
        case increment
        case query(String)
        case nextPage
        case retitle(String)
    }

    /// Calls of one observer's callbacks.
    final class Calls {
        var willChange = 0
        var didChange = 0
        var order: [String] = []
    }

    static let increment = Prism<Action, Void>(preview: { if case .increment = $0 { () } else { nil } }, review: { .increment })
    static let query = Prism<Action, String>(preview: { if case .query(let text) = $0 { text } else { nil } }, review: Action.query)
    static let nextPage = Prism<Action, Void>(preview: { if case .nextPage = $0 { () } else { nil } }, review: { .nextPage })
    static let retitle = Prism<Action, String>(preview: { if case .retitle(let title) = $0 { title } else { nil } }, review: Action.retitle)

    /// Each feature lifted through a key path: every unit's writes are located.
    static let lifted = Behavior<Action, State, Void>.combine(
        Behavior<Void, Counter, Void>.reduce { _, counter in counter.count += 1 }.lift(.action(increment).state(\State.counter)),
        Behavior<String, Search, Void>.reduce { text, search in search.query = text }.lift(.action(query).state(\State.search)),
        Behavior<Void, Int, Void>.reduce { _, pages in pages += 1 }.lift(.action(nextPage).state(\State.search.pages)),
        Behavior<String, String, Void>.reduce { title, current in current = title }.lift(.action(retitle).state(\State.title))
    )

    static func makeStore(_ behavior: Behavior<Action, State, Void> = lifted) -> Store<Action, State, Void> {
        Store(initial: State(), behavior: behavior)
    }

    static func watch(_ store: some StoreType, _ calls: Calls, _ name: String = "") -> SubscriptionToken {
        store.observe(
            willChange: { calls.willChange += 1 },
            didChange: {
                calls.didChange += 1
                calls.order.append(name)
            })
    }

    @Test func aProjectionsObserverHearsOfItsSliceAndNotOfAnotherFeature() {
        let store = Self.makeStore()
        let calls = Calls()
        let token = Self.watch(store.projection(action: Self.increment, state: \.counter), calls)
        store.dispatch(.query("swift"))
        store.dispatch(.retitle("inbox"))
        #expect(calls.didChange == 0)
        store.dispatch(.increment)
        #expect(calls.didChange == 1)
        #expect(store.state.counter.count == 1)
        _ = token
    }

    @Test func aSliceInsideAnotherHearsOfWritesToTheSliceHoldingIt() {
        let store = Self.makeStore()
        let pages = Calls()
        let search = Calls()
        let pagesToken = Self.watch(store.projection(action: Self.nextPage, state: \.search.pages), pages)
        let searchToken = Self.watch(store.projection(action: Self.query, state: \.search), search)
        // Writing `search` may write `search.pages`; writing `search.pages` writes `search`.
        store.dispatch(.query("swift"))
        #expect(pages.didChange == 1)
        #expect(search.didChange == 1)
        store.dispatch(.nextPage)
        #expect(pages.didChange == 2)
        #expect(search.didChange == 2)
        store.dispatch(.increment)
        #expect(pages.didChange == 2)
        #expect(search.didChange == 2)
        _ = (pagesToken, searchToken)
    }

    @Test func aProjectionOfAProjectionWatchesTheComposedPath() {
        let store = Self.makeStore()
        let calls = Calls()
        let search = store.projection(action: Self.query, state: \.search)
        let query = search.projection(action: Prism<String, String>(preview: { $0 }, review: { $0 }), state: \.query)
        let token = Self.watch(query, calls)
        store.dispatch(.increment)
        store.dispatch(.retitle("inbox"))
        #expect(calls.didChange == 0)
        store.dispatch(.query("swift"))
        #expect(calls.didChange == 1)
        #expect(query.state == "swift")
        _ = token
    }

    @Test func observingChangesOfAKeyPathSkipsActionsThatWriteElsewhere() {
        let store = Self.makeStore()
        var seen: [String] = []
        let token = store.observe(changesOf: \.search.query) { seen.append($0) }
        store.dispatch(.increment)
        store.dispatch(.query("a"))
        store.dispatch(.nextPage)
        store.dispatch(.query("a"))
        store.dispatch(.query("b"))
        #expect(seen == ["a", "b"])
        _ = token
    }

    @Test func aSliceNoByteRangeLocatesHearsOfEveryChange() {
        let store = Self.makeStore()
        let calls = Calls()
        let token = Self.watch(store.projection(action: Self.increment, state: \.doubled), calls)
        store.dispatch(.retitle("inbox"))
        store.dispatch(.increment)
        #expect(calls.didChange == 2)
        _ = token
    }

    @Test func aClosureProjectionHearsOfEveryChange() {
        let store = Self.makeStore()
        let calls = Calls()
        let token = Self.watch(store.projection(action: { (_: Void) in Action.increment }, state: { $0.counter }), calls)
        store.dispatch(.retitle("inbox"))
        store.dispatch(.query("swift"))
        #expect(calls.didChange == 2)
        _ = token
    }

    @Test func aUnitThatWritesAnUnlocatedPartNotifiesEveryObserver() {
        let behavior = Behavior<Action, State, Void>.combine(
            Self.lifted,
            .reduce { action, state in
                if case .nextPage = action { state.title = "paged" }
            }
        )
        let store = Self.makeStore(behavior)
        let calls = Calls()
        let token = Self.watch(store.projection(action: Self.increment, state: \.counter), calls)
        // The unlifted reducer may write anything, for every action.
        store.dispatch(.retitle("inbox"))
        #expect(calls.didChange == 1)
        _ = token
    }

    @Test func willChangeIsHeardBeforeEveryMutationSinceWhatWillBeWrittenIsNotYetKnown() {
        let store = Self.makeStore()
        let calls = Calls()
        let token = Self.watch(store.projection(action: Self.increment, state: \.counter), calls)
        store.dispatch(.retitle("inbox"))
        #expect(calls.willChange == 1)
        #expect(calls.didChange == 0)
        _ = token
    }

    @Test func observersThatHearOfAChangeAreCalledInSubscriptionOrder() {
        let store = Self.makeStore()
        let calls = Calls()
        let tokens = [
            Self.watch(store.projection(action: Self.query, state: \.search), calls, "search"),
            Self.watch(store.projection(action: Self.increment, state: \.counter), calls, "counter"),
            Self.watch(store, calls, "store"),
            Self.watch(store.projection(action: Self.nextPage, state: \.search.pages), calls, "pages"),
        ]
        store.dispatch(.query("swift"))
        store.dispatch(.increment)
        #expect(calls.order == ["search", "store", "pages", "counter", "store"])
        _ = tokens
    }

    @Test func aCancelledSliceObserverIsNotCalledAgain() {
        let store = Self.makeStore()
        let calls = Calls()
        let token = Self.watch(store.projection(action: Self.increment, state: \.counter), calls)
        store.dispatch(.increment)
        token.cancel()
        store.dispatch(.increment)
        #expect(calls.didChange == 1)
        #expect(store.observerCount == 0)
    }
}

/// A `withObservationTracking` client's read is compared again only after an action whose applied
/// units may write what it read.
@MainActor
@Suite struct TrackedSliceComparisonTests {
    /// A value that counts its comparisons.
    struct Counted: Equatable, Sendable {
        nonisolated(unsafe) static var comparisons = 0
        var value = 0

        static func == (lhs: Counted, rhs: Counted) -> Bool {
            comparisons += 1
            return lhs.value == rhs.value
        }
    }

    struct State: Sendable {
        var counted = Counted()
        var other = 0
    }

    enum Action: Sendable {
        case bump, other
    }

    static let behavior = Behavior<Action, State, Void>.combine(
        Behavior<Void, Counted, Void>.reduce { _, counted in counted.value += 1 }
            .lift(.action(Prism<Action, Void>(preview: { if case .bump = $0 { () } else { nil } }, review: { .bump })).state(\State.counted)),
        Behavior<Void, Int, Void>.reduce { _, other in other += 1 }
            .lift(.action(Prism<Action, Void>(preview: { if case .other = $0 { () } else { nil } }, review: { .other })).state(\State.other))
    )

    @Test func aTrackedReadIsNotComparedAfterAnActionThatWritesElsewhere() {
        let store = Store(initial: State(), behavior: Self.behavior)
        let told = CoreFixtures.Counter()
        _ = withObservationTracking({ store.observed.counted }, onChange: { told.increment() })
        Counted.comparisons = 0
        store.dispatch(.other)
        #expect(Counted.comparisons == 0)
        #expect(told.value == 0)
        store.dispatch(.bump)
        #expect(Counted.comparisons == 1)
        #expect(told.value == 1)
    }

    @Test func aReadThroughAKeyPathProjectionIsComparedOnlyAfterWritesThatReachIt() {
        let store = Store(initial: State(), behavior: Self.behavior)
        let bump = Prism<Action, Void>(preview: { if case .bump = $0 { () } else { nil } }, review: { .bump })
        let counted = store.projection(action: bump, state: \.counted)
        let told = CoreFixtures.Counter()
        _ = withObservationTracking({ counted.observed.value }, onChange: { told.increment() })
        store.dispatch(.other)
        #expect(told.value == 0)
        store.dispatch(.bump)
        #expect(told.value == 1)
    }
}
