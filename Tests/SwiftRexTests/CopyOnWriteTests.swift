import SwiftRex
import SwiftRexTestSupport
import Testing

/// Every mutation path mutates in place (Lifting, "In place, never a copy"). A large payload (a
/// 100k-element `[Int]` and a `ProbeBuffer` of the same size that counts its copies) keeps its
/// storage uniquely referenced and at the same address. The tests never hold a second reference to
/// the state themselves; the paths that copy by design are asserted to copy, so the probes are
/// known to be able to fail.
@MainActor
@Suite struct CopyOnWriteTests {
    nonisolated static let size = 100_000

    struct Payload: Equatable, Sendable {
        var values = Array(0..<CopyOnWriteTests.size)
        var buffer = ProbeBuffer(count: CopyOnWriteTests.size)

        mutating func bump() {
            values[0] += 1
            buffer[0] += 1
        }
    }

    struct Big: Equatable, Sendable {
        var payload = Payload()
        var optional: Payload?
        var count = 0
    }

    enum Screen: Equatable, Sendable {
        case idle
        case detail(Payload)
    }

    enum Action: Sendable, Equatable {
        case bump
        case other
    }

    /// Runs `mutate` on `state` and probes both payloads of `state.payload`.
    static func probe(_ state: inout Big, _ mutate: (inout Big) -> Void) -> (array: CoWReport, buffer: CoWReport) {
        var arrayReport: CoWReport?
        let bufferReport = CoWProbe.trace(&state, payload: \.payload.buffer) { state in
            arrayReport = CoWProbe.trace(&state, payload: \.payload.values, during: mutate)
        }
        return (arrayReport!, bufferReport)
    }

    /// A path that promises no in-place mutation: unoptimised it copies the buffer exactly once (so
    /// the probe is seen to fail); the optimiser is allowed to elide that copy, never to add one.
    static func expectCopiesByDesign(_ report: CoWReport, sourceLocation: SourceLocation = #_sourceLocation) {
        #if DEBUG
        #expect(report.copies == 1, "\(report)", sourceLocation: sourceLocation)
        #else
        #expect((report.copies ?? 0) <= 1, "\(report)", sourceLocation: sourceLocation)
        #endif
        #expect(report.uniqueAfter != false, sourceLocation: sourceLocation)
    }

    static func expectInPlace(_ reports: (array: CoWReport, buffer: CoWReport), sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(reports.array.isInPlace, "\(reports.array)", sourceLocation: sourceLocation)
        #expect(reports.buffer.isInPlace, "\(reports.buffer)", sourceLocation: sourceLocation)
        #expect(reports.buffer.copies == 0, sourceLocation: sourceLocation)
    }

    static let reducer = Reducer<Action, Big>.reduce { action, state in
        if action == .bump { state.payload.bump() }
    }

    // MARK: Reducer

    @Test func reducerApplyMutatesInPlace() {
        var state = Big()
        Self.expectInPlace(Self.probe(&state) { Self.reducer.apply(.bump, to: &$0) })
        #expect(state.payload.values[0] == 1)
        #expect(state.payload.buffer[0] == 1)
    }

    @Test func reducerReduceRunEndoMutMutatesInPlace() {
        var state = Big()
        let composed = Self.reducer <> .reduce { _, state in state.count += 1 }
        Self.expectInPlace(Self.probe(&state) { composed.reduce(.bump).runEndoMut(&$0) })
        #expect(state.count == 1)
    }

    @Test func reducerRawEndoMutFormMutatesInPlace() {
        let raw = Reducer<Action, Big>.reduce { _ in EndoMut { $0.payload.bump() } }
        var state = Big()
        Self.expectInPlace(Self.probe(&state) { raw.apply(.bump, to: &$0) })
    }

    @Test func reducerPureReturnFormCopiesByDesign() {
        // `reduce { action, state in newState }` receives the state by value and assigns the result
        // back: building a changed value from a shared one copies the buffer (once, unoptimised).
        let pure = Reducer<Action, Big>.reduce { (_: Action, state: Big) -> Big in
            var next = state
            next.payload.bump()
            return next
        }
        var state = Big()
        let reports = Self.probe(&state) { pure.apply(.bump, to: &$0) }
        Self.expectCopiesByDesign(reports.buffer)
        #expect(state.payload.buffer[0] == 1)
    }

    @Test func reducerEndoFormCopiesByDesign() {
        let endo = Reducer<Action, Big>.reduce { _ in
            Endo { state in
                var next = state
                next.payload.bump()
                return next
            }
        }
        var state = Big()
        Self.expectCopiesByDesign(Self.probe(&state) { endo.apply(.bump, to: &$0) }.buffer)
        #expect(state.payload.values[0] == 1)
    }

    @Test func reducerApplyHasValueSemantics() {
        let report = CoWProbe.checkSharedCopy(make: { Big() }, mutate: { Self.reducer.apply(.bump, to: &$0) })
        #expect(report.passed, "\(report)")
    }

    // MARK: EndoMut and ReducerOutcome

    @Test func endoMutMutatesInPlace() {
        let endo = EndoMut<Big> { $0.payload.bump() } <> EndoMut { $0.count += 1 }
        var state = Big()
        Self.expectInPlace(Self.probe(&state) { endo.runEndoMut(&$0) })
        Self.expectInPlace(Self.probe(&state) { EndoMut.mconcat([endo, .identity, endo])(&$0) })
        Self.expectInPlace(Self.probe(&state) { ReducerOutcome.mutation(endo).runEndoMut(&$0) })
        #expect(state.count == 4)
    }

    @Test func endoMutOnABareArrayMutatesInPlace() {
        var values = Array(0..<Self.size)
        let report = CoWProbe.trace(&values, payload: \.self) { EndoMut<[Int]> { $0[7] = -1 }.runEndoMut(&$0) }
        #expect(report.isInPlace, "\(report)")
    }

    // MARK: Behavior

    @Test func behaviorReduceViaStepMutatesInPlace() {
        let behavior = Behavior<Action, Big, Void>.reduce { action, state in
            if action == .bump { state.payload.bump() }
        }
        var state = Big()
        Self.expectInPlace(Self.probe(&state) { _ = behavior.step(.bump, state: &$0, environment: ()) })
        Self.expectInPlace(Self.probe(&state) { _ = Self.reducer.asBehavior(Void.self).step(.bump, state: &$0, environment: ()) })
        #expect(state.payload.buffer[0] == 2)
    }

    @Test func behaviorReactViaStepMutatesInPlace() {
        let behavior = Behavior<Action, Big, Void>.react { action, context in
            guard action == .bump else { return .doNothing }
            let before = context.stateBefore?.count ?? -1
            return .reduce { $0.payload.bump() }.produce { _ in .just(before == 0 ? .other : .bump) }
        }
        var state = Big()
        Self.expectInPlace(Self.probe(&state) { _ = behavior.step(.bump, state: &$0, environment: ()) })
        #expect(state.payload.values[0] == 1)
    }

    @Test func mixedBehaviorViaStepMutatesInPlace() {
        let behavior = Behavior<Action, Big, Void>
            .reduce { _, state in state.payload.bump() }
            .react { _, _ in Reaction.reduce { $0.count += 1 }.reduce { $0.payload.bump() } }
            .produce { _, _ in
                Producer { context in
                    let count = MainActor.assumeIsolated { context.liveState?.count } ?? -1
                    return .just(count == 1 ? .other : .bump)
                }
            }
        var state = Big()
        var effect: Effect<Action> = .empty
        Self.expectInPlace(Self.probe(&state) { effect = behavior.step(.bump, state: &$0, environment: ()).effect })
        #expect(effect.emittedActionValues() == [.other])
        #expect(state.payload.buffer[0] == 2)
    }

    // MARK: Optics

    @Test func keyPathLensMutatesInPlace() {
        let lens = Lens(\Big.payload)
        var state = Big()
        Self.expectInPlace(Self.probe(&state) { lens.modify(&$0) { $0.bump() } })
        Self.expectInPlace(Self.probe(&state) { lens.lift(EndoMut { $0.bump() }).runEndoMut(&$0) })
        let composed = Lens(\Big.payload) >>> Lens(\Payload.buffer)
        let report = CoWProbe.trace(&state, payload: \.payload.buffer) { composed.modify(&$0) { $0[1] = 0 } }
        #expect(report.isInPlace, "\(report)")
    }

    @Test func getModifyLensMutatesInPlace() {
        let lens = Lens<Big, Payload>(get: { $0.payload }, modify: { whole, body in body(&whole.payload) })
        var state = Big()
        Self.expectInPlace(Self.probe(&state) { lens.modify(&$0) { $0.bump() } })
    }

    @Test func getSetLensCopiesByDesign() {
        // `Lens(get:set:)` copies the part out, mutates the copy (shared with the whole, so it
        // copies once, unoptimised), then writes it back. Use a key path or `get:modify:` instead.
        let lens = Lens<Big, Payload>(get: { $0.payload }, set: { $0.payload = $1 })
        var state = Big()
        let reports = Self.probe(&state) { lens.modify(&$0) { $0.bump() } }
        Self.expectCopiesByDesign(reports.buffer)
        #expect(state.payload.buffer[0] == 1)
    }

    @Test func optionalKeyPathTraversalMutatesInPlace() {
        let affine = AffineTraversal(\Big.optional)
        var state = Big(optional: Payload())
        let bufferReport = CoWProbe.trace(&state, read: { $0.optional?.buffer }, checkUnique: { $0.optional!.buffer.checkUniquelyReferenced() }) {
            state in
            affine.tryModify(&state) { $0.bump() }
        }
        let arrayReport = CoWProbe.trace(&state, read: { $0.optional?.values }, checkUnique: { $0.optional!.values.checkUniquelyReferenced() }) {
            state in
            affine.lift(EndoMut { $0.bump() }).runEndoMut(&state)
        }
        #expect(bufferReport.isInPlace, "\(bufferReport)")
        #expect(arrayReport.isInPlace, "\(arrayReport)")
        #expect(state.optional?.buffer[0] == 2)
    }

    @Test func previewSetTraversalCopiesByDesign() {
        // `AffineTraversal(preview:set:)` copies the part out and rebuilds the whole; the
        // optimiser happens to elide the copy in release builds, but nothing promises it.
        let affine = AffineTraversal<Big, Payload>(preview: { $0.optional }, set: { $0.optional = $1 })
        var state = Big(optional: Payload())
        let report = CoWProbe.trace(&state, read: { $0.optional?.buffer }, checkUnique: { $0.optional!.buffer.checkUniquelyReferenced() }) { state in
            affine.tryModify(&state) { $0.bump() }
        }
        Self.expectCopiesByDesign(report)
        #expect(state.optional?.buffer[0] == 1)
    }

    @Test func prismTryModifyOnEnumStateMutatesInPlace() {
        let detail = Prism<Screen, Payload>(
            preview: { if case .detail(let payload) = $0 { payload } else { nil } },
            review: Screen.detail
        )
        func unique(_ screen: inout Screen, _ check: (inout Payload) -> Bool) -> Bool {
            guard case .detail(var payload) = screen else { return false }
            screen = .idle
            defer { screen = .detail(payload) }
            return check(&payload)
        }
        var screen = Screen.detail(Payload())
        let bufferReport = CoWProbe.trace(
            &screen,
            read: { if case .detail(let payload) = $0 { payload.buffer } else { nil } },
            checkUnique: { unique(&$0) { $0.buffer.checkUniquelyReferenced() } }
        ) { detail.tryModify(&$0) { $0.bump() } }
        let arrayReport = CoWProbe.trace(
            &screen,
            read: { if case .detail(let payload) = $0 { payload.values } else { nil } },
            checkUnique: { unique(&$0) { $0.values.checkUniquelyReferenced() } }
        ) { detail.lift(EndoMut { $0.bump() }).runEndoMut(&$0) }
        #expect(bufferReport.isInPlace, "\(bufferReport)")
        #expect(arrayReport.isInPlace, "\(arrayReport)")
        #expect(detail.preview(screen)?.buffer[0] == 2)
    }

    @Test func prismTryModifyHasValueSemantics() {
        let detail = Prism<Screen, Payload>(
            preview: { if case .detail(let payload) = $0 { payload } else { nil } },
            review: Screen.detail
        )
        let report = CoWProbe.checkSharedCopy(make: { Screen.detail(Payload()) }, mutate: { detail.tryModify(&$0) { $0.bump() } })
        #expect(report.passed, "\(report)")
    }
}
