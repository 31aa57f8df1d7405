import LabCore
import StackMatrix
import SwiftRexTestSupport

/// The corners of the stack matrix (`StackShape`, the shapes the lab's stack tests hold to 16 KiB
/// on a 512 KiB thread): a leaf feature lifted `depth` times and combined `width` times, its leaf
/// state holding 256 KiB inline (`.large`) or 16 bytes (`.small`, the same shape's cost without
/// the size). Each dispatch is one increment reaching the leaf; the stack probe measures one.
@MainActor
enum StackMatrixScenarios {
    /// The corners measured: ten lifts and two hundred features with a producer and a supervision,
    /// and a producer through `liftOptional` and `liftCollection`.
    nonisolated static let corners: [(name: String, shape: StackShape)] = [
        ("stack.matrix.all.d10", StackShape(unit: .all, lift: .lift, depth: 10, width: 1)),
        ("stack.matrix.all.w200", StackShape(unit: .all, lift: .lift, depth: 1, width: 200)),
        ("stack.matrix.producer.liftOptional", StackShape(unit: .producer, lift: .liftOptional, depth: 3, width: 1)),
        ("stack.matrix.producer.liftCollection", StackShape(unit: .producer, lift: .liftCollection, depth: 3, width: 1)),
    ]

    /// `NAME.large` and `NAME.small` for every corner, then `width200.reducer` and `width200.full`
    /// (two hundred combined features, one lift each, 256 KiB leaf: reducers alone, then each
    /// with a producer and a supervision).
    static var all: [Scenario] {
        corners.flatMap { corner in
            MatrixPayloadSize.allCases.map { payload in
                let name = "\(corner.name).\(payload.rawValue)"
                return scenario(name, corner.shape, payload, instructionTolerance: name == heapHistoryScenario ? heapHistoryTolerance : 0)
            }
        } + [
            scenario("width200.reducer", StackShape(unit: .reducer, lift: .lift, depth: 1, width: 200), .large),
            scenario("width200.full", StackShape(unit: .all, lift: .lift, depth: 1, width: 200), .large),
        ]
    }

    /// The paired ratios: each corner's large state against its small one (the cost of the size
    /// alone), and the full two hundred features against reducers alone.
    nonisolated static var ratios: [PairedRatio] {
        corners.map { PairedRatio("\($0.name).large", over: "\($0.name).small", limit: 1.1) }
            + [PairedRatio("width200.full", over: "width200.reducer", limit: 3)]
    }

    /// The corner whose instruction count follows the heap's history: one binary read it at 179.1 k
    /// instructions per op alone, 185.7 k in the full pass and 189.6 k in the quick pass (counted
    /// over 256 iterations instead of 16: 179.9 k alone, 186.6 k in the quick pass, so not a
    /// matter of averaging). Its allocations (22 per op) are exact and gated as every other.
    nonisolated static let heapHistoryScenario = "stack.matrix.producer.liftCollection.small"
    /// Its instruction tolerance: the full pass the baseline records against the quick pass CI runs.
    nonisolated static let heapHistoryTolerance = 0.03

    static func scenario(_ name: String, _ shape: StackShape, _ payload: MatrixPayloadSize, instructionTolerance: Double = 0) -> Scenario {
        Scenario(name: name, instructionTolerance: instructionTolerance) { _ in
            let marker = StackMarker()
            let dispatch = shape.makeDispatch(payload, marker: marker)
            return ScenarioBody(
                stackProbe: {
                    let highWater = StackHighWater.measure(marker: marker) { dispatch() }.highWater
                    return StackFigures(highWater: highWater.bytes, markBytes: highWater.markedBytes, isSaturated: highWater.isSaturated)
                },
                run: { iterations in
                    for _ in 0..<iterations { dispatch() }
                }
            )
        }
    }
}
