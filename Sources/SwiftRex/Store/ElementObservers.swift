/// The observers of single elements of one container (see ``ElementAddress``): each in
/// subscription order, and by the id of the element it watches, so that a dispatch whose writes
/// all went to one element calls that element's observers alone.
@usableFromInline
internal struct ElementObserverGroup {
    /// The container's key in ``ObserverList/containers``.
    @usableFromInline let container: Int
    /// The regions whose writes reach the container (``ObserverRegions``).
    @usableFromInline let interest: UInt64
    /// Every observer of the group, in subscription order; removed ones leave in batches.
    @usableFromInline var entries: [ObserverList.Entry] = []
    /// How many of ``entries`` were removed since the last batch left.
    var removedCount = 0
    /// The group's observers by element id, each list in subscription order.
    @usableFromInline var byID: [AnyHashableSendable: [ObserverList.Entry]] = [:]

    init(container: Int, interest: UInt64) {
        self.container = container
        self.interest = interest
    }
}

/// What a lift's addressed unit writes, as a Store keeps it: the container by its key in
/// ``ObserverList/containers``, and the id of the element an action addresses.
@usableFromInline
internal struct ElementRoute<Action>: Sendable {
    @usableFromInline let token: LiftToken
    @usableFromInline let container: Int
    @usableFromInline let id: @Sendable (Action) -> AnyHashableSendable?

    @usableFromInline
    init(token: LiftToken, container: Int, id: @escaping @Sendable (Action) -> AnyHashableSendable?) {
        self.token = token
        self.container = container
        self.id = id
    }
}

extension ObserverList {
    /// The key of `container`, the same for equal containers: a dispatch compares keys, not
    /// containers.
    mutating func key(of container: ElementContainer) -> Int {
        if let index = containers.firstIndex(of: container) { return index }
        containers.append(container)
        return containers.count - 1
    }

    /// The routes of the units in `addresses` that write one element, their containers keyed.
    @usableFromInline
    mutating func routes<Action, State>(of addresses: [ElementAddress<Action, State>]) -> [ElementRoute<Action>] {
        addresses.map { ElementRoute(token: $0.token, container: key(of: $0.container), id: $0.id) }
    }

    /// Where an element observer is kept, for its removal.
    @usableFromInline
    struct ElementSlot: Sendable {
        let group: Int
        let id: AnyHashableSendable
    }

    /// Adds an observer of the element `id` of `container`, whose `didChange` hears of the
    /// dispatches that write a region in `interest` and, when all they wrote is one element of
    /// that container, of those that wrote this one.
    mutating func add(
        element id: AnyHashableSendable, of container: ElementContainer, interest: UInt64,
        willChange: (@MainActor () -> Void)?, didChange: (@MainActor () -> Void)?
    ) -> (id: UInt64, flag: CancellationFlag, slot: ElementSlot) {
        let entry = makeEntry(willChange: willChange, didChange: didChange, interest: interest)
        if willChange != nil { elementWillChangeCount += 1 }
        if didChange != nil { elementDidChangeCount += 1 }
        let containerKey = key(of: container)
        let group: Int
        if let index = groups.firstIndex(where: { $0.container == containerKey }) {
            group = index
        } else {
            group = groups.count
            groups.append(ElementObserverGroup(container: containerKey, interest: interest))
        }
        groups[group].entries.append(entry)
        groups[group].byID[id, default: []].append(entry)
        countElement(1)
        return (entry.id, entry.observer.cancellation, ElementSlot(group: group, id: id))
    }

    /// Removes the element observer `id` kept at `slot`. Notifications call copies of the lists,
    /// so it may leave at once, also during one; the subscription-order list sheds removed
    /// observers in batches, so removing many costs time proportional to their number.
    mutating func remove(id: UInt64, at slot: ElementSlot) {
        guard let list = groups[slot.group].byID[slot.id], let index = list.firstIndex(where: { $0.id == id }) else { return }
        let observer = list[index].observer
        if list.count == 1 {
            groups[slot.group].byID[slot.id] = nil
        } else {
            groups[slot.group].byID[slot.id]!.remove(at: index)
        }
        if observer.willChange != nil {
            elementWillChangeCount -= 1
            willChangeCount -= 1
        }
        if observer.didChange != nil {
            elementDidChangeCount -= 1
            didChangeCount -= 1
        }
        countElement(-1)
        groups[slot.group].removedCount += 1
        if groups[slot.group].removedCount * 2 > groups[slot.group].entries.count {
            groups[slot.group].entries.removeAll { $0.observer.cancellation.isCancelled }
            groups[slot.group].removedCount = 0
        }
    }

    /// The element observers a dispatch that wrote `regions` reaches, in subscription order:
    /// in each group the container's writes reach, the observers of the element `id` when all
    /// the dispatch wrote is that element of the group's container (keyed `container`), else all
    /// of them. `groups` is only read: lent `inout` so that the Store's list is read in place.
    @usableFromInline
    static func elementObservers(of groups: inout [ElementObserverGroup], writing regions: UInt64, container: Int, id: AnyHashableSendable) -> [Entry]
    {
        var reached: [Entry] = []
        var lists = 0
        for index in groups.indices where groups[index].interest & regions != 0 {
            if container == groups[index].container {
                guard let observers = groups[index].byID[id] else { continue }
                reached.append(observers, lists: &lists)
            } else {
                reached.append(groups[index].entries, lists: &lists)
            }
        }
        if lists > 1 { reached.sort { $0.id < $1.id } }
        return reached
    }

    /// The element observers a dispatch that wrote `regions` and no single element reaches, in
    /// subscription order: every observer of each group the container's writes reach. `groups` is
    /// only read, lent `inout` as above.
    @usableFromInline
    static func elementObservers(of groups: inout [ElementObserverGroup], writing regions: UInt64) -> [Entry] {
        var reached: [Entry] = []
        var lists = 0
        for index in groups.indices where groups[index].interest & regions != 0 {
            reached.append(groups[index].entries, lists: &lists)
        }
        if lists > 1 { reached.sort { $0.id < $1.id } }
        return reached
    }

    /// Every element observer of `groups`, in subscription order (a `willChange` hears of every
    /// mutation).
    @usableFromInline
    static func allElementObservers(of groups: [ElementObserverGroup]) -> [Entry] {
        var all: [Entry] = []
        for group in groups { all += group.entries }
        if groups.count > 1 { all.sort { $0.id < $1.id } }
        return all
    }
}

extension [ObserverList.Entry] {
    /// Adds one group's observers to those reached so far (`lists` of them): the first list is
    /// taken as it is; lists of two groups are sorted into subscription order by the caller.
    fileprivate mutating func append(_ list: [ObserverList.Entry], lists: inout Int) {
        if lists == 0 { self = list } else { self += list }
        lists += 1
    }
}
