import Observation
import Testing

@testable import SwiftRex

/// `withObservationTracking` clients of a Store (a SwiftUI view, say) are told only when a value
/// they read changed.
@MainActor
@Suite struct ObservationTrackingTests {
    typealias F = CoreFixtures

    struct Row: Identifiable, Equatable, Sendable {
        let id: Int
        var title: String
    }

    /// Not `Equatable`: compared by nothing.
    struct Opaque: Sendable {
        var value = 0
    }

    struct State: Sendable {
        var count = 0
        var name = "a"
        var rows = IdentifiedArray((1...3).map { Row(id: $0, title: "row \($0)") })
        var opaque = Opaque()
    }

    enum Action: Sendable {
        case increment
        case rename(String)
        case setCount(Int)
        case retitle(id: Int, String)
        case remove(id: Int)
        case touchOpaque
        case ignored
    }

    /// Reduces every action but `.ignored`, which no unit handles: it is `.unchanged`.
    static let behavior = Behavior<Action, State, Void>.reduce { action, state in
        switch action {
        case .increment: state.count += 1
        case .rename(let name): state.name = name
        case .setCount(let count): state.count = count
        case .retitle(let id, let title): state.rows[id: id]?.title = title
        case .remove(let id): state.rows.remove(id: id)
        case .touchOpaque: state.opaque.value += 1
        case .ignored: break
        }
    }
    .lift(.action(Prism<Action, Action>(preview: { if case .ignored = $0 { nil } else { $0 } }, review: { $0 })).state(\State.self))

    static func makeStore() -> Store<Action, State, Void> {
        Store(initial: State(), behavior: behavior)
    }

    /// Tracks `read` once; the counter counts the client's invalidations.
    @discardableResult
    static func track<T>(_ read: () -> T, _ changes: F.Counter) -> T {
        withObservationTracking(read, onChange: { changes.increment() })
    }

    @Test func aClientIsToldWhenTheSliceItReadChangesAndNotWhenAnotherDoes() {
        let store = Self.makeStore()
        let changes = F.Counter()
        #expect(Self.track({ store.observed.count }, changes) == 0)
        store.dispatch(.rename("b"))
        #expect(changes.value == 0)
        store.dispatch(.increment)
        #expect(changes.value == 1)
    }

    @Test func aMutationThatLeavesTheValueEqualTellsNobody() {
        let store = Self.makeStore()
        let changes = F.Counter()
        Self.track({ store.observed.count }, changes)
        store.dispatch(.setCount(0))
        #expect(changes.value == 0)
        store.dispatch(.setCount(5))
        #expect(changes.value == 1)
    }

    @Test func anUnchangedActionNeverTellsAClient() {
        let store = Self.makeStore()
        let changes = F.Counter()
        Self.track({ store.observed.opaque }, changes)
        store.dispatch(.ignored)
        #expect(changes.value == 0)
        store.dispatch(.touchOpaque)
        #expect(changes.value == 1)
    }

    @Test func aValueThatCannotBeComparedTellsItsClientAfterEveryMutatingAction() {
        let store = Self.makeStore()
        let changes = F.Counter()
        Self.track({ store.observed[\.opaque.value] }, changes)
        Self.track({ _ = store.observed.opaque }, changes)
        store.dispatch(.rename("b"))
        #expect(changes.value == 1, "the Int compares, the Opaque cannot")
    }

    @Test func aMemberChainedAfterTheFirstIsReadWithItsParent() {
        let store = Self.makeStore()
        let changes = F.Counter()
        Self.track({ store.observed.opaque.value }, changes)
        store.dispatch(.rename("b"))
        #expect(changes.value == 1, "`observed.opaque` is the tracked read; `[\\.opaque.value]` tracks the Int")
    }

    @Test func aClientThatTracksAgainAtEachChangeIsToldOfEveryChange() {
        let store = Self.makeStore()
        let changes = F.Counter()
        var seen: [Int] = []
        func render() {
            seen.append(withObservationTracking({ store.observed.count }, onChange: { changes.increment() }))
        }
        render()
        for _ in 0..<5 {
            store.dispatch(.rename("x"))
            store.dispatch(.increment)
            render()
        }
        #expect(changes.value == 5)
        #expect(seen == [0, 1, 2, 3, 4, 5])
        #expect(store.trackedReadCount == 1, "the re-tracked read reuses its entry")
    }

    @Test func aRowReadThroughAnElementProjectionTellsOnlyThatRowsClient() {
        let store = Self.makeStore()
        let one = store.projection(element: 1, action: { (_: ElementAction<Int, Never>) in Action.ignored }, collection: \.rows)
        let two = store.projection(element: 2, action: { (_: ElementAction<Int, Never>) in Action.ignored }, collection: \.rows)
        let changesOne = F.Counter()
        let changesTwo = F.Counter()
        #expect(Self.track({ one.observed[\.?.title] }, changesOne) == "row 1")
        #expect(Self.track({ two.observed[\.?.title] }, changesTwo) == "row 2")
        store.dispatch(.retitle(id: 2, "two"))
        #expect(changesOne.value == 0)
        #expect(changesTwo.value == 1)
        store.dispatch(.remove(id: 1))
        #expect(changesOne.value == 1, "a removed row reads nil")
    }

    @Test func twoProjectionsOfOneRowShareOneEntryAndAKeyPathProjectionTracksItsMembers() {
        let store = Self.makeStore()
        let changes = F.Counter()
        for _ in 0..<3 {
            let row = store.projection(element: 3, action: { (_: ElementAction<Int, Never>) in Action.ignored }, collection: \.rows)
            Self.track({ row.observed[\.?.title] }, changes)
        }
        #expect(store.trackedReadCount == 1)
        let rows = store.projection(action: Prism<Action, Action>.identity, state: \.rows)
        Self.track({ rows.observed.count }, changes)
        store.dispatch(.retitle(id: 3, "three"))
        #expect(changes.value == 3, "the three clients of row 3, not the count's")
        store.dispatch(.remove(id: 1))
        #expect(changes.value == 4)
    }

    @Test func aProjectionMadeFromClosuresReadsWithoutTracking() {
        let store = Self.makeStore()
        let plain = StoreProjection<Action, State>(
            state: { store.state }, dispatch: { store.dispatch($0, source: $1) }, observe: { store.observe(willChange: $0, didChange: $1) })
        let changes = F.Counter()
        #expect(Self.track({ plain.observed.count }, changes) == 0)
        store.dispatch(.increment)
        #expect(changes.value == 0)
        #expect(store.trackedReadCount == 0)
    }

    @Test func readsNobodyTracksAgainAreDroppedAfterTheirChangeAndTheStoreStopsComparing() {
        let store = Self.makeStore()
        let changes = F.Counter()
        Self.track({ store.observed.count }, changes)
        #expect(store.observerCount == 1)
        store.dispatch(.increment)
        #expect(store.trackedReadCount == 1, "kept one change for a client that tracks again")
        store.dispatch(.increment)
        #expect(store.trackedReadCount == 0)
        #expect(store.observerCount == 0, "a store nobody tracks compares nothing")
        #expect(changes.value == 1)
    }

    @Test func distinctReadsBeyondTheLimitAllFireAndAreDropped() {
        let store = Self.makeStore()
        let changes = F.Counter()
        let limit = SliceTracker.entryLimit
        Self.track({ store.observed.count }, changes)
        for id in 0..<limit {
            let row = store.projection(element: id, action: { (_: ElementAction<Int, Never>) in Action.ignored }, collection: \.rows)
            _ = row.observed[\.?.title]
        }
        #expect(store.trackedReadCount == 1, "the limit's read fired every entry, then was kept")
        #expect(changes.value == 1, "a spurious notification, never a missed one")
    }

    @Test func trackingKeepsNeitherTheStoreNorTheClientAlive() {
        weak var weakStore: Store<Action, State, Void>?
        let changes = F.Counter()
        do {
            let store = Self.makeStore()
            weakStore = store
            let row = store.projection(element: 1, action: { (_: ElementAction<Int, Never>) in Action.ignored }, collection: \.rows)
            Self.track({ (store.observed.count, row.observed[\.?.title]) }, changes)
            store.dispatch(.rename("b"))
        }
        #expect(weakStore == nil)
        #expect(changes.value == 0)
    }
}
