import SwiftRexTestSupport
import SwiftRexTesting
import Testing

@testable import SwiftRex

/// Ids are keys by value and type: equal values of one type are one key, however they are held (a
/// string built, sliced or differently normalised); values of other types are other keys.
@MainActor
@Suite("Adversarial: effect ids as keys")
struct EffectAdversarialKeyTests: EffectAdversarialSuite {
    @Test func idsOfDifferentTypesAreDifferentKeys() async {
        let log = AdversarialLog()
        let store = makeStore(log: log) { action, env in
            guard case .runKey(let key, let value) = action else { return .empty }
            return .task(scheduling: .keyed(id: key)) { send in
                env.log.append("body \(value)")
                send(.got(value))
            }
        }
        let keys: [AnyHashableSendable] = [
            AnyHashableSendable(1), AnyHashableSendable(Int8(1)), AnyHashableSendable(UInt(1)), AnyHashableSendable("1"),
            AnyHashableSendable(1.0), AnyHashableSendable(true), AnyHashableSendable(Int?.some(1)), AnyHashableSendable(Character("1")),
        ]
        for (index, key) in keys.enumerated() { store.dispatch(.runKey(key, index)) }
        #expect(await adversarialWait { store.state.got.count == keys.count && store.isIdle })
        #expect(Set(store.state.got) == Set(keys.indices))
        #expect(store.registeredEffectCount == 0)
    }

    /// Pairs of equal strings held differently.
    enum EqualStrings: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case literalAndBuilt, fromSubstring, precomposedAndDecomposed, hangulSyllableAndJamo, angstrom
        case long, fifteenBytes, sixteenBytes, empty, bridgedThroughInterpolation

        var testDescription: String { rawValue }

        var pair: (String, String) {
            switch self {
            case .literalAndBuilt: return ("search", String(["s", "e", "a", "r", "c", "h"]))
            case .fromSubstring: return ("search", String("[search]".dropFirst().dropLast()))
            case .precomposedAndDecomposed: return ("caf\u{E9}", "cafe\u{301}")
            case .hangulSyllableAndJamo: return ("\u{AC00}", "\u{1100}\u{1161}")
            case .angstrom: return ("\u{C5}ngstr\u{F6}m", "\u{212B}ngstro\u{308}m")
            case .long: return ("a-rather-long-search-key-0123456789", "a-rather-long-" + String(repeating: "search-key-", count: 1) + "0123456789")
            case .fifteenBytes: return ("abcdefghijklmno", String("abcdefghijklmnop".dropLast()))
            case .sixteenBytes: return ("abcdefghijklmnop", "abcdefgh" + String("ijklmnop".reversed().reversed()))
            case .empty: return ("", String("x".dropFirst()))
            case .bridgedThroughInterpolation: return ("id-42", "id-\(42)")
            }
        }
    }

    static func expectOneKey(_ a: String, _ b: String, sourceLocation: SourceLocation = #_sourceLocation) async {
        #expect(a == b, sourceLocation: sourceLocation)
        #expect(AnyHashableSendable(a) == AnyHashableSendable(b), sourceLocation: sourceLocation)
        #expect(AnyHashableSendable(a).hashValue == AnyHashableSendable(b).hashValue, sourceLocation: sourceLocation)
        let log = AdversarialLog()
        let env = Env(clock: ManualClock(), log: log)
        let store = Store(
            initial: State(),
            behavior: Self.behavior(env) { action, env in
                guard case .runKey(let key, let value) = action else { return .empty }
                return .task(scheduling: .keyed(id: key)) { send in
                    env.log.append("body \(value)")
                    send(.got(value))
                }
            }, environment: env, clock: { $0.clock })
        store.dispatch(.runKey(AnyHashableSendable(a), 1))
        store.dispatch(.runKey(AnyHashableSendable(b), 2))
        store.dispatch(.runKey(AnyHashableSendable(a), 3))
        store.dispatch(.runKey(AnyHashableSendable(b), 4))
        #expect(await adversarialWait { !store.state.got.isEmpty && store.isIdle }, sourceLocation: sourceLocation)
        await adversarialQuiesce()
        #expect(store.state.got == [4], sourceLocation: sourceLocation)
        #expect(log.events == ["body 4"], sourceLocation: sourceLocation)
    }

    @Test(arguments: EqualStrings.allCases)
    func equalStringsHeldDifferentlyAreOneKey(_ strings: EqualStrings) async {
        let (a, b) = strings.pair
        await Self.expectOneKey(a, b)
    }

    @Test
    func anAsciiStringAndACanonicallyEquivalentNonAsciiOneAreOneKey() async {
        // U+212A KELVIN SIGN is canonically equivalent to "K", U+037E GREEK QUESTION MARK to ";":
        // Swift says the strings are equal, so they are the same id.
        await Self.expectOneKey("Kelvin", "\u{212A}elvin")
        await Self.expectOneKey("a;b", "a\u{037E}b")
    }

    @Test func optionalIdsAreKeysOfTheirOptionalType() async {
        let log = AdversarialLog()
        let store = makeStore(log: log) { action, env in
            guard case .runKey(let key, let value) = action else { return .empty }
            return .task(scheduling: .keyed(id: key)) { send in
                env.log.append("body \(value)")
                send(.got(value))
            }
        }
        // Same type, equal values: one key (only the last of each group runs).
        store.dispatch(.runKey(AnyHashableSendable(Int?.some(1)), 1))
        store.dispatch(.runKey(AnyHashableSendable(Int?.some(1)), 2))
        store.dispatch(.runKey(AnyHashableSendable(Int?.none), 3))
        store.dispatch(.runKey(AnyHashableSendable(Int?.none), 4))
        store.dispatch(.runKey(AnyHashableSendable(String?.some("a")), 5))
        store.dispatch(.runKey(AnyHashableSendable(String?.some("a")), 6))
        // Other types: other keys.
        store.dispatch(.runKey(AnyHashableSendable(String?.none), 7))
        store.dispatch(.runKey(AnyHashableSendable(1), 8))
        store.dispatch(.runKey(AnyHashableSendable("a"), 9))
        #expect(await adversarialWait { store.state.got.count == 6 && store.isIdle })
        await adversarialQuiesce()
        #expect(Set(store.state.got) == [2, 4, 6, 7, 8, 9])
        #expect(store.registeredEffectCount == 0)
    }

    @Test func effectKeysOfEqualValueAreEqualAndHashAlikeAndNoOthersAre() {
        let values: [AnyHashableSendable] = [
            AnyHashableSendable(1), AnyHashableSendable(Int.max), AnyHashableSendable(-1), AnyHashableSendable(Int8(1)),
            AnyHashableSendable(""), AnyHashableSendable("a"), AnyHashableSendable("abcdefghijklmno"),
            AnyHashableSendable(String("abcdefghijklmnop".dropLast())), AnyHashableSendable("abcdefghijklmnop"),
            AnyHashableSendable("caf\u{E9}"), AnyHashableSendable("cafe\u{301}"),
            AnyHashableSendable(String(repeating: "long-", count: 10)), AnyHashableSendable("long-" + String(repeating: "long-", count: 9)),
            AnyHashableSendable(Int?.some(1)), AnyHashableSendable(Int?.none), AnyHashableSendable(String?.some("a")),
            AnyHashableSendable(ElementEffectID(site: "rows", element: 1, inner: "work")),
            AnyHashableSendable(ElementEffectID(site: "rows", element: 1, inner: "work")),
            AnyHashableSendable(ElementEffectID(site: "rows", element: 2, inner: "work")),
            AnyHashableSendable(AnonymousEffectKey(value: 1)), AnyHashableSendable(1.5),
        ]
        for a in values {
            for b in values {
                let optional: (AnyHashableSendable?, AnyHashableSendable?) = (a, b)
                #expect((optional.0 == optional.1) == (a == b), "\(a) vs \(b) (optional)")
                if a == b { #expect(a.hashValue == b.hashValue, "\(a) vs \(b) (hash)") }
            }
        }
        #expect(Set(values).count == values.count - 4)
    }
}
