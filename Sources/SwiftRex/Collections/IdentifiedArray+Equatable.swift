extension IdentifiedArray: Equatable where Element: Equatable {
    /// The same elements in the same order (content versions and journals are not compared).
    ///
    /// - Complexity: O(n).
    @inlinable
    public static func == (lhs: IdentifiedArray, rhs: IdentifiedArray) -> Bool {
        lhs.liveCount == rhs.liveCount && lhs.elementsEqual(rhs)
    }
}

extension IdentifiedArray: Hashable where Element: Hashable {
    /// Hashes the elements in order.
    ///
    /// - Complexity: O(n).
    @inlinable
    public func hash(into hasher: inout Hasher) {
        hasher.combine(liveCount)
        for element in self { hasher.combine(element) }
    }
}
