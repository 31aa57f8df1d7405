/// The parts of the state a Store's units may write, each with a bit, so that an observer of one
/// slice is called only after a dispatch whose applied units may have written that slice.
///
/// Worked out once per Store from the units' footprints: each distinct footprint a unit writes is
/// a region with its own bit (from the 63rd distinct footprint on, they share one). A unit that
/// writes a part of the state the library cannot locate sets every bit, among them one no region
/// has, which every observer keeps. A dispatch ORs the bits of the units that applied; an observer
/// keeps the bits of the regions its slice overlaps, and is skipped when the two share none. An
/// observer whose slice cannot be located (a computed key path, a closure) keeps every bit, as an
/// observer of the whole state does.
@usableFromInline
internal struct ObserverRegions: Sendable {
    /// Every bit: what a unit writing an unlocated part writes, and what an unlocated slice reads.
    @inlinable static var all: UInt64 { .max }
    /// The bit only a unit writing an unlocated part sets; every observer keeps it.
    @inlinable static var unlocatedBit: UInt64 { 1 << 63 }
    /// Regions from this index on share one bit.
    static var sharedBitIndex: Int { 62 }

    /// The footprint of each region, in bit order.
    @usableFromInline let footprints: [StateFootprint]

    /// The regions of units writing `writes` (`nil`: a unit that writes nothing).
    @usableFromInline
    init(writes: [StateFootprint?]) {
        var footprints: [StateFootprint] = []
        for case let footprint? in writes where !footprint.isWhole && !footprint.isNone && !footprints.contains(footprint) {
            footprints.append(footprint)
        }
        self.footprints = footprints
    }

    /// The bits a unit writing `writes` sets when it applies.
    @usableFromInline
    func bits(writing writes: StateFootprint?) -> UInt64 {
        guard let writes, !writes.isNone else { return 0 }
        guard !writes.isWhole, let index = footprints.firstIndex(of: writes) else { return Self.all }
        return Self.bit(index)
    }

    /// The bits of the regions an observer of `slice` must hear about (`nil`: the whole state).
    func interest(reading slice: StateFootprint?) -> UInt64 {
        guard let slice, !slice.isWhole else { return Self.all }
        var interest = Self.unlocatedBit
        for (index, footprint) in footprints.enumerated() where footprint.overlaps(slice) {
            interest |= Self.bit(index)
        }
        return interest
    }

    /// The bits of the regions an observer of the value at `path`, a key path from `State`, must
    /// hear about (`nil`, or a path from another root: the whole state).
    func interest<State>(readingPath path: AnyKeyPath?, of _: State.Type) -> UInt64 {
        interest(reading: (path as? PartialKeyPath<State>).map { StateFootprint.bytes(inlineRange(of: $0)) })
    }

    /// The bit of the region at `index`.
    private static func bit(_ index: Int) -> UInt64 {
        1 << UInt64(min(index, sharedBitIndex))
    }
}
