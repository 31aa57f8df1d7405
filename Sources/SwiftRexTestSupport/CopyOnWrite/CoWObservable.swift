/// A copy-on-write value whose storage ``CoWProbe`` can observe without keeping a reference to it.
public protocol CoWObservable {
    /// The address of the current storage, or `nil` when there is none.
    var storageAddress: UnsafeRawPointer? { get }

    /// The copies counted so far by this value's lineage, or `nil` when the type cannot count them.
    var countedCopies: Int? { get }

    /// Whether the storage is uniquely referenced. May make it unique as a side effect (so call it
    /// only after the mutation under test).
    mutating func checkUniquelyReferenced() -> Bool
}

extension Array: CoWObservable {
    /// The base address of the elements.
    public var storageAddress: UnsafeRawPointer? {
        withUnsafeBufferPointer { $0.baseAddress.map(UnsafeRawPointer.init) }
    }

    /// `nil`: an array does not count its copies (compare ``storageAddress`` instead).
    public var countedCopies: Int? { nil }

    /// Asks for mutable access and checks the elements did not move: a shared buffer would have been
    /// copied to a new address. Meaningful for non-empty arrays only.
    public mutating func checkUniquelyReferenced() -> Bool {
        let before = storageAddress
        let after = withUnsafeMutableBufferPointer { $0.baseAddress.map(UnsafeRawPointer.init) }
        return before == after
    }
}
