// Declared footprints: what an app-level unit reads and writes when the library cannot see it.
//
// A unit lifted through a key-path state lane has a footprint the library works out by itself
// (see `StateFootprint`). An unlifted `.reduce`, `.react` or `.supervise` on the app state is the
// whole state, so every action it handles makes the Store re-evaluate every supervision, including
// a supervised collection of 100,000 rows. `confined(to:)` narrows that to the parts named.

extension UnitFootprint {
    /// What this footprint and `declared` have in common.
    @inlinable
    func narrowed(to declared: StateFootprint) -> UnitFootprint {
        UnitFootprint(touches: touches.intersection(declared), containers: containers.intersection(declared))
    }
}

extension ReducerUnit {
    /// This unit with what it writes narrowed to `footprint`.
    @inlinable
    func confined(to footprint: StateFootprint) -> ReducerUnit {
        ReducerUnit(
            applies: applies, run: run, reduce: reduce, scope: scope, footprint: self.footprint.narrowed(to: footprint), actionCase: actionCase,
            runIsComplete: runIsComplete, fusion: fusion, address: address)
    }
}

extension BehaviorUnit {
    /// This unit with what it touches (and where its elements live) narrowed to `footprint`.
    @inlinable
    func confined(to footprint: StateFootprint) -> BehaviorUnit {
        switch self {
        case .reducer(let unit):
            return .reducer(unit.confined(to: footprint))
        case .producer(let produce, let current):
            return .producer(produce, footprint: current.narrowed(to: footprint))
        case .reaction(let react, let scope, let current):
            return .reaction(react, scope: scope, footprint: current.narrowed(to: footprint))
        case .supervision(let unit):
            return .supervision(
                SupervisionUnit(unit.supervise, keyed: unit.keyed, footprint: unit.footprint.narrowed(to: footprint), read: unit.read))
        }
    }
}

/// The footprint named by `parts`: the union of their bytes; a part the library cannot place (not
/// a path of stored properties) is the whole state.
@usableFromInline
internal func declaredFootprint<Root>(_ parts: [PartialKeyPath<Root>]) -> StateFootprint {
    parts.reduce(StateFootprint.none) { $0.union(.bytes(inlineRange(of: $1))) }
}

extension Behavior {
    /// Declares that this behavior reads and writes only `parts` of the state: its reducers and
    /// reactions mutate nothing else, its supervisions read nothing else. A Store then skips
    /// re-evaluating any supervision that reads none of these parts after an action this behavior
    /// handles, as it does by itself for features lifted through key-path state lanes.
    ///
    /// Name stored properties (`\AppState.settings`, `\AppState.settings.theme`). A part that is
    /// not a path of stored properties (a computed property, a path through an optional or a
    /// class) cannot be placed: it counts as the whole state, so the declaration narrows nothing.
    /// Declarations only narrow: confining a feature already lifted into `\.settings` to
    /// `\.search` leaves it touching nothing of the two.
    ///
    /// - Important: the declaration is a promise. A behavior that mutates outside its parts, or a
    ///   supervision that reads outside them, can leave a channel open that the state no longer
    ///   wants. State reached through a shared class instance is outside what byte ranges can see.
    ///
    /// ```swift
    /// let settings = Behavior<AppAction, AppState, Void>
    ///     .reduce { action, state in if case .toggleDarkMode = action { state.settings.dark.toggle() } }
    ///     .confined(to: \AppState.settings)
    /// ```
    @inlinable
    public func confined(to parts: PartialKeyPath<State>...) -> Behavior {
        let footprint = declaredFootprint(parts)
        return Behavior(units: units.map { $0.confined(to: footprint) })
    }
}

extension Reducer {
    /// Declares that this reducer mutates only `parts` of the state; see ``Behavior/confined(to:)``.
    @inlinable
    public func confined(to parts: PartialKeyPath<StateType>...) -> Reducer {
        let footprint = declaredFootprint(parts)
        return Reducer(units: units.map { $0.confined(to: footprint) })
    }
}

extension Middleware {
    /// Declares that this middleware's supervisions read only `parts` of the state (and that the
    /// collection elements owning its effects live there); see ``Behavior/confined(to:)``.
    @inlinable
    public func confined(to parts: PartialKeyPath<State>...) -> Middleware {
        let footprint = declaredFootprint(parts)
        return Middleware(units: units.map { $0.confined(to: footprint) })
    }
}
