/// The state of a ``Store`` or ``StoreProjection``, read so that `withObservationTracking` (and
/// SwiftUI) tracks each member read on its own: a client is told only when a value it read changed.
///
/// After each action that may mutate (never after an `.unchanged` one), the Store reads each
/// tracked value again: an `Equatable` value notifies its clients only when it differs (`!=`) from
/// the value read; a value that is not `Equatable` notifies them after every such action.
///
/// ```swift
/// let rows = store.observed.rows.ids   // a view depends on the ids only
/// let row = store.observed[\.rows[id: rowID]]
/// ```
///
/// A projection made with ``StoreProjection/init(state:dispatch:observe:)`` has no store to track
/// through: its reads here return the value and track nothing.
@MainActor
@dynamicMemberLookup
public struct ObservedState<State> {
    /// Where reads go: a route that tracks them, or a plain read of the state.
    @usableFromInline
    enum Source {
        case tracked(any TrackingRoute<State>)
        case untracked(@MainActor () -> State)
    }

    @usableFromInline let source: Source

    @usableFromInline
    init(_ source: Source) {
        self.source = source
    }

    // Inlinable so that reading the key path is specialised (and folded, for a literal key path)
    // where the read is made, in the caller's module.

    /// The value at `keyPath`, tracked and compared with `==`.
    @inlinable
    public subscript<Value: Equatable>(dynamicMember keyPath: KeyPath<State, Value>) -> Value {
        self[keyPath]
    }

    /// The value at `keyPath`, tracked; it cannot be compared, so every mutating action notifies.
    @inlinable
    public subscript<Value>(dynamicMember keyPath: KeyPath<State, Value>) -> Value {
        self[keyPath]
    }

    /// The value at `keyPath`, tracked and compared with `==`.
    @inlinable
    public subscript<Value: Equatable>(_ keyPath: KeyPath<State, Value>) -> Value {
        switch source {
        case .tracked(let route):
            route.trackedRead(SliceKey(member: keyPath), { $0[keyPath: keyPath] }, making: { { $0[keyPath: keyPath] } })
        case .untracked(let read): read()[keyPath: keyPath]
        }
    }

    /// The value at `keyPath`, tracked; it cannot be compared, so every mutating action notifies.
    @inlinable
    public subscript<Value>(_ keyPath: KeyPath<State, Value>) -> Value {
        switch source {
        case .tracked(let route): route.trackedRead(SliceKey(member: keyPath)) { $0[keyPath: keyPath] }
        case .untracked(let read): read()[keyPath: keyPath]
        }
    }
}
