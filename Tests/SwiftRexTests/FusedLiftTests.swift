import Testing

@testable import SwiftRex

/// Side-by-side lifted units of one shape, which a Store asks in one loop: each unit still does
/// exactly what it does alone, in order, and observers hear the same notifications.
@MainActor
@Suite struct FusedLiftTests {
    enum Local: Sendable, Equatable {
        case add(Int)
        case skip
    }

    enum App: Sendable, Equatable {
        case a(Local)
        case b(Local)
        case c(Local)
        case both(Local)
        case other
    }

    struct Slices: Sendable, Equatable {
        var a = 0
        var b = 0
        var c = 0
        var log: [String] = []
    }

    static let adder = Reducer<Local, Int>.reduce { action, value in
        if case .add(let amount) = action { value = value &* 10 &+ amount }
    }

    /// Applies only to `.add`: a lifted unit whose inner unit decides for itself.
    static let decidingAdder = adder.lift(
        .action(
            Prism<Local, Local>(
                preview: { if case .add = $0 { $0 } else { nil } }, review: { $0 }
            )
        ).state(\Int.self))

    static let a = Prism<App, Local>(preview: { if case .a(let local) = $0 { local } else { nil } }, review: App.a)
    static let b = Prism<App, Local>(preview: { if case .b(let local) = $0 { local } else { nil } }, review: App.b)
    static let c = Prism<App, Local>(preview: { if case .c(let local) = $0 { local } else { nil } }, review: App.c)
    /// Matches `.a` and `.both`: two units can apply to one action.
    static let aOrBoth = Prism<App, Local>(
        preview: {
            switch $0 {
            case .a(let local), .both(let local): local
            default: nil
            }
        }, review: App.both)
    /// Matches `.b` and `.both`.
    static let bOrBoth = Prism<App, Local>(
        preview: {
            switch $0 {
            case .b(let local), .both(let local): local
            default: nil
            }
        }, review: App.both)

    static let logger = Reducer<App, Slices>.reduce { action, state in
        state.log.append("plain a=\(state.a) b=\(state.b)")
    }

    @Test func sideBySideLiftsOfOneShapeAreOneStep() {
        let reducer = Reducer.mconcat([
            Self.adder.lift(.action(Self.a).state(\Slices.a)),
            Self.adder.lift(.action(Self.b).state(\Slices.b)),
            Self.adder.lift(.action(Self.c).state(\Slices.c)),
        ])
        let store = Store(initial: Slices(), reducer: reducer)
        #expect(store.reducerStepCount == 1)
        store.dispatch(.b(.add(3)))
        store.dispatch(.c(.add(4)))
        store.dispatch(.b(.add(5)))
        #expect(store.state == Slices(a: 0, b: 35, c: 4))
    }

    @Test func anUnliftedUnitBetweenLiftsSplitsTheRunAndKeepsTheOrder() {
        let reducer = Reducer.mconcat([
            Self.adder.lift(.action(Self.aOrBoth).state(\Slices.a)),
            Self.adder.lift(.action(Self.bOrBoth).state(\Slices.b)),
            Self.logger,
            Self.adder.lift(.action(Self.aOrBoth).state(\Slices.a)),
            Self.adder.lift(.action(Self.bOrBoth).state(\Slices.b)),
        ])
        let store = Store(initial: Slices(), reducer: reducer)
        #expect(store.reducerStepCount == 3)
        store.dispatch(.both(.add(1)))
        // The plain unit saw the first run's writes; the second run saw the first one's.
        #expect(store.state == Slices(a: 11, b: 11, c: 0, log: ["plain a=1 b=1"]))
        store.dispatch(.a(.add(2)))
        #expect(store.state == Slices(a: 11_22, b: 11, c: 0, log: ["plain a=1 b=1", "plain a=112 b=11"]))
    }

    @Test func unitsOnTheSameSliceRunInOrder() {
        let reducer = Reducer.mconcat([
            Self.adder.lift(.action(Self.aOrBoth).state(\Slices.a)),
            Self.adder.lift(.action(Self.bOrBoth).state(\Slices.a)),
            Self.adder.lift(.action(Self.aOrBoth).state(\Slices.a)),
        ])
        let store = Store(initial: Slices(), reducer: reducer)
        #expect(store.reducerStepCount == 1)
        store.dispatch(.both(.add(1)))
        #expect(store.state.a == 111)
        store.dispatch(.b(.add(2)))
        #expect(store.state.a == 1112)
        store.dispatch(.a(.add(3)))
        #expect(store.state.a == 111_233)
    }

    @Test func observersHearOneWillChangeBeforeTheFirstWriteAndNothingWhenNoUnitApplies() {
        let reducer = Reducer.mconcat([
            Self.adder.lift(.action(Self.aOrBoth).state(\Slices.a)),
            Self.adder.lift(.action(Self.bOrBoth).state(\Slices.b)),
            Self.adder.lift(.action(Self.c).state(\Slices.c)),
        ])
        let store = Store(initial: Slices(), reducer: reducer)
        #expect(store.reducerStepCount == 1)
        var log: [String] = []
        let token = store.observe(
            willChange: { log.append("will a=\(store.state.a) b=\(store.state.b)") },
            didChange: { log.append("did a=\(store.state.a) b=\(store.state.b)") }
        )
        store.dispatch(.other)
        #expect(log.isEmpty)
        store.dispatch(.both(.add(7)))
        #expect(log == ["will a=0 b=0", "did a=7 b=7"])
        _ = token
    }

    @Test func innerUnitsThatDecideForThemselvesStayHonest() {
        let reducer = Reducer.mconcat([
            Self.decidingAdder.lift(.action(Self.a).state(\Slices.a)),
            Self.decidingAdder.lift(.action(Self.b).state(\Slices.b)),
        ])
        let store = Store(initial: Slices(), reducer: reducer)
        #expect(store.reducerStepCount == 1)
        var notifications = 0
        let token = store.observe(willChange: { notifications += 1 }, didChange: { notifications += 1 })
        // The outer prism matches, the inner one does not: nothing applies, nobody is told.
        store.dispatch(.b(.skip))
        #expect(notifications == 0)
        store.dispatch(.b(.add(2)))
        #expect(notifications == 2)
        #expect(store.state == Slices(a: 0, b: 2, c: 0))
        _ = token
    }

    @Test func liftsOfAnotherLocalStateTypeAreNotFusedButStillAsked() {
        struct Mixed: Sendable, Equatable {
            var number = 0
            var text = ""
        }
        let texter = Reducer<Local, String>.reduce { action, text in
            if case .add(let amount) = action { text += "\(amount)" }
        }
        let reducer = Reducer.mconcat([
            Self.adder.lift(.action(Self.a).state(\Mixed.number)),
            texter.lift(.action(Self.a).state(\Mixed.text)),
            Self.adder.lift(.action(Self.b).state(\Mixed.number)),
        ])
        let store = Store(initial: Mixed(), reducer: reducer)
        #expect(store.reducerStepCount == 3)
        store.dispatch(.a(.add(4)))
        store.dispatch(.b(.add(5)))
        #expect(store.state == Mixed(number: 45, text: "4"))
    }

    @Test func aFusedRunStillTellsSupervisionThatItWrote() {
        let evaluations = CoreFixtures.Counter()
        let watcher = Behavior<App, Slices, Void>.supervise { _ in
            evaluations.increment()
            return Supervision { _ in [] }
        }
        let features = Behavior<App, Slices, Void>(
            reducer: Reducer.mconcat([
                Self.adder.lift(.action(Self.a).state(\Slices.a)),
                Self.adder.lift(.action(Self.b).state(\Slices.b)),
                Self.adder.lift(.action(Self.c).state(\Slices.c)),
            ]), middleware: .identity)
        let store = Store(initial: Slices(), behavior: features <> watcher, environment: ())
        #expect(store.reducerStepCount == 1)
        let before = evaluations.value
        store.dispatch(.other)
        #expect(evaluations.value == before)
        store.dispatch(.c(.add(1)))
        #expect(evaluations.value == before + 1)
        #expect(store.state.c == 1)
    }

    @Test func aReducerAskedDirectlyAnswersForEveryUnitAndAppliesThemInOrder() {
        let lifted = Reducer.mconcat([
            Self.adder.lift(.action(Self.aOrBoth).state(\Slices.a)),
            Self.adder.lift(.action(Self.bOrBoth).state(\Slices.a)),
        ])
        var state = Slices()
        #expect(!lifted.willMutate(.other, in: state))
        #expect(!lifted.willMutate(.c(.add(1)), in: state))
        #expect(lifted.willMutate(.b(.add(1)), in: state))
        lifted.apply(.both(.add(1)), to: &state)
        #expect(state.a == 11)
        // A unit without a test always applies.
        let withPlain = Reducer.mconcat([lifted, Self.logger])
        #expect(withPlain.willMutate(.other, in: state))
        withPlain.apply(.other, to: &state)
        #expect(state == Slices(a: 11, b: 0, c: 0, log: ["plain a=11 b=0"]))
        // The prism matches, the inner unit says no.
        let deciding = Self.decidingAdder.lift(.action(Self.a).state(\Slices.a))
        #expect(!deciding.willMutate(.a(.skip), in: state))
        #expect(deciding.willMutate(.a(.add(1)), in: state))
    }

    @Test func aCaseIndexedStoreKeepsOneStepPerUnit() {
        enum Indexed: Sendable, Equatable, CaseIndexable {
            case a(Local)
            case b(Local)
            var caseIndex: Int {
                switch self {
                case .a: 0
                case .b: 1
                }
            }
        }
        let a = Prism<Indexed, Local>(case: 0, preview: { if case .a(let local) = $0 { local } else { nil } }, review: Indexed.a)
        let b = Prism<Indexed, Local>(case: 1, preview: { if case .b(let local) = $0 { local } else { nil } }, review: Indexed.b)
        let reducer = Reducer.mconcat([
            Self.adder.lift(.action(a).state(\Slices.a)),
            Self.adder.lift(.action(b).state(\Slices.b)),
        ])
        let store = Store(initial: Slices(), reducer: reducer)
        #expect(store.reducerStepCount == 2)
        store.dispatch(.b(.add(6)))
        #expect(store.state == Slices(a: 0, b: 6, c: 0))
    }
}

extension Store {
    /// How many steps the reducer phase of this Store asks per action (side-by-side units of one
    /// shape are asked as one step).
    fileprivate var reducerStepCount: Int {
        switch program {
        case .bareReducer: return 1
        case .reducer: return 1
        case .reducers(let reducers): return reducers.steps.count
        case .producersThenReducers(let producers):
            switch producers.reducers {
            case .sole: return 1
            case .several(let reducers): return reducers.steps.count
            case .none: return 0
            }
        case .allPhases: return 0
        }
    }
}
