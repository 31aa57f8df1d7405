// The library's collections in failure messages: compared and shown by their elements (paired by
// id when they are `Identifiable`), never by the storage, journal and version a `Mirror` sees.

/// A collection of the library that a difference walks, counts and describes by its elements.
protocol DiffedByElements {
    /// The number of elements.
    var elementCount: Int { get }
    /// Calls `body` with each element in order until it returns `false`.
    func forEachElement(_ body: (Any) -> Bool)
    /// Records the differences with `other` (a value of the same type) below `path`.
    func diffElements(against other: Any, in differ: inout StateDiffer, path: [PathStep], depth: Int)
}

extension IdentifiedArray: DiffedByElements {
    var elementCount: Int { count }

    func forEachElement(_ body: (Any) -> Bool) {
        for element in self where !body(element) { return }
    }

    /// Elements in order, paired by id: with `Equatable` elements, the typed comparison of
    /// identified arrays (no element boxed unless it differs); otherwise through reflection.
    func diffElements(against other: Any, in differ: inout StateDiffer, path: [PathStep], depth: Int) {
        guard let other = other as? IdentifiedArray<Element> else { return differ.leaf(self, other, path: path) }
        let expected = ContiguousArray(self)
        let actual = ContiguousArray(other)
        if let typed = expected as? any IdentifiedElementArray {
            return typed.diffIdentifiedElements(against: actual, in: &differ, path: path, depth: depth)
        }
        differ.diffSequences(expected.map { $0 }, actual.map { $0 }, path: path, depth: depth)
    }
}

extension IdentifiedArray.IDs: DiffedByElements {
    var elementCount: Int { count }

    func forEachElement(_ body: (Any) -> Bool) {
        for id in self where !body(id) { return }
    }

    /// Ids in order, by position.
    func diffElements(against other: Any, in differ: inout StateDiffer, path: [PathStep], depth: Int) {
        guard let other = other as? IdentifiedArray.IDs else { return differ.leaf(self, other, path: path) }
        differ.diffSequences(map { $0 }, other.map { $0 }, path: path, depth: depth)
    }
}
