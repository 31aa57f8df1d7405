import Foundation
import LabCore
@_spi(Testing) import SwiftRexTesting
import Testing

/// The TestStore's failure diff at scale, measured with jemalloc's exact counters: a state of
/// 100,000 rows with one field changed costs a bounded amount of memory, whatever the state's
/// size (the library's tests hold the work linear and the message short).
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

    /// Bytes (the calling thread's) and allocations (every thread's) of one difference between
    /// `rows`-row states that differ in one field; the minimum of twenty attempts 20 ms apart
    /// (another test can only add). Spread out, so one attempt finds the other tests quiet: five
    /// back to back all fell inside one test's decoding of two results files (JSON), which added
    /// some 1,060 allocations to each.
    func cost(rows: Int) throws -> AllocationSnapshot {
        let counter = try AllocationCounter()
        let expected = State(rows: (0..<rows).map { Row(id: $0, title: "row \($0)") })
        var actual = expected
        actual.rows[rows / 2].title = "changed"
        var best = AllocationSnapshot(count: .max, bytes: .max)
        for attempt in 0..<20 {
            if attempt > 0 { usleep(20_000) }
            var text = ""
            let delta = counter.measureOnCallingThread { text = stateDifference(expected: expected, actual: actual) }
            blackHole(text)
            best = AllocationSnapshot(count: min(best.count, delta.count), bytes: min(best.bytes, delta.bytes))
        }
        return best
    }

    @Test("one changed row of 100,000 costs a few kilobytes, as much as one of 1,000")
    func boundedMemory() throws {
        let small = try cost(rows: 1_000)
        let large = try cost(rows: 100_000)
        // Measured: 114 allocations, 7,840 bytes (debug build, Swift 6.3.1).
        #expect(large.bytes < 64 << 10, "\(large.bytes) bytes for 100,000 rows")
        #expect(large.count < 400, "\(large.count) allocations for 100,000 rows")
        // Nothing is allocated per row: the cost does not grow with the state. Compared in bytes,
        // which jemalloc counts for the calling thread alone: the allocation count covers every
        // thread, and tests running in parallel added 20-45 allocations to it in some runs.
        #expect(large.bytes <= small.bytes + 1_024, "1,000 rows: \(small.bytes) bytes; 100,000 rows: \(large.bytes)")
    }
}
