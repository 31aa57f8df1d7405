import Foundation
import LabCore
import SwiftRex
import Synchronization

/// The soak: a large supervised collection (`liftCollection` over an `IdentifiedArray`, a channel
/// on every hundredth element) under a steady mix of actions — by-id element actions, a rare
/// broadcast to every element, app-level inserts and removals that keep the size about constant,
/// and actions whose effects come back through the mailbox (plain and keyed) or through a channel
/// — with resident memory read before and after. The app-level units say what they touch
/// (`confined(to:)`), as the library's docs recommend, and the container's edit journal lets an
/// insert or removal reconcile the element that came or went.
@MainActor
enum SoakWorkload {
    struct Row: Identifiable, Sendable {
        var id: Int
        var count = 0
        var room = 0
        var level = 0
    }

    struct State: Sendable {
        var rows: IdentifiedArray<Row>
        var ticks = 0
    }

    enum RowAction: Sendable {
        case bump
        case setRoom(Int)
        case setLevel(Int)
        case ping, pong, save, saved
    }

    enum Action: Sendable {
        case row(ElementAction<Int, RowAction>)
        case all(RowAction)
        case insert(Int)
        case remove(Int)
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
                [
                    Channel<RowAction>(id: "link", lifetime: .ephemeral(resetKey: room), broadcasting: .onChange(row.level)) { dispatch in
                        counters.opens.add(1, ordering: .relaxed)
                        return ChannelHandler<Int>(
                            receive: { level in if level & 3 == 3 { dispatch(.pong) } },
                            cancel: { counters.closes.add(1, ordering: .relaxed) }
                        )
                    }
                ]
            }
        }
        let structure = Behavior<Action, State, Void>.react { action, _ in
            switch action {
            case .insert(let id): return .reduce { $0.rows.append(Row(id: id)) }
            case .remove(let id): return .reduce { $0.rows.remove(id: id) }
            case .tick, .row, .all: return .doNothing
            }
        }.confined(to: \State.rows)
        let ticks = Behavior<Action, State, Void>.react { action, _ in
            guard case .tick = action else { return .doNothing }
            return .reduce { $0.ticks &+= 1 }
        }.confined(to: \State.ticks)
        return .combine([
            structure,
            ticks,
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

    /// The driver: picks each action from the mix, against the ids it knows to be live (it
    /// inserts and removes them itself; a removed id still gets late actions).
    struct Driver {
        var random = Generator(state: 0x50A4_2024)
        var nextID: Int
        /// The live ids, in no order, and where each is (swap-removal keeps both O(1)).
        var live: LiveIDs

        init(size: Int) {
            nextID = size
            live = LiveIDs(count: size)
        }

        /// 35% bump, 15% level (half aimed at channel rows), 3% room (same), 15% ping (mailbox),
        /// 5% keyed save (effect registry), 1% tick, 0.1% broadcast to all, 12.95% insert,
        /// 12.95% removal of a random row.
        mutating func next() -> Action {
            let roll = random.below(10_000)
            func anyRow() -> Int { live.isEmpty ? 0 : live[random.below(live.count)] }
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
                live.insert(nextID - 1)
                return .insert(nextID - 1)
            default:
                guard !live.isEmpty else { return .tick }
                let removed = live[random.below(live.count)]
                live.remove(removed)
                return .remove(removed)
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
        let store = Store(initial: State(rows: IdentifiedArray((0..<size).map { Row(id: $0) })), behavior: behavior(counters))
        var driver = Driver(size: size)

        func drive(_ count: Int) async {
            for index in 0..<count {
                store.dispatch(driver.next())
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
        let start = clock.now
        await drive(options.actions)
        let elapsed = clock.now - start
        let allocationsAfter = counter.snapshot()
        let allocations = allocationsAfter.since(allocationsBefore)
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
            // Every thread's bytes (the counter sums jemalloc's size classes), so the reading holds
            // wherever the awaits resumed the main actor.
            bytes: allocations.bytes,
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
