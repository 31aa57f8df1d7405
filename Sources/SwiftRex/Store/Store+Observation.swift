extension Store {
    /// Calls every observer's `willChange`, in subscription order, before a mutation.
    @inlinable
    @inline(__always)
    internal func notifyWillChange() {
        guard observers.willChangeCount > 0 else { return }
        notify(willChange: true, regions: ObserverRegions.all)
    }

    /// Calls, in subscription order, the `didChange` of every observer whose slice the regions a
    /// dispatch wrote (``ObserverRegions``) may reach.
    @inlinable
    @inline(__always)
    internal func notifyDidChange(writing regions: UInt64) {
        guard observers.didChangeCount > 0 else { return }
        lastWrittenRegions = regions
        notify(willChange: false, regions: regions)
    }

    /// Calls every observer's `willChange`, or the `didChange` of those interested in `regions`, in
    /// subscription order, skipping those cancelled meanwhile and those added during this
    /// notification. Each observer is reached through its unowned reference (the list keeps it
    /// while a notification runs), so neither it nor its callback is retained.
    @inlinable
    internal func notify(willChange: Bool, regions: UInt64) {
        observers.notifying &+= 1
        let count = observers.entries.count
        var index = 0
        while index < count {
            if observers.entries[index].interest & regions != 0 {
                observers.entries[index].reference.withObject { observer in
                    if observer.cancellation.isCancelled {
                        observers.hasTombstones = true
                    } else if willChange {
                        observer.willChange?()
                    } else {
                        observer.didChange?()
                    }
                }
            }
            index &+= 1
        }
        observers.notifying &-= 1
        if observers.hasTombstones { compactObservers() }
    }

    @usableFromInline
    internal func compactObservers() {
        observers.compact()
    }

    /// Registers an observer; see ``StoreType/observe(willChange:didChange:)``.
    public func observe(willChange: (@MainActor () -> Void)?, didChange: (@MainActor () -> Void)?) -> SubscriptionToken {
        observe(interest: ObserverRegions.all, willChange: willChange, didChange: didChange)
    }

    /// Registers an observer whose `didChange` hears only of the dispatches whose writes may reach
    /// `slice`, a key path from the state (`nil`: the whole state).
    @usableFromInline
    func observe(slice: AnyKeyPath?, willChange: (@MainActor () -> Void)?, didChange: (@MainActor () -> Void)?) -> SubscriptionToken {
        observe(interest: observerRegions.interest(readingPath: slice, of: State.self), willChange: willChange, didChange: didChange)
    }

    private func observe(interest: UInt64, willChange: (@MainActor () -> Void)?, didChange: (@MainActor () -> Void)?) -> SubscriptionToken {
        let (id, flag) = observers.add(willChange: willChange, didChange: didChange, interest: interest)
        return SubscriptionToken { [weak self] in
            flag.cancel()
            onMainActor { self?.observers.remove(id: id) }
        }
    }

    /// The number of live observers.
    public var observerCount: Int { observers.count }

    /// The states after every change, as an async stream (starting with the current state).
    public var stream: AsyncStream<State> {
        let (stream, continuation) = AsyncStream<State>.makeStream(bufferingPolicy: .unbounded)
        continuation.yield(storage)
        nextStreamID &+= 1
        let id = nextStreamID
        streamContinuations[id] = continuation
        streamTokens[id] = observe(didChange: { [weak self] in
            guard let self else { return }
            continuation.yield(self.storage)
        })
        continuation.onTermination = { [weak self] _ in
            onMainActor {
                self?.streamContinuations[id] = nil
                self?.streamTokens[id] = nil
            }
        }
        return stream
    }
}
