import Testing

@testable import SwiftRex

/// The random apps' parts: each feature's unit, the paths the test knows it writes, and an action
/// for it. What a unit writes is spelled out here from how the feature is lifted, never asked of
/// the library.
extension SliceObserverDifferentialTests {
    struct Child: Equatable, Sendable {
        var name = ""
        var score = 0
    }

    struct Row: Identifiable, Equatable, Sendable {
        let id: Int
        var hits = 0
    }

    struct Cell: Identifiable, Equatable, Sendable {
        let id: Int
        var ticks = 0

        /// The cells an app starts with.
        static var all: [Cell] { [Cell(id: 0), Cell(id: 1)] }
    }

    struct State: Equatable, Sendable {
        var profile = Profile()
        var inbox = Inbox()
        var counter = 0
        var tags: [String] = []
        var note: String?
        var child: Child?
        var rows: [Row] = []
        var cells = Cell.all
        var level = 0
        var pings = 0
        /// Computed: no byte range locates it.
        var summary: String { "\(counter)/\(tags.count)" }
    }

    /// One feature: its unit, the paths it writes (as field names; `[]` is the whole state) when
    /// it applies to an action on the state before it (`nil`: it does not apply), an action for
    /// it, and whether it drops an action on a state as addressed to a missing element.
    struct Feature {
        let behavior: Behavior<Action, State, Void>
        let writes: (Action, State) -> [[String]]?
        let action: (inout SplitMix) -> Action
        var dropsAsMissing: (Action, State) -> Bool = { _, _ in false }
    }

    /// A feature's writes: `paths` after every action of case `index`.
    static func on(_ index: Int, writes paths: [String]...) -> (Action, State) -> [[String]]? {
        { action, _ in action.caseIndex == index ? paths : nil }
    }

    /// A feature's writes: `paths` after every action of case `index` that finds `holds` true of
    /// the state before it.
    static func on(_ index: Int, when holds: @escaping (Action, State) -> Bool, writes paths: [String]...) -> (Action, State) -> [[String]]? {
        { action, state in action.caseIndex == index && holds(action, state) ? paths : nil }
    }

    static let features = keyPathFeatures + optionalFeatures + collectionFeatures + routedFeatures + confinedFeatures

    /// Features lifted through lenses: key paths to stored properties, and a closure lens, whose
    /// writes no byte range locates (the whole state, as far as observers know).
    static let keyPathFeatures: [Feature] = [
        Feature(
            behavior: Behavior<String, String, Void>.reduce { name, current in current = name }
                .lift(.action(prism(0, { if case .name(let name) = $0 { name } else { nil } }, Action.name)).state(\State.profile.name)),
            writes: on(0, writes: ["profile", "name"]), action: { .name(names[$0.next(2)]) }),
        Feature(
            behavior: Behavior<Int, Profile, Void>.reduce { age, profile in profile.age = age }
                .lift(.action(prism(1, { if case .age(let age) = $0 { age } else { nil } }, Action.age)).state(\State.profile)),
            writes: on(1, writes: ["profile"]), action: { .age($0.next(2)) }),
        Feature(
            behavior: Behavior<Int, Int, Void>.reduce { count, unread in unread = count }
                .lift(.action(prism(2, { if case .unread(let count) = $0 { count } else { nil } }, Action.unread)).state(\State.inbox.unread)),
            writes: on(2, writes: ["inbox", "unread"]), action: { .unread($0.next(2)) }),
        Feature(
            behavior: Behavior<Bool, Flags, Void>.reduce { pinned, flags in flags.pinned = pinned }
                .lift(.action(Prism<Bool, Bool>(preview: { $0 }, review: { $0 })).state(\Inbox.flags))
                .lift(.action(prism(3, { if case .pin(let pinned) = $0 { pinned } else { nil } }, Action.pin)).state(\State.inbox)),
            writes: on(3, writes: ["inbox", "flags"]), action: { .pin($0.next(2) == 1) }),
        Feature(
            behavior: Behavior<Int, Int, Void>.reduce { step, counter in counter += step }
                .lift(.action(prism(4, { if case .bump(let step) = $0 { step } else { nil } }, Action.bump)).state(\State.counter)),
            writes: on(4, writes: ["counter"]), action: { .bump($0.next(2)) }),
        Feature(
            behavior: Behavior<String, [String], Void>.reduce { tag, tags in if tags.count < 3 { tags.append(tag) } }
                .lift(.action(prism(5, { if case .tag(let tag) = $0 { tag } else { nil } }, Action.tag)).state(\State.tags)),
            writes: on(5, writes: ["tags"]), action: { .tag(names[$0.next(2)]) }),
        Feature(
            behavior: Behavior<String?, String?, Void>.reduce { note, current in current = note }
                .lift(.action(prism(6, { if case .note(let note) = $0 { note } else { nil } }, Action.note)).state(\State.note)),
            writes: on(6, writes: ["note"]), action: { $0.next(2) == 0 ? .note(nil) : .note("n") }),
        Feature(
            behavior: Behavior<Int, Int, Void>.reduce { count, unread in unread = count }
                .lift(
                    .action(prism(23, { if case .unreadByLens(let count) = $0 { count } else { nil } }, Action.unreadByLens))
                        .state(Lens(get: { $0.inbox.unread }, set: { $0.inbox.unread = $1 }))),
            writes: on(23, writes: []), action: { .unreadByLens($0.next(2)) }),
    ]

    /// An optional child: set and cleared through a key path to the optional itself, and edited
    /// through `liftOptional` and through an `.on` whose state lane is the optional, both of which
    /// do nothing (apply to nothing) while it is `nil`.
    static let optionalFeatures: [Feature] = [
        Feature(
            behavior: Behavior<Bool, Child?, Void>.reduce { present, child in child = present ? (child ?? Child()) : nil }
                .lift(.action(prism(8, { if case .child(let present) = $0 { present } else { nil } }, Action.child)).state(\State.child)),
            writes: on(8, writes: ["child"]), action: { .child($0.next(3) != 0) }),
        Feature(
            behavior: Behavior<String, Child, Void>.reduce { name, child in child.name = name }
                .liftOptional(\State.child)
                .liftAction(prism(9, { if case .rename(let name) = $0 { name } else { nil } }, Action.rename)),
            writes: on(9, when: { $1.child != nil }, writes: ["child"]), action: { .rename(names[$0.next(2)]) }),
        Feature(
            behavior: Behavior<Action, State, Void>.identity
                .on(
                    .action(prism(10, { if case .score(let score) = $0 { score } else { nil } }, Action.score)).state(\State.child),
                    reduce: { score, child in child.score = score }),
            writes: on(10, when: { $1.child != nil }, writes: ["child"]), action: { .score($0.next(3)) }),
    ]

    /// The index in ``features`` of the rows' by-id lift, the first collection feature.
    static var rowsByIDFeature: Int { keyPathFeatures.count + optionalFeatures.count }

    /// Two collections: one edited by id through `liftCollection` (an action for an absent id is
    /// dropped), one through a `liftEach` broadcast (which applies while some element is there),
    /// and each replaced through a key path to the collection.
    static let collectionFeatures: [Feature] = [
        Feature(
            behavior: Behavior<Int, Row, Void>.reduce { hits, row in row.hits += hits }
                .liftCollection(.action(prism(11, { if case .row(let element) = $0 { element } else { nil } }, Action.row)).state(\State.rows)),
            writes: on(11, when: { action, state in state.rows.contains { $0.id == action.rowID } }, writes: ["rows"]),
            action: { .row(ElementAction($0.next(3), action: 1)) },
            dropsAsMissing: { action, state in action.rowID.map { id in !state.rows.contains { $0.id == id } } ?? false }),
        Feature(
            behavior: Behavior<Int, [Row], Void>.reduce { id, rows in
                if let index = rows.firstIndex(where: { $0.id == id }) { rows.remove(at: index) } else { rows.append(Row(id: id)) }
            }
            .lift(.action(prism(12, { if case .toggleRow(let id) = $0 { id } else { nil } }, Action.toggleRow)).state(\State.rows)),
            writes: on(12, writes: ["rows"]), action: { .toggleRow($0.next(3)) }),
        Feature(
            behavior: Behavior<Int, Cell, Void>.reduce { ticks, cell in cell.ticks += ticks }
                .liftEach(
                    .action(
                        broadcast: prism(13, { if case .tickAll(let ticks) = $0 { ticks } else { nil } }, Action.tickAll),
                        into: prism(14, { if case .cell(let element) = $0 { element } else { nil } }, Action.cell)
                    ).state(\State.cells)),
            writes: on(13, when: { !$1.cells.isEmpty }, writes: ["cells"]), action: { .tickAll(1 + $0.next(2)) }),
        Feature(
            behavior: Behavior<Bool, [Cell], Void>.reduce { full, cells in cells = full ? Cell.all : [] }
                .lift(.action(prism(15, { if case .cells(let full) = $0 { full } else { nil } }, Action.cells)).state(\State.cells)),
            writes: on(15, writes: ["cells"]), action: { .cells($0.next(2) == 0) }),
    ]

    /// `.on` routes: with a state lane (and a `when`), with none (the whole state), and one that
    /// also dispatches (a reaction, so the app takes the path with every phase).
    static let routedFeatures: [Feature] = [
        Feature(
            behavior: Behavior<Action, State, Void>.identity
                .on(
                    .action(prism(16, { if case .level(let level) = $0 { level } else { nil } }, Action.level)).state(\State.level),
                    when: { $0.counter.isMultiple(of: 2) }, reduce: { level, current in current = level }),
            writes: on(16, when: { $1.counter.isMultiple(of: 2) }, writes: ["level"]), action: { .level($0.next(3)) }),
        Feature(
            behavior: Behavior<Action, State, Void>.identity
                .on(.action(prism(17, { if case .reset = $0 { () } else { nil } }, { Action.reset })), reduce: { _, state in state.level = 0 }),
            writes: on(17, writes: []), action: { _ in .reset }),
        Feature(
            behavior: Behavior<Action, State, Void>.identity
                .on(
                    .action(prism(21, { if case .ping(let count) = $0 { count } else { nil } }, Action.ping)).state(\State.pings),
                    dispatch: .action { (_: Int) in Action.echo }, reduce: { count, pings in pings += count }),
            writes: on(21, writes: ["pings"]), action: { .ping(1 + $0.next(2)) }),
    ]

    /// Features confined to parts they name: an unlifted unit confined to one part and to two, and
    /// a lifted one confined to a part of its lane (declarations only narrow).
    static let confinedFeatures: [Feature] = [
        Feature(
            behavior: Behavior<Bool, State, Void>.reduce { muted, state in state.inbox.flags.muted = muted }
                .liftAction(prism(18, { if case .mute(let muted) = $0 { muted } else { nil } }, Action.mute))
                .confined(to: \State.inbox.flags),
            writes: on(18, writes: ["inbox", "flags"]), action: { .mute($0.next(2) == 0) }),
        Feature(
            behavior: Behavior<String, Profile, Void>.reduce { title, profile in profile.name = title }
                .lift(.action(prism(19, { if case .retitle(let title) = $0 { title } else { nil } }, Action.retitle)).state(\State.profile))
                .confined(to: \State.profile.name, \State.level),
            writes: on(19, writes: ["profile", "name"]), action: { .retitle(names[$0.next(2)]) }),
        Feature(
            behavior: Behavior<Int, State, Void>.reduce { value, state in
                state.profile.age = value
                state.level = value
            }
            .liftAction(prism(20, { if case .audit(let value) = $0 { value } else { nil } }, Action.audit))
            .confined(to: \State.profile.age, \State.level),
            writes: on(20, writes: ["profile", "age"], ["level"]), action: { .audit($0.next(3)) }),
    ]

    /// A unit no key path locates: it applies to every action (writing only on `.stamp`) and may
    /// write anything.
    static let stamp = Behavior<Action, State, Void>.reduce { action, state in
        if case .stamp = action { state.counter += 1 }
    }

    /// The same unit, confined to the counter: it applies to every action and writes the counter.
    static let confinedStamp = stamp.confined(to: \State.counter)
}
