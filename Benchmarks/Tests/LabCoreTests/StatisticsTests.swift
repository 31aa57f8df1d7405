import Testing

@testable import LabCore

@Suite("Statistics")
struct StatisticsTests {
    @Test("odd count: the middle value is the median")
    func oddCount() throws {
        let summary = try #require(Statistics.summarize([5, 1, 4, 2, 3]))
        #expect(summary == Summary(min: 1, median: 3, p90: 4.6, max: 5))
    }

    @Test("even count: the median is the mean of the two middle values")
    func evenCount() throws {
        let summary = try #require(Statistics.summarize([4, 1, 3, 2]))
        #expect(summary.min == 1)
        #expect(summary.median == 2.5)
        #expect(abs(summary.p90 - 3.7) < 1e-12)
        #expect(summary.max == 4)
    }

    @Test("p90 of 1…10 interpolates between 9 and 10")
    func p90() throws {
        let summary = try #require(Statistics.summarize((1...10).map(Double.init)))
        #expect(abs(summary.p90 - 9.1) < 1e-12)
        #expect(summary.median == 5.5)
    }

    @Test("a single value is every statistic; empty input has none")
    func edges() {
        #expect(Statistics.summarize([7]) == Summary(min: 7, median: 7, p90: 7, max: 7))
        #expect(Statistics.summarize([]) == nil)
    }

    @Test("number formatting")
    func formatting() {
        #expect(format(0) == "0")
        #expect(format(3) == "3")
        #expect(format(2.345) == "2.35")
        #expect(format(123.46) == "123.5")
        #expect(format(0.0123) == "0.012")
        #expect(fixed(-1.5, digits: 2) == "-1.50")
    }
}
