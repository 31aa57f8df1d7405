import Baselines
import SwiftRex
import SwiftRexTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a 32 KiB local (zeroed, then one word changed) and returns a word of it.
@inline(never)
private func touch32KiB(_ seed: UInt64) -> UInt64 {
    var words = Words4096()
    words.h.h.h.h = seed
    return withUnsafeBytes(of: &words) { $0.load(fromByteOffset: 0, as: UInt64.self) } &+ words.h.h.h.h
}

/// Calls `mark` from a frame below a 16 KiB local.
@inline(never)
private func markBelow16KiB(_ marker: StackMarker, _ seed: UInt64) -> UInt64 {
    var words = Words512()
    var more = Words512()
    var most = Words512()
    var last = Words512()
    words.a.a.a = seed
    more.a.a.a = seed
    most.a.a.a = seed
    last.a.a.a = seed
    markLeaf(marker)
    return words.a.a.a &+ more.a.a.a &+ most.a.a.a &+ last.a.a.a
}

@inline(never)
private func markLeaf(_ marker: StackMarker) {
    marker.mark()
}

@Suite("Stack high-water (SwiftRexTestSupport)", .serialized)
@MainActor
struct StackHighWaterTests {
    @Test("a body writing a 32 KiB local reads at least 32 KiB deeper than an empty body")
    func seesALargeLocal() {
        let empty = StackHighWater.measure { () }.highWater
        let (value, deep) = StackHighWater.measure { touch32KiB(7) }
        #expect(value == 7)
        #expect(!empty.isSaturated && !deep.isSaturated)
        #expect(deep.bytes >= empty.bytes + 32 * 1024, "\(deep) against \(empty)")
        #expect(empty.bytes < 4 * 1024, "an empty body: \(empty)")
        #expect(empty.bytes >= empty.resolution)
    }

    @Test("the same body gives the same figure every time")
    func repeatable() {
        let figures = (0..<5).map { _ in StackHighWater.measure { touch32KiB(3) }.highWater.bytes }
        #expect(Set(figures).count == 1, "\(figures)")
    }

    @Test("a marker reports the depth of the frame that marked")
    func markerLocatesAFrame() throws {
        let marker = StackMarker()
        let highWater = StackHighWater.measure(marker: marker) { markBelow16KiB(marker, 1) }.highWater
        let marked = try #require(highWater.markedBytes)
        #expect(marked >= 16 * 1024, "\(highWater)")
        #expect(highWater.bytes >= marked)
        #expect(highWater.bytesBeyondMark == highWater.bytes - marked)
        // Outside a measurement the marker records nothing.
        marker.mark()
        #expect(StackHighWater.measure(marker: marker) { () }.highWater.markedBytes == nil)
    }

    @Test("a painted region smaller than the body's stack saturates")
    func saturates() {
        let highWater = StackHighWater.measure(paintedBytes: 4 * 1024) { touch32KiB(5) }.highWater
        #expect(highWater.isSaturated)
        #expect(highWater.paintedBytes == 4 * 1024)
        #expect(highWater.description.contains("saturated"))
    }
}

// MARK: - Lifted dispatches with a 64 KiB inline state

private struct Nest<Inner: Sendable>: Sendable {
    var inner: Inner
}

private struct OptionalRoot: Sendable {
    var detail: BigState?
}

private struct BigRow: Identifiable, Sendable {
    var id: Int
    var big = BigState()
}

private struct BigRows: Sendable {
    var inline = BigState()
    var rows: [BigRow] = (0..<4).map { BigRow(id: $0) }
}

private enum RowsAction: Sendable {
    case row(ElementAction<Int, CounterAction>)
}

private let rowPrism = Prism<RowsAction, ElementAction<Int, CounterAction>>(
    preview: { if case .row(let action) = $0 { action } else { nil } }, review: RowsAction.row)

/// The shapes of lifted dispatch measured (the lab's `stack.*` scenarios build the same ones).
enum LiftedShape: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case lift1, lift2, lift3, lift3Producer, lift3Supervision, liftOptional, liftCollection

    var testDescription: String { rawValue }

    /// Builds a Store of this shape over a 64 KiB inline state whose reducer body marks `marker`;
    /// returns a closure dispatching one action.
    @MainActor
    func makeDispatch(_ marker: StackMarker) -> @MainActor () -> Void {
        let body = { @Sendable (action: CounterAction, state: inout BigState) in
            if action == .increment { state.count &+= 1 }
            marker.mark()
        }
        let reducer = Reducer<CounterAction, BigState>.reduce { action, state in body(action, &state) }
        func lift3(_ behavior: Behavior<CounterAction, BigState, Void>) -> Behavior<CounterAction, Nest<Nest<Nest<BigState>>>, Void> {
            behavior.lift(.state(\Nest<BigState>.inner)).lift(.state(\Nest<Nest<BigState>>.inner)).lift(.state(\Nest<Nest<Nest<BigState>>>.inner))
        }
        let nested3 = Nest(inner: Nest(inner: Nest(inner: BigState())))
        switch self {
        case .lift1:
            let store = Store(initial: Nest(inner: BigState()), reducer: reducer.lift(.state(\Nest<BigState>.inner)))
            return { store.dispatch(.increment) }
        case .lift2:
            let store = Store(
                initial: Nest(inner: Nest(inner: BigState())),
                reducer: reducer.lift(.state(\Nest<BigState>.inner)).lift(.state(\Nest<Nest<BigState>>.inner)))
            return { store.dispatch(.increment) }
        case .lift3:
            let lifted = reducer.lift(.state(\Nest<BigState>.inner)).lift(.state(\Nest<Nest<BigState>>.inner)).lift(
                .state(\Nest<Nest<Nest<BigState>>>.inner))
            let store = Store(initial: nested3, reducer: lifted)
            return { store.dispatch(.increment) }
        case .lift3Producer:
            let behavior = Behavior<CounterAction, BigState, Void>.reduce { action, state in body(action, &state) }.produce { _, _ in .doNothing }
            let store = Store(initial: nested3, behavior: lift3(behavior), environment: ())
            return { store.dispatch(.increment) }
        case .lift3Supervision:
            let behavior = Behavior<CounterAction, BigState, Void>.reduce { action, state in body(action, &state) }
                .supervise { state in
                    Supervision { _ in
                        [Channel<CounterAction>(id: 0, broadcasting: .onChange(state.count)) { _ in ChannelHandler(receive: { _ in }, cancel: {}) }]
                    }
                }
            let store = Store(initial: nested3, behavior: lift3(behavior), environment: ())
            return { store.dispatch(.increment) }
        case .liftOptional:
            let behavior = Behavior<CounterAction, BigState, Void>.reduce { action, state in body(action, &state) }.liftOptional(\OptionalRoot.detail)
            let store = Store(initial: OptionalRoot(detail: BigState()), behavior: behavior, environment: ())
            return { store.dispatch(.increment) }
        case .liftCollection:
            let rows = Reducer<CounterAction, BigRow>.reduce { action, row in body(action, &row.big) }
                .liftCollection(.action(rowPrism).state(\BigRows.rows))
            let store = Store(initial: BigRows(), reducer: rows)
            return { store.dispatch(.row(ElementAction(2, action: .increment))) }
        }
    }
}

/// Whether this is an unoptimised build: its frames hold copies the optimiser removes, so stack
/// figures say nothing about what users ship.
let isDebugBuild: Bool = {
    #if DEBUG
    true
    #else
    false
    #endif
}()

/// Runs `body` on a new thread with a `stackBytes` stack and waits for it; `false` when the thread
/// could not be made. Overflowing that stack crashes the process.
func runOnThread(stackBytes: Int, _ body: @escaping () -> Void) -> Bool {
    final class Box {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    guard pthread_attr_setstacksize(&attributes, stackBytes) == 0 else { return false }
    let box = Unmanaged.passRetained(Box(body)).toOpaque()
    #if canImport(Glibc)
    var thread = pthread_t()
    #else
    var thread: pthread_t?
    #endif
    let created = pthread_create(
        &thread, &attributes,
        { raw in
            Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue().body()
            return nil
        }, box)
    guard created == 0 else {
        Unmanaged<Box>.fromOpaque(box).release()
        return false
    }
    #if canImport(Glibc)
    pthread_join(thread, nil)
    #else
    pthread_join(thread!, nil)
    #endif
    return true
}

/// Release builds only: `Scripts/test` runs this suite with `-c release` (users ship release
/// builds; an unoptimised build copies the state in every frame and measures nothing actionable).
@Suite(
    "Stack high-water of lifted dispatches (64 KiB inline state)", .serialized,
    .disabled(if: isDebugBuild, "stack figures hold for optimised builds: Scripts/test runs this suite with -c release"))
@MainActor
struct LiftedDispatchStackTests {
    /// The budget beyond the reducer body's own frame.
    static let budget = 16 * 1024

    /// Both halves of the budget: no frame on the way to the reducer body holds a copy of the
    /// state (the body's frame is within 16 KiB of the dispatching call), and nothing the dispatch
    /// does around the body (getters, pre-mutation tests, supervision) writes more than 16 KiB
    /// deeper than the body's frame.
    static func expectWithinBudget(_ shape: LiftedShape, _ highWater: StackHighWater) throws {
        let marked = try #require(highWater.markedBytes, "the reducer body did not run")
        #expect(marked <= budget, "\(shape.rawValue): the reducer body's frame is \(marked) bytes below the dispatch (\(highWater))")
        #expect(
            highWater.bytes - marked <= budget,
            "\(shape.rawValue): \(highWater.bytes - marked) bytes written beyond the reducer body's frame (\(highWater))")
    }

    @Test("a lifted dispatch keeps the reducer body within 16 KiB of the call and writes at most 16 KiB beyond it", arguments: LiftedShape.allCases)
    func liftedDispatchStaysWithinBudget(shape: LiftedShape) throws {
        let marker = StackMarker()
        let dispatch = shape.makeDispatch(marker)
        dispatch() // first dispatch: one-time setup out of the way
        let highWater = StackHighWater.measure(marker: marker) { dispatch() }.highWater
        #expect(!highWater.isSaturated, "\(highWater)")
        try Self.expectWithinBudget(shape, highWater)
    }

    @Test("a three-level lifted dispatch completes on a 256 KiB thread stack")
    func threeLevelsOnASmallStack() {
        let dispatch = LiftedShape.lift3.makeDispatch(StackMarker())
        #expect(dispatchesTwice(dispatch, onAThreadWithAStackOf: 256 * 1024) == 2, "no thread with a 256 KiB stack, or not both dispatches ran")
    }
}

/// Runs `dispatch` twice on a new thread with a `stackBytes` stack; returns how many dispatches
/// completed (none when the thread could not be made; overflowing the stack crashes the process).
/// The main actor waits in `pthread_join` while the thread dispatches: the store is never touched
/// by two threads at once, and the join orders the thread's writes before ours.
@MainActor
func dispatchesTwice(_ dispatch: @escaping @MainActor () -> Void, onAThreadWithAStackOf stackBytes: Int) -> Int {
    let onAnyThread = unsafeBitCast(dispatch, to: (() -> Void).self)
    nonisolated(unsafe) var completed = 0
    _ = runOnThread(stackBytes: stackBytes) {
        onAnyThread()
        onAnyThread()
        completed += 2
    }
    return completed
}
