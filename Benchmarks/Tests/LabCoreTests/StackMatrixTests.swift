import LabCore
import StackMatrix
import SwiftRexTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension StackShape: CustomTestStringConvertible {
    public var testDescription: String { description }
}

/// Release builds only, like the suite above: `Scripts/test` runs it with `-c release`.
@Suite(
    "Stack high-water of every shape of the matrix (256 KiB inline root state)", .serialized,
    .disabled(if: isDebugBuild, "stack figures hold for optimised builds: Scripts/test runs this suite with -c release"))
@MainActor
struct StackMatrixTests {
    /// The budget of one dispatch, from the dispatching call to the deepest byte written.
    static let budget = 16 * 1024

    /// With `STACK_MATRIX_REPORT` set, every shape of the matrix whose name contains its value
    /// (every shape when it is empty or `1`) is measured and its figures printed (the shapes over
    /// budget then fail); otherwise the shapes held to the budget today.
    nonisolated static let report = getenv("STACK_MATRIX_REPORT").map { String(cString: $0) }
    nonisolated static let reports = report != nil
    nonisolated static let shapes =
        report.map { name in StackShape.all.filter { name.isEmpty || name == "1" || $0.description.contains(name) } } ?? StackShape.withinBudget

    @Test("a dispatch writes at most 16 KiB of stack, on the first dispatch and later ones", arguments: shapes)
    func dispatchStaysWithinBudget(shape: StackShape) {
        let marker = StackMarker()
        let dispatch = shape.makeDispatch(.large, marker: marker)
        let first = StackHighWater.measure(marker: marker) { dispatch() }.highWater
        let later = StackHighWater.measure(marker: marker) { dispatch() }.highWater
        if Self.reports { print("stack-matrix \(shape) first \(first.bytes) later \(later.bytes) mark \(later.markedBytes ?? -1)") }
        #expect(first.markedBytes != nil && later.markedBytes != nil, "\(shape): the leaf reducer did not run")
        #expect(!first.isSaturated && first.bytes <= Self.budget, "\(shape): first dispatch \(first)")
        #expect(!later.isSaturated && later.bytes <= Self.budget, "\(shape): later dispatch \(later)")
    }

    /// The bound of every shape: a dispatch that copied the 256 KiB state would write more.
    static let noCopyBound = 64 * 1024

    @Test("no dispatch copies the state, in any shape, on the first dispatch and later ones", arguments: StackShape.all)
    func dispatchCopiesNoState(shape: StackShape) {
        let marker = StackMarker()
        let dispatch = shape.makeDispatch(.large, marker: marker)
        let first = StackHighWater.measure(marker: marker) { dispatch() }.highWater
        let later = StackHighWater.measure(marker: marker) { dispatch() }.highWater
        #expect(!first.isSaturated && first.bytes <= Self.noCopyBound, "\(shape): first dispatch \(first)")
        #expect(!later.isSaturated && later.bytes <= Self.noCopyBound, "\(shape): later dispatch \(later)")
    }

    @Test(
        "no dispatch copies the state onto the heap, in any shape: a later dispatch allocates the same bytes whatever the state's size",
        arguments: StackShape.all)
    func dispatchAllocatesNoStateCopy(shape: StackShape) throws {
        let counter = try AllocationCounter()
        func laterDispatchBytes(_ payload: MatrixPayloadSize) throws -> UInt64 {
            let dispatch = shape.makeDispatch(payload, marker: StackMarker())
            dispatch()
            return try #require(counter.measureInOwnArena { dispatch() }, "jemalloc refused an arena").bytes
        }
        let large = try laterDispatchBytes(.large)
        let small = try laterDispatchBytes(.small)
        #expect(large == small, "\(shape): a later dispatch allocated \(large) bytes with the 256 KiB state, \(small) with the 16-byte one")
    }

    @Test("every shape completes its first and later dispatches on a 512 KiB thread stack", arguments: StackShape.all)
    func dispatchCompletesOnASmallStack(shape: StackShape) {
        let dispatch = shape.makeDispatch(.large, marker: StackMarker())
        #expect(
            dispatchesTwice(dispatch, onAThreadWithAStackOf: 512 * 1024) == 2, "\(shape): no thread with a 512 KiB stack, or not both dispatches ran")
    }
}
