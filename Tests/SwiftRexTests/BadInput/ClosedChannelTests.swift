@_spi(Testing) import SwiftRex
import Synchronization
import Testing

/// Bad input: a channel's `dispatch` called after the channel closed — a late SDK callback writing
/// into a closed conversation — and a channel body that throws.
///
/// Defined outcomes:
/// - after a channel closes (it left the desired set, was cancelled, completed, its element was
///   removed, or its Store is gone) its `dispatch` drops what it is given, like a `Send` after
///   cancellation; the first dropped action of each opening is reported as `.actionAfterClose`;
/// - a body that throws opens nothing: the channel is not in `openChannelIDs`, the error is
///   reported as `.channelFailed`, and the channel counts as completed (it is tried again when its
///   reset key or broadcast value changes, or when it leaves the desired set and comes back);
/// - an `Effect.channel` consumer that throws closes its channel and is reported the same way.
@MainActor
@Suite("Bad input: channels after close, and bodies that throw")
struct ClosedChannelTests {
    enum Action: Sendable, Equatable {
        case setLive(Bool)
        case setRoom(Int)
        case setVolume(Int)
        case value(Int)
        case row(ElementAction<Int, RowAction>)
        case removeRow(Int)
    }
    enum RowAction: Sendable, Equatable { case value(Int) }
    struct Row: Identifiable, Sendable, Equatable {
        var id: Int
        var received: [Int] = []
    }
    struct State: Sendable, Equatable {
        var live = false
        var room = 0
        var volume = 0
        var received: [Int] = []
        var rows: [Row] = []
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String { "socket refused" }
    }

    /// The `dispatch` a channel body let escape (as an SDK callback would keep it).
    final class Leak: Sendable {
        private let slot = Mutex<(@Sendable (Action) -> Void)?>(nil)
        func keep(_ dispatch: @escaping @Sendable (Action) -> Void) { slot.withLock { $0 = dispatch } }
        var kept: (@Sendable (Action) -> Void)? { slot.withLock { $0 } }
        func callAsFunction(_ action: Action) { kept?(action) }
    }

    /// The same for a row's channel.
    final class RowLeak: Sendable {
        private let slot = Mutex<(@Sendable (RowAction) -> Void)?>(nil)
        func keep(_ dispatch: @escaping @Sendable (RowAction) -> Void) { slot.withLock { $0 = dispatch } }
        func callAsFunction(_ action: RowAction) { slot.withLock { $0 }?(action) }
    }

    static let reducer = Behavior<Action, State, Void>.reduce { action, state in
        switch action {
        case .setLive(let live): state.live = live
        case .setRoom(let room): state.room = room
        case .setVolume(let volume): state.volume = volume
        case .value(let value): state.received.append(value)
        case .removeRow(let id): state.rows.removeAll { $0.id == id }
        case .row: break
        }
    }

    /// Supervises the channel "feed" while `live`; the channel's `dispatch` escapes into `leak`.
    static func store(leak: Leak) -> Store<Action, State, Void> {
        let behavior = reducer.supervise { state in
            Supervision { _ in
                state.live
                    ? [
                        Channel<Action>(id: "feed") { dispatch in
                            leak.keep(dispatch)
                            return ChannelHandler<Never>.cancelOnly {}
                        }
                    ] : []
            }
        }
        return Store(initial: State(), behavior: behavior)
    }

    @Test func aClosedChannelsDispatchDeliversNothingAndIsReportedOnce() async {
        let leak = Leak()
        let store = Self.store(leak: leak)
        store.dispatch(.setLive(true))
        store.dispatch(.setLive(false))
        #expect(store.openChannelIDs.isEmpty)
        let diagnostics = await collectingDiagnostics {
            leak(.value(42))
            leak(.value(43))
            store.drainEffectActionsNow()
            for _ in 0..<20 { await Task.yield() }
        }
        #expect(store.state.received.isEmpty)
        #expect(store.isIdle)
        #expect(diagnostics.map(\.kind) == [.actionAfterClose])
        #expect(diagnostics.first?.message.contains("\"feed\"") == true)
        #expect(diagnostics.first?.message.contains("value(42)") == true)
    }

    @Test func anOpenChannelsDispatchStillDelivers() async {
        let leak = Leak()
        let store = Self.store(leak: leak)
        store.dispatch(.setLive(true))
        leak(.value(1))
        #expect(await eventually { store.state.received == [1] })
    }

    @Test func aReopenedChannelDeliversThroughItsNewDispatchOnly() async {
        let leak = Leak()
        let store = Self.store(leak: leak)
        store.dispatch(.setLive(true))
        let firstOpening = leak.kept
        store.dispatch(.setLive(false))
        store.dispatch(.setLive(true))
        let diagnostics = await collectingDiagnostics {
            firstOpening?(.value(6))
            leak(.value(7))
            #expect(await eventually { store.state.received == [7] })
        }
        #expect(diagnostics.map(\.kind) == [.actionAfterClose])
    }

    @Test func aChannelsDispatchAfterItsStoreIsGoneIsDroppedAndReported() async {
        let leak = Leak()
        weak var weakStore: Store<Action, State, Void>?
        do {
            let store = Self.store(leak: leak)
            weakStore = store
            store.dispatch(.setLive(true))
        }
        #expect(await eventually { weakStore == nil })
        let diagnostics = collectingDiagnostics {
            leak(.value(1))
        }
        #expect(diagnostics.map(\.kind) == [.actionAfterClose])
    }

    @Test func aRemovedElementsChannelDispatchIsDropped() async {
        let leak = RowLeak()
        let row = Behavior<RowAction, Row, Void>
            .reduce { action, row in if case .value(let value) = action { row.received.append(value) } }
            .supervise { _ in
                Supervision { _ in
                    [
                        Channel<RowAction>(id: "row feed") { dispatch in
                            leak.keep(dispatch)
                            return ChannelHandler<Never>.cancelOnly {}
                        }
                    ]
                }
            }
        let rowPrism = Prism<Action, ElementAction<Int, RowAction>>(
            preview: { if case .row(let action) = $0 { action } else { nil } }, review: Action.row)
        let lifted = row.liftCollection(.action(rowPrism).state(\State.rows), site: "rows")
        let store = Store(initial: State(rows: [Row(id: 1)]), behavior: lifted <> Self.reducer)
        #expect(store.openChannelIDs.count == 1)
        leak(.value(1))
        #expect(await eventually { store.state.rows.first?.received == [1] })
        store.dispatch(.removeRow(1))
        #expect(store.openChannelIDs.isEmpty)
        let diagnostics = collectingDiagnostics {
            leak(.value(2))
            store.drainEffectActionsNow()
        }
        #expect(diagnostics.map(\.kind) == [.actionAfterClose])
        #expect(store.state.rows.isEmpty)
    }

    @Test func anEffectChannelsSendAfterItCompletedIsDropped() async {
        let leak = Leak()
        let store = Store(
            initial: State(),
            behavior: Self.reducer.produce { action, _ in
                guard action == .setLive(true) else { return .doNothing }
                return Producer { _ in
                    .channel(value: 0, scheduling: .keyed(id: "once")) { send, complete in
                        leak.keep(send)
                        send(.value(1))
                        return ChannelHandler<Int>(receive: { _ in }, cancel: {})
                    }
                }
            }
                <> Behavior.produce { action, _ in
                    action == .setLive(false) ? Producer { _ in .cancel(id: "once") } : .doNothing
                })
        store.dispatch(.setLive(true))
        #expect(await eventually { store.state.received == [1] })
        store.dispatch(.setLive(false))
        let diagnostics = collectingDiagnostics {
            leak(.value(2))
            store.drainEffectActionsNow()
        }
        #expect(store.state.received == [1])
        #expect(diagnostics.map(\.kind) == [.actionAfterClose])
    }

    // MARK: Bodies that throw

    /// Supervises "socket" (reset by `room`, broadcasting `volume`) while `live`; the body throws
    /// while `failing` says so.
    static func throwingStore(failing: SharedFlag, log: EventLog) -> Store<Action, State, Void> {
        let behavior = reducer.supervise { state in
            Supervision { _ in
                state.live
                    ? [
                        Channel<Action>(id: "socket", lifetime: .ephemeral(resetKey: state.room), broadcasting: .onChange(state.volume)) { _ in
                            log.append("open \(state.room)")
                            if failing.value { throw Failure() }
                            return ChannelHandler<Int>(receive: { log.append("volume \($0)") }, cancel: { log.append("close") })
                        }
                    ] : []
            }
        }
        return Store(initial: State(), behavior: behavior)
    }

    @Test func aThrowingBodyOpensNothingAndIsReported() async {
        let failing = SharedFlag(true)
        let log = EventLog()
        let store = Self.throwingStore(failing: failing, log: log)
        let diagnostics = collectingDiagnostics {
            store.dispatch(.setLive(true))
        }
        #expect(store.openChannelIDs.isEmpty)
        #expect(store.isIdle)
        #expect(log.events == ["open 0"])
        #expect(diagnostics.map(\.kind) == [.channelFailed])
        #expect(diagnostics.first?.message.contains("socket refused") == true)
        #expect(diagnostics.first?.message.contains("\"socket\"") == true)
    }

    @Test func aFailedChannelIsTriedAgainWhenItsResetKeyOrBroadcastChangesOrItComesBack() async {
        let failing = SharedFlag(true)
        let log = EventLog()
        let store = Self.throwingStore(failing: failing, log: log)
        let diagnostics = collectingDiagnostics {
            store.dispatch(.setLive(true))
            store.dispatch(.setRoom(1))
            store.dispatch(.setVolume(1))
            store.dispatch(.setLive(false))
            store.dispatch(.setLive(true))
        }
        #expect(log.events == ["open 0", "open 1", "open 1", "open 1"])
        #expect(diagnostics.map(\.kind) == Array(repeating: .channelFailed, count: 4))
        #expect(store.openChannelIDs.isEmpty)
        failing.value = false
        store.dispatch(.setVolume(2))
        #expect(store.openChannelIDs == [AnyHashableSendable("socket")])
        #expect(log.events.suffix(2) == ["open 1", "volume 2"])
    }

    @Test func aThrowingEffectChannelBodyOpensNothingAndIsReported() async {
        let store = Store(
            initial: State(),
            behavior: Self.reducer.produce { action, _ in
                guard action == .setLive(true) else { return .doNothing }
                return Producer { _ in
                    .channel(value: 0, scheduling: .keyed(id: "handler")) {
                        (_: @escaping @Sendable (Action) -> Void, _: @escaping @Sendable () -> Void) throws -> ChannelHandler<Int> in
                        throw Failure()
                    }
                }
            })
        let diagnostics = collectingDiagnostics {
            store.dispatch(.setLive(true))
        }
        #expect(store.openChannelIDs.isEmpty)
        #expect(store.registeredEffectCount == 0)
        #expect(diagnostics.map(\.kind) == [.channelFailed])
    }

    @Test func aConsumerThatThrowsClosesItsChannelAndIsReported() async {
        let store = Store(
            initial: State(),
            behavior: Self.reducer.produce { action, _ in
                guard action == .setLive(true) else { return .doNothing }
                return Producer { _ in
                    .channel(value: 5, scheduling: .keyed(id: "consumer")) { values, send in
                        for await value in values {
                            send(.value(value))
                            throw Failure()
                        }
                    }
                }
            })
        let diagnostics = await collectingDiagnostics {
            store.dispatch(.setLive(true))
            #expect(await eventually { store.openChannelIDs.isEmpty && store.isIdle })
        }
        #expect(store.state.received == [5])
        #expect(diagnostics.map(\.kind) == [.channelFailed])
        #expect(diagnostics.first?.message.contains("socket refused") == true)
    }
}

/// A flag shared by reference across threads.
final class SharedFlag: Sendable {
    private let state: Mutex<Bool>
    init(_ value: Bool) { state = Mutex(value) }
    var value: Bool {
        get { state.withLock { $0 } }
        set { state.withLock { $0 = newValue } }
    }
}
