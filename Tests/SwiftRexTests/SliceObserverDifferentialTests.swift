import Testing

@testable import SwiftRex

/// Random apps and random dispatches, checked against notify-all-then-compare: a key-path observer
/// delivers exactly the values a closure observer (called after every change) delivers, and a
/// slice projection's observer is called exactly after the actions whose unit writes its slice.
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

    struct State: Equatable, Sendable {
        var profile = Profile()
        var inbox = Inbox()
        var counter = 0
        var tags: [String] = []
        var note: String?
        /// Computed: no byte range locates it.
        var summary: String { "\(counter)/\(tags.count)" }
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
            }
        }
    }

    /// One feature: its unit, the path it writes (as field names) and an action for it.
    struct Feature {
        let behavior: Behavior<Action, State, Void>
        let writes: [String]
        let action: (inout SplitMix) -> Action
    }

    static func prism<Part>(_ index: Int, _ preview: @escaping @Sendable (Action) -> Part?, _ review: @escaping @Sendable (Part) -> Action)
        -> Prism<Action, Part>
    {
        Prism(case: index, preview: preview, review: review)
    }

    static let names = ["a", "b"]

    static let features: [Feature] = [
        Feature(
            behavior: Behavior<String, String, Void>.reduce { name, current in current = name }
                .lift(action: prism(0, { if case .name(let name) = $0 { name } else { nil } }, Action.name), state: \State.profile.name),
            writes: ["profile", "name"], action: { .name(names[$0.next(2)]) }),
        Feature(
            behavior: Behavior<Int, Profile, Void>.reduce { age, profile in profile.age = age }
                .lift(action: prism(1, { if case .age(let age) = $0 { age } else { nil } }, Action.age), state: \State.profile),
            writes: ["profile"], action: { .age($0.next(2)) }),
        Feature(
            behavior: Behavior<Int, Int, Void>.reduce { count, unread in unread = count }
                .lift(action: prism(2, { if case .unread(let count) = $0 { count } else { nil } }, Action.unread), state: \State.inbox.unread),
            writes: ["inbox", "unread"], action: { .unread($0.next(2)) }),
        Feature(
            behavior: Behavior<Bool, Flags, Void>.reduce { pinned, flags in flags.pinned = pinned }
                .lift(action: Prism<Bool, Bool>(preview: { $0 }, review: { $0 }), state: \Inbox.flags)
                .lift(action: prism(3, { if case .pin(let pinned) = $0 { pinned } else { nil } }, Action.pin), state: \State.inbox),
            writes: ["inbox", "flags"], action: { .pin($0.next(2) == 1) }),
        Feature(
            behavior: Behavior<Int, Int, Void>.reduce { step, counter in counter += step }
                .lift(action: prism(4, { if case .bump(let step) = $0 { step } else { nil } }, Action.bump), state: \State.counter),
            writes: ["counter"], action: { .bump($0.next(2)) }),
        Feature(
            behavior: Behavior<String, [String], Void>.reduce { tag, tags in if tags.count < 3 { tags.append(tag) } }
                .lift(action: prism(5, { if case .tag(let tag) = $0 { tag } else { nil } }, Action.tag), state: \State.tags),
            writes: ["tags"], action: { .tag(names[$0.next(2)]) }),
        Feature(
            behavior: Behavior<String?, String?, Void>.reduce { note, current in current = note }
                .lift(action: prism(6, { if case .note(let note) = $0 { note } else { nil } }, Action.note), state: \State.note),
            writes: ["note"], action: { $0.next(2) == 0 ? .note(nil) : .note("n") }),
    ]

    /// A unit no key path locates: it applies to `.stamp` and may write anything.
    static let stamp = Behavior<Action, State, Void>.reduce { action, state in
        if case .stamp = action { state.counter += 1 }
    }

    /// The observed slices: the key path, and its field names (`nil`: no byte range locates it).
    static let slices: [(path: PartialKeyPath<State>, fields: [String]?)] = [
        (\State.profile.name, ["profile", "name"]),
        (\State.profile.age, ["profile", "age"]),
        (\State.profile, ["profile"]),
        (\State.inbox.unread, ["inbox", "unread"]),
        (\State.inbox.flags.pinned, ["inbox", "flags", "pinned"]),
        (\State.inbox.flags.muted, ["inbox", "flags", "muted"]),
        (\State.inbox, ["inbox"]),
        (\State.counter, ["counter"]),
        (\State.tags, ["tags"]),
        (\State.note, ["note"]),
        (\State.summary, nil),
        (\State.self, []),
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

    @Test(arguments: 0..<40)
    func slicesHearExactlyWhatTheirValueAndTheWritesTheyOverlapSay(seed: Int) {
        var random = SplitMix(state: UInt64(seed))
        let chosen = Self.features.indices.filter { _ in random.next(4) != 0 }
        let hasStamp = random.next(3) == 0
        var behaviors = chosen.map { Self.features[$0].behavior }
        if hasStamp { behaviors.insert(Self.stamp, at: random.next(behaviors.count + 1)) }
        let store = Store(initial: State(), behavior: Behavior.combine(behaviors))

        // Raw observers on key-path projections, counted; and expected counts from the model.
        let calls = Delivered<Int>()
        calls.values = Array(repeating: 0, count: Self.slices.count)
        var expected = calls.values
        let anyPrism = Self.prism(4, { if case .bump(let step) = $0 { step } else { nil } }, Action.bump)
        var tokens = Self.slices.indices.map { index in
            Self.observeRaw(store, Self.slices[index].path, anyPrism) { calls.values[index] += 1 }
        }
        // Value observers through a key path, against the same values read by a closure.
        let byKeyPath = Delivered<String>()
        let byClosure = Delivered<String>()
        tokens.append(store.observe(changesOf: \.profile.name) { byKeyPath.values.append("name \($0)") })
        tokens.append(store.observe(changesOf: { $0.profile.name }) { byClosure.values.append("name \($0)") })
        tokens.append(store.observe(changesOf: \.inbox.flags) { byKeyPath.values.append("flags \($0.pinned)") })
        tokens.append(store.observe(changesOf: { $0.inbox.flags }) { byClosure.values.append("flags \($0.pinned)") })
        tokens.append(store.observe(changesOf: \.summary) { byKeyPath.values.append("summary \($0)") })
        tokens.append(store.observe(changesOf: { $0.summary }) { byClosure.values.append("summary \($0)") })
        tokens.append(store.observe(changesOf: \.profile) { byKeyPath.values.append("profile \($0.age)") })
        tokens.append(store.observe(changesOf: { $0.profile }) { byClosure.values.append("profile \($0.age)") })

        for _ in 0..<60 {
            let pick = random.next(Self.features.count + 1)
            let action = pick == Self.features.count ? Action.stamp : Self.features[pick].action(&random)
            var written: [[String]] = []
            if hasStamp { written.append([]) }
            if pick < Self.features.count, chosen.contains(pick) { written.append(Self.features[pick].writes) }
            for index in Self.slices.indices where written.contains(where: { Self.reaches($0, Self.slices[index].fields) }) {
                expected[index] += 1
            }
            store.dispatch(action)
        }
        #expect(calls.values == expected, "seed \(seed): features \(chosen), stamp \(hasStamp)")
        #expect(byKeyPath.values == byClosure.values, "seed \(seed)")
        _ = tokens
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
