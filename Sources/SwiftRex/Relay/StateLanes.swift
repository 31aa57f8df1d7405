extension Relay {
    /// A total, writable state lane (a lens): the focus is always present and mutated in place.
    public struct StateLens<GlobalState, LocalState>: WritesState {
        /// The lens.
        public let lens: Lens<GlobalState, LocalState>

        /// A lane from a lens.
        @inlinable public init(_ lens: Lens<GlobalState, LocalState>) { self.lens = lens }

        /// Always present.
        @inlinable public var isTotal: Bool { true }
        /// `lens.get`.
        @inlinable public func preview(_ state: GlobalState) -> LocalState? { lens.get(state) }
        /// `lens.modify`, in place.
        @inlinable public func tryModify(_ state: inout GlobalState, _ body: (inout LocalState) -> Void) -> Bool {
            lens.modify(&state, body)
            return true
        }
    }

    /// An affine state lane: the focus may be absent (an optional, an enum case); mutated in
    /// place when present, skipped when absent.
    public struct StateAffine<GlobalState, LocalState>: WritesState {
        /// The traversal.
        public let traversal: AffineTraversal<GlobalState, LocalState>

        /// A lane from an affine traversal.
        @inlinable public init(_ traversal: AffineTraversal<GlobalState, LocalState>) { self.traversal = traversal }

        /// The focus may be absent.
        @inlinable public var isTotal: Bool { false }
        /// `traversal.preview`.
        @inlinable public func preview(_ state: GlobalState) -> LocalState? { traversal.preview(state) }
        /// `traversal.tryModify`, in place.
        @inlinable public func tryModify(_ state: inout GlobalState, _ body: (inout LocalState) -> Void) -> Bool {
            traversal.tryModify(&state, body)
        }
    }

    /// An environment lane that narrows by a projection.
    public struct EnvironmentNarrow<GlobalEnvironment, LocalEnvironment>: NarrowsEnvironment {
        /// The projection.
        public let project: @Sendable (GlobalEnvironment) -> LocalEnvironment

        /// A lane from a projection closure.
        @inlinable public init(_ project: @escaping @Sendable (GlobalEnvironment) -> LocalEnvironment) { self.project = project }

        /// `project(environment)`.
        @inlinable public func narrow(_ environment: GlobalEnvironment) -> LocalEnvironment { project(environment) }
    }
}

extension Relay.StateLens: PlacesFocus {
    @inlinable var focusPlacement: FocusPlacement { .exact(lens.inlineRange) }
}

extension Relay.StateAffine: PlacesFocus {
    @inlinable var focusPlacement: FocusPlacement { .within(traversal.inlineRange) }
}

extension Relay.Identity: PlacesFocus {
    @inlinable var focusPlacement: FocusPlacement { .identity }
}
