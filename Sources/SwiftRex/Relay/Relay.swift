/// The vocabulary of lifting: a ``Scope`` names how a feature's action, state and environment
/// axes map into the app's, one *lane* per axis.
///
/// Build a scope with the leading-dot builder, each axis at most once, in any order:
///
/// ```swift
/// feature.lift(.action(AppAction.prism.room).state(\.room).environment(\.roomEnv))
/// rows.liftCollection(.action(AppAction.prism.row).state(\.rows))
/// day.liftOptional(.state(\AppState.currentDay))
/// ```
///
/// An axis left unset is ``Identity``: it passes through unchanged (the host's global type equals
/// the feature's).
public enum Relay {
    /// One lane per axis. Hosts (`lift`, `liftOptional`, `liftCollection`, `liftEach`, `.on`,
    /// projections) constrain each lane on the capability they need.
    public struct Scope<ActionLane, StateLane, EnvironmentLane>: Sendable
    where ActionLane: Sendable, StateLane: Sendable, EnvironmentLane: Sendable {
        /// The action lane.
        public let action: ActionLane
        /// The state lane.
        public let state: StateLane
        /// The environment lane.
        public let environment: EnvironmentLane

        /// A scope from its three lanes.
        @inlinable
        public init(action: ActionLane, state: StateLane, environment: EnvironmentLane) {
            self.action = action
            self.state = state
            self.environment = environment
        }
    }

    /// The pass-through lane of an axis that is already at the global type.
    public struct Identity<Value>: Sendable {
        /// The pass-through lane.
        @inlinable
        public init() {}
    }
}

// MARK: Lane capabilities

/// An action lane that extracts the local action from a global one (`nil`: not for this feature).
public protocol ExtractsAction: Sendable {
    /// The app's action type.
    associatedtype GlobalAction
    /// The feature's action type.
    associatedtype LocalAction
    /// The local action, or `nil` when the global action is not for this feature.
    func extract(_ action: GlobalAction) -> LocalAction?
    /// The case of `GlobalAction` this lane extracts, by its ``CaseIndexable/caseIndex``, when the
    /// lane extracts from that case alone (whatever the payload); `nil` when it cannot tell, the
    /// default. A Store whose action is ``CaseIndexable`` asks a feature lifted through such a
    /// lane only for actions of its case.
    var extractedCase: Int? { get }
}

extension ExtractsAction {
    /// `nil`: the lane cannot tell which case it extracts.
    @inlinable
    public var extractedCase: Int? { nil }
}

/// An action lane that embeds a local action into the global one (total: what a feature says
/// must reach the app).
public protocol EmbedsAction: Sendable {
    /// The app's action type.
    associatedtype GlobalAction
    /// The feature's action type.
    associatedtype LocalAction
    /// The global action carrying `action`.
    func embed(_ action: LocalAction) -> GlobalAction
}

/// A state lane that reads a focus which may be absent and mutates it in place when present.
public protocol WritesState: Sendable {
    /// The app's state type.
    associatedtype GlobalState
    /// The feature's state type.
    associatedtype LocalState
    /// Whether the focus is always present (a lens), so presence checks can be skipped.
    var isTotal: Bool { get }
    /// The focus, or `nil` when absent.
    func preview(_ state: GlobalState) -> LocalState?
    /// Mutates the focus in place when present; returns whether it was.
    func tryModify(_ state: inout GlobalState, _ body: (inout LocalState) -> Void) -> Bool
    /// Reads the focus for a test made before any mutation, or returns `nil` when it is absent.
    ///
    /// `state` is `inout` for its address only: `body` receives the focus `inout` and must not
    /// write it. The library's key-path lanes hand over the focus where it lies, so nothing is
    /// copied whatever its size; the default reads a copy through ``preview(_:)``.
    func inspect<Result>(_ state: inout GlobalState, _ body: (inout LocalState) -> Result) -> Result?
    /// Whether ``tryModify(_:_:)`` reaches the focus where it lies and runs nothing around `body`
    /// that copies or writes (a key path of stored properties, to a value or to an optional).
    /// A Store then tells observers of a change from inside `body`, just before the first write,
    /// and asks the lane once per action instead of twice. The default is `false`.
    var modifiesInPlace: Bool { get }
}

extension WritesState {
    /// Reads a copy of the focus through ``preview(_:)``.
    @inlinable
    public func inspect<Result>(_ state: inout GlobalState, _ body: (inout LocalState) -> Result) -> Result? {
        guard var local = preview(state) else { return nil }
        return body(&local)
    }

    /// `false`: a lane reaches its focus in place only when it says so.
    @inlinable
    public var modifiesInPlace: Bool { false }
}

/// An environment lane that narrows the app's environment to the feature's.
public protocol NarrowsEnvironment: Sendable {
    /// The app's environment type.
    associatedtype GlobalEnvironment
    /// The feature's environment type.
    associatedtype LocalEnvironment
    /// The feature's environment.
    func narrow(_ environment: GlobalEnvironment) -> LocalEnvironment
}

extension Relay.Identity: ExtractsAction, EmbedsAction, WritesState, NarrowsEnvironment {
    /// The action itself.
    @inlinable public func extract(_ action: Value) -> Value? { action }
    /// The action itself.
    @inlinable public func embed(_ action: Value) -> Value { action }
    /// Always present.
    @inlinable public var isTotal: Bool { true }
    /// The state itself.
    @inlinable public func preview(_ state: Value) -> Value? { state }
    /// Mutates the state itself.
    @inlinable public func tryModify(_ state: inout Value, _ body: (inout Value) -> Void) -> Bool {
        body(&state)
        return true
    }
    /// The state itself, in place.
    @inlinable public func inspect<Result>(_ state: inout Value, _ body: (inout Value) -> Result) -> Result? { body(&state) }
    /// In place.
    @inlinable public var modifiesInPlace: Bool { true }
    /// The environment itself.
    @inlinable public func narrow(_ environment: Value) -> Value { environment }
}
