import Foundation
import LabCore
@_spi(Testing) import SwiftRex
import Testing

/// The TestStore's failure diff at scale, counted exactly with jemalloc's statistics: a state of
/// 100,000 rows with one field changed costs what one of 1,000 rows does (the library's tests hold
/// the work linear and the message short).
@Suite("State difference memory", .serialized)
struct StateDifferenceAllocationTests {
    struct Row: Equatable, Identifiable {
        var id: Int
        var title: String
        var done = false
    }

    struct State: Equatable {
        var rows: [Row]
        var filter = ""
    }

    /// Allocations and bytes of one difference between `rows`-row states that differ in one field,
    /// counted exactly: the calling thread allocates from an arena of its own while it runs. One
    /// difference first, uncounted: the process's first one also fills the runtime's caches
    /// (type metadata, reflection).
    func cost(rows: Int) throws -> AllocationSnapshot {
        let counter = try AllocationCounter()
        let expected = State(rows: (0..<rows).map { Row(id: $0, title: "row \($0)") })
        var actual = expected
        actual.rows[rows / 2].title = "changed"
        var text = stateDifference(expected: expected, actual: actual)
        let cost = try #require(counter.measureInOwnArena { text = stateDifference(expected: expected, actual: actual) })
        blackHole(text)
        return cost
    }

    @Test("one changed row of 100,000 costs 7 KB and 108 allocations, one more than one of 1,000, counted exactly")
    func boundedMemory() throws {
        let small = try cost(rows: 1_000)
        let large = try cost(rows: 100_000)
        // Exact figures of the diff as Scripts/test builds it (debug): a change to the diff's code
        // changes them, and this says by how much. Nothing is allocated per row: the path of the
        // row at 100,000 (`[50000]`) takes one 64-byte string more than the one at 1,000.
        #expect(small == AllocationSnapshot(count: 107, bytes: 7_312), "1,000 rows: \(small)")
        #expect(large == AllocationSnapshot(count: 108, bytes: 7_376), "100,000 rows: \(large)")
    }
}
