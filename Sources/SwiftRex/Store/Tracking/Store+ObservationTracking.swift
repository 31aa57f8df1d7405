import Observation

/// The Store takes part in `withObservationTracking` (and so in SwiftUI's view updates) through
/// ``observed``: each value read there is tracked on its own, and after each action that mutates,
/// only the clients whose values changed are told.
extension Store: Observable {}

extension Store: TrackingRoute {
    /// The state, read so that `withObservationTracking` tracks each member read on its own.
    ///
    /// ```swift
    /// let title = withObservationTracking {
    ///     store.observed.title
    /// } onChange: {
    ///     print("title changed")
    /// }
    /// ```
    ///
    /// See <doc:ObservationTracking> for what is compared and when clients are told.
    public var observed: ObservedState<State> { ObservedState(.tracked(self)) }

    @usableFromInline
    func trackedRead<Value: Equatable>(_ key: SliceKey, _ value: (State) -> Value, making read: () -> (State) -> Value) -> Value {
        let current = value(storage)
        startTracking().access(key, value: current) {
            let read = read()
            return { [unowned self] in read(storage) }
        }
        return current
    }

    @usableFromInline
    func trackedRead<Value>(_ key: SliceKey, _ value: (State) -> Value) -> Value {
        startTracking().access(key)
        return value(storage)
    }

    /// The tracker, made at the first tracked read, and its observer, added while it has entries:
    /// a Store nobody tracks does no work for tracking when an action mutates.
    private func startTracking() -> SliceTracker {
        let regions = observerRegions
        let tracker =
            tracking
            ?? SliceTracker { regions.interest(readingPath: $0.path, of: State.self) }
        tracking = tracker
        if tracker.subscription == nil {
            tracker.subscription = observers.add(
                willChange: nil,
                didChange: { [unowned self] in self.trackedStateDidChange() })
        }
        return tracker
    }

    /// Compares the tracked reads after a change; the observer goes once no entry is left.
    private func trackedStateDidChange() {
        guard let tracker = tracking else { return }
        tracker.stateDidChange(writing: lastWrittenRegions)
        if tracker.entries.isEmpty, let (id, flag) = tracker.subscription {
            tracker.subscription = nil
            flag.cancel()
            observers.remove(id: id)
        }
    }

    /// The number of reads the Store compares after each change (tests watch it stay bounded).
    internal var trackedReadCount: Int { tracking?.entries.count ?? 0 }
}
