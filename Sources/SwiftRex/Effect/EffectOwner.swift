/// The collection element an effect belongs to, and how to tell from a store's state whether it is
/// still there. Collection lifts attach it to their elements' effects (focus lifts re-aim it at
/// their parent state) so that the Store cancels a removed element's effects.
@usableFromInline
internal struct EffectOwner: Sendable {
    /// The lift and the element: effects with equal keys belong to the same element.
    @usableFromInline let key: AnyHashableSendable
    /// Whether the element is present in the lent state; `nil` when that is not the state type
    /// the owner was built for.
    @usableFromInline let isPresent: @Sendable (LentState) -> Bool?

    @inlinable
    init(key: AnyHashableSendable, isPresent: @escaping @Sendable (LentState) -> Bool?) {
        self.key = key
        self.isPresent = isPresent
    }
}
