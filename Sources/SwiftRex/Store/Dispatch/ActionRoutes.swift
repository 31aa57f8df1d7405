/// Which reducer units a dispatch asks, by the action's case: the units lifted through a prism
/// of that case and the units that name no case, in unit order. Built once per Store.
@usableFromInline
internal struct ActionRoutes<Action>: Sendable {
    /// The action's case; `nil` when the action is not ``CaseIndexable`` or no unit names a case
    /// (every unit is then asked).
    @usableFromInline let caseOf: (@Sendable (Action) -> Int)?
    /// Unit indices, one group per case and a last group for cases no unit names: group `k` is
    /// `units[starts[k]..<starts[k + 1]]`.
    @usableFromInline let units: [Int]
    @usableFromInline let starts: [Int]

    /// Routes for units naming `cases` (`nil`: no case; asked for every action).
    @inlinable
    init(cases: [Int?]) {
        let named = cases.compactMap { $0 }.filter { $0 >= 0 }
        guard let highest = named.max(), let caseOf = caseIndexReader(Action.self) else {
            self.caseOf = nil
            units = []
            starts = []
            return
        }
        var units: [Int] = []
        var starts: [Int] = []
        // Groups 0...highest, then the group of every other case (units naming none).
        for group in 0...(highest + 1) {
            starts.append(units.count)
            for (index, unitCase) in cases.enumerated() {
                guard let unitCase, unitCase >= 0 else {
                    units.append(index)
                    continue
                }
                if unitCase == group { units.append(index) }
            }
        }
        starts.append(units.count)
        self.caseOf = caseOf
        self.units = units
        self.starts = starts
    }

    /// The group of `action`'s case: positions in `units`. Only when there is a case reader;
    /// out of line, so a dispatch without routes does not store its action for the reader.
    @inlinable
    @inline(never)
    func group(of action: Action) -> Range<Int> {
        group(of: caseOf?(action) ?? -1)
    }

    /// The group of `actionCase`: positions in `units`.
    @inlinable
    func group(of actionCase: Int) -> Range<Int> {
        let group = actionCase >= 0 && actionCase < starts.count - 2 ? actionCase : starts.count - 2
        return starts[group]..<starts[group + 1]
    }
}
