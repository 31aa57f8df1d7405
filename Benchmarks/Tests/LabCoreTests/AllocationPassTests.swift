import Testing

@testable import LabCore

@Suite("Allocation pass")
struct AllocationPassTests {
    @Test("its figures replace the timing process's, by name and size; records it did not count keep theirs")
    func merge() {
        let records = Fixture.results().benchmarks
        let counted = [
            AllocationMeasurement(
                name: "behavior.react.produce", size: nil, allocsPerOp: 5, bytesPerOp: 320, allocationIterations: 1000),
            AllocationMeasurement(name: "endomut.zerocopy", size: 1_000, allocsPerOp: 1, bytesPerOp: 48, allocationIterations: 500),
            AllocationMeasurement(name: "not.run", size: nil, allocsPerOp: 9, bytesPerOp: 9, allocationIterations: 1),
        ]
        let merged = AllocationPass.merge(counted, into: records)
        #expect(merged.map(\.key) == records.map(\.key))
        let produce = merged.first { $0.name == "behavior.react.produce" }!
        #expect(produce.allocsPerOp == 5 && produce.bytesPerOp == 320 && produce.allocationIterations == 1000)
        let sized = merged.first { $0.name == "endomut.zerocopy" && $0.size == 1_000 }!
        #expect(sized.allocsPerOp == 1 && sized.bytesPerOp == 48 && sized.allocationIterations == 500)
        let other = merged.first { $0.name == "endomut.zerocopy" && $0.size == 100 }!
        #expect(other == records.first { $0.name == "endomut.zerocopy" && $0.size == 100 }!)
        #expect(merged.first { $0.name == "reducer.single" } == records.first { $0.name == "reducer.single" })
    }
}
