// How a Store watches a plain array lane's container: a copy kept while a unit that may write it
// runs, compared with the container after it (the comparison is in IdentifiedElements.swift).

extension Relay.IdentifiedElements: WatchedKeyedState {
    /// Watches over an array container (`Array`, `ContiguousArray`): a Store keeps a copy of it
    /// while a unit that may write it runs, then compares the two.
    @inlinable var erasedWatchFactory: Any? {
        guard Self.containerPinsStorage else { return nil }
        let lane = self
        let equal = Self.elementEquality
        return WatchFactory<GlobalState, ID> {
            let held = SnapshotCell<Container>()
            return ContainerWatch(
                take: { state, writes in
                    lane.container.inspect(&state) { elements in
                        held.storage = Self.storageAddress(of: elements)
                        held.value = writes ? Self.exactCopy(of: elements) : elements
                    }
                },
                compare: { state, edits in
                    // The copy is kept until the comparison is over: it pins what it compares.
                    guard let before = held.value else { return nil }
                    held.value = nil
                    let start = edits.count
                    return lane.container.inspect(&state) { after in
                        guard lane.edits(from: before, to: after, equal: equal, into: &edits) else { return nil }
                        // The lane's position table follows the edit, rather than being rebuilt
                        // by the next lookup.
                        if edits.count > start {
                            lane.cache.patch(from: held.storage, to: Self.storageAddress(of: after), count: before.count, edits: edits[start...])
                        }
                        return before.count
                    }
                })
        }
    }

    /// Where `elements` lie, as the position cache keys its tables (`nil`: no such address).
    @inlinable
    static func storageAddress(of elements: Container) -> UInt? {
        elements.withContiguousStorageIfAvailable { storage(of: $0) } ?? nil
    }

    /// `body` applied to the element at `offset`, read where the container lies.
    @inlinable
    func withElement(atOffset offset: Int, inPlace state: inout GlobalState, _ body: (Container.Element) -> Void) -> Bool {
        container.inspect(&state) { elements in
            guard offset >= 0, offset < elements.count else { return false }
            Self.withElement(at: offset, of: elements, body)
            return true
        }
    }
}
