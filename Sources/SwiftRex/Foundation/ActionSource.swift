/// Where an action was dispatched from: the call site captured by `dispatch`, by effect factories
/// and by `.on` declarations. Diagnostics (runaway loops, missing elements) point here.
public struct ActionSource: Hashable, Sendable, CustomStringConvertible {
    /// The file, as `#fileID`.
    public let file: String
    /// The function.
    public let function: String
    /// The line.
    public let line: UInt

    /// Captures the call site.
    @inlinable
    public init(file: String = #fileID, function: String = #function, line: UInt = #line) {
        self.file = file
        self.function = function
        self.line = line
    }

    /// `file:line (function)`.
    public var description: String { "\(file):\(line) (\(function))" }
}

/// An action together with the ``ActionSource`` that dispatched it.
public struct DispatchedAction<Action> {
    /// The action.
    public var action: Action
    /// Who dispatched it.
    public var dispatcher: ActionSource

    /// Pairs an action with its source.
    @inlinable
    public init(_ action: Action, dispatcher: ActionSource) {
        self.action = action
        self.dispatcher = dispatcher
    }

    /// Pairs an action with the call site.
    @inlinable
    public init(_ action: Action, file: String = #fileID, function: String = #function, line: UInt = #line) {
        self.action = action
        self.dispatcher = ActionSource(file: file, function: function, line: line)
    }

    /// Transforms the action, keeping the dispatcher.
    @inlinable
    public func map<NewAction>(_ transform: (Action) throws -> NewAction) rethrows -> DispatchedAction<NewAction> {
        DispatchedAction<NewAction>(try transform(action), dispatcher: dispatcher)
    }

    /// Transforms the action, dropping it when the transform returns `nil`, keeping the dispatcher.
    @inlinable
    public func compactMap<NewAction>(_ transform: (Action) throws -> NewAction?) rethrows -> DispatchedAction<NewAction>? {
        guard let mapped = try transform(action) else { return nil }
        return DispatchedAction<NewAction>(mapped, dispatcher: dispatcher)
    }
}

extension DispatchedAction: Sendable where Action: Sendable {}
extension DispatchedAction: Equatable where Action: Equatable {}
extension DispatchedAction: Hashable where Action: Hashable {}

/// Captures the call site and returns a function that stamps actions with it.
///
/// ```swift
/// let dispatched = here()(AppAction.reset)
/// ```
@inlinable
public func here<Action>(file: String = #fileID, function: String = #function, line: UInt = #line) -> (Action) -> DispatchedAction<Action> {
    let source = ActionSource(file: file, function: function, line: line)
    return { DispatchedAction($0, dispatcher: source) }
}
