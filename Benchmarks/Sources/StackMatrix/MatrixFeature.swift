import SwiftRex
import SwiftRexTestSupport

/// A state that can be made at every level of the matrix.
public protocol MatrixState: Identifiable, Sendable where ID == Int {
    /// The initial state (every optional present, every collection one element long).
    static var initial: Self { get }
}

/// The leaf state: the payload (every level's state holds it, inline or in one element of a
/// collection) and a counter.
public struct MatrixLeaf<Payload: MatrixPayload>: MatrixState {
    public var id = 0
    /// Incremented by the leaf reducer.
    public var count = 0
    /// 256 KiB or 16 bytes inline.
    public var payload = Payload()
    public static var initial: MatrixLeaf { MatrixLeaf() }
}

/// A level of `lift` and `.on`: a plain field.
public struct PlainLevel<Inner: MatrixState>: MatrixState {
    public var id = 0
    /// Counted by the `.on` of this level.
    public var hits = 0
    /// The level below.
    public var inner: Inner
    public static var initial: PlainLevel { PlainLevel(inner: .initial) }
}

/// A level of `liftOptional`: an optional field, present.
public struct OptionalLevel<Inner: MatrixState>: MatrixState {
    public var id = 0
    /// The level below.
    public var inner: Inner?
    public static var initial: OptionalLevel { OptionalLevel(inner: .initial) }
}

/// A level of `liftCollection` and `liftEach`: one element.
public struct RowsLevel<Inner: MatrixState>: MatrixState {
    public var id = 0
    /// The level below, one element with id 0.
    public var rows: [Inner]
    public static var initial: RowsLevel { RowsLevel(rows: [.initial]) }
}

/// Builds the features of the matrix, one level at a time.
@MainActor
enum MatrixFeature {
    typealias Feature<State: Sendable> = Behavior<MatrixAction, State, Void>

    static let rowPrism = Prism<MatrixAction, ElementAction<Int, MatrixAction>>(
        preview: { if case .row(let action) = $0 { action } else { nil } }, review: MatrixAction.row)
    static let allPrism = Prism<MatrixAction, MatrixAction>(
        preview: { if case .all(let action) = $0 { action } else { nil } }, review: MatrixAction.all)
    static let incrementPrism = Prism<MatrixAction, Int>(
        preview: { if case .increment = $0 { 1 } else { nil } }, review: { _ in .increment })
    static let donePrism = Prism<MatrixAction, Int>(
        preview: { if case .done = $0 { 0 } else { nil } }, review: { _ in .done })

    /// The leaf: a reducer counting increments (it marks `marker`), with a producer producing
    /// nothing and a supervision keeping one channel that broadcasts the count, as `unit` says.
    static func leaf<Payload: MatrixPayload>(_ unit: StackShape.Unit, _: Payload.Type, marker: StackMarker) -> Feature<MatrixLeaf<Payload>> {
        var feature = Feature<MatrixLeaf<Payload>>.reduce { action, leaf in
            if case .increment = action { leaf.count &+= 1 }
            marker.mark()
        }
        if unit.producing { feature = feature.produce { _, _ in .doNothing } }
        if unit.supervising {
            feature = feature.supervise { leaf in
                // The count alone: a supervision capturing the leaf would box a copy of it.
                let count = leaf.count
                return Supervision { _ in
                    [Channel<MatrixAction>(id: 0, broadcasting: .onChange(count)) { _ in ChannelHandler(receive: { _ in }, cancel: {}) }]
                }
            }
        }
        return feature
    }

    /// With `on`, the level also counts increments while its `when` holds.
    static func withOn<State: MatrixState>(_ feature: Feature<State>, on: Bool, hits: WritableKeyPath<State, Int> & Sendable) -> Feature<State> {
        guard on else { return feature }
        return feature.on(.action(incrementPrism), when: { $0.id >= 0 }, reduce: { _, state in state[keyPath: hits] &+= 1 })
    }

    static func plain<Inner: MatrixState>(_ feature: Feature<Inner>, on: Bool) -> Feature<PlainLevel<Inner>> {
        withOn(feature.lift(.state(\PlainLevel<Inner>.inner)), on: on, hits: \.hits)
    }

    static func optional<Inner: MatrixState>(_ feature: Feature<Inner>) -> Feature<OptionalLevel<Inner>> {
        feature.liftOptional(\OptionalLevel<Inner>.inner)
    }

    static func rows<Inner: MatrixState>(_ feature: Feature<Inner>, each: Bool) -> Feature<RowsLevel<Inner>> {
        each
            ? feature.liftEach(.action(broadcast: allPrism, into: rowPrism).state(\RowsLevel<Inner>.rows))
            : feature.liftCollection(.action(rowPrism).state(\RowsLevel<Inner>.rows))
    }

    /// Three plain levels.
    static func plain3<Inner: MatrixState>(_ feature: Feature<Inner>, on: Bool) -> Feature<some MatrixState> {
        plain(plain(plain(feature, on: on), on: on), on: on)
    }

    /// Three optional levels.
    static func optional3<Inner: MatrixState>(_ feature: Feature<Inner>) -> Feature<some MatrixState> {
        optional(optional(optional(feature)))
    }

    /// Three collection levels.
    static func rows3<Inner: MatrixState>(_ feature: Feature<Inner>, each: Bool) -> Feature<some MatrixState> {
        rows(rows(rows(feature, each: each), each: each), each: each)
    }

    /// A store over the initial state running `width` copies of `feature`; returns its dispatch of
    /// the shape's action.
    static func dispatcher<State: MatrixState>(_ feature: Feature<State>, shape: StackShape) -> @MainActor () -> Void {
        let store = Store(initial: State.initial, behavior: .combine(Array(repeating: feature, count: shape.width)), environment: ())
        let action = shape.action
        return { store.dispatch(action) }
    }
}
