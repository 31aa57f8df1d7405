extension StoreType {
    /// Observes one value derived from the state, and calls `didChange` with it only when it differs
    /// (`!=`) from the value this observer last saw.
    ///
    /// The plain ``StoreType/observe(willChange:didChange:)`` fires for every action that *may*
    /// mutate — the Store never compares states (see <doc:DispatchPipeline>), so an action whose
    /// reducer runs but leaves the state equal still notifies. This is the cheap opt-in to skip
    /// those: per notification it computes `value` once and compares it with the last one; it
    /// allocates nothing per notification when `Value` is a plain value.
    ///
    /// ```swift
    /// let token = store.observe(changesOf: \.search.results) { results in
    ///     render(results)
    /// }
    /// ```
    ///
    /// The value seen at subscription is the starting point: it is not delivered.
    ///
    /// > Important: The observer keeps the last value. When that value shares copy-on-write storage
    /// > with the state (an array, a dictionary, a string from the state), the next in-place
    /// > mutation of that storage copies it once. Observe a narrow value (a count, a flag, an id),
    /// > not a large collection, when the state is large.
    ///
    /// - Parameters:
    ///   - value: reads the observed value from the state (a key path works).
    ///   - didChange: called after a change, with the new value, when it differs from the last one.
    /// - Returns: the token; keep it (releasing or cancelling it ends the observation at once).
    /// - Complexity: O(1) per notification, plus the cost of `value` and of one `==`.
    public func observe<Value: Equatable>(
        changesOf value: @escaping @MainActor (State) -> Value,
        _ didChange: @escaping @MainActor (Value) -> Void
    ) -> SubscriptionToken {
        observe(value, slice: nil, didChange)
    }

    /// Observes the value at `slice`, and calls `didChange` with it only when it differs (`!=`)
    /// from the value this observer last saw.
    ///
    /// As `observe(changesOf:_:)` with a closure, and more: on a Store, or a
    /// projection of one through key paths, the observer is registered under the part of the state
    /// the key path reaches, and is not even called (no read, no `==`) after an action whose
    /// applied units write elsewhere. A key path the library cannot locate (one through a computed
    /// property, an optional or a class) is read and compared after every change, as a closure is.
    ///
    /// ```swift
    /// let token = store.observe(changesOf: \.search.query) { query in
    ///     render(query)
    /// }
    /// ```
    ///
    /// - Complexity: nothing per unrelated action; O(1) plus one `==` per action that may write
    ///   the slice.
    public func observe<Value: Equatable>(
        changesOf slice: KeyPath<State, Value>,
        _ didChange: @escaping @MainActor (Value) -> Void
    ) -> SubscriptionToken {
        observe({ $0[keyPath: slice] }, slice: slice, didChange)
    }

    /// Observes `value`, registered under `slice` where this store routes slice observers.
    private func observe<Value: Equatable>(
        _ value: @escaping @MainActor (State) -> Value,
        slice: AnyKeyPath?,
        _ didChange: @escaping @MainActor (Value) -> Void
    ) -> SubscriptionToken {
        let last = LastObservedValue(value(state))
        let onChange: @MainActor () -> Void = { [weak self] in
            guard let self else { return }
            let new = value(self.state)
            guard new != last.value else { return }
            last.value = new
            didChange(new)
        }
        guard let slice, let route = trackingRoute(of: self) else { return observe(willChange: nil, didChange: onChange) }
        return route.observe(slice: slice, willChange: nil, didChange: onChange)
    }

    /// Observes the whole state, and calls `didChange` only when it differs (`!=`) from the state
    /// this observer last saw: actions that mutate but leave the state equal are skipped.
    ///
    /// Shorthand for ``observe(changesOf:_:)-(KeyPath<Self.State,Value>,_)`` with the state itself; the same caution applies:
    /// holding the last state makes the next in-place mutation of its copy-on-write storage copy it
    /// once. For a large state, observe a narrow value, or put a ``StoreBuffer`` over a narrow
    /// ``StoreProjection``.
    ///
    /// - Complexity: one `==` of the state per notification.
    public func observeDistinctStates(_ didChange: @escaping @MainActor (State) -> Void) -> SubscriptionToken where State: Equatable {
        observe(changesOf: { $0 }, didChange)
    }
}

/// The last value an `observe(changesOf:_:)` observer saw (main actor only).
private final class LastObservedValue<Value> {
    var value: Value

    init(_ value: Value) {
        self.value = value
    }
}
