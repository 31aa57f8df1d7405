/// Names one lift in the app so that element-scoped effect and channel ids from two collection
/// lifts never collide, even when their element ids are equal (<doc:Lifting#Element-ids>).
///
/// By default a lift is named by its call site; pass an explicit name (`site: "rows"`) to address
/// an element's effects from outside with ``ElementEffectID``.
public struct LiftSite: Hashable, Sendable, CustomStringConvertible {
    /// The site's name.
    public let name: String

    /// A site with an explicit name.
    @inlinable
    public init(_ name: String) { self.name = name }

    /// A site named by a source location.
    @inlinable
    public init(file: String, line: UInt, column: UInt) { self.name = "\(file):\(line):\(column)" }

    /// The name.
    public var description: String { name }
}

extension LiftSite: ExpressibleByStringLiteral {
    /// A site named by a string literal: `site: "rows"`.
    @inlinable
    public init(stringLiteral name: String) { self.init(name) }
}

/// The id an effect or channel of one collection element runs under: the lift site, the
/// element's id, and the id the element's feature gave it.
///
/// Collection lifts stamp every id an element's effects and channels carry, so row A's debounce
/// never cancels row B's. A parent addresses one element's effect or channel with the same value:
///
/// ```swift
/// .cancel(id: ElementEffectID(site: "rows", element: rowID, inner: "autosave"))
/// ```
public struct ElementEffectID: Hashable, Sendable, CustomStringConvertible {
    /// The lift that stamped the id.
    public let site: LiftSite
    /// The element's id.
    public let element: AnyHashableSendable
    /// The id the element's feature used.
    public let inner: AnyHashableSendable

    /// The id of `element`'s effect `inner` under the lift `site`.
    @inlinable
    public init(site: LiftSite, element: some Hashable & Sendable, inner: some Hashable & Sendable) {
        self.site = site
        self.element = AnyHashableSendable(element)
        self.inner = AnyHashableSendable(inner)
    }

    /// The id of `element`'s effect `inner` under the lift named `site`.
    @inlinable
    public init(site: String, element: some Hashable & Sendable, inner: some Hashable & Sendable) {
        self.init(site: LiftSite(site), element: element, inner: inner)
    }

    /// The key of `element`'s effect `inner` under `site`: `remembered` itself when it is that key,
    /// so a key re-derived on every evaluation is neither rebuilt nor hashed again, and compares
    /// by identity with the copies memory holds.
    @inlinable
    static func key(
        site: LiftSite, element: some Hashable & Sendable, inner: AnyHashableSendable, reusing remembered: AnyHashableSendable?
    ) -> AnyHashableSendable {
        if let remembered, isKey(remembered, site: site, element: element, inner: inner) { return remembered }
        return AnyHashableSendable(ElementEffectID(site: site, element: element, inner: inner))
    }

    /// Whether `key` is the key of `element`'s effect `inner` under `site`.
    @inlinable
    static func isKey(_ key: AnyHashableSendable, site: LiftSite, element: some Hashable & Sendable, inner: AnyHashableSendable) -> Bool {
        guard isKey(key, site: site, inner: inner), case .scoped(let scoped) = key.direct else { return false }
        return scoped.value.element == AnyHashableSendable(element)
    }

    /// Whether `key`, a key made for the element in question, is the key of its effect `inner`
    /// under `site`: the element is not compared (wrapping it hashes it).
    @inlinable
    static func isKey(_ key: AnyHashableSendable, site: LiftSite, inner: AnyHashableSendable) -> Bool {
        guard case .scoped(let scoped) = key.direct else { return false }
        return scoped.names(inner, site: site)
    }

    /// `site[element]/inner`.
    public var description: String { "\(site)[\(element)]/\(inner)" }
}
