/// One action as an action log reports it: the action, who dispatched it, and the state before
/// and after every mutation the action caused.
public struct ActionLogEntry<Action, State> {
    /// The action.
    public let action: Action
    /// Who dispatched it.
    public let source: ActionSource
    /// The state before the action's mutations.
    public let stateBefore: State
    /// The state after the action's mutations.
    public let stateAfter: State

    /// An entry for `action`, dispatched from `source`, that took the state from `stateBefore` to
    /// `stateAfter`.
    public init(action: Action, source: ActionSource, stateBefore: State, stateAfter: State) {
        self.action = action
        self.source = source
        self.stateBefore = stateBefore
        self.stateAfter = stateAfter
    }

    /// The action, its source, and the parts of the state that changed, each under its path (at
    /// most `limit` of them; the rest are counted), or a line saying the state did not change.
    ///
    /// ```
    /// action: AppAction.search(.query("milk"))
    ///   from: ContentView.swift:42 (body)
    /// (before −, after +; equal parts omitted)
    ///   AppState
    /// −   .query: "mil"
    /// +   .query: "milk"
    /// ```
    public func description(limit: Int = 20) -> String {
        let described = boundedDescription(action, budget: 200)
        let name = described.hasPrefix(".") ? typeName(of: action) + described : described
        let header = "action: \(name)\n  from: \(source)"
        var differ = StateDiffer(limit: max(1, limit))
        differ.diff(stateBefore, stateAfter, path: [PathStep(label: typeName(of: stateBefore), context: "")], depth: 0)
        guard differ.total > 0 else { return header + "\n  (state unchanged)" }
        return header + "\n" + differ.render(legend: "(before −, after +; equal parts omitted)")
    }
}

extension ActionLogEntry: Sendable where Action: Sendable, State: Sendable {}

extension Middleware {
    /// A middleware that hands every action it sees to `log`, with its source and the state before
    /// and after the action's mutations (by default it prints ``ActionLogEntry/description(limit:)``).
    ///
    /// A debugging aid: it keeps the state before each action and compares it with the state
    /// after, so combine it while you need it; a behavior without it pays nothing.
    public static func actionLog(
        _ log: @escaping @MainActor @Sendable (ActionLogEntry<Action, State>) -> Void = { print($0.description()) }
    ) -> Middleware {
        .handle { action, context in
            guard let before = context.stateBefore else { return Producer { _ in .empty } }
            let source = context.source
            return Producer { post in
                MainActor.assumeIsolated {
                    if let after = post.liveState {
                        log(ActionLogEntry(action: action, source: source, stateBefore: before, stateAfter: after))
                    }
                }
                return .empty
            }
        }
    }
}

extension Behavior {
    /// This behavior with an action log: every action the Store handles is handed to `log` with its
    /// source and the state before and after (see ``Middleware/actionLog(_:)``). Add it at the root
    /// while debugging (`Store(initial:behavior: app.logActions(), …)`); without it nothing is logged
    /// and nothing is paid.
    public func logActions(
        _ log: @escaping @MainActor @Sendable (ActionLogEntry<Action, State>) -> Void = { print($0.description()) }
    ) -> Behavior {
        Behavior(units: units + Middleware<Action, State, Environment>.actionLog(log).units)
    }
}
