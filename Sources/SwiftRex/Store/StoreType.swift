/// Anything that holds state, accepts actions and notifies observers: the `Store`, its
/// projections and buffers, and the `TestStore`.
@MainActor
public protocol StoreType<Action, State>: AnyObject {
    /// The actions it accepts.
    associatedtype Action: Sendable
    /// The state it exposes.
    associatedtype State

    /// The current state.
    var state: State { get }

    /// Dispatches an action stamped with `source`.
    func dispatch(_ action: Action, source: ActionSource)

    /// Registers an observer called before (`willChange`) and after (`didChange`) every action
    /// that may mutate the state, in subscription order. Keep the token: releasing or cancelling it
    /// ends the observation at once, also in the middle of a notification.
    ///
    /// An action notifies unless it is `.unchanged` — no unit of the behavior applies to it; the
    /// Store never compares states, so an action whose reducer runs but leaves the state equal
    /// still notifies (the exact rule: <doc:DispatchPipeline>). To skip equal values, observe
    /// with ``observe(changesOf:_:)-(KeyPath<Self.State,Value>,_)``.
    func observe(willChange: (@MainActor () -> Void)?, didChange: (@MainActor () -> Void)?) -> SubscriptionToken
}

extension StoreType {
    /// Dispatches an action stamped with the call site; returns the store so calls chain.
    @inlinable
    @discardableResult
    public func dispatch(_ action: Action, file: String = #fileID, function: String = #function, line: UInt = #line) -> Self {
        dispatch(action, source: ActionSource(file: file, function: function, line: line))
        return self
    }

    /// Registers a `didChange`-only observer.
    @inlinable
    public func observe(didChange: @escaping @MainActor () -> Void) -> SubscriptionToken {
        observe(willChange: nil, didChange: didChange)
    }

    /// Registers a `willChange`-only observer.
    @inlinable
    public func observe(willChange: @escaping @MainActor () -> Void) -> SubscriptionToken {
        observe(willChange: willChange, didChange: nil)
    }
}
