// Where a key path's value lies in its root's inline layout: optics record it, so that what a
// unit lifted through them writes can be located (see `StateFootprint`).

/// The byte range of the value a key path reaches through stored properties only, or `nil`.
@inlinable
internal func inlineRange<Root, Value>(of keyPath: KeyPath<Root, Value>) -> Range<Int>? {
    MemoryLayout<Root>.offset(of: keyPath).map { $0..<($0 + MemoryLayout<Value>.size) }
}

/// The byte range of the value a type-erased key path reaches through stored properties only, or `nil`.
@usableFromInline
internal func inlineRange<Root>(of keyPath: PartialKeyPath<Root>) -> Range<Int>? {
    guard let offset = MemoryLayout<Root>.offset(of: keyPath) else { return nil }
    func size<Value>(_: Value.Type) -> Int { MemoryLayout<Value>.size }
    return offset..<(offset + _openExistential(type(of: keyPath).valueType, do: size))
}
