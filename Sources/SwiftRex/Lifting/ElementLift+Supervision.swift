// The supervision side of a collection lift: every element's channels, re-embedded and stamped
// with the element and the lift site, evaluated for the whole container or one element at a time.

extension ElementLift {
    /// Fans the element supervisor out over every present element, walking storage once:
    /// channels re-embed their actions and are stamped with the element and the lift site. The
    /// keyed form lets a store re-evaluate one element only.
    @inlinable func liftSupervision(
        _ supervise: @escaping @MainActor @Sendable (LS) -> Supervision<LA, LE>, footprint: UnitFootprint
    ) -> SupervisionUnit<GS, GA, GE> {
        let forEachElement = self.forEachElement
        let narrow = self.narrow
        let embed = self.embed
        let site = self.site
        let lift = self
        return SupervisionUnit(
            { state in
                var collected: [(ID, Supervision<LA, LE>)] = []
                forEachElement(state) { id, slice in collected.append((id, supervise(slice))) }
                let perElement = collected
                return Supervision { environment in
                    let local = narrow(environment)
                    var channels: Keep<GA> = []
                    for (id, supervision) in perElement {
                        for channel in supervision.runReader(local) {
                            channels.append(channel.liftedToElement(id, site: site, reusing: nil, embedding: embed))
                        }
                    }
                    return channels
                }
            }, keyed: KeyedSupervision(token: token) { lift.makeTracker(supervise) }, footprint: footprint)
    }

    /// The per-store tracker of this lift's supervision: the element's channels, re-embedded and
    /// stamped with the element and the lift site, for the tracker's per-element work.
    @MainActor @inlinable func makeTracker(
        _ supervise: @escaping @MainActor @Sendable (LS) -> Supervision<LA, LE>
    ) -> ElementSupervisionTracker<GA, GS, GE, ID> {
        let embed = self.embed
        let site = self.site
        let extractAddressed = self.extractAddressed
        return .make(
            withElement: withElement, forEachElement: forEachElement, forEachSlotted: forEachSlotted, journal: journal, watch: makeWatch?.make(),
            elementAt: elementAtOffset,
            addressedID: { extractAddressed?($0)?.id }, narrow: narrow, site: site,
            local: { slice, environment in supervise(slice).runReader(environment) },
            lift: { id, channel, key in channel.liftedToElement(id, site: site, reusing: key, embedding: embed) }
        ) { id, slice, environment, remembered, keep in
            var position = 0
            for channel in supervise(slice).runReader(environment) {
                let key = position < remembered.count ? remembered[position] : nil
                keep.append(channel.liftedToElement(id, site: site, reusing: key, embedding: embed))
                position &+= 1
            }
        }
    }
}
