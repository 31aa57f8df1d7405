#if Macros || PrebuiltMacroPlugin
import SwiftRexMacros
import Testing

// @Prisms numbers the cases and builds each prism for its case, so a Store routes each action to
// the features lifted through its case alone; an enum numbering its cases itself keeps its numbers
// and gets plain prisms.

private enum CaseIndexedPrisms {
    enum CounterAction: Sendable, Equatable { case increment }
    struct CounterState: Sendable, Equatable { var count = 0 }

    @Prisms
    enum AppAction: Sendable, Equatable {
        case first(CounterAction)
        case second(CounterAction)
        case reset
    }

    struct AppState: Sendable, Equatable {
        var first = CounterState()
        var second = CounterState()
    }

    @Prisms
    enum Numbered: Sendable {
        case only(Int)
        var caseIndex: Int { 7 }
    }

    static let counter = Reducer<CounterAction, CounterState>.reduce { _, state in state.count += 1 }
}

@Suite struct CaseIndexedPrismsTests {
    private typealias Page = CaseIndexedPrisms

    @Test func theCasesAreNumberedInOrderAndEachPrismNamesItsCase() {
        #expect(Page.AppAction.first(.increment).caseIndex == 0)
        #expect(Page.AppAction.second(.increment).caseIndex == 1)
        #expect(Page.AppAction.reset.caseIndex == 2)
        #expect(Page.AppAction.prism.first.caseIndex == 0)
        #expect(Page.AppAction.prism.reset.caseIndex == 2)
        // A case key path resolves to the same case-indexed prism.
        #expect(Page.AppAction.prism(for: \Page.AppAction.second)?.caseIndex == 1)
    }

    @Test func anEnumWithItsOwnCaseIndexGetsPlainPrisms() {
        #expect(Page.Numbered.only(1).caseIndex == 7)
        #expect(Page.Numbered.prism.only.caseIndex == nil)
    }

    @Test @MainActor func featuresLiftedThroughCaseKeyPathsEachGetOnlyTheirCase() {
        let store = Store(
            initial: Page.AppState(),
            reducer: .mconcat([
                Page.counter.lift(action: \Page.AppAction.first, state: \Page.AppState.first),
                Page.counter.lift(action: \Page.AppAction.second, state: \Page.AppState.second),
            ]))
        store.dispatch(.second(.increment))
        store.dispatch(.second(.increment))
        store.dispatch(.first(.increment))
        store.dispatch(.reset)
        #expect(store.state == Page.AppState(first: .init(count: 1), second: .init(count: 2)))
    }
}
#endif
