extension IdentifiedArray {
    /// The ids of the elements, in order: a view sharing the collection's storage.
    ///
    /// - Complexity: O(1) to create; `ids.contains(_:)` is O(1).
    @inlinable
    public var ids: IDs { IDs(base: self) }

    /// The ids of an ``IdentifiedArray``'s elements, in order, read lazily from its storage.
    public struct IDs: BidirectionalCollection {
        @usableFromInline let base: IdentifiedArray

        @inlinable init(base: IdentifiedArray) { self.base = base }

        /// The collection's start index.
        @inlinable public var startIndex: IdentifiedArray.Index { base.startIndex }
        /// The collection's end index.
        @inlinable public var endIndex: IdentifiedArray.Index { base.endIndex }
        /// The number of ids. - Complexity: O(1).
        @inlinable public var count: Int { base.count }
        /// Whether there is no id. - Complexity: O(1).
        @inlinable public var isEmpty: Bool { base.isEmpty }
        /// The position after `index`.
        @inlinable public func index(after index: IdentifiedArray.Index) -> IdentifiedArray.Index { base.index(after: index) }
        /// The position before `index`.
        @inlinable public func index(before index: IdentifiedArray.Index) -> IdentifiedArray.Index { base.index(before: index) }

        /// The id of the element at `position` (read in place, the element is not copied).
        @inlinable
        public subscript(position: IdentifiedArray.Index) -> Element.ID {
            base.slots[base.liveSlot(position, "IdentifiedArray.IDs subscript")].unsafelyUnwrapped.id
        }

        /// `contains(_:)` in O(1), through the id index.
        @inlinable
        public func _customContainsEquatableElement(_ id: Element.ID) -> Bool? {
            base.contains(id: id)
        }
    }
}

extension IdentifiedArray.IDs: Sendable where Element: Sendable {}
