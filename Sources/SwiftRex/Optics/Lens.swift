precedencegroup OpticCompositionPrecedence {
    associativity: left
    higherThan: SemigroupCombinePrecedence
}

/// Composes two optics left to right: `outer >>> inner` focuses `inner` inside `outer`'s focus.
infix operator >>> : OpticCompositionPrecedence

/// A total, writable focus on a `Part` of a `Whole`: `get`, `set`, and an in-place ``modify(_:_:)``.
///
/// Built from a `WritableKeyPath` (in place), from a getter and an in-place modify (in place), or from
/// a getter and a setter (copy out, mutate, write back: use it for `let` properties and computed
/// slices).
///
/// ```swift
/// let count = Lens(\AppState.counter)
/// count.modify(&state) { $0 += 1 }
/// ```
public struct Lens<Whole, Part>: Sendable {
    /// Reads the focus.
    public let get: @Sendable (Whole) -> Part
    /// Mutates the focus in place.
    @usableFromInline
    internal let modifyBody: @Sendable (inout Whole, (inout Part) -> Void) -> Void
    /// Where the part lies in the whole's inline layout, when the lens reaches it through stored
    /// properties only (see `StateFootprint`); `nil` when unknown.
    @usableFromInline
    internal let inlineRange: Range<Int>?

    /// A lens from a getter and an in-place modify.
    @inlinable
    public init(
        get: @escaping @Sendable (Whole) -> Part,
        modify: @escaping @Sendable (inout Whole, (inout Part) -> Void) -> Void
    ) {
        self.init(get: get, modify: modify, inlineRange: nil)
    }

    @inlinable
    internal init(
        get: @escaping @Sendable (Whole) -> Part,
        modify: @escaping @Sendable (inout Whole, (inout Part) -> Void) -> Void,
        inlineRange: Range<Int>?
    ) {
        self.get = get
        self.modifyBody = modify
        self.inlineRange = inlineRange
    }

    /// A lens from a getter and a setter. Modification copies the part out and writes it back.
    @inlinable
    public init(get: @escaping @Sendable (Whole) -> Part, set: @escaping @Sendable (inout Whole, Part) -> Void) {
        self.get = get
        self.modifyBody = { whole, body in
            var part = get(whole)
            body(&part)
            set(&whole, part)
        }
        inlineRange = nil
    }

    /// A lens from a writable key path; modification is in place.
    ///
    /// A path made only of inline stored properties (the common `\State.child`) is applied as a
    /// fixed byte offset, as `MemoryLayout.offset(of:)` documents: no run-time key-path
    /// interpretation on each access. Any other path goes through the key path.
    @inlinable
    public init(_ keyPath: WritableKeyPath<Whole, Part>) {
        inlineRange = SwiftRex.inlineRange(of: keyPath)
        if let offset = MemoryLayout<Whole>.offset(of: keyPath) {
            self.get = { InPlaceFocus.part(at: offset, of: $0, as: Part.self) }
            self.modifyBody = { whole, body in InPlaceFocus.modifyPart(at: offset, of: &whole, as: Part.self, body) }
            return
        }
        nonisolated(unsafe) let path = keyPath
        self.get = { $0[keyPath: path] }
        self.modifyBody = { whole, body in body(&whole[keyPath: path]) }
    }

    /// Where the part lies in the whole, when the lens reaches it through stored properties only:
    /// every read and write then happens at the part's address (see `InPlaceFocus`).
    @inlinable
    internal var inPlace: InPlaceFocus? {
        inlineRange.map { .stored($0.lowerBound) }
    }

    /// Mutates the focus of `whole` in place.
    @inlinable
    public func modify(_ whole: inout Whole, _ body: (inout Part) -> Void) {
        if let inPlace, inPlace.project(&whole, as: Part.self, body) != nil { return }
        modifyBody(&whole, body)
    }

    /// Runs `body` on the focus of `whole` for reading: in place for a lens through stored
    /// properties (`whole` is `inout` for its address only; `body` must not write), on a copy of
    /// the part read by `get` otherwise.
    @inlinable
    internal func inspect<Result>(_ whole: inout Whole, _ body: (inout Part) -> Result) -> Result {
        if let inPlace, let result = inPlace.project(&whole, as: Part.self, body) { return result }
        var part = get(whole)
        return body(&part)
    }

    /// Replaces the focus of `whole`.
    @inlinable
    public func set(_ whole: inout Whole, _ newValue: Part) {
        modifyBody(&whole) { $0 = newValue }
    }

    /// Lifts an in-place mutation of the part to one of the whole. The identity stays the identity.
    @inlinable
    public func lift(_ endo: EndoMut<Part>) -> EndoMut<Whole> {
        guard let body = endo.body else { return .identity }
        let modify = modifyBody
        return EndoMut { whole in modify(&whole) { body(&$0) } }
    }

    /// This lens seen as an affine traversal whose focus is always present.
    @inlinable
    public var affine: AffineTraversal<Whole, Part> {
        let get = self.get
        let modify = modifyBody
        return AffineTraversal(
            preview: { get($0) },
            tryModify: { whole, body in
                modify(&whole, body)
                return true
            },
            inlineRange: inlineRange,
            inPlace: inPlace
        )
    }

    /// The lens that focuses the whole value.
    @inlinable
    public static var identity: Lens<Whole, Whole> {
        Lens<Whole, Whole>(get: { $0 }, modify: { whole, body in body(&whole) })
    }

    /// Focuses `inner` inside this lens's part.
    @inlinable
    public func appending<Inner>(_ inner: Lens<Part, Inner>) -> Lens<Whole, Inner> {
        let outerGet = get
        let outerModify = modifyBody
        let innerGet = inner.get
        let innerModify = inner.modifyBody
        var range: Range<Int>?
        if let outer = inlineRange, let inner = inner.inlineRange, inner.upperBound <= outer.count {
            range = (outer.lowerBound + inner.lowerBound)..<(outer.lowerBound + inner.upperBound)
        }
        return Lens<Whole, Inner>(
            get: { innerGet(outerGet($0)) },
            modify: { whole, body in outerModify(&whole) { part in innerModify(&part, body) } },
            inlineRange: range
        )
    }

    /// `outer >>> inner` is `outer.appending(inner)`.
    @inlinable
    public static func >>> <Inner>(outer: Lens, inner: Lens<Part, Inner>) -> Lens<Whole, Inner> {
        outer.appending(inner)
    }
}
