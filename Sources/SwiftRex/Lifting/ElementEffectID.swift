/// Names one lift in the app so that element-scoped effect and channel ids from two collection
/// lifts never collide, even when their element ids are equal (D11).
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

    /// `site[element]/inner`.
    public var description: String { "\(site)[\(element)]/\(inner)" }
}

extension Effect {
    /// Stamps every component id with the element and the lift site (anonymous components are
    /// unchanged; every other knob is kept).
    @inlinable
    public func scopedToElement(_ element: some Hashable & Sendable, site: LiftSite) -> Effect {
        switch storage {
        case .none: return self
        case .single(let component): return Effect(component.scopedToElement(element, site: site))
        case .many(let components): return Effect(components: components.map { $0.scopedToElement(element, site: site) })
        }
    }
}

extension Effect.Component {
    /// This component with its id stamped with the element and the lift site.
    @inlinable
    public func scopedToElement(_ element: some Hashable & Sendable, site: LiftSite) -> Effect.Component {
        guard let id = scheduling.id else { return self }
        var scheduling = self.scheduling
        scheduling.id = AnyHashableSendable(ElementEffectID(site: site, element: element, inner: id))
        return Effect.Component(work: work, scheduling: scheduling, channel: channel)
    }
}

extension Channel {
    /// This channel with its id (and its component's id) stamped with the element and the lift site.
    @inlinable
    public func scopedToElement(_ element: some Hashable & Sendable, site: LiftSite) -> Channel {
        let scopedID = AnyHashableSendable(ElementEffectID(site: site, element: element, inner: id))
        var scheduling = component.scheduling
        scheduling.id = scopedID
        return Channel(
            id: scopedID,
            resetIdentity: resetIdentity,
            broadcastIdentity: broadcastIdentity,
            settle: settle,
            component: Effect.Component(work: component.work, scheduling: scheduling, channel: component.channel)
        )
    }
}
