/// Actions of the dispatch scenarios (identical for raw, naive and SwiftRex).
public enum CounterAction: Sendable, Equatable {
    /// Adds one to `count`.
    case increment
    /// Subtracts one from `count`.
    case decrement
    /// No state change (used as an effect's output action).
    case done
}

/// State of the dispatch scenarios: a counter plus a payload that must never be copied.
public struct CounterState: Sendable, Equatable {
    /// The counter.
    public var count: Int
    /// Payload carried along (size is a scenario parameter).
    public var payload: [Int]

    /// Creates a state with a `payloadSize`-element payload.
    public init(count: Int = 0, payloadSize: Int = CounterState.defaultPayloadSize) {
        self.count = count
        self.payload = Array(0..<payloadSize)
    }

    /// Payload size of the unsized dispatch scenarios.
    public static let defaultPayloadSize = 100
}

/// A fixed pseudo-random sequence of `.increment` / `.decrement` (no `.done`),
/// opaque to the optimiser; index it with `i & (count - 1)`.
public func makeCounterActions(count: Int = 64) -> [CounterAction] {
    precondition(count > 0 && count & (count - 1) == 0, "count must be a power of two")
    var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
    return (0..<count).map { _ in
        seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return (seed >> 33) & 1 == 0 ? .increment : .decrement
    }
}

/// The reference reducer body, as a plain function: the `switch` every scenario performs.
@inline(never)
public func counterReduce(_ action: CounterAction, _ state: inout CounterState) {
    switch action {
    case .increment: state.count &+= 1
    case .decrement: state.count &-= 1
    case .done: break
    }
}

/// The floor: a hand-written `switch` loop on a local `var` state, no store, no
/// closure. Not inlinable (its own module, `@inline(never)`), so call sites are fair.
@inline(never)
public func rawDispatchLoop(state: inout CounterState, actions: [CounterAction], iterations: Int) {
    var local = state
    let mask = actions.count - 1
    for index in 0..<iterations {
        switch actions[index & mask] {
        case .increment: local.count &+= 1
        case .decrement: local.count &-= 1
        case .done: break
        }
    }
    state = local
}
