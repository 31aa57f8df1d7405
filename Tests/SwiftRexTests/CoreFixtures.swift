import SwiftRex
import SwiftRexTestSupport
import Synchronization

/// A small domain and seeded generators shared by the core tests (namespaced, so the Store tests
/// in this target can declare their own types freely).
enum CoreFixtures {
    /// One primitive, non-commuting state change.
    enum Op: Sendable, Equatable {
        case add(Int)
        case mul(Int)
        case log(String)
        case set(Int)

        func apply(_ state: inout State) {
            switch self {
            case .add(let n): state.value += n
            case .mul(let n): state.value *= n
            case .log(let line): state.log.append(line)
            case .set(let n): state.value = n
            }
        }
    }

    enum Action: Sendable, Hashable {
        case add(Int)
        case mul(Int)
        case log(String)
        case reset
        case noop
        case ping(Int)
        case note(String)
    }

    struct State: Sendable, Equatable {
        var value = 0
        var log: [String] = []
    }

    struct Env: Sendable {
        var tag = "env"
    }

    static let states: [State] = [State(), State(value: 3, log: ["x"]), State(value: -7)]
    static let actions: [Action] = [.add(2), .mul(3), .log("a"), .reset, .noop]
    static let environment = Env()

    // MARK: Generators

    static func randomOp(using rng: inout SplitMix64) -> Op {
        switch Int.random(in: 0..<4, using: &rng) {
        case 0: return .add(Int.random(in: -3...5, using: &rng))
        case 1: return .mul(Int.random(in: -2...3, using: &rng))
        case 2: return .log(String(UnicodeScalar(UInt8.random(in: 97...102, using: &rng))))
        default: return .set(Int.random(in: -4...4, using: &rng))
        }
    }

    static func randomOps(using rng: inout SplitMix64) -> [Op] {
        (0..<Int.random(in: 1...3, using: &rng)).map { _ in randomOp(using: &rng) }
    }

    static func endoMut(_ ops: [Op]) -> EndoMut<State> {
        EndoMut { state in for op in ops { op.apply(&state) } }
    }

    /// Samples including the identity and a flattened composite.
    static func endoMuts(count: Int, seed: UInt64) -> [EndoMut<State>] {
        var rng = SplitMix64(seed: seed)
        var samples: [EndoMut<State>] = [.identity]
        while samples.count < count - 1 { samples.append(endoMut(randomOps(using: &rng))) }
        samples.append(.mconcat([endoMut(randomOps(using: &rng)), .identity, endoMut(randomOps(using: &rng))]))
        return samples
    }

    /// A table from some of the sample actions to the ops they run.
    static func randomTable(using rng: inout SplitMix64) -> [Action: [Op]] {
        var table: [Action: [Op]] = [:]
        for action in actions where Bool.random(using: &rng) { table[action] = randomOps(using: &rng) }
        return table
    }

    static func reducer(_ table: [Action: [Op]]) -> Reducer<Action, State> {
        .reduce { action, state in
            for op in table[action] ?? [] { op.apply(&state) }
        }
    }

    static func reducers(count: Int, seed: UInt64) -> [Reducer<Action, State>] {
        var rng = SplitMix64(seed: seed)
        var samples: [Reducer<Action, State>] = [.identity]
        while samples.count < count - 1 { samples.append(reducer(randomTable(using: &rng))) }
        samples.append(.compose(reducer(randomTable(using: &rng)), .identity, reducer(randomTable(using: &rng))))
        return samples
    }

    static func randomEffect(using rng: inout SplitMix64) -> Effect<Action> {
        let parts = (0..<Int.random(in: 0...3, using: &rng)).map { _ -> Effect<Action> in
            let n = Int.random(in: 0..<100, using: &rng)
            switch Int.random(in: 0..<6, using: &rng) {
            case 0: return .just(.ping(n))
            case 1: return .sequence([.ping(n), .note("s\(n)")])
            case 2:
                return .subscribe { send, complete in
                    send(DispatchedAction(.ping(-n), dispatcher: ActionSource(file: "subscribe", line: UInt(n))))
                    complete()
                    return .empty
                }
            case 3: return .just(.ping(n), scheduling: .debounce(id: n % 3, delay: .milliseconds(n)))
            case 4: return .cancel(id: n % 2)
            default: return .broadcast(n, channel: "feed")
            }
        }
        return .mconcat(parts)
    }

    static func effects(count: Int, seed: UInt64) -> [Effect<Action>] {
        var rng = SplitMix64(seed: seed)
        var samples: [Effect<Action>] = [.empty]
        while samples.count < count { samples.append(randomEffect(using: &rng)) }
        return samples
    }

    static func channel(_ name: String, reset: Int? = nil, broadcast: Int? = nil) -> Channel<Action> {
        let lifetime: Channel<Action>.Lifetime = reset.map { .ephemeral(resetKey: $0) } ?? .permanent
        if let broadcast {
            return Channel(id: name, lifetime: lifetime, broadcasting: .onChange(broadcast)) { _ in
                ChannelHandler(receive: { _ in }, cancel: {})
            }
        }
        return Channel(id: name, lifetime: lifetime) { _ in .cancelOnly {} }
    }

    static func randomSupervision(using rng: inout SplitMix64) -> Supervision<Action, Env> {
        let names = (0..<Int.random(in: 0...3, using: &rng)).map { _ in "ch\(Int.random(in: 0..<4, using: &rng))" }
        let reset = Int.random(in: 0..<3, using: &rng)
        return Supervision { env in
            names.map { channel("\(env.tag)-\($0)", reset: reset == 0 ? nil : reset) }
        }
    }

    static func supervisions(count: Int, seed: UInt64) -> [Supervision<Action, Env>] {
        var rng = SplitMix64(seed: seed)
        var samples: [Supervision<Action, Env>] = [.identity]
        while samples.count < count { samples.append(randomSupervision(using: &rng)) }
        return samples
    }

    /// A producer that reads the pre-mutation value in phase 1 and the post-mutation value in phase 3.
    static func producer(_ tag: String) -> @MainActor @Sendable (Action, PreReducerContext<State>) -> Producer<Action, State, Env> {
        { action, context in
            guard action != .noop else { return .doNothing }
            let before = context.stateBefore?.value ?? -999
            return Producer { post in
                let after = MainActor.assumeIsolated { post.liveState?.value } ?? -999
                return .just(.note("\(tag):\(before)->\(after):\(post.environment.tag)"))
            }
        }
    }

    static func randomBehavior(using rng: inout SplitMix64) -> Behavior<Action, State, Env> {
        let tag = "b\(Int.random(in: 0..<1_000, using: &rng))"
        switch Int.random(in: 0..<7, using: &rng) {
        case 0:
            return reducer(randomTable(using: &rng)).asBehavior()
        case 1:
            return .produce(producer(tag))
        case 2:
            let table = randomTable(using: &rng)
            return .react { action, context in
                guard let ops = table[action] else { return .doNothing }
                let before = context.stateBefore?.value ?? -999
                return .reduce { state in for op in ops { op.apply(&state) } }
                    .produce { _ in .just(.note("\(tag) saw \(before)")) }
            }
        case 3:
            let supervision = randomSupervision(using: &rng)
            return .supervise { state in state.value.isMultiple(of: 2) ? supervision : .identity }
        case 4:
            return Behavior(reducer: reducer(randomTable(using: &rng)), middleware: .produce(producer(tag)))
        case 5:
            let table = randomTable(using: &rng)
            return Behavior.reduce { action, state in for op in table[action] ?? [] { op.apply(&state) } }
                .produce(producer(tag))
                .supervise { _ in Supervision { env in [channel("\(env.tag)-\(tag)")] } }
        default:
            return randomMiddleware(using: &rng).asBehavior
        }
    }

    @MainActor
    static func behaviors(count: Int, seed: UInt64) -> [Behavior<Action, State, Env>] {
        var rng = SplitMix64(seed: seed)
        var samples: [Behavior<Action, State, Env>] = [.identity]
        while samples.count < count { samples.append(randomBehavior(using: &rng)) }
        return samples
    }

    static func randomMiddleware(using rng: inout SplitMix64) -> Middleware<Action, State, Env> {
        let tag = "m\(Int.random(in: 0..<1_000, using: &rng))"
        switch Int.random(in: 0..<3, using: &rng) {
        case 0: return .produce(producer(tag))
        case 1:
            let supervision = randomSupervision(using: &rng)
            return .supervise { _ in supervision }
        default:
            let supervision = randomSupervision(using: &rng)
            return Middleware.produce(producer(tag)).supervise { _ in supervision }
        }
    }

    static func middlewares(count: Int, seed: UInt64) -> [Middleware<Action, State, Env>] {
        var rng = SplitMix64(seed: seed)
        var samples: [Middleware<Action, State, Env>] = [.identity]
        while samples.count < count { samples.append(randomMiddleware(using: &rng)) }
        return samples
    }
}

extension CoreFixtures {
    /// A thread-safe counter for closures that must be `@Sendable`.
    final class Counter: Sendable {
        private let count = Mutex(0)

        func increment() { count.withLock { $0 += 1 } }

        var value: Int { count.withLock { $0 } }
    }

    /// A thread-safe append-only log for closures that must be `@Sendable`.
    final class Log<Element: Sendable>: Sendable {
        private let entries = Mutex<[Element]>([])

        func append(_ element: Element) { entries.withLock { $0.append(element) } }

        var values: [Element] { entries.withLock { $0 } }
    }
}
