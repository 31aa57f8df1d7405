/// The naive store a developer would write in an afternoon: a class holding the
/// state, an `(Action, inout State) -> Void` closure, and an array of observer
/// closures called after each dispatch. Lives in its own module and is not
/// inlinable, so `dispatch` is a real cross-module call (the time normaliser).
public final class NaiveStore<Action, State> {
    /// Current state.
    public private(set) var state: State
    private let reducer: (Action, inout State) -> Void
    private var observers: [() -> Void] = []

    /// Creates a store with an initial state and a reducer closure.
    public init(initial: State, reducer: @escaping (Action, inout State) -> Void) {
        self.state = initial
        self.reducer = reducer
    }

    /// Adds an observer called after every dispatch.
    public func subscribe(_ observer: @escaping () -> Void) {
        observers.append(observer)
    }

    /// Runs the reducer in place, then notifies every observer.
    @inline(never)
    public func dispatch(_ action: Action) {
        reducer(action, &state)
        for observer in observers { observer() }
    }
}
