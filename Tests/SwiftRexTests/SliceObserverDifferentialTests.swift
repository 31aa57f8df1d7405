import Testing

@testable import SwiftRex

/// Random apps and random dispatches, checked against notify-all-then-compare: a key-path observer
/// delivers exactly the values a closure observer (called after every change) delivers, and a
/// slice projection's observer is called exactly after the actions whose applied units write its
/// slice (or, for a slice no byte range locates, after every action some unit applied to). An
/// element projection's observer is called after the actions that write its collection, except
/// those whose one applied unit wrote another element alone.
///
/// The apps mix key-path lifts, an optional child (`liftOptional`, an `.on` through the optional),
/// collections (`liftCollection` by id, a `liftEach` broadcast), `.on` routes with and without a
/// state lane, and features `confined(to:)` parts they name (see the `+Features` file).
@MainActor
@Suite struct SliceObserverDifferentialTests {
    struct Flags: Equatable, Sendable {
        var pinned = false
        var muted = false
    }

    struct Inbox: Equatable, Sendable {
        var unread = 0
        var flags = Flags()
    }

    struct Profile: Equatable, Sendable {
        var name = ""
        var age = 0
    }

    enum Action: CaseIndexable, Sendable {
        case name(String)
        case age(Int)
        case unread(Int)
        case pin(Bool)
        case bump(Int)
        case tag(String)
        case note(String?)
        case stamp
        case child(Bool)
        case rename(String)
        case score(Int)
        case row(ElementAction<Int, Int>)
        case toggleRow(Int)
        case tickAll(Int)
        case cell(ElementAction<Int, Int>)
        case cells(Bool)
        case level(Int)
        case reset
        case mute(Bool)
        case retitle(String)
        case audit(Int)
        case ping(Int)
        case echo
        case unreadByLens(Int)

        var caseIndex: Int {
            switch self {
            case .name: 0
            case .age: 1
            case .unread: 2
            case .pin: 3
            case .bump: 4
            case .tag: 5
            case .note: 6
            case .stamp: 7
            case .child: 8
            case .rename: 9
            case .score: 10
            case .row: 11
            case .toggleRow: 12
            case .tickAll: 13
            case .cell: 14
            case .cells: 15
            case .level: 16
            case .reset: 17
            case .mute: 18
            case .retitle: 19
            case .audit: 20
            case .ping: 21
            case .echo: 22
            case .unreadByLens: 23
            }
        }

        /// The element a `.row` action addresses.
        var rowID: Int? {
            if case .row(let element) = self { element.id } else { nil }
        }
    }

    static func prism<Part>(_ index: Int, _ preview: @escaping @Sendable (Action) -> Part?, _ review: @escaping @Sendable (Part) -> Action)
        -> Prism<Action, Part>
    {
        Prism(case: index, preview: preview, review: review)
    }

    static let names = ["a", "b"]

    /// The observed slices: the key path, and its field names (`nil`: no byte range locates it).
    static let slices: [(path: PartialKeyPath<State>, fields: [String]?, label: String)] = [
        (\State.profile.name, ["profile", "name"], "profile.name"),
        (\State.profile.age, ["profile", "age"], "profile.age"),
        (\State.profile, ["profile"], "profile"),
        (\State.inbox.unread, ["inbox", "unread"], "inbox.unread"),
        (\State.inbox.flags.pinned, ["inbox", "flags", "pinned"], "inbox.flags.pinned"),
        (\State.inbox.flags.muted, ["inbox", "flags", "muted"], "inbox.flags.muted"),
        (\State.inbox, ["inbox"], "inbox"),
        (\State.counter, ["counter"], "counter"),
        (\State.tags, ["tags"], "tags"),
        (\State.note, ["note"], "note"),
        (\State.child, ["child"], "child"),
        (\State.rows, ["rows"], "rows"),
        (\State.cells, ["cells"], "cells"),
        (\State.level, ["level"], "level"),
        (\State.pings, ["pings"], "pings"),
        (\State.summary, nil, "summary (computed)"),
        (\State.child?.name, nil, "child?.name (through the optional)"),
        (\State.rows.count, nil, "rows.count (computed)"),
        (\State.self, [], "self"),
    ]

    /// Whether a write of `written` can change the slice at `read` (one path holds the other).
    static func reaches(_ written: [String], _ read: [String]?) -> Bool {
        guard let read else { return true }
        let common = min(written.count, read.count)
        return Array(written.prefix(common)) == Array(read.prefix(common))
    }

    /// Seeded SplitMix64: each seed gives one app and one run.
    struct SplitMix {
        var state: UInt64

        mutating func next(_ bound: Int) -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var value = state
            value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
            value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((value ^ (value >> 31)) % UInt64(bound))
        }
    }

    /// The values one observer was handed, in order.
    final class Delivered<Value> {
        var values: [Value] = []
    }

    /// One random app: the features chosen, and the stamp unit with what it writes (if any).
    struct App {
        let chosen: [Int]
        let stampWrites: [[String]]
        let store: Store<Action, State, Void>
    }

    static func app(_ random: inout SplitMix) -> App {
        let chosen = features.indices.filter { _ in random.next(4) != 0 }
        var behaviors = chosen.map { features[$0].behavior }
        var stampWrites: [[String]] = []
        switch random.next(4) {
        case 0:
            behaviors.insert(stamp, at: random.next(behaviors.count + 1))
            stampWrites = [[]]
        case 1:
            behaviors.insert(confinedStamp, at: random.next(behaviors.count + 1))
            stampWrites = [["counter"]]
        default:
            break
        }
        return App(chosen: chosen, stampWrites: stampWrites, store: Store(initial: State(), behavior: Behavior.combine(behaviors)))
    }

    @Test(arguments: 0..<40)
    func slicesHearExactlyWhatTheirValueAndTheWritesTheyOverlapSay(seed: Int) {
        var random = SplitMix(state: UInt64(seed))
        let app = Self.app(&random)
        let store = app.store

        // Raw observers on key-path projections, each noting its slice when called.
        let called = Delivered<Int>()
        let anyPrism = Self.prism(4, { if case .bump(let step) = $0 { step } else { nil } }, Action.bump)
        var tokens = Self.slices.indices.map { index in
            Self.observeRaw(store, Self.slices[index].path, anyPrism) { called.values.append(index) }
        }
        // Value observers through a key path, against the same values read by a closure.
        let byKeyPath = Delivered<String>()
        let byClosure = Delivered<String>()
        tokens += Self.observeValues(store, byKeyPath, byClosure)
        // Raw observers of single rows, on element projections by id.
        let rowsCalled = Delivered<Int>()
        let rowPrism = Self.prism(11, { if case .row(let element) = $0 { element } else { nil } }, Action.row)
        tokens += Self.rowIDs.map { id in
            store.projection(.action(rowPrism).state(\State.rows), element: id).observe(didChange: { rowsCalled.values.append(id) })
        }

        var mismatches: [String] = []
        var expectedMissing = 0
        let diagnostics = collectingDiagnostics {
            for step in 0..<100 {
                let pick = random.next(Self.features.count + 1)
                let action = pick == Self.features.count ? Action.stamp : Self.features[pick].action(&random)
                let before = store.state
                let written = app.stampWrites + app.chosen.flatMap { Self.features[$0].writes(action, before) ?? [] }
                let expected = Self.slices.indices.filter { index in written.contains { Self.reaches($0, Self.slices[index].fields) } }
                expectedMissing += app.chosen.filter { Self.features[$0].dropsAsMissing(action, before) }.count
                let applied = app.chosen.filter { Self.features[$0].writes(action, before) != nil }
                let expectedRows = Self.rowObserversCalled(after: action, applied: applied, stamped: !app.stampWrites.isEmpty, written: written)
                called.values = []
                rowsCalled.values = []
                store.dispatch(action)
                if called.values != expected {
                    mismatches.append("step \(step) \(action): called \(Self.describe(called.values)), expected \(Self.describe(expected))")
                }
                if rowsCalled.values != expectedRows {
                    mismatches.append("step \(step) \(action): row observers \(rowsCalled.values), expected \(expectedRows)")
                }
            }
        }
        #expect(
            mismatches.count == 0,
            "seed \(seed): features \(app.chosen), stamp \(app.stampWrites)\n\(mismatches.prefix(5).joined(separator: "\n"))")
        #expect(diagnostics.map(\.kind) == Array(repeating: .missingElement, count: expectedMissing), "seed \(seed)")
        #expect(byKeyPath.values == byClosure.values, "seed \(seed)")
        _ = tokens
    }

    /// The rows with an observer each.
    static let rowIDs = [0, 1, 2]

    /// The row observers called after `action`, in subscription order: none when nothing written
    /// reaches the rows; the addressed row's alone when the one unit that applied is the by-id
    /// lift of the rows (it wrote that row and nothing else); else all of them.
    static func rowObserversCalled(after action: Action, applied: [Int], stamped: Bool, written: [[String]]) -> [Int] {
        guard written.contains(where: { reaches($0, ["rows"]) }) else { return [] }
        if !stamped, applied == [rowsByIDFeature], let id = action.rowID { return rowIDs.filter { $0 == id } }
        return rowIDs
    }

    /// The slices at `indices`, by their labels.
    static func describe(_ indices: [Int]) -> String {
        "[" + indices.map { slices[$0].label }.joined(separator: ", ") + "]"
    }

    /// Pairs of observers of one value, through a key path and through a closure, each noting
    /// what it is handed.
    static func observeValues(_ store: Store<Action, State, Void>, _ byKeyPath: Delivered<String>, _ byClosure: Delivered<String>)
        -> [SubscriptionToken]
    {
        func pair<Value: Equatable>(_ label: String, _ path: KeyPath<State, Value>, _ read: @escaping @MainActor (State) -> Value)
            -> [SubscriptionToken]
        {
            [
                store.observe(changesOf: path) { byKeyPath.values.append("\(label) \($0)") },
                store.observe(changesOf: read) { byClosure.values.append("\(label) \($0)") },
            ]
        }
        return pair("name", \.profile.name) { $0.profile.name } + pair("flags", \.inbox.flags) { $0.inbox.flags }
            + pair("summary", \.summary) { $0.summary } + pair("profile", \.profile) { $0.profile }
            + pair("child", \.child) { $0.child } + pair("child name", \.child?.name) { $0.child?.name }
            + pair("rows", \.rows) { $0.rows } + pair("row count", \.rows.count) { $0.rows.count }
            + pair("cells", \.cells) { $0.cells } + pair("level", \.level) { $0.level } + pair("pings", \.pings) { $0.pings }
    }

    /// A raw `didChange` observer on the key-path projection of `path`.
    static func observeRaw<Root: Sendable>(
        _ store: Store<Action, State, Void>, _ path: PartialKeyPath<State>, _ prism: Prism<Action, Root>, _ body: @escaping @MainActor () -> Void
    ) -> SubscriptionToken {
        func open<Value>(_: Value.Type) -> SubscriptionToken {
            let keyPath = path as! KeyPath<State, Value>
            return store.projection(action: prism, state: keyPath).observe(didChange: body)
        }
        return _openExistential(type(of: path).valueType, do: open)
    }
}
