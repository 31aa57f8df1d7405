#if Macros || PrebuiltMacroPlugin
import SwiftRexMacros
import Testing

// Any name Swift accepts for a case or a stored property gets its optics: keywords in backticks
// (`init`, `self`, `Self`, `Type` and `Protocol` included, which mean something else after a
// dot), raw identifiers, and names that shadow the enum's own name or the module's.

private enum KeywordCaseNames {
    // swift-format-ignore: AlwaysUseLowerCamelCase
    @Prisms
    enum Keyword: Sendable, Equatable {
        case `default`(Int)
        case `self`(Int)
        case `init`(Int)
        case `Type`(Int)
        case `Protocol`
        case `Self`(Int)
        case `class`(name: String, count: Int)
        case labeled(default: Int, in: Bool, `let`: String, `inout`: Int)
        case `func`, `in`, `let`, `var`, `if`, `switch`, `case`, `return`, `static`, `struct`, `enum`
        case `protocol`, `import`, `inout`, `is`, `as`, `try`, `throw`, `throws`, `rethrows`, `where`
        case `while`, `for`, `repeat`, `do`, `catch`, `defer`, `guard`, `else`, `break`, `continue`
        case `fallthrough`, `true`, `false`, `nil`, `super`, `subscript`, `typealias`, `associatedtype`
        case `extension`, `deinit`, `operator`, `precedencegroup`, `public`, `private`, `fileprivate`
        case `internal`, `open`, `Any`, `await`, `_`
        case `with space`(String)
        case `2x`
        // Named like the enum, like the module, like the lane of another case, and like the static
        // `prism` and `lane` (allowed with a payload: the case is then a function).
        case Keyword(Int)
        case SwiftRex(Int)
        case foo, FooLane
        case prism(Int)
        case lane(Int)
    }

    struct CounterState: Sendable, Equatable { var count = 0 }

    // swift-format-ignore: AlwaysUseLowerCamelCase
    @Lenses
    struct Settings: Sendable, Equatable {
        var `default`: Int
        var `Type`: String
        var `self`: Bool
        var `with space`: Double
        var Settings: Int
        var SwiftRex: Int
        let `let`: Int
    }

    static let counter = Reducer<Int, CounterState>.reduce { value, state in state.count += value }
}

@Suite struct KeywordCaseNamesTests {
    private typealias Page = KeywordCaseNames
    private typealias Keyword = KeywordCaseNames.Keyword

    @Test func backtickedKeywordCasesGetPrismsThatPreviewAndReviewTheirCase() {
        #expect(Keyword.prism.default.preview(.default(3)) == 3)
        #expect(Keyword.prism.default.preview(.`self`(3)) == nil)
        #expect(Keyword.prism.default.review(4) == .default(4))
        #expect(Keyword.prism.`self`.review(5) == .`self`(5))
        #expect(Keyword.prism.`init`.preview(.`init`(6)) == 6)
        #expect(Keyword.prism.`Type`.review(7) == .`Type`(7))
        #expect(Keyword.prism.`Protocol`.preview(.`Protocol`) != nil)
        #expect(Keyword.prism.`Self`.review(8) == .`Self`(8))
        #expect(Keyword.prism.class.preview(.class(name: "a", count: 2))?.count == 2)
        // Keyword labels: bare where Swift takes them so, `inout` in backticks.
        let labeled = Keyword.labeled(default: 1, in: true, let: "a", `inout`: 2)
        #expect(Keyword.prism.labeled.review((default: 1, in: true, let: "a", `inout`: 2)) == labeled)
        #expect(Keyword.lane.labeled.extract(labeled)?.let == "a")
        #expect(Keyword.lane.labeled.extract(labeled)?.`inout` == 2)
        #expect(Keyword.prism.`_`.review(()) == .`_`)
        #expect(Keyword.prism.`with space`.review("x") == .`with space`("x"))
        #expect(Keyword.prism.`2x`.preview(.`2x`) != nil)
        #expect(Keyword.prism.Keyword.review(9) == .Keyword(9))
        #expect(Keyword.prism.SwiftRex.preview(.SwiftRex(1)) == 1)
        #expect(Keyword.prism.FooLane.preview(.foo) == nil)
    }

    @Test func theirCasePropertiesAndCaseIndexWork() {
        var action: Keyword = .`Type`(1)
        #expect(action.`Type` == 1)
        action.`init` = 2
        #expect(action == .`init`(2))
        #expect(action.`Type` == nil)
        action.`Protocol` = ()
        #expect(action == .`Protocol`)
        #expect(Keyword.default(0).caseIndex == 0)
        #expect(Keyword.`2x`.caseIndex == Keyword.prism.`2x`.caseIndex)
        #expect(Keyword.lane(0).caseIndex == Keyword.prism.lane.caseIndex)
    }

    @Test func theirCaseKeyPathsResolveToTheirPrisms() {
        #expect(Keyword.prism(for: \Keyword.default)?.caseIndex == 0)
        #expect(Keyword.prism(for: \.`Type`)?.caseIndex == Keyword.prism.`Type`.caseIndex)
        #expect(Keyword.prism(for: \.`Protocol`)?.caseIndex == Keyword.prism.`Protocol`.caseIndex)
        #expect(Keyword.prism(for: \Keyword.`self`)?.caseIndex == Keyword.prism.`self`.caseIndex)
        #expect(Keyword.prism(for: \Keyword.Keyword)?.caseIndex == Keyword.prism.Keyword.caseIndex)
        #expect(Keyword.prism(for: \Keyword.`with space`)?.review("y") == .`with space`("y"))
    }

    @Test func theirLanesExtractAndEmbedTheirCase() {
        #expect(Keyword.lane.default.extract(.default(1)) == 1)
        #expect(Keyword.lane.`Type`.embed(2) == .`Type`(2))
        #expect(Keyword.lane.`init`.extract(.`self`(1)) == nil)
        #expect(Keyword.lane.foo.extract(.foo) != nil)
        #expect(Keyword.lane.FooLane.extract(.foo) == nil)
        #expect(Keyword.lane.`with space`.extractedCase == Keyword.prism.`with space`.caseIndex)
    }

    @Test @MainActor func aFeatureLiftedThroughAKeywordCaseGetsOnlyThatCase() {
        let store = Store(
            initial: Page.CounterState(),
            reducer: .mconcat([
                Page.counter.lift(action: \Keyword.default, state: \Page.CounterState.self),
                Page.counter.lift(.action(Keyword.lane.`Type`).state(\.self)),
            ]))
        store.dispatch(.default(2))
        store.dispatch(.`Type`(10))
        store.dispatch(.`init`(100))
        #expect(store.state.count == 12)
    }

    @Test func backtickedKeywordPropertiesGetLenses() {
        var settings = Page.Settings(default: 1, Type: "a", self: false, `with space`: 0.5, Settings: 2, SwiftRex: 3, let: 4)
        Page.Settings.lens.default.set(&settings, 5)
        Page.Settings.lens.`Type`.set(&settings, "b")
        Page.Settings.lens.`self`.set(&settings, true)
        Page.Settings.lens.`with space`.set(&settings, 1.5)
        Page.Settings.lens.Settings.set(&settings, 6)
        Page.Settings.lens.SwiftRex.set(&settings, 7)
        #expect(settings == Page.Settings(default: 5, Type: "b", self: true, `with space`: 1.5, Settings: 6, SwiftRex: 7, let: 4))
        #expect(Page.Settings.lens.`let`.get(settings) == 4)
    }
}
#endif
