/// What phase 5 needs to know of one unit of a behavior: what it may write, with what scope, and
/// where the collection elements owning its effects live.
@usableFromInline
internal struct UnitWrites {
    /// What the unit may write; `nil` for a unit that never mutates (a producer, a supervision).
    @usableFromInline let writes: StateFootprint?
    /// What the unit may mutate for an action.
    @usableFromInline let scope: MutationScope
    /// Where the elements owning the unit's effects live (producers and reactions).
    @usableFromInline let effectContainers: StateFootprint

    @inlinable
    init(writes: StateFootprint? = nil, scope: MutationScope = .nothing, effectContainers: StateFootprint = .none) {
        self.writes = writes
        self.scope = scope
        self.effectContainers = effectContainers
    }
}

extension SupervisionPlan {
    /// Each unit's mask, worked out once per Store: the segments of `plan` its writes overlap,
    /// plus ``removalBit`` when it is not scoped to collection elements yet writes where elements
    /// owning effects live. A dispatch ORs the masks of the units that mutated.
    ///
    /// Reports, once, the units that write a part of the state the library cannot locate when a
    /// collection lift supervises: each of their actions checks every supervised collection.
    @usableFromInline
    static func masks(of units: [UnitWrites], plan: SupervisionPlan?) -> [UInt64] {
        let ownerContainers = units.reduce(StateFootprint.none) { $0.union($1.effectContainers) }
        var catchAll = 0
        let masks = units.map { unit -> UInt64 in
            guard let writes = unit.writes else { return 0 }
            if writes.isWhole { catchAll += 1 }
            var mask = plan?.mask(writing: writes) ?? 0
            if unit.scope == .anything, writes.overlaps(ownerContainers) { mask |= removalBit }
            return mask
        }
        if catchAll > 0, plan?.hasCollectionSegment == true {
            let catchAll = catchAll
            reportDiagnostic(
                StoreDiagnostic(
                    kind: .broadInvalidation,
                    message:
                        "\(catchAll) mutating unit(s) of this behavior write a part of the state the library cannot locate (an unlifted reduce or react, an `.on(…, reduce:)` whose trigger names no state lane, a closure lens, a computed key path): every action they handle makes the Store check every supervised collection (a plain array is compared before and after the write; other containers re-evaluate every element). Lift them through a key-path state lane (`.on(.action(…).state(\\.part), reduce: …)` for an `.on`), or declare what they touch with `confined(to:)`.",
                    source: nil, cause: "\(catchAll) catch-all writer(s)"
                ))
        }
        return masks
    }
}
