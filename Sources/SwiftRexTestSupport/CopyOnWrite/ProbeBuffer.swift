import Synchronization

/// A copy-on-write buffer of `Int`s that counts every copy of its storage.
///
/// It behaves like `[Int]` (value semantics, copy on write), but its storage is a class this target
/// owns, so a test can ask exactly how many times a mutation path copied it (``copyCount``) and
/// whether the storage is uniquely referenced (``isUniquelyReferenced()``). Every buffer descended
/// from one ``init(count:)`` shares one ``Ledger``, so copies are counted per lineage, not globally,
/// and parallel tests do not disturb each other.
///
/// ```swift
/// var state = BigState(buffer: ProbeBuffer(count: 100_000))
/// let ledger = state.buffer.ledger
/// reducer.apply(.bump, to: &state)
/// #expect(ledger.copies == 0)
/// ```
public struct ProbeBuffer: Sendable {
    /// Counts the storage copies made by one lineage of buffers; holding it does not retain any storage.
    public final class Ledger: Sendable {
        private let counter = Atomic<Int>(0)

        /// A ledger with no copy recorded.
        public init() {}

        /// How many storage copies this lineage has made so far.
        public var copies: Int { counter.load(ordering: .relaxed) }

        fileprivate func recordCopy() {
            counter.add(1, ordering: .relaxed)
        }
    }

    // Only ever mutated after `isKnownUniquelyReferenced` proved this is the only reference, which
    // is what makes the value type safe to share across threads (the same contract as `Array`).
    private final class Storage: @unchecked Sendable {
        var elements: [Int]
        let ledger: Ledger

        init(elements: [Int], ledger: Ledger) {
            self.elements = elements
            self.ledger = ledger
        }
    }

    private var storage: Storage

    /// A buffer holding `0..<count`.
    public init(count: Int) {
        self.init(Array(0..<count))
    }

    /// A buffer holding `elements`, with a fresh ``Ledger``.
    public init(_ elements: [Int]) {
        storage = Storage(elements: elements, ledger: Ledger())
    }

    /// The number of elements.
    public var count: Int { storage.elements.count }

    /// The elements (a copy-on-write copy of the array, sharing its storage until mutated).
    public var elements: [Int] { storage.elements }

    /// The ledger counting this lineage's copies; hold it instead of the buffer to observe a path.
    public var ledger: Ledger { storage.ledger }

    /// How many storage copies this lineage has made so far (``Ledger/copies``).
    public var copyCount: Int { storage.ledger.copies }

    /// The identity of the current storage object (does not retain it).
    public var storageIdentity: ObjectIdentifier { ObjectIdentifier(storage) }

    /// Reads or writes one element; a write copies the storage first when it is shared.
    public subscript(index: Int) -> Int {
        get { storage.elements[index] }
        set {
            makeUnique()
            storage.elements[index] = newValue
        }
    }

    /// Appends an element, copying the storage first when it is shared.
    public mutating func append(_ element: Int) {
        makeUnique()
        storage.elements.append(element)
    }

    /// Whether this buffer is the only reference to its storage (a mutation would not copy).
    public mutating func isUniquelyReferenced() -> Bool {
        isKnownUniquelyReferenced(&storage)
    }

    private mutating func makeUnique() {
        guard !isKnownUniquelyReferenced(&storage) else { return }
        storage.ledger.recordCopy()
        storage = Storage(elements: storage.elements, ledger: storage.ledger)
    }
}

extension ProbeBuffer: Hashable {
    /// Equal elements (the storage and ledger are not compared).
    public static func == (lhs: ProbeBuffer, rhs: ProbeBuffer) -> Bool {
        lhs.storage === rhs.storage || lhs.storage.elements == rhs.storage.elements
    }

    /// Hashes the elements.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(storage.elements)
    }
}

extension ProbeBuffer: CustomStringConvertible {
    /// `ProbeBuffer(count: n, copies: c)`.
    public var description: String { "ProbeBuffer(count: \(count), copies: \(copyCount))" }
}

extension ProbeBuffer: CoWObservable {
    /// The address of the storage object (not retained).
    public var storageAddress: UnsafeRawPointer? {
        UnsafeRawPointer(Unmanaged.passUnretained(storage).toOpaque())
    }

    /// ``copyCount``.
    public var countedCopies: Int? { copyCount }

    /// ``isUniquelyReferenced()``.
    public mutating func checkUniquelyReferenced() -> Bool {
        isUniquelyReferenced()
    }
}
