import Testing

@testable import SwiftRex

/// A dispatch addressed through one collection lift is reconciled in part only when that lift's
/// token names exactly one supervised segment.
@Suite struct SegmentsByTokenTests {
    @Test func aTokenLiftedOnceNamesItsSegmentWhateverTheOrderTokensWereMadeIn() {
        let tokens = [LiftToken(raw: 40), nil, LiftToken(raw: 7), LiftToken(raw: 19)]
        let index = SegmentsByToken(tokens)
        #expect(index[LiftToken(raw: 40)] == 0)
        #expect(index[LiftToken(raw: 7)] == 2)
        #expect(index[LiftToken(raw: 19)] == 3)
    }

    @Test func aTokenNoSegmentCarriesNamesNone() {
        let index = SegmentsByToken([LiftToken(raw: 10), LiftToken(raw: 30)])
        #expect(index[LiftToken(raw: 5)] == nil)
        #expect(index[LiftToken(raw: 20)] == nil)
        #expect(index[LiftToken(raw: 31)] == nil)
        #expect(SegmentsByToken([])[LiftToken(raw: 1)] == nil)
    }

    @Test func aTokenLiftedTwiceIsAmbiguousAndNamesNone() {
        let index = SegmentsByToken([LiftToken(raw: 3), LiftToken(raw: 8), LiftToken(raw: 3)])
        #expect(index[LiftToken(raw: 3)] == nil)
        #expect(index[LiftToken(raw: 8)] == 1)
    }
}
