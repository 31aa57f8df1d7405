/// An enum that names the case of each of its values by a number, so that a Store hands each
/// action only to the features lifted through a prism of its case.
///
/// An app of fifty features lifted side by side, each behind its own action prism, would
/// otherwise ask all fifty prisms about every action. When the app's action is `CaseIndexable`
/// and its prisms say which case they focus (``Prism/init(case:preview:review:)``), a Store
/// groups the lifted reducers by case once, and a dispatch asks only the group of the action's
/// case (and every unit that names no case). `@Prisms` generates this for an enum;
/// written by hand, it is one `switch`:
///
/// ```swift
/// enum AppAction: CaseIndexable {
///     case counter(CounterAction)
///     case search(SearchAction)
///
///     var caseIndex: Int {
///         switch self {
///         case .counter: 0
///         case .search: 1
///         }
///     }
///
///     static let counter = Prism<AppAction, CounterAction>(
///         case: 0, preview: { if case .counter(let action) = $0 { action } else { nil } }, review: AppAction.counter
///     )
/// }
/// ```
///
/// > Important: the numbers are a promise: a prism built with `case: k` must extract nothing from
/// > a value whose `caseIndex` is not `k` (debug builds check every value it extracts).
public protocol CaseIndexable: SendableMetatype {
    /// The number of this value's case (its position among the enum's cases, say).
    var caseIndex: Int { get }
}

extension Prism where Whole: CaseIndexable {
    /// A prism on one case of `Whole`, named by its ``CaseIndexable/caseIndex``: `preview` extracts
    /// nothing from a value of any other case.
    ///
    /// A feature lifted through it is asked only about actions of that case.
    @inlinable
    public init(case index: Int, preview: @escaping @Sendable (Whole) -> Part?, review: @escaping @Sendable (Part) -> Whole) {
        // Debug builds check the promise on every value extracted; optimized builds call
        // `preview` itself.
        let checked: @Sendable (Whole) -> Part? = { whole in
            let part = preview(whole)
            assert(part == nil || whole.caseIndex == index, "Prism(case: \(index)) extracted a value of case \(whole.caseIndex)")
            return part
        }
        self.init(preview: checksCaseIndices() ? checked : preview, review: review, caseIndex: index)
    }
}

/// Whether prisms built for one case check their promise (debug builds of the library).
@usableFromInline
internal func checksCaseIndices() -> Bool {
    _isDebugAssertConfiguration()
}

/// Reads the case of an action, when the action type is ``CaseIndexable``.
@inlinable
internal func caseIndexReader<Action>(_: Action.Type) -> (@Sendable (Action) -> Int)? {
    guard let indexable = Action.self as? any CaseIndexable.Type else { return nil }
    func reader<Indexable: CaseIndexable>(_: Indexable.Type) -> @Sendable (Action) -> Int {
        // `Action` is `Indexable`: the cast always succeeds, and costs nothing once specialised.
        { action in (action as! Indexable).caseIndex }
    }
    return reader(indexable)
}
