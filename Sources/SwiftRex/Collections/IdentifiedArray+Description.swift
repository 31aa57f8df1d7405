extension IdentifiedArray: ExpressibleByArrayLiteral {
    /// A collection of the literal's elements; a repeated id keeps the earlier position and the
    /// later value, as ``init(_:)``.
    @inlinable
    public init(arrayLiteral elements: Element...) {
        self.init(elements)
    }
}

extension IdentifiedArray: CustomStringConvertible, CustomDebugStringConvertible {
    /// The elements, printed as an array: `[Row(id: 1), Row(id: 2)]`.
    public var description: String {
        Array(self).description
    }

    /// The elements, printed as an array and named: `IdentifiedArray([Row(id: 1), Row(id: 2)])`.
    public var debugDescription: String {
        "IdentifiedArray(\(Array(self).debugDescription))"
    }
}
