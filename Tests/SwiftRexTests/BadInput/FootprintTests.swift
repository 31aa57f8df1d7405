@_spi(Testing) import SwiftRex
import SwiftRexTestSupport
import Testing

/// What the Store does with footprints it cannot use or declarations that do not hold.
@MainActor
@Suite("Bad input: footprints and declarations")
struct FootprintTests {
    struct Inner: Sendable, Equatable { var value = 0 }
    final class Box: @unchecked Sendable { var value = 0 }

    struct State: Sendable, Equatable {
        var watched = 0
        var other = 0
        var optional: Inner? = Inner()
        var sum: Int {
            get { watched + other }
            set { other = newValue - watched }
        }
    }

    /// A supervision of `watched` that counts its evaluations and keeps a channel broadcasting it.
    static func watcher(_ evaluations: CoreFixtures.Counter, _ events: CoreFixtures.Log<String>) -> Behavior<Int, State, Void> {
        Behavior<Int, Int, Void>.supervise { watched in
            evaluations.increment()
            return Supervision { _ in
                [
                    Channel<Int>(id: "watch", broadcasting: .onChange(watched)) { _ in
                        ChannelHandler(receive: { events.append("watched \($0)") }, cancel: {})
                    }
                ]
            }
        }.lift(.state(\State.watched))
    }

    @Test func aDeclarationThroughAComputedPropertyOrAnOptionalNarrowsNothing() {
        let evaluations = CoreFixtures.Counter()
        for part in [\State.sum as PartialKeyPath<State>, \State.optional?.value] {
            let writer = Behavior<Int, State, Void>.reduce { value, state in state.other = value }.confined(to: part)
            let store = Store(initial: State(), behavior: Self.watcher(evaluations, CoreFixtures.Log()) <> writer, environment: ())
            let before = evaluations.value
            store.dispatch(1)
            // The part cannot be placed by bytes: it counts as the whole state, so the watcher is
            // evaluated (conservative), never skipped.
            #expect(evaluations.value - before == 1)
        }
    }

    @Test func aDeclarationThatDoesNotHoldLeavesTheSupervisionUntilAnActionReachesIt() {
        // Documented outcome: `confined(to:)` is a promise. A unit confined to `other` that
        // writes `watched` is not followed by the watcher's reconcile; the change is delivered
        // by the next action that reaches the watcher.
        let events = CoreFixtures.Log<String>()
        let liar = Behavior<Int, State, Void>.reduce { value, state in state.watched = value }.confined(to: \State.other)
        let honest = Behavior<Int, State, Void>.react { value, _ in
            value < 0 ? .reduce { $0.watched = -value } : .doNothing
        }.confined(to: \State.watched)
        let store = Store(initial: State(), behavior: Self.watcher(CoreFixtures.Counter(), events) <> liar <> honest, environment: ())
        store.dispatch(5)
        #expect(events.values == ["watched 0"])
        store.dispatch(-7)
        #expect(events.values == ["watched 0", "watched 7"])
    }
}
