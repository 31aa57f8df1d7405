import Baselines
import LabCore
import SwiftRex

/// The rows' action enum with its case key path `\.payload`, written out as `@Prisms` generates it
/// (the lab does not build the macros: swift-syntax stays out of release builds).
extension LiftScenarios.RowsAction: Prismatic {
    var payload: CounterAction? {
        get { if case .payload(let value) = self { value } else { nil } }
        set { if let newValue { self = .payload(newValue) } }
    }

    static func prism<Value>(for path: WritableKeyPath<LiftScenarios.RowsAction, Value?>) -> Prism<LiftScenarios.RowsAction, Value>? {
        let path = path as AnyKeyPath
        if path == \LiftScenarios.RowsAction.payload as AnyKeyPath {
            return Prism<LiftScenarios.RowsAction, CounterAction>(
                preview: { if case .payload(let value) = $0 { value } else { nil } },
                review: { LiftScenarios.RowsAction.payload($0) }
            ) as? Prism<LiftScenarios.RowsAction, Value>
        }
        return nil
    }
}

/// The documented spellings on the hot path: a case-key-path action lane against the hand-written
/// prism (`lift.payload`), and mutate-and-produce in one closure against the two-closure `react`.
@MainActor
enum SpellingScenarios {
    /// What a chat-like feature keeps: the last messages (bounded, so the state stays small).
    struct Messages: Sendable, Equatable {
        var sent: [Int] = []
    }

    enum MessageAction: Sendable, Equatable {
        case send(Int)
        case other
    }

    /// Appends one message, dropping the oldest 64 at a time.
    nonisolated static func append(_ value: Int, to state: inout Messages) {
        if state.sent.count == 64 { state.sent.removeAll(keepingCapacity: true) }
        state.sent.append(value)
    }

    /// `lift.payload.casePath`, `behavior.mutateAndProduce.oneClosure`, `behavior.mutateAndProduce.twoClosures`.
    static var all: [Scenario] {
        [
            Scenario(name: "lift.payload.casePath") {
                // lift.payload with the action lane built from the case key path \.payload: resolved
                // to the same prism once, when the lift is built.
                let store = Store(
                    initial: LiftScenarios.Rows(rows: []),
                    reducer: counterReducer.lift(.action(\LiftScenarios.RowsAction.payload).state(\LiftScenarios.Rows.payload)))
                let actions = makeCounterActions()
                let mask = actions.count - 1
                return { iterations in
                    for index in 0..<iterations { store.dispatch(.payload(actions[index & mask])) }
                }
            },
            Scenario(name: "behavior.mutateAndProduce.oneClosure") {
                // One closure appends the message and returns the producer of its effect (the
                // effect is empty: the scenario measures the machinery, not a Task).
                let behavior = Behavior<MessageAction, Messages, Void>.reduce { action, state, _ in
                    guard case .send(let value) = action else { return .doNothing }
                    append(value, to: &state)
                    return .produce { _ in
                        blackHole(value)
                        return .empty
                    }
                }
                let store = Store(initial: Messages(), behavior: behavior)
                return { iterations in
                    for index in 0..<iterations { store.dispatch(.send(index)) }
                }
            },
            Scenario(name: "behavior.mutateAndProduce.twoClosures") {
                // The same feature as a grouped reaction: a reduce closure and a produce closure.
                let behavior = Behavior<MessageAction, Messages, Void>.react { action, _ in
                    guard case .send(let value) = action else { return .doNothing }
                    return .reduce { append(value, to: &$0) }
                        .produce { _ in
                            blackHole(value)
                            return .empty
                        }
                }
                let store = Store(initial: Messages(), behavior: behavior)
                return { iterations in
                    for index in 0..<iterations { store.dispatch(.send(index)) }
                }
            },
        ]
    }
}
