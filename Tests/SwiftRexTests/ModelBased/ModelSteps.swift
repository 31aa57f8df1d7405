import SwiftRex
import SwiftRexTestSupport

extension ModelBased {
    /// One step of a sequence, applied to the Store and to the model alike.
    enum Step: Sendable, Equatable, CustomStringConvertible {
        /// `store.dispatch(action)`.
        case dispatch(Action)
        /// A held effect sends `.response(serial)` and completes.
        case complete(serial: Int)
        /// A held effect sends `.response(serial)` and keeps running.
        case emit(serial: Int)
        /// A live channel dispatches `.echo` to its row.
        case echo(ChannelKey)
        /// `clock.advance(by:)`.
        case advance(milliseconds: Int)
        /// The main actor's next turn: the mailbox is drained.
        case drain

        var description: String {
            switch self {
            case .dispatch(let action): return "dispatch(\(action))"
            case .complete(let serial): return "complete(\(serial))"
            case .emit(let serial): return "emit(\(serial))"
            case .echo(let key): return "echo(\(key))"
            case .advance(let milliseconds): return "advance(\(milliseconds)ms)"
            case .drain: return "drain"
            }
        }
    }

    /// Whether `step` can run on the model as it stands; a step that cannot (its effect or channel
    /// is gone, or it would remove a row with a pending autosave) is skipped by Store and model
    /// alike, so any subsequence of a sequence is still a valid sequence (for shrinking).
    static func canRun(_ step: Step, on model: ReferenceModel) -> Bool {
        switch step {
        case .complete(let serial), .emit(let serial):
            return model.pending.contains { $0.serial == serial }
        case .echo(let key):
            return model.live[key] != nil
        case .dispatch(.remove(let id)):
            return model.canRemove(id)
        case .dispatch(.rebuild(let ids)):
            return model.state.rows.allSatisfy { ids.contains($0.id) || model.canRemove($0.id) }
        case .dispatch, .advance, .drain:
            return true
        }
    }

    /// Applies `step` to the model.
    static func apply(_ step: Step, to model: inout ReferenceModel) {
        switch step {
        case .dispatch(let action): model.dispatch(action)
        case .complete(let serial): model.respond(serial: serial, finish: true)
        case .emit(let serial): model.respond(serial: serial, finish: false)
        case .echo(let key): model.echo(from: key)
        case .advance(let milliseconds): model.advance(by: milliseconds)
        case .drain: model.drain()
        }
    }

    /// Generates `count` steps from `seed`, steering by a model run alongside (so most steps
    /// address rows, effects and channels that exist).
    static func generate(seed: UInt64, count: Int) -> [Step] {
        var rng = SplitMix64(seed: seed)
        var model = ReferenceModel(initial: initialState)
        var steps: [Step] = []
        var nextSerial = 0
        steps.reserveCapacity(count)
        while steps.count < count {
            let step = randomStep(model: model, nextSerial: &nextSerial, using: &rng)
            guard canRun(step, on: model) else { continue }
            apply(step, to: &model)
            _ = model.take()
            steps.append(step)
        }
        return steps
    }

    private static let elementIDs = 0..<6

    private static func someRow(_ model: ReferenceModel, using rng: inout SplitMix64) -> Int {
        if !model.state.rows.isEmpty, Int.random(in: 0..<5, using: &rng) > 0 {
            return model.state.rows.randomElement(using: &rng)!.id
        }
        return Int.random(in: elementIDs, using: &rng)
    }

    private static func randomStep(model: ReferenceModel, nextSerial: inout Int, using rng: inout SplitMix64) -> Step {
        let roll = Int.random(in: 0..<100, using: &rng)
        func small() -> Int { Int.random(in: 0..<4, using: &rng) }
        switch roll {
        case 0..<16:
            let rowAction: RowAction
            switch Int.random(in: 0..<10, using: &rng) {
            case 0, 1: rowAction = .bump
            case 2: rowAction = .setRoom(Int.random(in: 0..<3, using: &rng))
            case 3, 4: rowAction = .setVolume(small())
            case 5: rowAction = .toggleFeed
            case 6, 7: rowAction = .autosave
            case 8: rowAction = .cancelFeed
            default: rowAction = .cancelSocket
            }
            return .dispatch(.row(ElementAction(someRow(model, using: &rng), action: rowAction)))
        case 16..<24:
            return .dispatch(.insert(Int.random(in: elementIDs, using: &rng)))
        case 24..<30:
            return .dispatch(.remove(someRow(model, using: &rng)))
        case 30..<32:
            let ids = Array(elementIDs).shuffled(using: &rng).prefix(Int.random(in: 0...elementIDs.count, using: &rng))
            return .dispatch(.rebuild(Array(ids)))
        case 32..<34:
            return .dispatch(.reverse)
        case 34..<37:
            return .dispatch(.bumpAll)
        case 37..<43:
            nextSerial += 1
            return .dispatch(.request(slot: Int.random(in: 0..<3, using: &rng), serial: nextSerial))
        case 43..<45:
            nextSerial += 1
            return .dispatch(.requestFree(serial: nextSerial))
        case 45..<48:
            return .dispatch(.cancelRequest(slot: Int.random(in: 0..<3, using: &rng)))
        case 48..<57:
            guard let effect = model.pending.randomElement(using: &rng) else { return .drain }
            return Int.random(in: 0..<4, using: &rng) == 0 ? .emit(serial: effect.serial) : .complete(serial: effect.serial)
        case 57..<61:
            return .dispatch(.search(small()))
        case 61..<62:
            return .dispatch(.cancelSearch)
        case 62..<66:
            return .dispatch(.throttled(small()))
        case 66..<67:
            return .dispatch(.cancelThrottle)
        case 67..<70:
            return .dispatch(.late(small()))
        case 70..<74:
            return .dispatch(.poke(element: someRow(model, using: &rng), value: 10 + small()))
        case 74..<75:
            return .dispatch(.pokeFeed(element: someRow(model, using: &rng), value: 20))
        case 75..<80:
            guard let key = model.live.keys.sorted().randomElement(using: &rng) else { return .drain }
            return .echo(key)
        case 80..<90:
            return .advance(milliseconds: [50, 100, 200, 300, 500, 1_000].randomElement(using: &rng)!)
        case 90..<98:
            return .drain
        default:
            return .dispatch(.add(small()))
        }
    }
}
