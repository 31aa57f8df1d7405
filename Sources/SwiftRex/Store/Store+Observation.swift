extension Store {
    /// Calls every observer's `willChange`, in subscription order, before a mutation.
    @inlinable
    @inline(__always)
    internal func notifyWillChange() {
        guard observers.willChangeCount > 0 else { return }
        if observers.groups.isEmpty {
            notify(willChange: true, regions: ObserverRegions.all)
        } else {
            notifyWillChangeWithElements()
        }
    }

    /// ``notifyWillChange()`` with element observers, which hear of every mutation too.
    @inlinable
    @inline(never)
    internal func notifyWillChangeWithElements() {
        notify(willChange: true, regions: ObserverRegions.all, elements: ObserverList.allElementObservers(of: observers.groups))
    }

    /// Calls, in subscription order, the `didChange` of every observer whose slice the regions a
    /// dispatch wrote (``ObserverRegions``) may reach; of the observers of single elements, only
    /// those of the element written when that element is all the dispatch changed (`scope`).
    @inlinable
    @inline(__always)
    internal func notifyDidChange(writing regions: UInt64, scope: MutationScope, action: Action) {
        guard observers.didChangeCount > 0 else { return }
        lastWrittenRegions = regions
        if observers.groups.isEmpty {
            notify(willChange: false, regions: regions)
        } else {
            notifyDidChange(writing: regions, elementsOf: scope, action: action)
        }
    }

    /// ``notifyDidChange(writing:scope:action:)`` with element observers: when every unit that
    /// applied wrote the element its action addresses through one lift, the element's container
    /// and id pick the observers of that element.
    @inlinable
    @inline(never)
    internal func notifyDidChange(writing regions: UInt64, elementsOf scope: MutationScope, action: Action) {
        // A loop, not `first(where:)`: a closure handed to the standard library here inherits
        // the main actor and checks the executor at run time.
        // The routes are read in place and the groups lent in place (`inout`): a copy of either
        // retains it for the call.
        if let token = scope.addressedToken {
            for index in elementRoutes.indices where elementRoutes[index].token == token {
                // The id is bound, not kept in an optional: copying an optional key goes through
                // its type's value witnesses.
                guard let id = elementRoutes[index].id(action) else { break }
                let elements = ObserverList.elementObservers(
                    of: &observers.groups, writing: regions, container: elementRoutes[index].container, id: id)
                notify(willChange: false, regions: regions, elements: elements)
                return
            }
        }
        notify(willChange: false, regions: regions, elements: ObserverList.elementObservers(of: &observers.groups, writing: regions))
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
            notify(entryAt: index, willChange: willChange, regions: regions)
            index &+= 1
        }
        observers.notifying &-= 1
        if observers.hasTombstones { compactObservers() }
    }

    /// ``notify(willChange:regions:)`` with the element observers `elements` (in subscription
    /// order) called among the others, in subscription order.
    @inlinable
    internal func notify(willChange: Bool, regions: UInt64, elements: [ObserverList.Entry]) {
        observers.notifying &+= 1
        let count = observers.entries.count
        var index = 0
        var position = 0
        while position < elements.count {
            while index < count, observers.entries[index].id < elements[position].id {
                notify(entryAt: index, willChange: willChange, regions: regions)
                index &+= 1
            }
            // `elements` keeps its observers alive; one cancelled meanwhile is skipped (its
            // removal is on its way).
            elements[position].reference.withObject { observer in
                guard !observer.cancellation.isCancelled else { return }
                if willChange { observer.willChange?() } else { observer.didChange?() }
            }
            position &+= 1
        }
        while index < count {
            notify(entryAt: index, willChange: willChange, regions: regions)
            index &+= 1
        }
        observers.notifying &-= 1
        if observers.hasTombstones { compactObservers() }
    }

    /// Calls the observer at `index` of the list when it is interested in `regions`.
    @inlinable
    @inline(__always)
    internal func notify(entryAt index: Int, willChange: Bool, regions: UInt64) {
        guard observers.entries[index].interest & regions != 0 else { return }
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

    /// Registers an observer of the element `id` of `container`: its `didChange` hears of the
    /// dispatches whose writes reach the container, except those that wrote another element alone.
    @usableFromInline
    func observe(
        element id: AnyHashableSendable, of container: ElementContainer, willChange: (@MainActor () -> Void)?, didChange: (@MainActor () -> Void)?
    ) -> SubscriptionToken {
        let interest = observerRegions.interest(reading: .bytes(container.range))
        let (entryID, flag, slot) = observers.add(element: id, of: container, interest: interest, willChange: willChange, didChange: didChange)
        return SubscriptionToken { [weak self] in
            flag.cancel()
            onMainActor { self?.observers.remove(id: entryID, at: slot) }
        }
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
