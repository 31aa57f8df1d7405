import SwiftRex
import SwiftRexTestSupport
import Testing

/// The test-support target's own guarantees, with negative controls: a probe or checker that can
/// never fail proves nothing.
@Suite struct TestSupportTests {
    // MARK: SplitMix64

    @Test func splitMixReplaysTheSameSequenceForTheSameSeed() {
        var first = SplitMix64(seed: 2024)
        var second = SplitMix64(seed: 2024)
        let a = (0..<32).map { _ in first.next() }
        let b = (0..<32).map { _ in second.next() }
        #expect(a == b)
        var other = SplitMix64(seed: 2025)
        #expect((0..<32).map { _ in other.next() } != a)
    }

    @Test func splitMixMatchesTheReferenceOutputForSeedZero() {
        var rng = SplitMix64(seed: 0)
        #expect(rng.next() == 0xE220_A839_7B1D_CDAF)
        #expect(rng.next() == 0x6E78_9E6A_A1B9_65F4)
    }

    // MARK: ProbeBuffer

    @Test func probeBufferCountsACopyOnlyWhenItsStorageIsShared() {
        var buffer = ProbeBuffer(count: 10)
        let ledger = buffer.ledger
        buffer[0] = 42
        #expect(ledger.copies == 0)
        let uniqueAtFirst = buffer.isUniquelyReferenced()
        #expect(uniqueAtFirst)

        let shared = buffer
        let uniqueWhileShared = buffer.isUniquelyReferenced()
        #expect(!uniqueWhileShared)
        buffer[1] = 7
        #expect(ledger.copies == 1)
        #expect(shared[1] == 1)
        #expect(buffer[1] == 7)
        let uniqueAfterCopy = buffer.isUniquelyReferenced()
        #expect(uniqueAfterCopy)
    }

    @Test func probeBufferHasValueEquality() {
        var a = ProbeBuffer([1, 2, 3])
        let b = ProbeBuffer([1, 2, 3])
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        a.append(4)
        #expect(a != b)
        #expect(a.count == 4)
        #expect(a.elements == [1, 2, 3, 4])
    }

    // MARK: CoWProbe

    struct Payload: Equatable {
        var values: [Int]
        var buffer: ProbeBuffer
        init(count: Int = 100_000) {
            values = Array(0..<count)
            buffer = ProbeBuffer(count: count)
        }
    }

    @Test func theProbeSeesADirectMutationAsInPlace() {
        var state = Payload()
        let arrayReport = CoWProbe.trace(&state, payload: \.values) { $0.values[0] += 1 }
        let bufferReport = CoWProbe.trace(&state, payload: \.buffer) { $0.buffer[0] += 1 }
        #expect(arrayReport.isInPlace, "\(arrayReport)")
        #expect(bufferReport.isInPlace, "\(bufferReport)")
        #expect(bufferReport.copies == 0)
        #expect(arrayReport.copies == nil)
    }

    @Test func theProbeCatchesAHiddenCopy() {
        var state = Payload()
        var hidden: Payload?
        let arrayReport = CoWProbe.trace(&state, payload: \.values) { payload in
            hidden = payload
            payload.values[0] += 1
        }
        let bufferReport = CoWProbe.trace(&state, payload: \.buffer) { payload in
            hidden = payload
            payload.buffer[0] += 1
        }
        #expect(arrayReport.copied)
        #expect(!arrayReport.addressKept)
        #expect(bufferReport.copies == 1)
        #expect(!bufferReport.isInPlace)
        #expect(hidden != nil)
    }

    @Test func theProbeCatchesAReferenceThatOutlivesTheMutation() {
        var state = Payload()
        var kept: [Int] = []
        var keptBuffer = ProbeBuffer(count: 0)
        let arrayReport = CoWProbe.trace(&state, payload: \.values) { kept = $0.values }
        let bufferReport = CoWProbe.trace(&state, payload: \.buffer) { keptBuffer = $0.buffer }
        #expect(arrayReport.uniqueAfter == false)
        #expect(bufferReport.uniqueAfter == false)
        #expect(kept.count == keptBuffer.count)
    }

    @Test func theSharedCopyCheckCatchesReferenceSemantics() {
        final class Box: Equatable {
            var value: Int
            init(_ value: Int) { self.value = value }
            static func == (lhs: Box, rhs: Box) -> Bool { lhs.value == rhs.value }
        }
        struct Leaky: Equatable { var box: Box }

        let valueReport = CoWProbe.checkSharedCopy(make: { Payload(count: 8) }, mutate: { $0.buffer[0] = 99 })
        #expect(valueReport.passed)

        let leakyReport = CoWProbe.checkSharedCopy(make: { Leaky(box: Box(1)) }, mutate: { $0.box.value = 2 })
        #expect(leakyReport.resultsAgree)
        #expect(!leakyReport.hiddenCopyUntouched)
    }

    // MARK: LifetimeTracker

    @Test func theTrackerCountsLiveInstancesUntilTheyAreReleased() {
        let tracker = LifetimeTracker()
        do {
            let first = tracker.instance(1)
            let second = tracker.instance()
            #expect(tracker.liveCount == 2)
            #expect(first.payload == 1)
            _ = second
        }
        #expect(tracker.liveCount == 0)
        #expect(tracker.createdCount == 2)
        tracker.expectAllReleased()
    }

    @Test func theTrackerSeesAnObjectKeptAliveByAClosure() {
        let tracker = LifetimeTracker()
        var hold: (@Sendable () -> Void)?
        do {
            let tracked = tracker.instance("captured")
            hold = { _ = tracked }
        }
        #expect(!tracker.allReleased)
        hold = nil
        #expect(tracker.allReleased)
        _ = hold
    }

    @Test func expectAllReleasedRecordsAnIssueForALeak() {
        let tracker = LifetimeTracker()
        let leaked = tracker.instance()
        withKnownIssue {
            tracker.expectAllReleased()
        } matching: { issue in
            issue.comments.map(\.rawValue) == ["1 of 1 tracked objects are still alive"]
        }
        _ = leaked
    }

    // MARK: Effect recording

    @Test func recordingKeepsSubscriptionsAliveUntilCancelled() {
        let tracker = LifetimeTracker()
        let cancels = CoreFixtures.Counter()
        do {
            let tracked = tracker.instance()
            let effect = Effect<Int>.subscribe { send, _ in
                send(DispatchedAction(1))
                return SubscriptionToken {
                    _ = tracked
                    cancels.increment()
                }
            }
            let recording = effect.record()
            #expect(recording.actionValues == [1])
            #expect(cancels.value == 0)
            recording.cancel()
            recording.cancel()
            #expect(cancels.value == 1)
        }
        tracker.expectAllReleased()
    }

    @Test func emittedActionsSubscribesComponentsInOrderAndCountsCompletions() {
        let effect = Effect<Int>.sequence([1, 2]) <> .just(3) <> .cancel(id: "x")
        let recording = effect.record()
        #expect(recording.actionValues == [1, 2, 3])
        #expect(recording.completions == 3)
        #expect(effect.emittedActionValues() == [1, 2, 3])
    }

    // MARK: Law checkers

    /// Subtraction: has a right identity (0) but is neither associative nor left-neutral.
    struct Minus: Monoid, Equatable {
        var value: Int
        static var identity: Minus { Minus(value: 0) }
        static func combine(_ lhs: Minus, _ rhs: Minus) -> Minus { Minus(value: lhs.value - rhs.value) }
    }

    /// A correct monoid whose one-pass `mconcat` forgets the last element.
    struct BrokenFold: Monoid, Equatable {
        var value: Int
        static var identity: BrokenFold { BrokenFold(value: 0) }
        static func combine(_ lhs: BrokenFold, _ rhs: BrokenFold) -> BrokenFold { BrokenFold(value: lhs.value + rhs.value) }
        static func mconcat(_ values: [BrokenFold]) -> BrokenFold { values.dropLast().reduce(identity, combine) }
    }

    @Test func theLawCheckerReportsEveryBrokenLaw() {
        let violations = MonoidLaws.check([Minus(value: 1), Minus(value: 5)], equal: ==)
        let laws = Set(violations.map(\.law))
        #expect(laws.contains(.associativity))
        #expect(laws.contains(.leftIdentity))
        #expect(!laws.contains(.rightIdentity))
        #expect(violations.contains(LawViolation(law: .associativity, operands: [0, 0, 0])))
    }

    @Test func theLawCheckerReportsAOnePassFoldThatDisagrees() {
        let violations = MonoidLaws.check([BrokenFold(value: 1), BrokenFold(value: 2)], equal: ==)
        #expect(violations.map(\.law).contains(.mconcatMatchesFold))
        #expect(!violations.map(\.law).contains(.associativity))
    }

    @Test func theLawCheckerAcceptsALawfulMonoid() {
        var rng = SplitMix64(seed: 9)
        let samples = (0..<6).map { _ in [Int.random(in: 0..<9, using: &rng)] }
        #expect(MonoidLaws.check(samples, equal: ==).isEmpty)
    }

    @Test func theU1CheckerReportsAFoldThatInventsAMutation() {
        // The law holds for the real type; a wrong expectation shows the checker can fail.
        let outcomes: [ReducerOutcome<Int>] = [.unchanged, .mutation(EndoMut { $0 += 1 })]
        #expect(MonoidLaws.checkUnchangedInvariant(outcomes).isEmpty)
        #expect(
            LawViolation(law: .unchangedIffEveryOperandUnchanged, operands: [0, 1]).description
                == "unchangedIffEveryOperandUnchanged violated by samples [0, 1]")
    }
}
