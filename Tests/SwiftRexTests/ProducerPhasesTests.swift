import Synchronization
import Testing

@_spi(Testing) @testable import SwiftRex

/// A behavior of producers and reducers alone takes a shorter dispatch (its producers, then the
/// reducer-only path, then its effects). It must do exactly what the full dispatch does: each
/// behavior here runs in two stores, one as it is and one with a reaction that does nothing added
/// (which makes the store take the full dispatch), and every observable step must match.
@MainActor
@Suite struct ProducerPhasesTests {
    enum Local: Sendable, Equatable {
        case add(Int)
        case skip
    }

    enum Action: Sendable, Equatable, CaseIndexable {
        case a(Local)
        case b(Local)
        case note(String)
        case answer(Int)
        var caseIndex: Int {
            switch self {
            case .a: 0
            case .b: 1
            case .note: 2
            case .answer: 3
            }
        }
    }

    struct State: Sendable, Equatable {
        var a = 0
        var b = 0
        var log: [String] = []
    }

    static let a = Prism<Action, Local>(case: 0, preview: { if case .a(let local) = $0 { local } else { nil } }, review: Action.a)
    static let b = Prism<Action, Local>(case: 1, preview: { if case .b(let local) = $0 { local } else { nil } }, review: Action.b)
    /// The same as `a`, without a case index (so the store has no routes).
    static let plainA = Prism<Action, Local>(preview: { if case .a(let local) = $0 { local } else { nil } }, review: Action.a)

    /// Adds to the local count (`.skip` leaves it).
    static let adder = Reducer<Local, Int>.reduce { action, count in
        if case .add(let n) = action { count += n }
    }
    /// The same, lifted through a prism that does not match `.skip`: it decides before it writes.
    static let decidingAdder = adder.lift(
        .action(
            Prism<Local, Local>(
                preview: { if case .add = $0 { $0 } else { nil } }, review: { $0 }
            )
        ).state(\Int.self))
    static let logger = Behavior<Action, State, Void>.reduce { action, state in
        switch action {
        case .note(let text): state.log.append("note \(text)")
        case .answer(let n): state.log.append("answer \(n)")
        case .a, .b: break
        }
    }

    /// A producer that records what phase 1 and phase 3 see and answers `.a` and `.b` actions.
    static func answering(_ name: String, into record: Record) -> Behavior<Action, State, Void> {
        .produce { action, context in
            let before = context.stateBefore.map { "a=\($0.a) b=\($0.b)" } ?? "none"
            record.add("\(name) sees \(action) before \(before)")
            switch action {
            case .a(.add(let n)), .b(.add(let n)):
                return Producer { post in
                    let live = MainActor.assumeIsolated { post.liveState }.map { "a=\($0.a) b=\($0.b)" } ?? "none"
                    record.add("\(name) resolves after \(live)")
                    return .just(.answer(n * 10))
                }
            case .a(.skip), .b(.skip), .note, .answer:
                return .doNothing
            }
        }
    }

    /// What producers and observers saw, in order, from any thread.
    final class Record: Sendable {
        private let lines = Mutex<[String]>([])
        func add(_ line: String) { lines.withLock { $0.append(line) } }
        var all: [String] { lines.withLock { $0 } }
    }

    /// Everything a run shows: the record of producers and observers, the state after each
    /// dispatch and drain.
    struct Run: Equatable {
        var record: [String]
        var states: [State]
    }

    static func run(_ behavior: Behavior<Action, State, Void>, record: Record, expectShortPath: Bool) -> Run {
        let store = Store(initial: State(), behavior: behavior)
        #expect(store.runsProducersThenReducers == expectShortPath)
        let will = store.observe(willChange: { record.add("willChange") })
        let did = store.observe(didChange: { [unowned store] in
            record.add("didChange a=\(store.state.a) b=\(store.state.b)")
        })
        var states: [State] = []
        let actions: [Action] = [.a(.add(1)), .b(.skip), .note("x"), .b(.add(2)), .a(.skip), .answer(7), .a(.add(3))]
        for action in actions {
            store.dispatch(action)
            states.append(store.state)
            store.drainEffectActionsNow()
            states.append(store.state)
        }
        will.cancel()
        did.cancel()
        return Run(record: record.all, states: states)
    }

    /// Runs `behavior` on the short path and, with a do-nothing reaction added, on the full one.
    static func compare(_ behavior: Behavior<Action, State, Void>, _ makeBehavior: (Record) -> Behavior<Action, State, Void>) {
        let shortRecord = Record()
        let fullRecord = Record()
        let short = run(Behavior.combine(behavior, makeBehavior(shortRecord)), record: shortRecord, expectShortPath: true)
        let full = run(
            Behavior.combine(behavior, makeBehavior(fullRecord)).react { _, _ in Reaction.doNothing },
            record: fullRecord, expectShortPath: false
        )
        #expect(short == full)
        #expect(!short.record.isEmpty)
    }

    @Test func aReducerAndAProducerMatchTheFullDispatch() {
        Self.compare(.combine(Self.logger, Self.adder.lift(.action(Self.plainA).state(\State.a)).asBehavior())) { record in
            Self.answering("p", into: record)
        }
    }

    @Test func interleavedProducersAndLiftedReducersMatchTheFullDispatch() {
        let reducers = Behavior<Action, State, Void>.combine([
            Self.decidingAdder.lift(.action(Self.plainA).state(\State.a)).asBehavior(),
            Self.logger,
            Self.decidingAdder.lift(.action(Self.b).state(\State.b)).asBehavior(),
        ])
        Self.compare(reducers) { record in
            .combine([Self.answering("first", into: record), Self.logger, Self.answering("second", into: record)])
        }
    }

    @Test func caseIndexedReducersMatchTheFullDispatch() {
        let reducers = Behavior<Action, State, Void>.combine([
            Self.adder.lift(.action(Self.a).state(\State.a)).asBehavior(),
            Self.decidingAdder.lift(.action(Self.b).state(\State.b)).asBehavior(),
        ])
        Self.compare(reducers) { record in Self.answering("indexed", into: record) }
    }

    @Test func producersAloneMatchTheFullDispatch() {
        Self.compare(Behavior<Action, State, Void>.produce { _, _ in .doNothing }) { record in
            .combine([Self.answering("one", into: record), Self.answering("two", into: record)])
        }
    }

    @Test func aReactionOrASupervisionTakesTheFullDispatch() {
        let reacting = Store(initial: State(), behavior: Self.logger.react { _, _ in .doNothing })
        #expect(!reacting.runsProducersThenReducers)
        let supervising = Store(
            initial: State(),
            behavior: Self.logger.produce { _, _ in .doNothing }.supervise { _ in Supervision { _ in [] } }
        )
        #expect(!supervising.runsProducersThenReducers)
        let reducerOnly = Store(initial: State(), behavior: Self.logger)
        #expect(!reducerOnly.runsProducersThenReducers)
    }
}

extension Store {
    /// Whether this Store runs producers, then its reducer phase, without the full phase loop.
    fileprivate var runsProducersThenReducers: Bool {
        switch program {
        case .producersThenReducers: return true
        default: return false
        }
    }
}
