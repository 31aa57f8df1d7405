import Baselines
import LabCore
import SwiftRex

/// Lifted features against hand-written code: a counter lifted three levels deep
/// (`lift.nested3`) against the same dispatch as one nested `switch` in the naive store
/// (`naive.nested3`), and an app of 50 features lifted side by side whose action addresses one of
/// them (`store.dispatch.wide50`, against `store.dispatch.reducer`). Each has one observer, as
/// `naive.dispatch` and `store.dispatch.reducer` do.
@MainActor
enum NestedLiftScenarios {
    static let counterPrism = Prism<NestedInnerAction, CounterAction>(
        preview: { if case .counter(let action) = $0 { action } else { nil } }, review: NestedInnerAction.counter)
    static let innerPrism = Prism<NestedMiddleAction, NestedInnerAction>(
        preview: { if case .inner(let action) = $0 { action } else { nil } }, review: NestedMiddleAction.inner)
    static let middlePrism = Prism<NestedOuterAction, NestedMiddleAction>(
        preview: { if case .middle(let action) = $0 { action } else { nil } }, review: NestedOuterAction.middle)

    /// The counter reducer lifted three levels: `.lift(.action(prism).state(\.keyPath))` three times.
    static let nested3 =
        counterReducer
        .lift(.action(counterPrism).state(\NestedInner.counter))
        .lift(.action(innerPrism).state(\NestedMiddle.inner))
        .lift(.action(middlePrism).state(\NestedOuter.middle))

    /// One feature's state in the wide app.
    struct Tally: Sendable, Equatable {
        var count = 0
    }

    /// The wide app's action: one case per feature, each numbered (what a macro can generate).
    enum WideAction: Sendable, Equatable, CaseIndexable {
        case f0(CounterAction)
        case f1(CounterAction)
        case f2(CounterAction)
        case f3(CounterAction)
        case f4(CounterAction)
        case f5(CounterAction)
        case f6(CounterAction)
        case f7(CounterAction)
        case f8(CounterAction)
        case f9(CounterAction)
        case f10(CounterAction)
        case f11(CounterAction)
        case f12(CounterAction)
        case f13(CounterAction)
        case f14(CounterAction)
        case f15(CounterAction)
        case f16(CounterAction)
        case f17(CounterAction)
        case f18(CounterAction)
        case f19(CounterAction)
        case f20(CounterAction)
        case f21(CounterAction)
        case f22(CounterAction)
        case f23(CounterAction)
        case f24(CounterAction)
        case f25(CounterAction)
        case f26(CounterAction)
        case f27(CounterAction)
        case f28(CounterAction)
        case f29(CounterAction)
        case f30(CounterAction)
        case f31(CounterAction)
        case f32(CounterAction)
        case f33(CounterAction)
        case f34(CounterAction)
        case f35(CounterAction)
        case f36(CounterAction)
        case f37(CounterAction)
        case f38(CounterAction)
        case f39(CounterAction)
        case f40(CounterAction)
        case f41(CounterAction)
        case f42(CounterAction)
        case f43(CounterAction)
        case f44(CounterAction)
        case f45(CounterAction)
        case f46(CounterAction)
        case f47(CounterAction)
        case f48(CounterAction)
        case f49(CounterAction)

        var caseIndex: Int {
            switch self {
            case .f0: 0
            case .f1: 1
            case .f2: 2
            case .f3: 3
            case .f4: 4
            case .f5: 5
            case .f6: 6
            case .f7: 7
            case .f8: 8
            case .f9: 9
            case .f10: 10
            case .f11: 11
            case .f12: 12
            case .f13: 13
            case .f14: 14
            case .f15: 15
            case .f16: 16
            case .f17: 17
            case .f18: 18
            case .f19: 19
            case .f20: 20
            case .f21: 21
            case .f22: 22
            case .f23: 23
            case .f24: 24
            case .f25: 25
            case .f26: 26
            case .f27: 27
            case .f28: 28
            case .f29: 29
            case .f30: 30
            case .f31: 31
            case .f32: 32
            case .f33: 33
            case .f34: 34
            case .f35: 35
            case .f36: 36
            case .f37: 37
            case .f38: 38
            case .f39: 39
            case .f40: 40
            case .f41: 41
            case .f42: 42
            case .f43: 43
            case .f44: 44
            case .f45: 45
            case .f46: 46
            case .f47: 47
            case .f48: 48
            case .f49: 49
            }
        }
    }

    /// The wide app's state: one slice per feature.
    struct WideState: Sendable, Equatable {
        var f0 = Tally()
        var f1 = Tally()
        var f2 = Tally()
        var f3 = Tally()
        var f4 = Tally()
        var f5 = Tally()
        var f6 = Tally()
        var f7 = Tally()
        var f8 = Tally()
        var f9 = Tally()
        var f10 = Tally()
        var f11 = Tally()
        var f12 = Tally()
        var f13 = Tally()
        var f14 = Tally()
        var f15 = Tally()
        var f16 = Tally()
        var f17 = Tally()
        var f18 = Tally()
        var f19 = Tally()
        var f20 = Tally()
        var f21 = Tally()
        var f22 = Tally()
        var f23 = Tally()
        var f24 = Tally()
        var f25 = Tally()
        var f26 = Tally()
        var f27 = Tally()
        var f28 = Tally()
        var f29 = Tally()
        var f30 = Tally()
        var f31 = Tally()
        var f32 = Tally()
        var f33 = Tally()
        var f34 = Tally()
        var f35 = Tally()
        var f36 = Tally()
        var f37 = Tally()
        var f38 = Tally()
        var f39 = Tally()
        var f40 = Tally()
        var f41 = Tally()
        var f42 = Tally()
        var f43 = Tally()
        var f44 = Tally()
        var f45 = Tally()
        var f46 = Tally()
        var f47 = Tally()
        var f48 = Tally()
        var f49 = Tally()
    }

    /// One prism per feature, as an app writes them.
    static let widePrisms: [Prism<WideAction, CounterAction>] = [
        Prism<WideAction, CounterAction>(preview: { if case .f0(let action) = $0 { action } else { nil } }, review: WideAction.f0),
        Prism<WideAction, CounterAction>(preview: { if case .f1(let action) = $0 { action } else { nil } }, review: WideAction.f1),
        Prism<WideAction, CounterAction>(preview: { if case .f2(let action) = $0 { action } else { nil } }, review: WideAction.f2),
        Prism<WideAction, CounterAction>(preview: { if case .f3(let action) = $0 { action } else { nil } }, review: WideAction.f3),
        Prism<WideAction, CounterAction>(preview: { if case .f4(let action) = $0 { action } else { nil } }, review: WideAction.f4),
        Prism<WideAction, CounterAction>(preview: { if case .f5(let action) = $0 { action } else { nil } }, review: WideAction.f5),
        Prism<WideAction, CounterAction>(preview: { if case .f6(let action) = $0 { action } else { nil } }, review: WideAction.f6),
        Prism<WideAction, CounterAction>(preview: { if case .f7(let action) = $0 { action } else { nil } }, review: WideAction.f7),
        Prism<WideAction, CounterAction>(preview: { if case .f8(let action) = $0 { action } else { nil } }, review: WideAction.f8),
        Prism<WideAction, CounterAction>(preview: { if case .f9(let action) = $0 { action } else { nil } }, review: WideAction.f9),
        Prism<WideAction, CounterAction>(preview: { if case .f10(let action) = $0 { action } else { nil } }, review: WideAction.f10),
        Prism<WideAction, CounterAction>(preview: { if case .f11(let action) = $0 { action } else { nil } }, review: WideAction.f11),
        Prism<WideAction, CounterAction>(preview: { if case .f12(let action) = $0 { action } else { nil } }, review: WideAction.f12),
        Prism<WideAction, CounterAction>(preview: { if case .f13(let action) = $0 { action } else { nil } }, review: WideAction.f13),
        Prism<WideAction, CounterAction>(preview: { if case .f14(let action) = $0 { action } else { nil } }, review: WideAction.f14),
        Prism<WideAction, CounterAction>(preview: { if case .f15(let action) = $0 { action } else { nil } }, review: WideAction.f15),
        Prism<WideAction, CounterAction>(preview: { if case .f16(let action) = $0 { action } else { nil } }, review: WideAction.f16),
        Prism<WideAction, CounterAction>(preview: { if case .f17(let action) = $0 { action } else { nil } }, review: WideAction.f17),
        Prism<WideAction, CounterAction>(preview: { if case .f18(let action) = $0 { action } else { nil } }, review: WideAction.f18),
        Prism<WideAction, CounterAction>(preview: { if case .f19(let action) = $0 { action } else { nil } }, review: WideAction.f19),
        Prism<WideAction, CounterAction>(preview: { if case .f20(let action) = $0 { action } else { nil } }, review: WideAction.f20),
        Prism<WideAction, CounterAction>(preview: { if case .f21(let action) = $0 { action } else { nil } }, review: WideAction.f21),
        Prism<WideAction, CounterAction>(preview: { if case .f22(let action) = $0 { action } else { nil } }, review: WideAction.f22),
        Prism<WideAction, CounterAction>(preview: { if case .f23(let action) = $0 { action } else { nil } }, review: WideAction.f23),
        Prism<WideAction, CounterAction>(preview: { if case .f24(let action) = $0 { action } else { nil } }, review: WideAction.f24),
        Prism<WideAction, CounterAction>(preview: { if case .f25(let action) = $0 { action } else { nil } }, review: WideAction.f25),
        Prism<WideAction, CounterAction>(preview: { if case .f26(let action) = $0 { action } else { nil } }, review: WideAction.f26),
        Prism<WideAction, CounterAction>(preview: { if case .f27(let action) = $0 { action } else { nil } }, review: WideAction.f27),
        Prism<WideAction, CounterAction>(preview: { if case .f28(let action) = $0 { action } else { nil } }, review: WideAction.f28),
        Prism<WideAction, CounterAction>(preview: { if case .f29(let action) = $0 { action } else { nil } }, review: WideAction.f29),
        Prism<WideAction, CounterAction>(preview: { if case .f30(let action) = $0 { action } else { nil } }, review: WideAction.f30),
        Prism<WideAction, CounterAction>(preview: { if case .f31(let action) = $0 { action } else { nil } }, review: WideAction.f31),
        Prism<WideAction, CounterAction>(preview: { if case .f32(let action) = $0 { action } else { nil } }, review: WideAction.f32),
        Prism<WideAction, CounterAction>(preview: { if case .f33(let action) = $0 { action } else { nil } }, review: WideAction.f33),
        Prism<WideAction, CounterAction>(preview: { if case .f34(let action) = $0 { action } else { nil } }, review: WideAction.f34),
        Prism<WideAction, CounterAction>(preview: { if case .f35(let action) = $0 { action } else { nil } }, review: WideAction.f35),
        Prism<WideAction, CounterAction>(preview: { if case .f36(let action) = $0 { action } else { nil } }, review: WideAction.f36),
        Prism<WideAction, CounterAction>(preview: { if case .f37(let action) = $0 { action } else { nil } }, review: WideAction.f37),
        Prism<WideAction, CounterAction>(preview: { if case .f38(let action) = $0 { action } else { nil } }, review: WideAction.f38),
        Prism<WideAction, CounterAction>(preview: { if case .f39(let action) = $0 { action } else { nil } }, review: WideAction.f39),
        Prism<WideAction, CounterAction>(preview: { if case .f40(let action) = $0 { action } else { nil } }, review: WideAction.f40),
        Prism<WideAction, CounterAction>(preview: { if case .f41(let action) = $0 { action } else { nil } }, review: WideAction.f41),
        Prism<WideAction, CounterAction>(preview: { if case .f42(let action) = $0 { action } else { nil } }, review: WideAction.f42),
        Prism<WideAction, CounterAction>(preview: { if case .f43(let action) = $0 { action } else { nil } }, review: WideAction.f43),
        Prism<WideAction, CounterAction>(preview: { if case .f44(let action) = $0 { action } else { nil } }, review: WideAction.f44),
        Prism<WideAction, CounterAction>(preview: { if case .f45(let action) = $0 { action } else { nil } }, review: WideAction.f45),
        Prism<WideAction, CounterAction>(preview: { if case .f46(let action) = $0 { action } else { nil } }, review: WideAction.f46),
        Prism<WideAction, CounterAction>(preview: { if case .f47(let action) = $0 { action } else { nil } }, review: WideAction.f47),
        Prism<WideAction, CounterAction>(preview: { if case .f48(let action) = $0 { action } else { nil } }, review: WideAction.f48),
        Prism<WideAction, CounterAction>(preview: { if case .f49(let action) = $0 { action } else { nil } }, review: WideAction.f49),
    ]

    /// The same prisms, each naming its case: a Store asks only the feature of the action's case.
    static let caseIndexedPrisms: [Prism<WideAction, CounterAction>] = [
        Prism<WideAction, CounterAction>(case: 0, preview: { if case .f0(let action) = $0 { action } else { nil } }, review: WideAction.f0),
        Prism<WideAction, CounterAction>(case: 1, preview: { if case .f1(let action) = $0 { action } else { nil } }, review: WideAction.f1),
        Prism<WideAction, CounterAction>(case: 2, preview: { if case .f2(let action) = $0 { action } else { nil } }, review: WideAction.f2),
        Prism<WideAction, CounterAction>(case: 3, preview: { if case .f3(let action) = $0 { action } else { nil } }, review: WideAction.f3),
        Prism<WideAction, CounterAction>(case: 4, preview: { if case .f4(let action) = $0 { action } else { nil } }, review: WideAction.f4),
        Prism<WideAction, CounterAction>(case: 5, preview: { if case .f5(let action) = $0 { action } else { nil } }, review: WideAction.f5),
        Prism<WideAction, CounterAction>(case: 6, preview: { if case .f6(let action) = $0 { action } else { nil } }, review: WideAction.f6),
        Prism<WideAction, CounterAction>(case: 7, preview: { if case .f7(let action) = $0 { action } else { nil } }, review: WideAction.f7),
        Prism<WideAction, CounterAction>(case: 8, preview: { if case .f8(let action) = $0 { action } else { nil } }, review: WideAction.f8),
        Prism<WideAction, CounterAction>(case: 9, preview: { if case .f9(let action) = $0 { action } else { nil } }, review: WideAction.f9),
        Prism<WideAction, CounterAction>(case: 10, preview: { if case .f10(let action) = $0 { action } else { nil } }, review: WideAction.f10),
        Prism<WideAction, CounterAction>(case: 11, preview: { if case .f11(let action) = $0 { action } else { nil } }, review: WideAction.f11),
        Prism<WideAction, CounterAction>(case: 12, preview: { if case .f12(let action) = $0 { action } else { nil } }, review: WideAction.f12),
        Prism<WideAction, CounterAction>(case: 13, preview: { if case .f13(let action) = $0 { action } else { nil } }, review: WideAction.f13),
        Prism<WideAction, CounterAction>(case: 14, preview: { if case .f14(let action) = $0 { action } else { nil } }, review: WideAction.f14),
        Prism<WideAction, CounterAction>(case: 15, preview: { if case .f15(let action) = $0 { action } else { nil } }, review: WideAction.f15),
        Prism<WideAction, CounterAction>(case: 16, preview: { if case .f16(let action) = $0 { action } else { nil } }, review: WideAction.f16),
        Prism<WideAction, CounterAction>(case: 17, preview: { if case .f17(let action) = $0 { action } else { nil } }, review: WideAction.f17),
        Prism<WideAction, CounterAction>(case: 18, preview: { if case .f18(let action) = $0 { action } else { nil } }, review: WideAction.f18),
        Prism<WideAction, CounterAction>(case: 19, preview: { if case .f19(let action) = $0 { action } else { nil } }, review: WideAction.f19),
        Prism<WideAction, CounterAction>(case: 20, preview: { if case .f20(let action) = $0 { action } else { nil } }, review: WideAction.f20),
        Prism<WideAction, CounterAction>(case: 21, preview: { if case .f21(let action) = $0 { action } else { nil } }, review: WideAction.f21),
        Prism<WideAction, CounterAction>(case: 22, preview: { if case .f22(let action) = $0 { action } else { nil } }, review: WideAction.f22),
        Prism<WideAction, CounterAction>(case: 23, preview: { if case .f23(let action) = $0 { action } else { nil } }, review: WideAction.f23),
        Prism<WideAction, CounterAction>(case: 24, preview: { if case .f24(let action) = $0 { action } else { nil } }, review: WideAction.f24),
        Prism<WideAction, CounterAction>(case: 25, preview: { if case .f25(let action) = $0 { action } else { nil } }, review: WideAction.f25),
        Prism<WideAction, CounterAction>(case: 26, preview: { if case .f26(let action) = $0 { action } else { nil } }, review: WideAction.f26),
        Prism<WideAction, CounterAction>(case: 27, preview: { if case .f27(let action) = $0 { action } else { nil } }, review: WideAction.f27),
        Prism<WideAction, CounterAction>(case: 28, preview: { if case .f28(let action) = $0 { action } else { nil } }, review: WideAction.f28),
        Prism<WideAction, CounterAction>(case: 29, preview: { if case .f29(let action) = $0 { action } else { nil } }, review: WideAction.f29),
        Prism<WideAction, CounterAction>(case: 30, preview: { if case .f30(let action) = $0 { action } else { nil } }, review: WideAction.f30),
        Prism<WideAction, CounterAction>(case: 31, preview: { if case .f31(let action) = $0 { action } else { nil } }, review: WideAction.f31),
        Prism<WideAction, CounterAction>(case: 32, preview: { if case .f32(let action) = $0 { action } else { nil } }, review: WideAction.f32),
        Prism<WideAction, CounterAction>(case: 33, preview: { if case .f33(let action) = $0 { action } else { nil } }, review: WideAction.f33),
        Prism<WideAction, CounterAction>(case: 34, preview: { if case .f34(let action) = $0 { action } else { nil } }, review: WideAction.f34),
        Prism<WideAction, CounterAction>(case: 35, preview: { if case .f35(let action) = $0 { action } else { nil } }, review: WideAction.f35),
        Prism<WideAction, CounterAction>(case: 36, preview: { if case .f36(let action) = $0 { action } else { nil } }, review: WideAction.f36),
        Prism<WideAction, CounterAction>(case: 37, preview: { if case .f37(let action) = $0 { action } else { nil } }, review: WideAction.f37),
        Prism<WideAction, CounterAction>(case: 38, preview: { if case .f38(let action) = $0 { action } else { nil } }, review: WideAction.f38),
        Prism<WideAction, CounterAction>(case: 39, preview: { if case .f39(let action) = $0 { action } else { nil } }, review: WideAction.f39),
        Prism<WideAction, CounterAction>(case: 40, preview: { if case .f40(let action) = $0 { action } else { nil } }, review: WideAction.f40),
        Prism<WideAction, CounterAction>(case: 41, preview: { if case .f41(let action) = $0 { action } else { nil } }, review: WideAction.f41),
        Prism<WideAction, CounterAction>(case: 42, preview: { if case .f42(let action) = $0 { action } else { nil } }, review: WideAction.f42),
        Prism<WideAction, CounterAction>(case: 43, preview: { if case .f43(let action) = $0 { action } else { nil } }, review: WideAction.f43),
        Prism<WideAction, CounterAction>(case: 44, preview: { if case .f44(let action) = $0 { action } else { nil } }, review: WideAction.f44),
        Prism<WideAction, CounterAction>(case: 45, preview: { if case .f45(let action) = $0 { action } else { nil } }, review: WideAction.f45),
        Prism<WideAction, CounterAction>(case: 46, preview: { if case .f46(let action) = $0 { action } else { nil } }, review: WideAction.f46),
        Prism<WideAction, CounterAction>(case: 47, preview: { if case .f47(let action) = $0 { action } else { nil } }, review: WideAction.f47),
        Prism<WideAction, CounterAction>(case: 48, preview: { if case .f48(let action) = $0 { action } else { nil } }, review: WideAction.f48),
        Prism<WideAction, CounterAction>(case: 49, preview: { if case .f49(let action) = $0 { action } else { nil } }, review: WideAction.f49),
    ]

    static let widePaths: [WritableKeyPath<WideState, Tally>] = [
        \WideState.f0,
        \WideState.f1,
        \WideState.f2,
        \WideState.f3,
        \WideState.f4,
        \WideState.f5,
        \WideState.f6,
        \WideState.f7,
        \WideState.f8,
        \WideState.f9,
        \WideState.f10,
        \WideState.f11,
        \WideState.f12,
        \WideState.f13,
        \WideState.f14,
        \WideState.f15,
        \WideState.f16,
        \WideState.f17,
        \WideState.f18,
        \WideState.f19,
        \WideState.f20,
        \WideState.f21,
        \WideState.f22,
        \WideState.f23,
        \WideState.f24,
        \WideState.f25,
        \WideState.f26,
        \WideState.f27,
        \WideState.f28,
        \WideState.f29,
        \WideState.f30,
        \WideState.f31,
        \WideState.f32,
        \WideState.f33,
        \WideState.f34,
        \WideState.f35,
        \WideState.f36,
        \WideState.f37,
        \WideState.f38,
        \WideState.f39,
        \WideState.f40,
        \WideState.f41,
        \WideState.f42,
        \WideState.f43,
        \WideState.f44,
        \WideState.f45,
        \WideState.f46,
        \WideState.f47,
        \WideState.f48,
        \WideState.f49,
    ]

    /// A feature: the counter on its tally.
    static let tally = Reducer<CounterAction, Tally>.reduce { action, tally in
        switch action {
        case .increment: tally.count &+= 1
        case .decrement: tally.count &-= 1
        case .done: break
        }
    }

    /// The 50 features lifted side by side, each through its own prism and key path.
    static let wide50 = Reducer.mconcat((0..<50).map { tally.lift(.action(widePrisms[$0]).state(widePaths[$0])) })

    /// The same features lifted through prisms that name their case.
    static let wide50CaseIndexed = Reducer.mconcat((0..<50).map { tally.lift(.action(caseIndexedPrisms[$0]).state(widePaths[$0])) })

    /// A prism's preview in a box, read through an unowned reference as the Store's fused loop
    /// reads each lifted unit (nothing retained per call). Generic, as `Prism` is, so the preview
    /// is held and called without a re-abstraction thunk.
    final class PreviewBox<Whole, Part>: Sendable {
        let preview: @Sendable (Whole) -> Part?
        init(_ preview: @escaping @Sendable (Whole) -> Part?) { self.preview = preview }
    }

    /// The fifty closure prisms' previews, asked in order in a plain loop: what any dispatch that
    /// asks each closure prism once pays, with no Store around it.
    final class WidePreviews {
        let boxes: [PreviewBox<WideAction, CounterAction>]
        let references: [Unmanaged<PreviewBox<WideAction, CounterAction>>]

        init(_ prisms: [Prism<WideAction, CounterAction>]) {
            boxes = prisms.map { PreviewBox($0.preview) }
            references = boxes.map { Unmanaged.passUnretained($0) }
        }

        /// How many previews match `action` (every one is asked).
        @inline(never)
        func matches(_ action: WideAction) -> Int {
            var count = 0
            references.withUnsafeBufferPointer { references in
                for reference in references where reference._withUnsafeGuaranteedRef({ $0.preview(action) }) != nil {
                    count &+= 1
                }
            }
            return count
        }
    }

    /// One observer; each action addresses one feature, spread over all 50.
    static func wideLoop(_ store: Store<WideAction, WideState, Void>) -> Measured {
        let notifications = Slot(0)
        let token = store.observe(didChange: { notifications.value &+= 1 })
        let counters = makeCounterActions()
        let actions = (0..<64).map { widePrisms[($0 &* 37) % 50].review(counters[$0]) }
        return { iterations in
            for index in 0..<iterations { store.dispatch(actions[index & 63]) }
            blackHole(token)
        }
    }

    /// `naive.nested3`, `lift.nested3`, `store.dispatch.wide50`, `store.dispatch.wide50.previews`,
    /// `store.dispatch.wide50.caseIndexed`.
    static var all: [Scenario] {
        [
            Scenario(name: "naive.nested3") {
                // The same dispatch written by hand: one nested switch in the naive store.
                let store = NaiveStore<NestedOuterAction, NestedOuter>(initial: NestedOuter()) { action, state in
                    switch action {
                    case .middle(let middle):
                        switch middle {
                        case .inner(let inner):
                            switch inner {
                            case .counter(let counter):
                                switch counter {
                                case .increment: state.middle.inner.counter.count &+= 1
                                case .decrement: state.middle.inner.counter.count &-= 1
                                case .done: break
                                }
                            case .toggle: state.middle.inner.flag.toggle()
                            }
                        case .toggle: state.middle.flag.toggle()
                        }
                    case .toggle: state.flag.toggle()
                    }
                }
                let notifications = Slot(0)
                store.subscribe { notifications.value &+= 1 }
                let actions = makeNestedActions()
                let mask = actions.count - 1
                return { iterations in
                    for index in 0..<iterations { store.dispatch(actions[index & mask]) }
                }
            },
            Scenario(name: "lift.nested3") {
                // The counter lifted three levels deep through prisms and key paths.
                let store = Store(initial: NestedOuter(), reducer: nested3)
                let notifications = Slot(0)
                let token = store.observe(didChange: { notifications.value &+= 1 })
                let actions = makeNestedActions()
                let mask = actions.count - 1
                return { iterations in
                    for index in 0..<iterations { store.dispatch(actions[index & mask]) }
                    blackHole(token)
                }
            },
            Scenario(name: "store.dispatch.wide50") {
                // 50 lifted features side by side; each action addresses one of them (spread over
                // all 50), as an app's actions do. Plain prisms: the Store cannot tell which
                // feature an action is for, so it asks all 50.
                wideLoop(Store(initial: WideState(), reducer: wide50))
            },
            Scenario(name: "store.dispatch.wide50.previews") {
                // The floor under store.dispatch.wide50: the same actions asked of the same fifty
                // closure prisms in a plain loop, no Store.
                let previews = opaque(WidePreviews(widePrisms))
                let counters = makeCounterActions()
                let actions = (0..<64).map { widePrisms[($0 &* 37) % 50].review(counters[$0]) }
                return { iterations in
                    var matched = 0
                    for index in 0..<iterations { matched &+= previews.matches(actions[index & 63]) }
                    blackHole(matched)
                }
            },
            Scenario(name: "store.dispatch.wide50.caseIndexed") {
                // The same app, its prisms naming their case of a CaseIndexable action: the Store
                // asks only the feature of the action's case.
                wideLoop(Store(initial: WideState(), reducer: wide50CaseIndexed))
            },
        ]
    }
}
