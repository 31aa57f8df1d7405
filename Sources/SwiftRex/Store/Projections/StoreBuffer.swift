import Foundation
import Synchronization

/// The deduplication layer between a store and a view: it caches the underlying state and tells its
/// own observers only when a change passes `hasChanged`.
///
/// On every underlying `didChange` it reads the new state; when `hasChanged(cached, new)` it calls
/// its observers' `willChange`, stores the new value, then calls their `didChange`. Otherwise it does
/// nothing and keeps the cache: comparisons are always against the last **propagated** value, not
/// the last value seen. Its `willChange` therefore fires after the underlying store has mutated.
///
/// It holds the underlying store strongly; dispatch is forwarded unchanged. Observers are called in
/// subscription order, and cancelling a token takes effect at once, also during a notification.
///
/// ```swift
/// let view = store.projection(action: AppAction.counter, state: \.counter).buffer()
/// let token = view.observe(didChange: { render(view.state) })
/// ```
@MainActor
public final class StoreBuffer<Action: Sendable, State>: StoreType {
    private let underlying: any StoreType<Action, State>
    private let hasChanged: (State, State) -> Bool
    private var cached: State
    private var upstreamToken: SubscriptionToken?
    private var observers: [BufferObserver] = []
    private var notifying = 0
    private var hasTombstones = false
    private var nextID: UInt64 = 0

    /// A buffer over `store` that propagates a change only when `hasChanged(lastPropagated, new)`.
    ///
    /// - Complexity: O(1); subscribes once to the underlying store's `didChange`.
    public init(_ store: some StoreType<Action, State>, hasChanged: @escaping (_ old: State, _ new: State) -> Bool) {
        underlying = store
        self.hasChanged = hasChanged
        cached = store.state
        upstreamToken = store.observe(willChange: nil, didChange: { [weak self] in self?.underlyingDidChange() })
    }

    /// A buffer over `store` that propagates a change only when the new state differs (`!=`).
    ///
    /// - Complexity: O(1).
    public convenience init(_ store: some StoreType<Action, State>) where State: Equatable {
        self.init(store, hasChanged: { $0 != $1 })
    }

    /// The last propagated state.
    ///
    /// - Complexity: O(1) (cached).
    public var state: State { cached }

    /// Dispatches `action` to the underlying store unchanged.
    public func dispatch(_ action: Action, source: ActionSource) {
        underlying.dispatch(action, source: source)
    }

    /// Registers an observer called around every propagated change, in subscription order. An
    /// observer added during a notification misses that notification.
    ///
    /// - Complexity: O(1) amortised.
    public func observe(willChange: (@MainActor () -> Void)?, didChange: (@MainActor () -> Void)?) -> SubscriptionToken {
        compactIfIdle()
        nextID &+= 1
        let id = nextID
        let cancellation = ObserverCancellation()
        observers.append(BufferObserver(id: id, willChange: willChange, didChange: didChange, cancellation: cancellation))
        return SubscriptionToken { [weak self] in
            cancellation.cancel()
            onMainActor { self?.remove(id: id) }
        }
    }

    /// The number of live observers.
    ///
    /// - Complexity: O(n) in the number of observers.
    public var observerCount: Int {
        observers.count { !$0.cancellation.isCancelled && ($0.willChange != nil || $0.didChange != nil) }
    }

    private func underlyingDidChange() {
        let new = underlying.state
        guard hasChanged(cached, new) else { return }
        notify(willChange: true)
        cached = new
        notify(willChange: false)
    }

    /// Calls every observer's `willChange` (or `didChange`) in subscription order, skipping those
    /// cancelled meanwhile and those added during this notification.
    private func notify(willChange: Bool) {
        notifying += 1
        let count = observers.count
        var index = 0
        while index < count {
            let observer = observers[index]
            index &+= 1
            if observer.cancellation.isCancelled {
                hasTombstones = true
                continue
            }
            (willChange ? observer.willChange : observer.didChange)?()
        }
        notifying -= 1
        compactIfIdle()
    }

    private func remove(id: UInt64) {
        guard let index = observers.firstIndex(where: { $0.id == id }) else { return }
        if notifying > 0 {
            observers[index].willChange = nil
            observers[index].didChange = nil
            hasTombstones = true
        } else {
            observers.remove(at: index)
        }
    }

    private func compactIfIdle() {
        guard hasTombstones, notifying == 0 else { return }
        observers.removeAll { $0.cancellation.isCancelled || ($0.willChange == nil && $0.didChange == nil) }
        hasTombstones = false
    }
}

/// One observer of a ``StoreBuffer``. Declared outside the generic class: nested there, it would
/// be generic too, and every read of the list would ask the runtime for its metadata.
private struct BufferObserver {
    let id: UInt64
    var willChange: (@MainActor () -> Void)?
    var didChange: (@MainActor () -> Void)?
    let cancellation: ObserverCancellation
}

/// A flag a buffer's observer token sets from any thread, checked before every callback.
private final class ObserverCancellation: Sendable {
    private let flag = Atomic<Bool>(false)

    var isCancelled: Bool { flag.load(ordering: .acquiring) }

    func cancel() { flag.store(true, ordering: .releasing) }
}

extension StoreType {
    /// A ``StoreBuffer`` over this store that propagates a change only when the state differs.
    ///
    /// - Complexity: O(1).
    public func buffer() -> StoreBuffer<Action, State> where State: Equatable {
        StoreBuffer(self)
    }

    /// A ``StoreBuffer`` over this store that propagates a change only when
    /// `hasChanged(lastPropagated, new)`.
    ///
    /// - Complexity: O(1).
    public func buffer(hasChanged: @escaping (_ old: State, _ new: State) -> Bool) -> StoreBuffer<Action, State> {
        StoreBuffer(self, hasChanged: hasChanged)
    }
}
