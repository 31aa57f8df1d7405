import Testing

@testable import SwiftRex

/// A Store holds phase 1's reader as one unmanaged reference: it lends it to each dispatch's
/// context and takes it back, and replaces it when a context outlives its phase 1. These tests
/// hold the reference counting to that: the reader goes away with its Store, a kept context keeps
/// the reader it was given (and only that one), and the replacement goes away with the Store.
@MainActor
@Suite("Phase 1's reader lifetime")
struct PhaseOneReaderLifetimeTests {
    enum Action: Sendable, Equatable { case tick }
    struct State: Sendable, Equatable { var count = 0 }

    /// The contexts a producer kept past their phase 1.
    @MainActor
    final class Kept {
        var contexts: [PreReducerContext<State>] = []
    }

    static func store(keeping kept: Kept? = nil) -> Store<Action, State, Void> {
        let behavior = Behavior<Action, State, Void>
            .reduce { _, state in state.count += 1 }
            .produce { _, context in
                kept?.contexts.append(context)
                return .doNothing
            }
        return Store(initial: State(), behavior: behavior)
    }

    /// Yields until `isGone` holds (a Store's isolated deinit may run on a later turn), at most
    /// 100 times.
    static func settle(until isGone: () -> Bool) async {
        for _ in 0..<100 where !isGone() { await Task.yield() }
    }

    @Test("the reader goes away with its Store")
    func readerGoesAwayWithTheStore() async {
        weak var reader: StoreStateReader<State>?
        do {
            let store = Self.store()
            store.dispatch(.tick)
            store.dispatch(.tick)
            reader = store.phaseOneReader.current
            #expect(store.state.count == 2)
            #expect(reader != nil)
        }
        await Self.settle { reader == nil }
        #expect(reader == nil)
    }

    @Test("a context kept past phase 1 keeps its own reader; the Store's current one goes with the Store")
    func keptContextKeepsItsReader() async {
        let kept = Kept()
        weak var first: StoreStateReader<State>?
        weak var second: StoreStateReader<State>?
        weak var current: StoreStateReader<State>?
        do {
            let store = Self.store(keeping: kept)
            first = store.phaseOneReader.current
            store.dispatch(.tick)
            // The first context was kept: the Store replaced the reader it lent.
            second = store.phaseOneReader.current
            #expect(second !== first)
            #expect(kept.contexts.count == 1)
            #expect(kept.contexts[0].stateBefore == State(count: 1))
            store.dispatch(.tick)
            current = store.phaseOneReader.current
            #expect(current !== second)
            #expect(kept.contexts.count == 2)
            #expect(kept.contexts[1].stateBefore == State(count: 2))
        }
        await Self.settle { current == nil }
        // The Store is gone with its reader; each kept context keeps the one it was lent.
        #expect(current == nil)
        #expect(first != nil)
        #expect(second != nil)
        kept.contexts.removeAll()
        #expect(first == nil)
        #expect(second == nil)
    }
}
