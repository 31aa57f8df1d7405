import CJemalloc
import Foundation
import Testing

@testable import LabCore

private final class Probe {
    let value: Int
    init(_ value: Int) { self.value = value }
}

/// Allocation counts include every thread, so counting tests take the minimum
/// over a few attempts (another test's allocations can only add).
@Suite("Allocation counter", .serialized)
struct AllocationCounterTests {
    @Test("calibration reads back exactly 1000 allocations")
    func calibration() throws {
        let counter = try AllocationCounter()
        #expect(try counter.calibrate(objects: 1000, attempts: 10) == 1000)
    }

    @Test("a loop of N class allocations counts N", arguments: [1, 10, 500])
    func loopOfAllocations(count: Int) throws {
        let counter = try AllocationCounter()
        var best = UInt64.max
        for _ in 0..<10 {
            var keep: [Probe] = []
            keep.reserveCapacity(count)
            let delta = counter.measure {
                for index in 0..<count { keep.append(Probe(index)) }
            }
            blackHole(keep)
            best = min(best, delta.count)
            if best == UInt64(count) { break }
        }
        #expect(best == UInt64(count))
    }

    @Test("every small, large and huge size class is counted exactly (count and bytes)")
    func sizeClasses() throws {
        let counter = try AllocationCounter()
        let classes = try counter.calibrateSizeClasses()
        #expect(classes.small.count >= 30 && classes.small.last == 14_336)
        #expect(classes.large.first == 16_384 && classes.large.last == 4 << 20)
        #expect(classes.huge.count == 3 && classes.huge.allSatisfy { $0 > classes.oversizeThreshold })
    }

    @Test("a counter blind to large allocations fails the size-class calibration")
    func blindToLarge() throws {
        let counter = try AllocationCounter()
        counter.countsLarge = false
        #expect {
            try counter.calibrateSizeClasses()
        } throws: { error in
            guard case .sizeClassMismatch(let size, let kind, _, let measured)? = error as? AllocationCounterError else { return false }
            return size == 16_384 && kind == .large && measured.count == 0
        }
    }

    @Test("one 64 KiB array per iteration: one allocation and its size class per iteration")
    func largeAllocation() throws {
        let counter = try AllocationCounter()
        var best = AllocationSnapshot(count: .max, bytes: .max)
        for _ in 0..<5 {
            var keep: [[UInt8]] = []
            keep.reserveCapacity(10)
            let delta = counter.measure { for _ in 0..<10 { keep.append([UInt8](repeating: 1, count: 65_536)) } }
            blackHole(keep)
            best = AllocationSnapshot(count: min(best.count, delta.count), bytes: min(best.bytes, delta.bytes))
        }
        // 65,536 bytes plus the array header (32 bytes): jemalloc's 80 KiB class.
        #expect(best == AllocationSnapshot(count: 10, bytes: 10 * 81_920))
    }

    @Test("in an arena of its own, the calling thread's allocations are counted exactly")
    func ownArena() throws {
        let counter = try AllocationCounter()
        var measured: [AllocationSnapshot] = []
        // Twice: the first round also builds what the process builds once (the class's metadata).
        for _ in 0..<2 {
            var keep: [[UInt8]] = []
            keep.reserveCapacity(10)
            var objects: [Probe] = []
            objects.reserveCapacity(1_000)
            measured.append(
                try #require(
                    counter.measureInOwnArena {
                        for _ in 0..<10 { keep.append([UInt8](repeating: 1, count: 65_536)) }
                        for index in 0..<1_000 { objects.append(Probe(index)) }
                    }))
            blackHole(keep)
            blackHole(objects)
        }
        #expect(counter.measureInOwnArena {} == AllocationSnapshot(count: 0, bytes: 0))
        // Ten arrays in the 80 KiB class and a thousand 32-byte objects.
        #expect(measured[1] == AllocationSnapshot(count: 1_010, bytes: 10 * 81_920 + 1_000 * 32), "\(measured)")
    }

    @Test("bytes are counted in jemalloc size classes")
    func bytes() throws {
        let counter = try AllocationCounter()
        var best = UInt64.max
        for _ in 0..<5 {
            var keep: [Probe] = []
            keep.reserveCapacity(100)
            let delta = counter.measure { for index in 0..<100 { keep.append(Probe(index)) } }
            blackHole(keep)
            best = min(best, delta.bytes)
        }
        // A Swift object with one Int field is 24 bytes: the 32-byte size class.
        #expect(best == 100 * 32)
    }

    @Test("the harness reports the same allocations per op in quick and full configurations")
    @MainActor
    func allocationsIndependentOfMode() async throws {
        let counter = try AllocationCounter()
        let sink = Slot<Probe?>(nil)
        let scenario = Scenario(name: "test.one.allocation") {
            return { iterations in
                for index in 0..<iterations { sink.value = Probe(index) }
            }
        }
        let tiny = RunConfiguration(mode: "quick", samples: 2, targetSampleNanoseconds: 200_000, allocationRepeats: 5)
        let longer = RunConfiguration(mode: "full", samples: 3, targetSampleNanoseconds: 1_000_000, allocationRepeats: 5)
        let quick = await Runner(configuration: tiny, counter: counter, log: { _ in }).measure(scenario, size: nil)
        let full = await Runner(configuration: longer, counter: counter, log: { _ in }).measure(scenario, size: nil)
        #expect(quick.allocsPerOp == 1)
        #expect(full.allocsPerOp == 1)
        #expect(quick.bytesPerOp == 32)
        #expect(quick.allocationIterations == RunConfiguration.defaultAllocationIterations)
        #expect(quick.nsPerOp.min <= quick.nsPerOp.median && quick.nsPerOp.median <= quick.nsPerOp.max)
    }

    @Test("what a call leaves behind is settled outside the figures: its allocations are not counted, nor its time")
    @MainActor
    func settleIsOutsideTheFigures() async throws {
        let counter = try AllocationCounter()
        let sink = Slot<[Probe]>([])
        let own = Slot<Probe?>(nil)
        let left = Slot(0)
        let settled = Slot(0)
        let unsettledCalls = Slot(0)
        let scenario = Scenario(
            name: "test.settled",
            body: { _ in
                ScenarioBody(settle: {
                    // Ten allocations and 2 ms per call, none of them the call's.
                    for index in 0..<10 { sink.value.append(Probe(index)) }
                    sink.value.removeAll(keepingCapacity: true)
                    let start = monotonicNanoseconds()
                    while monotonicNanoseconds() &- start < 2_000_000 {}
                    settled.value += left.value
                    left.value = 0
                }) { iterations in
                    if left.value != 0 { unsettledCalls.value += 1 }
                    left.value += iterations
                    for index in 0..<iterations { own.value = Probe(index) }
                }
            })
        let configuration = RunConfiguration(mode: "quick", samples: 3, targetSampleNanoseconds: 200_000, allocationRepeats: 5)
        let record = await Runner(configuration: configuration, counter: counter, log: { _ in }).measure(scenario, size: nil)
        // Every call was settled before the next one, the last one too.
        #expect(unsettledCalls.value == 0)
        #expect(left.value == 0)
        #expect(settled.value > 0)
        // One allocation per op, the call's own (the settle's ten per call are not in it).
        #expect(record.allocsPerOp == 1)
        // The samples do not hold the settle's 2 ms: a 200 µs sample would read at least that.
        #expect(record.nsPerOp.median * Double(record.iterations ?? 0) < 2_000_000)
    }
}

/// The instruction pass counts each scenario in a jemalloc arena of its own.
@Suite("Instruction pass arenas")
struct InstructionPassArenaTests {
    /// The arena jemalloc allocated `pointer` from.
    static func arena(of pointer: UnsafeMutableRawPointer) -> UInt32? {
        var arena: UInt32 = 0
        var size = MemoryLayout<UInt32>.size
        var address: UnsafeMutableRawPointer? = pointer
        return mallctl("arenas.lookup", &arena, &size, &address, MemoryLayout<UnsafeMutableRawPointer?>.size) == 0 ? arena : nil
    }

    @MainActor
    @Test func aScenarioAllocatesFromANewArenaAndTheThreadGoesBackAfterwards() async throws {
        let before = try #require(CallgrindSession.threadArena())
        // Large allocations (256 KiB, above the thread cache's largest class and below the
        // oversize threshold) come straight from the thread's arena. Small ones can come from the
        // thread cache, which holds whatever the thread freed, of any arena: with other suites
        // running in parallel, 2 of 16 small ones inside came from the old arena.
        let size = 256 << 10
        let (inside, insideObjects) = await CallgrindSession.inFreshArena {
            (CallgrindSession.threadArena(), (0..<4).map { _ in malloc(size)! })
        }
        let afterObjects = (0..<4).map { _ in malloc(size)! }
        defer { for object in insideObjects + afterObjects { free(object) } }
        let fresh = try #require(inside)
        #expect(fresh != before)
        #expect(insideObjects.map { Self.arena(of: $0) } == Array(repeating: fresh, count: 4))
        #expect(afterObjects.map { Self.arena(of: $0) } == Array(repeating: before, count: 4))
        #expect(CallgrindSession.threadArena() == before)
        // A second scenario gets yet another arena: nothing carries over between scenarios.
        let next = await CallgrindSession.inFreshArena { CallgrindSession.threadArena() }
        #expect(next != nil && next != fresh && next != before)
    }
}
