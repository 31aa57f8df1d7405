import Foundation
import SwiftRex
import SwiftRexTestSupport
import Testing

/// Foundation values: keys, tokens, sources, dispatched actions, contexts and element actions.
@Suite struct FoundationValueTests {
    // MARK: AnyHashableSendable

    @Test func keysOfDifferentDynamicTypesAreDistinct() {
        let keys = [
            AnyHashableSendable(1), AnyHashableSendable(1.0), AnyHashableSendable(true), AnyHashableSendable("1"), AnyHashableSendable(Int8(1)),
        ]
        for (i, lhs) in keys.enumerated() {
            for (j, rhs) in keys.enumerated() {
                #expect((lhs == rhs) == (i == j), "\(lhs) vs \(rhs)")
            }
        }
        let table = Dictionary(uniqueKeysWithValues: keys.enumerated().map { ($1, $0) })
        #expect(table.count == keys.count)
        #expect(table[AnyHashableSendable(1.0)] == 1)
    }

    @Test func equalValuesOfTheSameTypeAreEqualAndHashEqual() {
        let pairs: [(AnyHashableSendable, AnyHashableSendable)] = [
            (AnyHashableSendable(42), AnyHashableSendable(40 + 2)),
            (AnyHashableSendable("room"), AnyHashableSendable(String("ro") + "om")),
            (AnyHashableSendable([1, 2]), AnyHashableSendable([1, 2])),
        ]
        for (lhs, rhs) in pairs {
            #expect(lhs == rhs)
            #expect(lhs.hashValue == rhs.hashValue)
        }
        #expect(AnyHashableSendable(1) != AnyHashableSendable(2))
        #expect(AnyHashableSendable("room") != AnyHashableSendable("rooms"))
        #expect(AnyHashableSendable(-1) != AnyHashableSendable(UInt.max))
    }

    @Test func equalStringKeysHashEqualWhateverTheirStorageLengthOrNormalisation() {
        // Up to 15 ASCII bytes, a key's hash is mixed from its bytes; longer or non-ASCII strings
        // go through `Hasher`. Equal strings must land on the same path.
        let samples =
            ["", "a", "search", "fifteen-bytes!!", "sixteen-bytes!!!", "an identifier well past sixteen bytes", "café", "日本", "\u{0}"]
            + (0...15).map { String("abcdefghijklmno~".prefix($0)) }
        for sample in samples {
            var reserved = String()
            reserved.reserveCapacity(64)
            reserved.append(sample)
            let forms = [
                AnyHashableSendable(sample), AnyHashableSendable(reserved), AnyHashableSendable(String(sample[...])),
                AnyHashableSendable(String(decoding: Array(sample.utf8), as: UTF8.self)),
            ]
            for form in forms {
                #expect(form == forms[0], "\(sample)")
                #expect(form.hashValue == forms[0].hashValue, "\(sample)")
            }
        }
        // Canonically equivalent strings are equal keys with equal hashes.
        #expect(AnyHashableSendable("caf\u{E9}") == AnyHashableSendable("cafe\u{301}"))
        #expect(AnyHashableSendable("caf\u{E9}").hashValue == AnyHashableSendable("cafe\u{301}").hashValue)
        // A trailing NUL or a different length is another key.
        #expect(AnyHashableSendable("a") != AnyHashableSendable("a\u{0}"))
        #expect(AnyHashableSendable("a").hashValue != AnyHashableSendable("a\u{0}").hashValue)
        #expect(AnyHashableSendable("") != AnyHashableSendable("\u{0}"))
    }

    @Test func distinctShortKeysGetDistinctHashes() {
        // Strings that differ in their first eight bytes, in bytes 9 to 15 only, or in length.
        var strings = Set<Int>()
        var tails = Set<Int>()
        var lengths = Set<Int>()
        var integers = Set<Int>()
        for index in 0..<10_000 {
            strings.insert(AnyHashableSendable("k\(index)").hashValue)
            tails.insert(AnyHashableSendable("prefix-7\(index)").hashValue)
            integers.insert(AnyHashableSendable(index - 5_000).hashValue)
        }
        for length in 0...15 { lengths.insert(AnyHashableSendable(String(repeating: "\u{0}", count: length)).hashValue) }
        #expect(strings.count == 10_000)
        #expect(tails.count == 10_000)
        #expect(integers.count == 10_000)
        #expect(lengths.count == 16)
    }

    @Test func dictionariesFindEveryKeyAndPlaceEqualKeysAlike() {
        var table: [AnyHashableSendable: Int] = [:]
        for index in 0..<50_000 {
            table[AnyHashableSendable(index)] = index
            table[AnyHashableSendable("k\(index)")] = -index
        }
        #expect(table.count == 100_000)
        for index in stride(from: 0, to: 50_000, by: 7) {
            #expect(table[AnyHashableSendable(index)] == index)
            #expect(table[AnyHashableSendable("k" + String(index))] == -index)
        }
        // Any table's seed: equal keys made apart share their place, distinct keys spread over the
        // buckets about as a random function would (it fills 63 % of them), and another seed
        // places a key elsewhere.
        for seed in [0, 1, -1, 0x5EED] {
            #expect(AnyHashableSendable(42)._rawHashValue(seed: seed) == AnyHashableSendable(AnyHashableSendable(42))._rawHashValue(seed: seed))
            #expect(AnyHashableSendable("id")._rawHashValue(seed: seed) == AnyHashableSendable("i" + "d")._rawHashValue(seed: seed))
            let buckets = Set((0..<4_096).map { AnyHashableSendable("row-\($0)")._rawHashValue(seed: seed) & 4_095 })
            #expect(buckets.count > 2_400)
            #expect(AnyHashableSendable(7)._rawHashValue(seed: seed) != AnyHashableSendable(7)._rawHashValue(seed: seed &+ 1))
        }
    }

    @Test func elementEffectIDsAreKeysLikeAnyOtherValue() {
        func wrapped(_ value: any Hashable & Sendable) -> AnyHashableSendable { AnyHashableSendable(value) }
        let id = ElementEffectID(site: "rows", element: 7, inner: "autosave")
        let direct = AnyHashableSendable(id)
        // Made in specialised code and through an existential: the same key.
        let viaExistential = wrapped(id)
        #expect(direct == viaExistential)
        #expect(direct.hashValue == viaExistential.hashValue)
        #expect(direct == AnyHashableSendable(ElementEffectID(site: "rows", element: 7, inner: "autosave")))
        #expect(direct != AnyHashableSendable(ElementEffectID(site: "rows", element: 8, inner: "autosave")))
        #expect(direct != AnyHashableSendable(ElementEffectID(site: "cells", element: 7, inner: "autosave")))
        #expect(direct != AnyHashableSendable(ElementEffectID(site: "rows", element: 7, inner: "watch")))
        #expect(direct != AnyHashableSendable(ElementEffectID(site: "rows", element: "7", inner: "autosave")))
        #expect(direct.base as? ElementEffectID == id)
        #expect(direct.description == "rows[7]/autosave")
        var table: [AnyHashableSendable: Int] = [:]
        for element in 0..<100 { table[AnyHashableSendable(ElementEffectID(site: "rows", element: element, inner: "autosave"))] = element }
        #expect(table[direct] == 7)
        #expect(table.count == 100)
    }

    @Test func wrappingAKeyDoesNotWrapItTwice() {
        let key = AnyHashableSendable("x")
        let rewrapped = AnyHashableSendable(key)
        #expect(rewrapped == key)
        #expect(rewrapped.base is String)
        #expect(rewrapped.description == "x")
    }

    /// A key larger than three words (held by reference inside the key).
    struct WideKey: Hashable, Sendable, CustomStringConvertible {
        var a: Int, b: Int, c: Int, name: String
        var description: String { "wide(\(a),\(b),\(c),\(name))" }
    }

    @Test func wideKeysCompareHashAndUnwrapByValue() {
        let lhs = AnyHashableSendable(WideKey(a: 1, b: 2, c: 3, name: "row"))
        let rhs = AnyHashableSendable(WideKey(a: 1, b: 2, c: 3, name: String("r") + "ow"))
        #expect(lhs == rhs)
        #expect(lhs.hashValue == rhs.hashValue)
        #expect(lhs != AnyHashableSendable(WideKey(a: 1, b: 2, c: 4, name: "row")))
        #expect(lhs != AnyHashableSendable(ElementEffectID(site: "rows", element: 1, inner: "row")))
        #expect(lhs.base as? WideKey == WideKey(a: 1, b: 2, c: 3, name: "row"))
        #expect(lhs.description == "wide(1,2,3,row)")
        #expect(AnyHashableSendable(lhs) == lhs)
        let scoped = AnyHashableSendable(ElementEffectID(site: "rows", element: 7, inner: "link"))
        #expect(scoped == AnyHashableSendable(ElementEffectID(site: "rows", element: 7, inner: "link")))
        #expect(scoped != AnyHashableSendable(ElementEffectID(site: "rows", element: 8, inner: "link")))
        #expect(scoped.base as? ElementEffectID == ElementEffectID(site: "rows", element: 7, inner: "link"))
        let table = [lhs: 1, scoped: 2]
        #expect(table[rhs] == 1)
        #expect(table[AnyHashableSendable(ElementEffectID(site: "rows", element: 7, inner: "link"))] == 2)
    }

    // MARK: SubscriptionToken

    @Test func anExplicitCancelThenReleaseRunsTheClosureExactlyOnce() {
        let runs = CoreFixtures.Counter()
        do {
            let token = SubscriptionToken { runs.increment() }
            #expect(!token.isCancelled)
            token.cancel()
            #expect(token.isCancelled)
            token.cancel()
        }
        #expect(runs.value == 1)
    }

    @Test func releasingATokenCancelsItOnce() {
        let runs = CoreFixtures.Counter()
        do { _ = SubscriptionToken { runs.increment() } }
        #expect(runs.value == 1)
    }

    @Test func concurrentCancelsRunTheClosureOnce() async {
        let runs = CoreFixtures.Counter()
        let token = SubscriptionToken { runs.increment() }
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<32 { group.addTask { token.cancel() } }
        }
        #expect(runs.value == 1)
    }

    @Test func theEmptyTokenCancelsNothing() {
        #expect(SubscriptionToken.empty.isCancelled)
        SubscriptionToken.empty.cancel()
        #expect(SubscriptionToken.empty.isCancelled)
    }

    // MARK: ActionSource, DispatchedAction, here()

    @Test func actionSourceCapturesTheCallSite() {
        let source = ActionSource()
        let line = UInt(#line) - 1 // the line above
        #expect(source.file == #fileID)
        #expect(source.line == line)
        #expect(source.function == #function)
        #expect(source.description == "\(#fileID):\(line) (\(#function))")
        #expect(source == ActionSource(file: source.file, function: source.function, line: source.line))
        #expect(source != ActionSource(file: source.file, function: source.function, line: source.line + 1))
    }

    @Test func dispatchedActionInitialisersAndHereCaptureTheCallSite() {
        let direct = DispatchedAction("a")
        let directLine = UInt(#line) - 1 // the line above
        #expect(direct.dispatcher.line == directLine)
        #expect(direct.dispatcher.file == #fileID)
        let stamp: (String) -> DispatchedAction<String> = here()
        let hereLine = UInt(#line) - 1 // the line above
        let stamped = stamp("b")
        #expect(stamped.action == "b")
        #expect(stamped.dispatcher.line == hereLine)
        #expect(stamp("c").dispatcher == stamped.dispatcher)
    }

    @Test func dispatchedActionMapObeysTheFunctorLawsAndKeepsTheDispatcher() {
        let source = ActionSource(file: "F.swift", function: "g()", line: 3)
        let action = DispatchedAction(4, dispatcher: source)
        let f: (Int) -> Int = { $0 * 3 }
        let g: (Int) -> String = { "#\($0)" }
        #expect(action.map { $0 } == action)
        #expect(action.map { g(f($0)) } == action.map(f).map(g))
        #expect(action.map(g).dispatcher == source)
    }

    @Test func dispatchedActionCompactMapObeysTheLawsAndKeepsTheDispatcher() {
        let source = ActionSource(file: "F.swift", function: "g()", line: 3)
        let even = DispatchedAction(4, dispatcher: source)
        let odd = DispatchedAction(5, dispatcher: source)
        let half: (Int) -> Int? = { $0.isMultiple(of: 2) ? $0 / 2 : nil }
        let label: (Int) -> String? = { $0 > 1 ? "big \($0)" : nil }
        for action in [even, odd, DispatchedAction(2, dispatcher: source)] {
            #expect(action.compactMap(Optional.some) == action)
            #expect(action.compactMap { half($0).flatMap(label) } == action.compactMap(half).flatMap { $0.compactMap(label) })
        }
        #expect(even.compactMap(half) == DispatchedAction(2, dispatcher: source))
        #expect(odd.compactMap(half) == nil)
    }

    // MARK: Contexts

    @Test @MainActor func preReducerContextMapObeysTheFunctorLaws() {
        let source = ActionSource(file: "S.swift", function: "f()", line: 1)
        let live = CoreFixtures.Log<Int>()
        live.append(5)
        let context = PreReducerContext<Int>(source: source, stateBefore: { live.values.last })
        let f: @MainActor (Int) -> Int = { $0 + 1 }
        let g: @MainActor (Int) -> String = { "s\($0)" }
        #expect(context.map { $0 }.stateBefore == context.stateBefore)
        #expect(context.map { g(f($0)) }.stateBefore == context.map(f).map(g).stateBefore)
        #expect(context.map(g).source == source)
        live.append(9)
        #expect(context.map(g).stateBefore == "s9")
    }

    @Test @MainActor func preReducerContextCompactMapComposes() {
        let context = PreReducerContext<Int>(source: ActionSource(), stateBefore: { 8 })
        let half: @MainActor (Int) -> Int? = { $0.isMultiple(of: 2) ? $0 / 2 : nil }
        let big: @MainActor (Int) -> String? = { $0 > 3 ? "big" : nil }
        #expect(context.compactMap { half($0).flatMap(big) }.stateBefore == context.compactMap(half).compactMap(big).stateBefore)
        #expect(context.compactMap(half).stateBefore == 4)
        #expect(context.compactMap(half).compactMap(half).compactMap(half).compactMap(half).stateBefore == nil)
        let gone = PreReducerContext<Int>(source: ActionSource(), stateBefore: { nil })
        #expect(gone.map { $0 + 1 }.stateBefore == nil)
    }

    @Test @MainActor func postReducerContextMapsStateAndEnvironment() {
        let context = PostReducerContext<Int, String>(environment: "env", liveState: { 3 })
        let f: @MainActor @Sendable (Int) -> Int = { $0 * 2 }
        let g: @MainActor @Sendable (Int) -> String = { "v\($0)" }
        #expect(context.map { $0 }.liveState == context.liveState)
        #expect(context.map { g(f($0)) }.liveState == context.map(f).map(g).liveState)
        #expect(context.map(g).environment == "env")
        let half: @MainActor @Sendable (Int) -> Int? = { $0.isMultiple(of: 2) ? $0 / 2 : nil }
        #expect(context.compactMap(half).liveState == nil)
        #expect(context.map(f).compactMap(half).liveState == 3)

        let count: (String) -> Int = { $0.count }
        let double: (Int) -> Int = { $0 * 2 }
        #expect(context.mapEnvironment { $0 }.environment == context.environment)
        #expect(context.mapEnvironment { double(count($0)) }.environment == context.mapEnvironment(count).mapEnvironment(double).environment)
        #expect(context.mapEnvironment(count).liveState == 3)
    }

    // MARK: ElementAction

    @Test func elementActionHasItsConditionalConformances() throws {
        let action = ElementAction("row-1", action: 5)
        #expect(action == ElementAction("row-1", action: 5))
        #expect(action != ElementAction("row-2", action: 5))
        #expect(Set([action, ElementAction("row-1", action: 5)]).count == 1)
        #expect(action.description == "ElementAction(row-1, action: 5)")
        let data = try JSONEncoder().encode(action)
        #expect(try JSONDecoder().decode(ElementAction<String, Int>.self, from: data) == action)
        let sendable: any Sendable = action
        #expect(sendable is ElementAction<String, Int>)
    }
}
