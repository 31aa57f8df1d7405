// Path-scoped invalidation: what each unit may write and what each supervision reads, worked out
// once, when features are composed, so that the Store can skip every supervision a dispatch's
// mutations cannot reach.
//
// A part of the state is named by the bytes it occupies in the state's inline layout. A key path
// made only of stored properties (`\AppState.settings`, `\AppState.settings.theme`) lies at a fixed
// byte offset (`MemoryLayout.offset(of:)`) and occupies `MemoryLayout<Value>.size` bytes; two such
// parts are disjoint exactly when their byte ranges are. Anything the library cannot place that way
// (a closure lens, a computed property, a prism over an enum state, an app-level unit) is the whole
// state, which overlaps everything: the conservative answer.
//
// Heap storage a value owns (an array's elements, a string's characters) belongs to the field that
// holds it, since the library's states are values. A class instance reachable from two fields is
// the one case the byte ranges cannot see: see `Behavior.confined(to:)`.

/// Parts of a state value: byte ranges of its inline layout, or the whole value.
///
/// Plain data (no array, no reference): units carry one, and copying a unit on the dispatch path
/// must not retain anything. It holds up to four ranges; more are merged into the smallest hulls
/// that keep four, which only ever makes a footprint larger (conservative).
@usableFromInline
internal struct StateFootprint: Sendable, Equatable, CustomStringConvertible {
    /// The number of ranges, or -1 for the whole state.
    @usableFromInline let count: Int8
    /// Lower and upper bounds of up to four sorted, disjoint, non-empty ranges.
    @usableFromInline let bounds: (Int32, Int32, Int32, Int32, Int32, Int32, Int32, Int32)

    /// The most ranges a footprint keeps apart.
    @usableFromInline static var capacity: Int { 4 }

    /// A footprint from byte ranges (`nil`: the whole state). Overlapping and adjacent ranges are
    /// merged; beyond four, the closest neighbours are merged into their hull.
    @usableFromInline
    init(ranges: [Range<Int>]?) {
        guard let ranges else {
            self.init(count: -1, ranges: [])
            return
        }
        var merged: [Range<Int>] = []
        for range in ranges.filter({ !$0.isEmpty }).sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = merged.last, range.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        while merged.count > Self.capacity {
            var closest = 0
            for index in 1..<(merged.count - 1)
            where merged[index + 1].lowerBound - merged[index].upperBound < merged[closest + 1].lowerBound - merged[closest].upperBound {
                closest = index
            }
            merged[closest] = merged[closest].lowerBound..<merged[closest + 1].upperBound
            merged.remove(at: closest + 1)
        }
        guard merged.allSatisfy({ $0.lowerBound >= 0 && $0.upperBound <= Int(Int32.max) }) else {
            self.init(count: -1, ranges: [])
            return
        }
        self.init(count: Int8(merged.count), ranges: merged)
    }

    private init(count: Int8, ranges: [Range<Int>]) {
        func bound(_ index: Int, _ upper: Bool) -> Int32 {
            guard index < ranges.count else { return 0 }
            return Int32(upper ? ranges[index].upperBound : ranges[index].lowerBound)
        }
        self.count = count
        bounds = (
            bound(0, false), bound(0, true), bound(1, false), bound(1, true),
            bound(2, false), bound(2, true), bound(3, false), bound(3, true)
        )
    }

    /// Sorted, disjoint, non-empty byte ranges; `nil`: the whole state.
    @usableFromInline
    var ranges: [Range<Int>]? {
        guard count >= 0 else { return nil }
        let flat = [bounds.0, bounds.1, bounds.2, bounds.3, bounds.4, bounds.5, bounds.6, bounds.7]
        return (0..<Int(count)).map { Int(flat[2 * $0])..<Int(flat[2 * $0 + 1]) }
    }

    @usableFromInline
    static func == (lhs: StateFootprint, rhs: StateFootprint) -> Bool {
        lhs.ranges == rhs.ranges
    }

    /// The whole state: overlaps every non-empty footprint.
    @inlinable static var whole: StateFootprint { StateFootprint(ranges: nil) }

    /// No part of the state.
    @inlinable static var none: StateFootprint { StateFootprint(ranges: []) }

    /// The bytes `range` of the state; an unknown range is the whole state.
    @inlinable
    static func bytes(_ range: Range<Int>?) -> StateFootprint {
        guard let range else { return .whole }
        return range.isEmpty ? .none : StateFootprint(ranges: [range])
    }

    /// Whether this footprint names no part of the state.
    @inlinable var isNone: Bool { count == 0 }

    /// Whether this footprint is the whole state.
    @inlinable var isWhole: Bool { count < 0 }

    /// Both footprints.
    @inlinable
    func union(_ other: StateFootprint) -> StateFootprint {
        guard let mine = ranges, let theirs = other.ranges else { return .whole }
        return StateFootprint(ranges: mine + theirs)
    }

    /// The parts both footprints name.
    @inlinable
    func intersection(_ other: StateFootprint) -> StateFootprint {
        guard let mine = ranges else { return other }
        guard let theirs = other.ranges else { return self }
        var common: [Range<Int>] = []
        for range in mine {
            for candidate in theirs where range.overlaps(candidate) {
                common.append(max(range.lowerBound, candidate.lowerBound)..<min(range.upperBound, candidate.upperBound))
            }
        }
        return StateFootprint(ranges: common)
    }

    /// Whether some byte belongs to both footprints (the whole state overlaps anything non-empty).
    @inlinable
    func overlaps(_ other: StateFootprint) -> Bool {
        guard let mine = ranges else { return !other.isNone }
        guard let theirs = other.ranges else { return !isNone }
        for range in mine {
            for candidate in theirs where range.overlaps(candidate) { return true }
        }
        return false
    }

    /// This footprint of a part, seen from the value that holds the part at `range` (`nil`:
    /// somewhere unknown). With `exact`, the part is stored inline at `range` (a key-path lens), so
    /// its sub-ranges keep their place; otherwise (an optional, a collection's elements) any use
    /// of the part is a use of the whole `range`.
    @inlinable
    func embedded(in range: Range<Int>?, exact: Bool) -> StateFootprint {
        if isNone { return .none }
        guard let range else { return .whole }
        guard exact, let ranges else { return .bytes(range) }
        var shifted: [Range<Int>] = []
        for inner in ranges {
            let lower = range.lowerBound + min(inner.lowerBound, range.count)
            let upper = range.lowerBound + min(inner.upperBound, range.count)
            if lower < upper { shifted.append(lower..<upper) }
        }
        return StateFootprint(ranges: shifted)
    }

    /// `whole`, `none` or the byte ranges.
    @usableFromInline
    var description: String {
        guard let ranges else { return "whole" }
        if ranges.isEmpty { return "none" }
        return ranges.map { "bytes \($0.lowerBound)..<\($0.upperBound)" }.joined(separator: ", ")
    }
}

/// What one unit touches: the part of the state it may write (a reducer or reaction) or reads
/// (a supervision), and the containers of the collection lifts it went through, where the elements
/// that own its effects live.
@usableFromInline
internal struct UnitFootprint: Sendable, Equatable {
    /// What the unit may write (reducers, reactions) or reads (supervisions); producers: nothing.
    @usableFromInline var touches: StateFootprint
    /// Where the collection elements whose effects this unit produces live.
    @usableFromInline var containers: StateFootprint

    @inlinable
    init(touches: StateFootprint, containers: StateFootprint = .none) {
        self.touches = touches
        self.containers = containers
    }

    /// An unlifted reducer, reaction or supervision: the whole state.
    @inlinable static var whole: UnitFootprint { UnitFootprint(touches: .whole) }

    /// An unlifted producer: it mutates nothing and its effects belong to no element.
    @inlinable static var producer: UnitFootprint { UnitFootprint(touches: .none) }

    /// This footprint seen through a focus lane holding the local state at `range`.
    @inlinable
    func embedded(in range: Range<Int>?, exact: Bool) -> UnitFootprint {
        UnitFootprint(touches: touches.embedded(in: range, exact: exact), containers: containers.embedded(in: range, exact: exact))
    }
}

/// Where a lane keeps the local state inside the global one, for footprints.
@usableFromInline
internal enum FocusPlacement: Sendable {
    /// The local state is the global state.
    case identity
    /// The local state is stored inline at these bytes (`nil`: unknown).
    case exact(Range<Int>?)
    /// The local state, when present, lies within these bytes (`nil`: unknown): an optional, an
    /// enum case, a collection's elements.
    case within(Range<Int>?)

    /// `footprint` of the local state, seen from the global state.
    @inlinable
    func embed(_ footprint: UnitFootprint) -> UnitFootprint {
        switch self {
        case .identity: return footprint
        case .exact(let range): return footprint.embedded(in: range, exact: true)
        case .within(let range): return footprint.embedded(in: range, exact: false)
        }
    }

    /// The placement of any state lane: what the library's own lanes know; unknown for others.
    @inlinable
    static func of(_ lane: some Sendable) -> FocusPlacement {
        (lane as? any PlacesFocus)?.focusPlacement ?? .exact(nil)
    }
}

/// A lane that knows where it keeps the local state (the library's key-path lanes do).
@usableFromInline
internal protocol PlacesFocus {
    /// Where the local state lies in the global one.
    var focusPlacement: FocusPlacement { get }
}
