extension IdentifiedArray: Encodable where Element: Encodable {
    /// Encodes the elements as a plain array, in order.
    @inlinable
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        for element in self { try container.encode(element) }
    }
}

extension IdentifiedArray: Decodable where Element: Decodable {
    /// Decodes a plain array. A repeated id is not an error: as in ``init(_:)``, the later value
    /// replaces the earlier one at the earlier one's position.
    @inlinable
    public init(from decoder: any Decoder) throws {
        self.init(try [Element](from: decoder))
    }
}
