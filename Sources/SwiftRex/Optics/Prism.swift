/// A focus on one case of a sum type: `preview` extracts the case's payload (or `nil`), `review`
/// embeds a payload back.
///
/// `@Prisms` (module `SwiftRexMacros`) generates one per case (`AppAction.prism.counter`); without
/// the macro, build one as a plain value from the case constructor and a pattern:
///
/// ```swift
/// enum AppAction { case counter(CounterAction), reset }
/// let counter = Prism<AppAction, CounterAction>(
///     preview: { if case .counter(let a) = $0 { a } else { nil } },
///     review: AppAction.counter
/// )
/// ```
///
/// A case key path (`\AppAction.counter`, see ``PrismKeyPath``) resolves to the same prism.
///
/// Used as a *state* optic (an enum state with one case per screen), ``tryModify(_:_:)`` mutates the
/// payload in place: the whole value is moved out while the payload is mutated, so copy-on-write
/// storage inside the payload stays uniquely referenced.
public struct Prism<Whole, Part>: Sendable {
    /// Extracts the part, or `nil` when `whole` is another case.
    public let preview: @Sendable (Whole) -> Part?
    /// Embeds a part as a whole.
    public let review: @Sendable (Part) -> Whole
    /// The case of `Whole` this prism focuses, by its ``CaseIndexable/caseIndex``, when the prism
    /// was built for one case (``init(case:preview:review:)``); `nil` when it cannot tell.
    ///
    /// A Store routes each action to the units lifted through its case alone (see
    /// ``CaseIndexable``).
    public let caseIndex: Int?

    /// A prism from its two directions.
    @inlinable
    public init(preview: @escaping @Sendable (Whole) -> Part?, review: @escaping @Sendable (Part) -> Whole) {
        self.preview = preview
        self.review = review
        caseIndex = nil
    }

    @inlinable
    internal init(preview: @escaping @Sendable (Whole) -> Part?, review: @escaping @Sendable (Part) -> Whole, caseIndex: Int?) {
        self.preview = preview
        self.review = review
        self.caseIndex = caseIndex
    }

    /// Whether `whole` is the focused case.
    @inlinable
    public func matches(_ whole: Whole) -> Bool {
        preview(whole) != nil
    }

    /// Mutates the payload in place when `whole` is the focused case; returns whether it was.
    ///
    /// The whole is moved out of its storage while the payload is mutated, so the payload is not
    /// shared with the old whole and copy-on-write buffers inside it are not copied.
    @inlinable
    @discardableResult
    public func tryModify(_ whole: inout Whole, _ body: (inout Part) -> Void) -> Bool {
        let moved = consume whole
        guard var part = preview(moved) else {
            whole = moved
            return false
        }
        _ = consume moved
        body(&part)
        whole = review(part)
        return true
    }

    /// This prism seen as an affine traversal (in place, see ``tryModify(_:_:)``).
    @inlinable
    public var affine: AffineTraversal<Whole, Part> {
        let prism = self
        return AffineTraversal(preview: prism.preview, tryModify: { whole, body in prism.tryModify(&whole, body) })
    }

    /// Lifts an in-place mutation of the payload to one of the whole that skips other cases.
    @inlinable
    public func lift(_ endo: EndoMut<Part>) -> EndoMut<Whole> {
        affine.lift(endo)
    }

    /// The prism that always matches and focuses the whole value.
    @inlinable
    public static var identity: Prism<Whole, Whole> {
        Prism<Whole, Whole>(preview: { $0 }, review: { $0 })
    }

    /// Focuses `inner` inside this prism's part.
    @inlinable
    public func appending<Inner>(_ inner: Prism<Part, Inner>) -> Prism<Whole, Inner> {
        let outerPreview = preview
        let outerReview = review
        let innerPreview = inner.preview
        let innerReview = inner.review
        return Prism<Whole, Inner>(
            preview: { outerPreview($0).flatMap(innerPreview) },
            review: { outerReview(innerReview($0)) },
            // Whatever the inner prism matches lies inside the outer case.
            caseIndex: caseIndex
        )
    }

    /// `outer >>> inner` is `outer.appending(inner)`.
    @inlinable
    public static func >>> <Inner>(outer: Prism, inner: Prism<Part, Inner>) -> Prism<Whole, Inner> {
        outer.appending(inner)
    }
}

/// An action addressed to one element of a collection: the element's `id` and the element-local `action`.
///
/// ```swift
/// store.dispatch(.todo(ElementAction(todo.id, action: .toggleDone)))
/// ```
public struct ElementAction<ID, Action> {
    /// The addressed element's identifier.
    public var id: ID
    /// The action for that element.
    public var action: Action

    /// Addresses `action` to the element identified by `id`.
    @inlinable
    public init(_ id: ID, action: Action) {
        self.id = id
        self.action = action
    }
}

extension ElementAction: Sendable where ID: Sendable, Action: Sendable {}
extension ElementAction: Equatable where ID: Equatable, Action: Equatable {}
extension ElementAction: Hashable where ID: Hashable, Action: Hashable {}
extension ElementAction: Encodable where ID: Encodable, Action: Encodable {}
extension ElementAction: Decodable where ID: Decodable, Action: Decodable {}

extension ElementAction: CustomStringConvertible {
    /// `ElementAction(<id>, action: <action>)`.
    public var description: String {
        "ElementAction(\(id), action: \(action))"
    }
}
