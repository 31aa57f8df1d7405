/// A focus that may be absent: `preview` reads it, ``tryModify(_:_:)`` mutates it in place when
/// present and does nothing (returning `false`) when absent.
///
/// Built from a `WritableKeyPath` to an optional (in place), from a `preview` and an in-place
/// `tryModify` (in place), or from `preview` and `set` (copies the part out and writes it back —
/// not in place; prefer the other forms on hot paths). Lenses and prisms convert to it.
public struct AffineTraversal<Whole, Part>: Sendable {
    /// Reads the focus, or `nil` when it is absent.
    public let preview: @Sendable (Whole) -> Part?
    @usableFromInline
    internal let tryModifyBody: @Sendable (inout Whole, (inout Part) -> Void) -> Bool
    /// Bytes of the whole's inline layout that hold the focus whenever it is present, when the
    /// traversal reaches it through stored properties only (see `StateFootprint`); `nil` when unknown.
    @usableFromInline
    internal let inlineRange: Range<Int>?
    /// Where the focus lies when the traversal reaches it with offsets alone (a key path of stored
    /// properties to an optional, or a lens through stored properties): reads and writes then
    /// happen at its address (see `InPlaceFocus`); `nil` otherwise.
    @usableFromInline
    internal let inPlace: InPlaceFocus?

    /// An affine traversal from a preview and an in-place modify that reports whether the focus was present.
    @inlinable
    public init(
        preview: @escaping @Sendable (Whole) -> Part?,
        tryModify: @escaping @Sendable (inout Whole, (inout Part) -> Void) -> Bool
    ) {
        self.init(preview: preview, tryModify: tryModify, inlineRange: nil)
    }

    @inlinable
    internal init(
        preview: @escaping @Sendable (Whole) -> Part?,
        tryModify: @escaping @Sendable (inout Whole, (inout Part) -> Void) -> Bool,
        inlineRange: Range<Int>?,
        inPlace: InPlaceFocus? = nil
    ) {
        self.preview = preview
        self.tryModifyBody = tryModify
        self.inlineRange = inlineRange
        self.inPlace = inPlace
    }

    /// An affine traversal from a preview and a setter. Modification copies the part out and writes it back.
    @inlinable
    public init(preview: @escaping @Sendable (Whole) -> Part?, set: @escaping @Sendable (inout Whole, Part) -> Void) {
        self.preview = preview
        self.tryModifyBody = { whole, body in
            guard var part = preview(whole) else { return false }
            body(&part)
            set(&whole, part)
            return true
        }
        inlineRange = nil
        inPlace = nil
    }

    /// An affine traversal through a writable key path to an optional; modification is in place.
    /// A path of inline stored properties is applied as a fixed byte offset (see `Lens(_:)`); a case
    /// key path of a ``Prismatic`` enum goes through the case's prism (in place, see
    /// ``Prism/tryModify(_:_:)``).
    @inlinable
    public init(_ keyPath: WritableKeyPath<Whole, Part?>) {
        if let prism = resolvedCasePrism(keyPath) {
            self = prism.affine
            return
        }
        inlineRange = SwiftRex.inlineRange(of: keyPath)
        if let offset = MemoryLayout<Whole>.offset(of: keyPath) {
            inPlace = .optional(offset)
            self.preview = { InPlaceFocus.part(at: offset, of: $0, as: Part?.self) }
            self.tryModifyBody = { whole, body in
                InPlaceFocus.modifyPart(at: offset, of: &whole, as: Part?.self) { slot in
                    guard slot != nil else { return false }
                    body(&slot!)
                    return true
                }
            }
            return
        }
        inPlace = nil
        nonisolated(unsafe) let path = keyPath
        self.preview = { $0[keyPath: path] }
        self.tryModifyBody = { whole, body in
            guard whole[keyPath: path] != nil else { return false }
            body(&whole[keyPath: path]!)
            return true
        }
    }

    /// Mutates the focus in place when present; returns whether it was.
    @inlinable
    @discardableResult
    public func tryModify(_ whole: inout Whole, _ body: (inout Part) -> Void) -> Bool {
        if let inPlace { return inPlace.project(&whole, as: Part.self, body) != nil }
        return tryModifyBody(&whole, body)
    }

    /// Runs `body` on the focus of `whole` for reading, or returns `nil` when it is absent: in
    /// place when the traversal reaches it with offsets (`whole` is `inout` for its address only;
    /// `body` must not write), on a copy read by `preview` otherwise.
    @inlinable
    internal func inspect<Result>(_ whole: inout Whole, _ body: (inout Part) -> Result) -> Result? {
        if let inPlace { return inPlace.project(&whole, as: Part.self, body) }
        guard var part = preview(whole) else { return nil }
        return body(&part)
    }

    /// Replaces the focus when present; returns whether it was.
    @inlinable
    @discardableResult
    public func trySet(_ whole: inout Whole, _ newValue: Part) -> Bool {
        tryModifyBody(&whole) { $0 = newValue }
    }

    /// Lifts an in-place mutation of the part to one of the whole that skips when the focus is absent.
    @inlinable
    public func lift(_ endo: EndoMut<Part>) -> EndoMut<Whole> {
        guard let body = endo.body else { return .identity }
        let tryModify = tryModifyBody
        return EndoMut { whole in _ = tryModify(&whole) { body(&$0) } }
    }

    /// Focuses `inner` inside this traversal's part.
    @inlinable
    public func appending<Inner>(_ inner: AffineTraversal<Part, Inner>) -> AffineTraversal<Whole, Inner> {
        let outerPreview = preview
        let outerModify = tryModifyBody
        let innerPreview = inner.preview
        let innerModify = inner.tryModifyBody
        return AffineTraversal<Whole, Inner>(
            preview: { whole in outerPreview(whole).flatMap(innerPreview) },
            tryModify: { whole, body in
                var found = false
                _ = outerModify(&whole) { part in found = innerModify(&part, body) }
                return found
            },
            // The inner focus lives inside the outer one, whatever the inner traversal does.
            inlineRange: inlineRange,
            inPlace: inPlace?.appending(inner.inPlace)
        )
    }

    /// `outer >>> inner` is `outer.appending(inner)`.
    @inlinable
    public static func >>> <Inner>(outer: AffineTraversal, inner: AffineTraversal<Part, Inner>) -> AffineTraversal<Whole, Inner> {
        outer.appending(inner)
    }

    /// `outer >>> inner` with a total inner lens.
    @inlinable
    public static func >>> <Inner>(outer: AffineTraversal, inner: Lens<Part, Inner>) -> AffineTraversal<Whole, Inner> {
        outer.appending(inner.affine)
    }
}

extension Lens {
    /// `lens >>> affine` focuses an optional part inside a total one.
    @inlinable
    public static func >>> <Inner>(outer: Lens, inner: AffineTraversal<Part, Inner>) -> AffineTraversal<Whole, Inner> {
        outer.affine.appending(inner)
    }
}
