/// One supervision unit: the whole-state evaluation, and for a collection lift its keyed form.
@usableFromInline
internal struct SupervisionUnit<State: Sendable, Action: Sendable, Environment: Sendable>: Sendable {
    /// The channels the state wants.
    @usableFromInline let supervise: @MainActor @Sendable (State) -> Supervision<Action, Environment>
    /// The same evaluation reading the state where it lies: the Store hands over its storage and
    /// each focus lift its focus, so no level copies a large state onto the stack (only the
    /// address of the `inout` is used: nothing is written).
    @usableFromInline let read: @MainActor @Sendable (inout State) -> Supervision<Action, Environment>
    /// The per-element form, when the unit is (a lift of) a collection lift's supervision.
    @usableFromInline let keyed: KeyedSupervision<State, Action, Environment>?
    /// The part of the state the supervision reads (`touches`): a mutation that writes none of
    /// it cannot change the channels it wants.
    @usableFromInline let footprint: UnitFootprint

    /// A unit evaluated by `supervise`; `read` is its in-place form (by default `supervise` called
    /// with the state where it lies: the closure takes its argument by address, so nothing is
    /// copied on the way in).
    @inlinable
    init(
        _ supervise: @escaping @MainActor @Sendable (State) -> Supervision<Action, Environment>,
        keyed: KeyedSupervision<State, Action, Environment>? = nil,
        footprint: UnitFootprint = .whole,
        read: (@MainActor @Sendable (inout State) -> Supervision<Action, Environment>)? = nil
    ) {
        self.supervise = supervise
        // An `if`, not `??`: a closure made inside `??`'s autoclosure checks the executor when called.
        if let read { self.read = read } else { self.read = { supervise($0) } }
        self.keyed = keyed
        self.footprint = footprint
    }
}

/// A collection lift's supervision in keyed form: its lift token and a factory for the per-store
/// tracker that remembers each element's channels.
@usableFromInline
internal struct KeyedSupervision<State: Sendable, Action: Sendable, Environment: Sendable>: Sendable {
    @usableFromInline let token: LiftToken
    @usableFromInline let makeTracker: @MainActor @Sendable () -> any ElementSupervisionTracking<State, Action, Environment>

    @inlinable
    init(token: LiftToken, makeTracker: @escaping @MainActor @Sendable () -> any ElementSupervisionTracking<State, Action, Environment>) {
        self.token = token
        self.makeTracker = makeTracker
    }
}
