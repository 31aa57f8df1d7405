import Foundation
import Synchronization
import LabCore
import SwiftRex

/// The soak: a large supervised collection (`liftCollection`, a channel on every hundredth
/// element) under a steady mix of actions — by-id element actions, a rare broadcast to every
/// element, inserts and removals that keep the size about constant, and actions whose effects come
/// back through the mailbox (plain and keyed) or through a channel — with resident memory read
/// before and after.
@MainActor
enum SoakWorkload {
    struct Row: Identifiable, Sendable {
        var id: Int
        var count = 0
        var room = 0
        var level = 0
    }

    struct State: Sendable {
        var rows: [Row]
        var ticks = 0
    }

    enum RowAction: Sendable {
        case bump, setRoom(Int), setLevel(Int), ping, pong, save, saved
    }

    enum Action: Sendable {
        case row(ElementAction<Int, RowAction>)
        case all(RowAction)
        case insert(Int)
        case removeAt(Int)
        case tick
    }

    /// Every `channelEvery`-th element id supervises a channel.
    nonisolated static let channelEvery = 100

    /// Counters the channel bodies and effect-action reducers bump (from any thread).
    final class Counters: Sendable {
        let opens = Atomic<Int>(0)
        let closes = Atomic<Int>(0)
        let effectActions = Atomic<Int>(0)
        let missing = Atomic<Int>(0)
    }

    static let rowPrism = Prism<Action, ElementAction<Int, RowAction>>(
        preview: { if case .row(let action) = $0 { action } else { nil } }, review: Action.row)
    static let allPrism = Prism<Action, RowAction>(
        preview: { if case .all(let action) = $0 { action } else { nil } }, review: Action.all)

    static func behavior(_ counters: Counters) -> Behavior<Action, State, Void> {
        let rowCore = Behavior<RowAction, Row, Void>.react { action, _ in
            switch action {
            case .bump: return .reduce { $0.count &+= 1 }
            case .setRoom(let room): return .reduce { $0.room = room }
            case .setLevel(let level): return .reduce { $0.level = level }
            case .ping: return .produce { _ in .just(.pong) }
            case .save: return .produce { _ in .just(.saved, scheduling: .keyed(id: "save")) }
            case .pong, .saved:
                counters.effectActions.add(1, ordering: .relaxed)
                return .reduce { $0.count &+= 1 }
            }
        }
        let rowChannel = Behavior<RowAction, Row, Void>.supervise { row in
            guard row.id % channelEvery == 0 else { return .identity }
            let room = row.room
            return Supervision { _ in
                [Channel<RowAction>(id: "link", lifetime: .ephemeral(resetKey: room), broadcasting: .onChange(row.level)) { dispatch in
                    counters.opens.add(1, ordering: .relaxed)
                    return ChannelHandler<Int>(
                        receive: { level in if level & 3 == 3 { dispatch(.pong) } },
                        cancel: { counters.closes.add(1, ordering: .relaxed) }
                    )
                }]
            }
        }
        let app = Behavior<Action, State, Void>.react { action, _ in
            switch action {
            case .insert(let id): return .reduce { $0.rows.append(Row(id: id)) }
            case .removeAt(let index):
                return .reduce { state in
                    if !state.rows.isEmpty { state.rows.remove(at: min(index, state.rows.count - 1)) }
                }
            case .tick: return .reduce { $0.ticks &+= 1 }
            case .row, .all: return .doNothing
            }
        }
        return .combine([
            app,
            (rowCore <> rowChannel).liftCollection(.action(rowPrism).state(\State.rows), site: "rows"),
            rowCore.liftEach(.action(broadcast: allPrism, into: rowPrism).state(\State.rows), site: "all"),
        ])
    }

    /// A SplitMix64 generator: the same mix on every run.
    struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var mixed = state
            mixed = (mixed ^ (mixed &>> 30)) &* 0xBF58_476D_1CE4_E5B9
            mixed = (mixed ^ (mixed &>> 27)) &* 0x94D0_49BB_1331_11EB
            return mixed ^ (mixed &>> 31)
        }
        mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(max(1, bound))) }
    }

    /// The driver: picks each action from the mix, against the Store's current rows.
    struct Driver {
        var random = Generator(state: 0x50A4_2024)
        var nextID: Int

        /// 35% bump, 15% level (half aimed at channel rows), 3% room (same), 15% ping (mailbox),
        /// 5% keyed save (effect registry), 1% tick, 0.1% broadcast to all, 12.95% insert,
        /// 12.95% remove at a random position.
        mutating func next(_ rows: [Row]) -> Action {
            let roll = random.below(10_000)
            func anyRow() -> Int { rows.isEmpty ? 0 : rows[random.below(rows.count)].id }
            func channelRow() -> Int { random.below(max(1, nextID / channelEvery)) * channelEvery }
            func row(_ action: RowAction) -> Action { .row(ElementAction(anyRow(), action: action)) }
            switch roll {
            case 0..<3_500: return row(.bump)
            case 3_500..<5_000:
                let id = random.below(2) == 0 ? channelRow() : anyRow()
                return .row(ElementAction(id, action: .setLevel(random.below(8))))
            case 5_000..<5_300:
                let id = random.below(2) == 0 ? channelRow() : anyRow()
                return .row(ElementAction(id, action: .setRoom(random.below(4))))
            case 5_300..<6_800: return row(.ping)
            case 6_800..<7_300: return row(.save)
            case 7_300..<7_400: return .tick
            case 7_400..<7_410: return .all(.bump)
            case 7_410..<8_705:
                nextID += 1
                return .insert(nextID - 1)
            default:
                return .removeAt(random.below(max(1, rows.count)))
            }
        }
    }

    /// Runs `warmUp` then `actions` actions, yielding to the mailbox drain every 64 dispatches,
    /// and reports the measured run.
    static func run(_ options: SoakOptions, counter: AllocationCounter, metadata: MachineMetadata, log: (String) -> Void) async -> SoakReport {
        let counters = Counters()
        StoreHooks.onDiagnostic = { diagnostic in
            if diagnostic.kind == .missingElement { counters.missing.add(1, ordering: .relaxed) }
        }
        let size = options.elements
        let store = Store(initial: State(rows: (0..<size).map { Row(id: $0) }), behavior: behavior(counters))
        var driver = Driver(nextID: size)

        func drive(_ count: Int) async {
            for index in 0..<count {
                store.dispatch(driver.next(store.state.rows))
                if index & 63 == 63 { await Task.yield() }
                if index % 100_000 == 99_999 { log("  \(index + 1) actions, \(store.state.rows.count) elements") }
            }
            var turns = 0
            while !store.isIdle, turns < 100_000 {
                await Task.yield()
                turns += 1
            }
        }

        let warmUp = min(max(options.actions / 10, 1_000), 50_000)
        log("soak: \(size) elements, \(store.openChannelIDs.count) channels open; warm-up of \(warmUp) actions")
        await drive(warmUp)
        let residentStart = ProcessMemory.residentBytes() ?? 0
        let openStart = store.openChannelIDs.count
        let registeredStart = store.registeredEffectCount
        let opensBefore = counters.opens.load(ordering: .relaxed)
        let closesBefore = counters.closes.load(ordering: .relaxed)
        let effectsBefore = counters.effectActions.load(ordering: .relaxed)
        log("measuring \(options.actions) actions")
        let clock = ContinuousClock()
        let allocationsBefore = counter.snapshot()
        let threadBefore = pthread_self()
        let start = clock.now
        await drive(options.actions)
        let elapsed = clock.now - start
        let allocations = counter.snapshot().since(allocationsBefore)
        let sameThread = pthread_equal(threadBefore, pthread_self()) != 0
        let residentEnd = ProcessMemory.residentBytes() ?? 0
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let report = SoakReport(
            metadata: metadata,
            elements: size,
            elementsAtEnd: store.state.rows.count,
            actions: options.actions,
            effectActions: counters.effectActions.load(ordering: .relaxed) - effectsBefore,
            seconds: seconds,
            allocations: allocations.count,
            // `thread.allocated` is per thread: when the awaits resumed the main actor on another
            // thread the difference is meaningless (it can even run backwards), so it is dropped.
            bytes: sameThread ? allocations.bytes : nil,
            residentBytesStart: residentStart,
            residentBytesEnd: residentEnd,
            openChannelsStart: openStart,
            openChannelsEnd: store.openChannelIDs.count,
            registeredEffectsStart: registeredStart,
            registeredEffectsEnd: store.registeredEffectCount,
            channelOpens: counters.opens.load(ordering: .relaxed) - opensBefore,
            channelCloses: counters.closes.load(ordering: .relaxed) - closesBefore
        )
        log("  actions addressed to an element already removed (dropped, reported): \(counters.missing.load(ordering: .relaxed))")
        return report
    }
}
