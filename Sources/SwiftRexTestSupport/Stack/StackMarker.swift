import Synchronization

/// Locates a frame inside a ``StackHighWater`` measurement: call ``mark()`` from the code whose
/// depth matters (a reducer body, say) and the measurement reports how far below the caller that
/// frame was (``StackHighWater/markedBytes``).
///
/// Outside a measurement ``mark()`` is one relaxed atomic load, so a marked reducer can also run
/// in timed loops. Several measurements must not use one marker at the same time.
///
/// ```swift
/// let marker = StackMarker()
/// let reducer = Reducer<Action, State>.reduce { action, state in
///     state.count += 1
///     marker.mark()
/// }
/// ```
public final class StackMarker: Sendable {
    private let armed = Atomic<Bool>(false)
    private let deepest = Atomic<UInt>(0)

    /// A marker that is not recording.
    public init() {}

    /// Records the current stack depth when a measurement is running (the deepest one wins).
    @inline(never)
    public func mark() {
        guard armed.load(ordering: .relaxed) else { return }
        let here = currentStackAddress()
        var current = deepest.load(ordering: .relaxed)
        while current == 0 || here < current {
            let (exchanged, original) = deepest.compareExchange(expected: current, desired: here, ordering: .relaxed)
            if exchanged { break }
            current = original
        }
    }

    /// Starts recording (clears the previous mark).
    func arm() {
        deepest.store(0, ordering: .relaxed)
        armed.store(true, ordering: .relaxed)
    }

    /// Stops recording; the deepest marked address, or nil when nothing marked.
    func disarm() -> UInt? {
        armed.store(false, ordering: .relaxed)
        let address = deepest.load(ordering: .relaxed)
        return address == 0 ? nil : address
    }
}
