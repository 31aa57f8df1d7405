/// The root of a case key path written as a chain of case properties, `\.search.results`: each
/// step reads one case property (the optional property `@Prisms` generates for a case, or a
/// hand-written one), and the chain holds the payload of the last, or `nil` as soon as one step
/// is another case.
///
/// ``TestStore`` takes such a chain in `receive`, so a nested action is named as it is written:
///
/// ```swift
/// await store.receive(\.search.results) { results, state in state.search.results = results }
/// ```
///
/// You do not build a chain yourself: the key path literal does, through ``subscript(dynamicMember:)``.
@dynamicMemberLookup
public struct CaseChain<Value> {
    /// The payload reached so far, or `nil` when a step was another case.
    public let value: Value?

    /// A chain at `value` (the received action, for `receive`).
    public init(_ value: Value?) {
        self.value = value
    }

    /// The next step: the payload of the case property `member`, or `nil` in any other case.
    public subscript<Member>(dynamicMember member: KeyPath<Value, Member?>) -> CaseChain<Member> {
        CaseChain<Member>(value.flatMap { $0[keyPath: member] })
    }
}
