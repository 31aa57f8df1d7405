#if Macros || PrebuiltMacroPlugin
import Foundation
import SwiftRexMacros
import SwiftRexTestSupport
import Testing

// Compositions the documentation pages imply at app scale: eight lifted features combined inline (the target's
// -warn-long-expression-type-checking=200 fails the build if any expression here takes longer
// than 200 ms to type-check), and a message sent with the one-closure mutate-and-produce form.

private enum App {
    enum CounterAction: Sendable, Equatable { case increment }
    enum TextAction: Sendable, Equatable { case set(String) }
    enum FlagAction: Sendable, Equatable { case toggle }
    enum RowAction: Sendable, Equatable { case bump }

    @Prisms
    enum Action: Sendable, Equatable {
        case counter(CounterAction)
        case title(TextAction)
        case search(TextAction)
        case flag(FlagAction)
        case detail(CounterAction)
        case row(ElementAction<Int, RowAction>)
        case bumpAll(RowAction)
        case setting(ElementAction<String, FlagAction>)
        case note(TextAction)
    }

    struct Row: Sendable, Equatable, Identifiable {
        var id: Int
        var bumps = 0
    }

    @Lenses
    struct State: Sendable, Equatable {
        var counter = 0
        var title = ""
        var search = ""
        var flag = false
        var detail: Int?
        var rows: [Row] = []
        var settings: [String: Bool] = [:]
        let note: String
    }

    struct Environment: Sendable {
        var counter = 1
        var text = "!"
    }

    static let counter = Behavior<CounterAction, Int, Int>.reduce { _, count in count += 1 }
    static let text = Behavior<TextAction, String, String>.reduce { action, text in if case .set(let value) = action { text = value } }
    static let flag = Behavior<FlagAction, Bool, Void>.reduce { _, flag in flag.toggle() }
    static let row = Reducer<RowAction, Row>.reduce { _, row in row.bumps += 1 }
}

@MainActor
@Suite struct CompositionTests {
    @Test func eightLiftedFeaturesCombineInlineWithoutAnnotations() {
        let app: Behavior<App.Action, App.State, App.Environment> = Behavior.combine(
            App.counter.lift(.action(\.counter).state(\.counter).environment(\.counter)),
            App.text.lift(.action(\.title).state(\.title).environment(\.text)),
            App.text.lift(.action(\.search).state(\.search).environment(\.text)),
            App.flag.liftEnvironment().lift(.action(\.flag).state(\.flag)),
            App.counter.liftOptional(\.detail).lift(.action(\.detail).environment(\.counter)),
            App.row.liftCollection(.action(\.row).state(\.rows)).asBehavior(),
            App.row.liftEach(.action(broadcast: \.bumpAll, into: \.row).state(\.rows)).asBehavior(),
            App.flag.liftEnvironment().liftCollection(.action(\.setting).state(dictionary: \.settings)),
            App.text.lift(.action(\.note).state(App.State.lens.note).environment(\.text))
        )

        var state = App.State(detail: 0, rows: [.init(id: 1), .init(id: 2)], settings: ["dark": false], note: "")
        for action: App.Action in [
            .counter(.increment), .title(.set("t")), .search(.set("s")), .flag(.toggle), .detail(.increment),
            .row(ElementAction(2, action: .bump)), .bumpAll(.bump), .setting(ElementAction("dark", action: .toggle)), .note(.set("n")),
        ] {
            _ = app.step(action, state: &state, environment: App.Environment())
        }
        #expect(
            state
                == App.State(
                    counter: 1, title: "t", search: "s", flag: true, detail: 1,
                    rows: [.init(id: 1, bumps: 1), .init(id: 2, bumps: 2)], settings: ["dark": true], note: "n"))
    }
}
#endif
