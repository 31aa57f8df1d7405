import SwiftRex
import SwiftRexTestSupport

/// The shapes of dispatch whose stack and cost must not depend on the size of the root state: a
/// leaf feature of one kind of unit, lifted `depth` times by one kind of lift, combined `width`
/// times at the root; the leaf state holds a payload (256 KiB inline, or 16 bytes for comparison),
/// so every level's state holds it too.
/// The lab's `stack.matrix.*` scenarios and the lab's stack tests build their stores here.
public struct StackShape: Sendable, Hashable, CustomStringConvertible {
    /// What the leaf feature does besides its reducer.
    public enum Unit: String, Sendable, CaseIterable {
        case reducer, producer, supervise, all
        var producing: Bool { self == .producer || self == .all }
        var supervising: Bool { self == .supervise || self == .all }
    }

    /// How each level lifts the feature below it.
    public enum Lift: String, Sendable, CaseIterable {
        case lift, liftOptional, liftCollection, liftEach, on
    }

    /// The unit kind of the leaf feature.
    public var unit: Unit
    /// The lift at every level.
    public var lift: Lift
    /// Lifts between the leaf and the root.
    public var depth: Int
    /// Copies of the lifted feature combined at the root.
    public var width: Int

    /// A shape.
    public init(unit: Unit, lift: Lift, depth: Int, width: Int) {
        self.unit = unit
        self.lift = lift
        self.depth = depth
        self.width = width
    }

    /// `unit.lift.dDEPTH.wWIDTH`.
    public var description: String { "\(unit.rawValue).\(lift.rawValue).d\(depth).w\(width)" }

    /// The depths of the matrix.
    public static let depths = [1, 3, 10]
    /// The widths of the matrix.
    public static let widths = [1, 200]

    /// Every shape: {reducer, producer, supervise, all} × {lift, liftOptional, liftCollection,
    /// liftEach, on} × depth {1, 3, 10} × width {1, 200}.
    public static var all: [StackShape] {
        Unit.allCases.flatMap { unit in
            Lift.allCases.flatMap { lift in
                depths.flatMap { depth in widths.map { StackShape(unit: unit, lift: lift, depth: depth, width: $0) } }
            }
        }
    }

    /// The shapes whose dispatches the library holds to the 16 KiB budget today, first and later
    /// dispatches alike, which the lab's release tests keep there. The others copy no state but
    /// nest deeper frames per level (ten levels of a collection lift, or a producer under
    /// `liftEach`): the open stack work, measured shape by shape with `STACK_MATRIX_REPORT=1`.
    public static var withinBudget: [StackShape] {
        all.filter { shape in
            let elementLift = shape.lift == .liftCollection || shape.lift == .liftEach
            return !(elementLift && shape.depth == 10) && !(shape.lift == .liftEach && shape.unit.producing)
        }
    }

    /// Builds a store of this shape whose leaf holds a `payload`; the leaf reducer marks
    /// `marker`. Returns a closure dispatching one action that reaches the leaf (it increments it).
    @MainActor
    public func makeDispatch(_ payload: MatrixPayloadSize, marker: StackMarker) -> @MainActor () -> Void {
        switch payload {
        case .large: makeDispatch(LargePayload.self, marker: marker)
        case .small: makeDispatch(SmallPayload.self, marker: marker)
        }
    }

    /// Never specialised: the library's code runs generic over the sixty state types of the
    /// matrix (specialising all of them takes the compiler over twenty minutes and 8 GB). A copy
    /// of a state in generic code is a copy of its full size, as in specialised code.
    @MainActor
    @_semantics("optimize.sil.specialize.generic.never")
    func makeDispatch<Payload: MatrixPayload>(_: Payload.Type, marker: StackMarker) -> @MainActor () -> Void {
        let leaf = MatrixFeature.leaf(unit, Payload.self, marker: marker)
        typealias F = MatrixFeature
        switch lift {
        case .lift, .on:
            let on = lift == .on
            switch depth {
            case 1: return F.dispatcher(F.plain(leaf, on: on), shape: self)
            case 3: return F.dispatcher(F.plain3(leaf, on: on), shape: self)
            default: return F.dispatcher(F.plain(F.plain3(F.plain3(F.plain3(leaf, on: on), on: on), on: on), on: on), shape: self)
            }
        case .liftOptional:
            switch depth {
            case 1: return F.dispatcher(F.optional(leaf), shape: self)
            case 3: return F.dispatcher(F.optional3(leaf), shape: self)
            default: return F.dispatcher(F.optional(F.optional3(F.optional3(F.optional3(leaf)))), shape: self)
            }
        case .liftCollection, .liftEach:
            let each = lift == .liftEach
            switch depth {
            case 1: return F.dispatcher(F.rows(leaf, each: each), shape: self)
            case 3: return F.dispatcher(F.rows3(leaf, each: each), shape: self)
            default: return F.dispatcher(F.rows(F.rows3(F.rows3(F.rows3(leaf, each: each), each: each), each: each), each: each), shape: self)
            }
        }
    }

    /// The action reaching the leaf through `depth` levels of this shape's lift.
    var action: MatrixAction {
        var action = MatrixAction.increment
        for _ in 0..<depth {
            switch lift {
            case .lift, .liftOptional, .on: break
            case .liftCollection: action = .row(ElementAction(0, action: action))
            case .liftEach: action = .all(action)
            }
        }
        return action
    }
}

/// The size of the leaf state's payload.
public enum MatrixPayloadSize: String, Sendable, CaseIterable {
    /// 256 KiB inline.
    case large
    /// 16 bytes inline.
    case small
}

/// The payload of the leaf state.
public protocol MatrixPayload: Sendable {
    /// A zeroed payload.
    init()
}

/// 256 KiB inline: a layer that copies the root state writes 256 KiB more stack and spends
/// instructions in proportion.
public struct LargePayload: MatrixPayload {
    /// The words.
    public var words = InlineArray<32768, Int64>(repeating: 0)
    /// Zeroes.
    public init() {}
}

/// 16 bytes inline: the control.
public struct SmallPayload: MatrixPayload {
    /// The words.
    public var words = InlineArray<2, Int64>(repeating: 0)
    /// Zeroes.
    public init() {}
}

/// The one action type of every level: collection levels address `row`, broadcast levels `all`.
public indirect enum MatrixAction: Sendable {
    case increment
    case done
    case row(ElementAction<Int, MatrixAction>)
    case all(MatrixAction)
}
