/// A counter three levels down an app: the state and actions of the nested-lift scenarios
/// (`lift.nested3` lifts `counterReduce` three times; `naive.nested3` is the same dispatch written
/// by hand as one nested `switch`).
public struct NestedOuter: Sendable, Equatable {
    /// The middle level.
    public var middle = NestedMiddle()
    /// A sibling slice no action touches.
    public var flag = false
    /// Zero counter, default payload.
    public init() {}
}

/// The middle level of ``NestedOuter``.
public struct NestedMiddle: Sendable, Equatable {
    /// The inner level.
    public var inner = NestedInner()
    /// A sibling slice no action touches.
    public var flag = false
    /// Zero counter, default payload.
    public init() {}
}

/// The inner level of ``NestedOuter``: the counter.
public struct NestedInner: Sendable, Equatable {
    /// The counter the actions reach.
    public var counter = CounterState()
    /// A sibling slice no action touches.
    public var flag = false
    /// Zero counter, default payload.
    public init() {}
}

/// The app's actions: the middle feature's, or a sibling case.
public enum NestedOuterAction: Sendable, Equatable {
    /// For the middle level.
    case middle(NestedMiddleAction)
    /// A sibling case (never dispatched by the scenarios).
    case toggle
}

/// The middle level's actions.
public enum NestedMiddleAction: Sendable, Equatable {
    /// For the inner level.
    case inner(NestedInnerAction)
    /// A sibling case.
    case toggle
}

/// The inner level's actions.
public enum NestedInnerAction: Sendable, Equatable {
    /// For the counter.
    case counter(CounterAction)
    /// A sibling case.
    case toggle
}

/// `actions` wrapped three levels deep, as the nested scenarios dispatch them.
public func makeNestedActions(count: Int = 64) -> [NestedOuterAction] {
    makeCounterActions(count: count).map { .middle(.inner(.counter($0))) }
}
