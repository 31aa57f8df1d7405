import SwiftRex
import Testing

/// `Store.dispatch(_:file:function:line:)`: the Store's own call-site dispatch stamps the source
/// phase 1 sees, processes at once or queues in FIFO order while the store is processing, for a
/// reducer-only behavior and for one with reactions or producers alike; it returns the store.
@MainActor
@Suite struct CallSiteDispatchTests {
    enum Action: Sendable, Equatable {
        case add(Int)
        case echo(Int)
    }

    struct State: Sendable, Equatable {
        var log: [Int] = []
        var lines: [UInt] = []
    }

    @Test func aBehaviorWithAReactionSeesTheCallSiteAsItsSource() {
        let store = Store(
            initial: State(),
            behavior: Behavior<Action, State, Void>.react { action, context in
                guard case .add(let amount) = action else { return .doNothing }
                let line = context.source.line
                let file = context.source.file
                return .reduce { state in
                    state.log.append(amount)
                    state.lines.append(file == #fileID ? line : 0)
                }
            })
        let line: UInt = #line + 1
        let returned = store.dispatch(.add(1))
        #expect(returned === store)
        #expect(store.state.log == [1])
        #expect(store.state.lines == [line])
    }

    @Test func dispatchesWhileProcessingAreQueuedInOrderForEitherKindOfBehavior() {
        // With reactions: an observer dispatches while the store processes.
        let behavior = Behavior<Action, State, Void>.react { action, _ in
            switch action {
            case .add(let amount): return .reduce { $0.log.append(amount) }
            case .echo: return .doNothing
            }
        }
        let store = Store(initial: State(), behavior: behavior)
        var reentered = false
        let token = store.observe(didChange: {
            guard !reentered else { return }
            reentered = true
            store.dispatch(.add(2)).dispatch(.add(3))
            // Queued, not nested: nothing ran yet.
            #expect(store.state.log == [1])
        })
        store.dispatch(.add(1))
        #expect(store.state.log == [1, 2, 3])
        _ = token

        // Reducer only.
        let reducer = Reducer<Action, State>.reduce { action, state in
            if case .add(let amount) = action { state.log.append(amount) }
        }
        let plain = Store(initial: State(), reducer: reducer)
        var plainReentered = false
        let plainToken = plain.observe(didChange: {
            guard !plainReentered else { return }
            plainReentered = true
            plain.dispatch(.add(20)).dispatch(.add(30))
            #expect(plain.state.log == [10])
        })
        plain.dispatch(.add(10))
        #expect(plain.state.log == [10, 20, 30])
        _ = plainToken
    }

    /// Where a test keeps phase-1 contexts past their dispatch (misuse the library survives).
    final class KeptContexts<S> {
        var all: [PreReducerContext<S>] = []
    }

    @Test func aContextKeptPastItsDispatchStillReadsItsOwnSource() {
        let kept = KeptContexts<State>()
        let keptSlice = KeptContexts<[Int]>()
        let behavior = Behavior<Action, State, Void>
            .react { action, context in
                kept.all.append(context)
                keptSlice.all.append(context.map(\.log))
                guard case .add(let amount) = action else { return .doNothing }
                return .reduce { $0.log.append(amount) }
            }
            .reduce { action, state in
                if case .echo(let amount) = action { state.log.append(-amount) }
            }
        let store = Store(initial: State(), behavior: behavior)
        let firstLine: UInt = #line + 1
        store.dispatch(.add(1))
        let secondLine: UInt = #line + 1
        store.dispatch(.echo(2))
        let thirdLine: UInt = #line + 1
        store.dispatch(.add(3))
        #expect(kept.all.map(\.source.line) == [firstLine, secondLine, thirdLine])
        #expect(keptSlice.all.map(\.source.line) == [firstLine, secondLine, thirdLine])
        #expect(kept.all.allSatisfy { $0.source.file == #fileID })
        // A kept context reads the live state (it is documented for phase 1 only).
        #expect(kept.all.map { $0.stateBefore?.log } == Array(repeating: [1, -2, 3], count: 3))
        #expect(keptSlice.all[0].stateBefore == [1, -2, 3])
    }

    @Test func everyDispatchReadsItsOwnSourceInPhaseOne() {
        let store = Store(
            initial: State(),
            behavior: Behavior<Action, State, Void>.react { action, context in
                guard case .add = action else { return .doNothing }
                let line = context.source.line
                return .reduce { $0.lines.append(line) }
            })
        var lines: [UInt] = []
        for _ in 0..<3 {
            lines.append(#line + 1)
            store.dispatch(.add(0))
        }
        store.dispatch(.add(0), source: ActionSource(file: "Elsewhere.swift", function: "f()", line: 7))
        #expect(store.state.lines == lines + [7])
    }
}
