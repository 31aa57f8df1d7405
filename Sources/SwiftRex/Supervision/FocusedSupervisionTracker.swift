/// A collection lift's tracker seen through a focus lift (`lift`, `liftOptional`): the same memo,
/// reached through the focus.
@MainActor
@usableFromInline
internal final class FocusedSupervisionTracker<LA: Sendable, LS: Sendable, LE: Sendable, GA: Sendable, GS: Sendable, GE: Sendable>:
    ElementSupervisionTracking
{
    @usableFromInline let inner: any ElementSupervisionTracking<LS, LA, LE>
    /// The focus lift's action lane, environment narrowing and in-place read of the focus.
    @usableFromInline let extract: @Sendable (GA) -> LA?
    @usableFromInline let embed: @Sendable (LA) -> GA
    @usableFromInline let narrow: @Sendable (GE) -> LE
    /// Reads the focus where it lies (the app's state is `inout` for its address only); `false`
    /// when the focus is absent.
    @usableFromInline let inspectFocus: @Sendable (inout GS, (inout LS) -> Void) -> Bool

    @usableFromInline
    init(
        inner: any ElementSupervisionTracking<LS, LA, LE>, extract: @escaping @Sendable (GA) -> LA?, embed: @escaping @Sendable (LA) -> GA,
        narrow: @escaping @Sendable (GE) -> LE, inspectFocus: @escaping @Sendable (inout GS, (inout LS) -> Void) -> Bool
    ) {
        self.inner = inner
        self.extract = extract
        self.embed = embed
        self.narrow = narrow
        self.inspectFocus = inspectFocus
    }

    @usableFromInline
    func evaluateAll(_ state: inout GS, _ environment: GE, into keep: inout Keep<GA>) {
        // The focus is read where it lies and handed on by address: a large state is not copied
        // per lift level.
        let inner = self.inner
        let narrowed = narrow(environment)
        var local: Keep<LA> = []
        guard inspectFocus(&state, { slice in inner.evaluateAll(&slice, narrowed, into: &local) }) else {
            inner.clearPending()
            return
        }
        for channel in local { keep.append(channel.mapAction(embed)) }
    }

    @usableFromInline
    func clearPending() { inner.clearPending() }

    @usableFromInline
    func commitAll() { inner.commitAll() }

    @usableFromInline
    func keepMemo() { inner.keepMemo() }

    @usableFromInline
    var pendingMatchesMemo: Bool { inner.pendingMatchesMemo }

    @usableFromInline
    func appendOrders(segment: Int, into orders: inout [UInt64]) { inner.appendOrders(segment: segment, into: &orders) }

    @usableFromInline
    func evaluateAddressed(_ action: GA, _ state: inout GS, _ environment: GE, into keep: inout Keep<GA>) -> (previous: ElementKeys, ordinal: Int)? {
        guard let local = extract(action) else { return nil }
        let inner = self.inner
        let narrowed = narrow(environment)
        var channels: Keep<LA> = []
        var evaluated: (previous: ElementKeys, ordinal: Int)?
        _ = inspectFocus(&state) { slice in evaluated = inner.evaluateAddressed(local, &slice, narrowed, into: &channels) }
        guard let evaluated else { return nil }
        for channel in channels { keep.append(channel.mapAction(embed)) }
        return evaluated
    }

    @usableFromInline
    func feedAddressed(
        _ action: GA, _ state: inout GS, _ environment: GE, target: ElementFeedTarget<GA>, reconciler: inout ChannelReconciler<GA>,
        into keep: inout Keep<GA>
    ) -> AddressedFeed {
        // Through a focus, the element's channels are lifted first, then fed as they are.
        guard let (previous, ordinal) = evaluateAddressed(action, &state, environment, into: &keep) else { return .unknown }
        return reconciler.feedLifted(keep, previous: previous, ordinal: ordinal, target: target)
    }

    @usableFromInline
    func commitAddressed(_ keys: ElementKeys) { inner.commitAddressed(keys) }

    @usableFromInline
    func appendRememberedKeys(into keys: inout [AnyHashableSendable]) { inner.appendRememberedKeys(into: &keys) }

    @usableFromInline
    func evaluateEdits(_ state: inout GS, _ environment: GE, action: GA?, into changes: inout [ElementChange<GA>]) -> Bool {
        let inner = self.inner
        let narrowed = narrow(environment)
        var local: [ElementChange<LA>] = []
        var evaluated = false
        // (An `if`: a closure handed to `Optional.flatMap` here would check the executor at run time.)
        var localAction: LA?
        if let action { localAction = extract(action) }
        _ = inspectFocus(&state) { slice in evaluated = inner.evaluateEdits(&slice, narrowed, action: localAction, into: &local) }
        guard evaluated else { return false }
        for change in local {
            changes.append(ElementChange(previous: change.previous, channels: change.channels.map { $0.mapAction(embed) }, ordinal: change.ordinal))
        }
        return true
    }

    @usableFromInline
    func commitEdits() { inner.commitEdits() }

    @usableFromInline
    var hasJournal: Bool { inner.hasJournal }

    /// The Store brackets no write to a container inside a focus, so the inner watch stays unarmed.
    @usableFromInline
    var containerWatch: (any ContainerWatching<GS>)? { nil }
}
