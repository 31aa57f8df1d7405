/// The channel keys one element wanted, without an array for the common zero- or one-channel case.
@usableFromInline
internal enum ElementKeys: RandomAccessCollection, Sendable {
    case none
    case one(AnyHashableSendable)
    case many([AnyHashableSendable])

    /// The ids of `channels[range]`. Index arithmetic only: a generic slice here would look up
    /// type metadata at run time on every element of a full evaluation. Inlinable, so a full
    /// evaluation's per-element call runs specialised (no metadata lookup per element).
    @inlinable
    init<A>(_ channels: [Channel<A>], _ range: Range<Int>) {
        switch range.count {
        case 0: self = .none
        case 1: self = .one(channels[range.lowerBound].id)
        default:
            var keys: [AnyHashableSendable] = []
            keys.reserveCapacity(range.count)
            for index in range { keys.append(channels[index].id) }
            self = .many(keys)
        }
    }

    /// Whether these are the same keys as `other`, in the same order.
    @inlinable
    func isSame(as other: ElementKeys) -> Bool {
        switch (self, other) {
        case (.none, .none): return true
        case (.one(let lhs), .one(let rhs)): return lhs == rhs
        case (.many(let lhs), .many(let rhs)): return lhs == rhs
        default: return false
        }
    }

    /// The ids of `channels`.
    @inlinable
    init<A>(_ channels: [Channel<A>]) {
        self.init(channels, 0..<channels.count)
    }

    @inlinable var startIndex: Int { 0 }
    @inlinable var endIndex: Int {
        switch self {
        case .none: return 0
        case .one: return 1
        case .many(let keys): return keys.count
        }
    }
    @inlinable subscript(position: Int) -> AnyHashableSendable {
        switch self {
        case .none: preconditionFailure("ElementKeys.none has no elements")
        case .one(let key): return key
        case .many(let keys): return keys[position]
        }
    }
}

/// A channel's place in container order: its supervision segment, its element's ordinal (its
/// position at the last full evaluation) and its index within the element.
@inlinable
internal func containerOrder(segment: Int, ordinal: Int, index: Int) -> UInt64 {
    UInt64(truncatingIfNeeded: segment) << 48 | UInt64(truncatingIfNeeded: ordinal & 0xFFFF_FFFF) << 16 | UInt64(min(index, 0xFFFF))
}

/// What a tracker remembers of one element: the channel keys it wanted and its ordinal.
@usableFromInline
internal struct ElementMemo: Sendable {
    @usableFromInline var keys: ElementKeys
    @usableFromInline var ordinal: Int

    @inlinable init(keys: ElementKeys, ordinal: Int) {
        self.keys = keys
        self.ordinal = ordinal
    }

    /// Lends the keys and ordinal where they lie: reached through a dictionary's in-place
    /// accessor, the record is not copied out (nor its keys retained and released).
    @inlinable @inline(__always)
    mutating func read<Result>(_ body: (ElementKeys, Int) -> Result) -> Result {
        body(keys, ordinal)
    }
}

/// One element a journaled container's edits touched: the keys it wanted, its channels now (empty
/// when it is gone) and its ordinal.
@usableFromInline
internal struct ElementChange<Action: Sendable> {
    @usableFromInline let previous: ElementKeys
    @usableFromInline let channels: Keep<Action>
    @usableFromInline let ordinal: Int

    @inlinable init(previous: ElementKeys, channels: Keep<Action>, ordinal: Int) {
        self.previous = previous
        self.channels = channels
        self.ordinal = ordinal
    }
}
