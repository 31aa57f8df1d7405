extension Relay {
    /// A duplex action lane: extract inbound global actions, embed outbound local ones (a prism).
    public struct ActionPrism<GlobalAction, LocalAction>: ExtractsAction, EmbedsAction {
        /// The prism.
        public let prism: Prism<GlobalAction, LocalAction>

        /// A lane from a prism.
        @inlinable public init(_ prism: Prism<GlobalAction, LocalAction>) { self.prism = prism }

        /// `prism.preview`.
        @inlinable public func extract(_ action: GlobalAction) -> LocalAction? { prism.preview(action) }
        /// `prism.caseIndex`.
        @inlinable public var extractedCase: Int? { prism.caseIndex }
        /// `prism.review`.
        @inlinable public func embed(_ action: LocalAction) -> GlobalAction { prism.review(action) }
    }

    /// An extract-only action lane (the trigger of `.on`).
    public struct ActionExtract<GlobalAction, LocalAction>: ExtractsAction {
        /// The preview.
        public let preview: @Sendable (GlobalAction) -> LocalAction?

        /// A lane from a preview closure.
        @inlinable public init(_ preview: @escaping @Sendable (GlobalAction) -> LocalAction?) { self.preview = preview }

        /// `preview(action)`.
        @inlinable public func extract(_ action: GlobalAction) -> LocalAction? { preview(action) }
    }

    /// An embed-only action lane (the dispatch of `.on`).
    public struct ActionEmbed<GlobalAction, LocalAction>: EmbedsAction {
        /// The review.
        public let review: @Sendable (LocalAction) -> GlobalAction

        /// A lane from a review closure.
        @inlinable public init(_ review: @escaping @Sendable (LocalAction) -> GlobalAction) { self.review = review }

        /// `review(action)`.
        @inlinable public func embed(_ action: LocalAction) -> GlobalAction { review(action) }
    }

    /// The action lane of a collection lift: inbound actions address one element by id
    /// (an ``ElementAction``), outbound ones are addressed back to the element that sent them.
    public struct ActionElement<GlobalAction, ID, LocalAction>: Sendable {
        /// Extracts the addressed element action.
        public let preview: @Sendable (GlobalAction) -> ElementAction<ID, LocalAction>?
        /// Embeds an element's action.
        public let review: @Sendable (ID, LocalAction) -> GlobalAction
        /// The case `preview` extracts from, when the lane was built from a prism that knows it.
        @usableFromInline let extractedCase: Int?

        /// A lane from its two directions.
        @inlinable
        public init(
            preview: @escaping @Sendable (GlobalAction) -> ElementAction<ID, LocalAction>?,
            review: @escaping @Sendable (ID, LocalAction) -> GlobalAction
        ) {
            self.preview = preview
            self.review = review
            extractedCase = nil
        }

        /// A lane from a prism into ``ElementAction``.
        @inlinable
        public init(_ prism: Prism<GlobalAction, ElementAction<ID, LocalAction>>) {
            preview = prism.preview
            review = { prism.review(ElementAction($0, action: $1)) }
            extractedCase = prism.caseIndex
        }
    }

    /// The action lane of `liftEach`: one plain inbound action reaches every element; outbound
    /// actions are addressed to the element that sent them.
    public struct ActionBroadcast<GlobalAction, ID, LocalAction>: Sendable {
        /// Extracts the broadcast local action.
        public let preview: @Sendable (GlobalAction) -> LocalAction?
        /// Embeds an element's action.
        public let review: @Sendable (ID, LocalAction) -> GlobalAction

        /// A lane from its two directions.
        @inlinable
        public init(preview: @escaping @Sendable (GlobalAction) -> LocalAction?, review: @escaping @Sendable (ID, LocalAction) -> GlobalAction) {
            self.preview = preview
            self.review = review
        }
    }
}
