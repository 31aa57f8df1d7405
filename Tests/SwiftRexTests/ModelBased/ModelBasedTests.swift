import Foundation
import SwiftRex
import SwiftRexTestSupport
import Testing

/// Model-based randomized testing: seeded random sequences of dispatches, effect completions,
/// clock advances, row inserts and removals, cancellations and mailbox drains run against the real
/// `Store` and against ``ModelBased/ReferenceModel``; after every step the states, the processed
/// actions (in order), the channel events (in order), the cancelled effects and the live channel
/// ids must agree.
///
/// `SWIFTREX_MODEL_STEPS` overrides the step count (default 4 000) and `SWIFTREX_MODEL_SEED` the
/// seed. A failure prints the seed and the shortest failing sequence found.
@MainActor
@Suite struct ModelBasedTests {
    /// Steps per sequence: each sequence starts from a fresh Store, so a failure shrinks quickly.
    static let sequenceLength = 250

    static var configuredSteps: Int {
        ProcessInfo.processInfo.environment["SWIFTREX_MODEL_STEPS"].flatMap { Int($0) } ?? 4_000
    }

    static var configuredSeed: UInt64 {
        guard let text = ProcessInfo.processInfo.environment["SWIFTREX_MODEL_SEED"] else { return 0x5EED_0001 }
        if text.hasPrefix("0x") { return UInt64(text.dropFirst(2), radix: 16) ?? 0x5EED_0001 }
        return UInt64(text) ?? 0x5EED_0001
    }

    @Test func theStoreAgreesWithTheReferenceModelOnSeededRandomSequences() async {
        let total = Self.configuredSteps
        let seed = Self.configuredSeed
        let clock = ContinuousClock()
        let start = clock.now
        var master = SplitMix64(seed: seed)
        var ran = 0
        var sequences = 0
        while ran < total {
            let sequenceSeed = master.next()
            let steps = ModelBased.generate(seed: sequenceSeed, count: min(Self.sequenceLength, total - ran))
            if let failure = await ModelBased.run(steps) {
                let (shrunk, shrunkFailure) = await ModelBased.shrink(steps, failure: failure)
                let report = """
                    Model-based test failed (SWIFTREX_MODEL_SEED=\(seed), sequence \(sequences), sequence seed \(sequenceSeed)).
                    First failure: \(failure)
                    Shortest failing sequence (\(shrunk.count) steps), from the initial state \(ModelBased.initialState):
                    \(shrunk.enumerated().map { "  \($0.offset): \($0.element)" }.joined(separator: "\n"))
                    Its failure: \(shrunkFailure)
                    """
                print(report)
                Issue.record("\(report)")
                return
            }
            ran += steps.count
            sequences += 1
            // Let the mailbox drains the released Stores scheduled run (they find nothing to do).
            await Task.yield()
        }
        let elapsed = clock.now - start
        print("ModelBased: \(ran) steps in \(sequences) sequences agreed with the model (seed \(seed)) in \(elapsed)")
    }

    @Test func aPlantedModelBugIsCaughtAndShrunkToAFewSteps() async {
        // A model that forgets that a channel cancelled by id stays closed must disagree with the Store on some sequence, and the shrinker
        // must cut that sequence down to the handful of steps that show it.
        var master = SplitMix64(seed: 7)
        for _ in 0..<40 {
            let steps = ModelBased.generate(seed: master.next(), count: Self.sequenceLength)
            guard let failure = await ModelBased.run(steps, plantedBug: .forgetCancelSuppression) else { continue }
            let (shrunk, shrunkFailure) = await ModelBased.shrink(steps, failure: failure, plantedBug: .forgetCancelSuppression)
            #expect(shrunk.count <= 6, "shrunk to \(shrunk.count) steps: \(shrunk) — \(shrunkFailure)")
            let stillFails = await ModelBased.run(shrunk, plantedBug: .forgetCancelSuppression)
            let faithful = await ModelBased.run(shrunk)
            #expect(stillFails != nil)
            #expect(faithful == nil, "the shrunk sequence passes against the faithful model: \(String(describing: faithful))")
            return
        }
        Issue.record("no sequence exposed the planted bug")
    }
}
