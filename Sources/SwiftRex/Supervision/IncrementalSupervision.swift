// Incremental supervision (<doc:SupervisionAndChannels#Reconcile-cost>): after an action that
// changes one element of a large supervised collection, only that element's channels are recomputed
// and reconciled.
//
// Two static facts make it sound. Every reducer unit declares its `MutationScope` — what it may
// mutate for an action: anything, the element the action addresses through one collection lift,
// or every element of one lift. And a collection lift's supervision keeps its keyed form, a
// per-store `ElementSupervisionTracking` object that can evaluate one element and remembers the
// channel keys each element wanted. When every unit that mutated in a dispatch was scoped to the
// addressed element of lift T, the Store asks T's tracker for that element only.

import Synchronization

/// Identifies one collection lift (one `liftCollection` or `liftEach` call), so that a mutation
/// scoped to it can be matched with its supervision.
@usableFromInline
internal struct LiftToken: Hashable, Sendable {
    @usableFromInline let raw: UInt64

    @usableFromInline
    init(raw: UInt64) { self.raw = raw }

    private static let counter = Atomic<UInt64>(0)

    /// A token no other lift has.
    @usableFromInline
    static func next() -> LiftToken {
        LiftToken(raw: counter.add(1, ordering: .relaxed).newValue)
    }
}

/// What a reducer unit may mutate for an action: nothing, anything, the element the action
/// addresses through one collection lift, or every element of one lift. One word, merged with
/// integer comparisons, so tracking it costs nothing measurable on the dispatch path.
@usableFromInline
internal struct MutationScope: Equatable, Sendable {
    /// 0: nothing; `.max`: anything; `token << 1`: the addressed element; `token << 1 | 1`: every element.
    @usableFromInline var raw: UInt64

    @inlinable init(raw: UInt64) { self.raw = raw }

    /// No mutation.
    @inlinable static var nothing: MutationScope { MutationScope(raw: 0) }
    /// Any part of the state.
    @inlinable static var anything: MutationScope { MutationScope(raw: .max) }
    /// Only the element the action addresses through the lift `token`.
    @inlinable static func addressed(_ token: LiftToken) -> MutationScope { MutationScope(raw: token.raw << 1) }
    /// Any element of the lift `token`, but nothing else.
    @inlinable static func eachElement(_ token: LiftToken) -> MutationScope { MutationScope(raw: token.raw << 1 | 1) }

    /// The scope of two mutations of the same dispatch.
    @inlinable
    func merged(_ other: MutationScope) -> MutationScope {
        if other.raw == 0 || other.raw == raw { return self }
        if raw == 0 { return other }
        return .anything
    }

    /// The lift whose addressed element is all this scope may have changed.
    @inlinable
    var addressedToken: LiftToken? {
        raw != 0 && raw != .max && raw & 1 == 0 ? LiftToken(raw: raw >> 1) : nil
    }
}

/// The channel keys one element wanted, without an array for the common zero- or one-channel case.
@usableFromInline
internal enum ElementKeys: RandomAccessCollection, Sendable {
    case none
    case one(AnyHashableSendable)
    case many([AnyHashableSendable])

    /// The ids of `channels[range]`. Index arithmetic only: a generic slice here would look up
    /// type metadata at run time on every element of a full evaluation. Inlinable, so a full
    /// evaluation's per-element call runs specialised (no metadata lookup per element).
    @inlinable
    init<A>(_ channels: [Channel<A>], _ range: Range<Int>) {
        switch range.count {
        case 0: self = .none
        case 1: self = .one(channels[range.lowerBound].id)
        default:
            var keys: [AnyHashableSendable] = []
            keys.reserveCapacity(range.count)
            for index in range { keys.append(channels[index].id) }
            self = .many(keys)
        }
    }

    /// Whether these are the same keys as `other`, in the same order.
    @inlinable
    func isSame(as other: ElementKeys) -> Bool {
        switch (self, other) {
        case (.none, .none): return true
        case (.one(let lhs), .one(let rhs)): return lhs == rhs
        case (.many(let lhs), .many(let rhs)): return lhs == rhs
        default: return false
        }
    }

    /// The ids of `channels`.
    @inlinable
    init<A>(_ channels: [Channel<A>]) {
        self.init(channels, 0..<channels.count)
    }

    @inlinable var startIndex: Int { 0 }
    @inlinable var endIndex: Int {
        switch self {
        case .none: return 0
        case .one: return 1
        case .many(let keys): return keys.count
        }
    }
    @inlinable subscript(position: Int) -> AnyHashableSendable {
        switch self {
        case .none: preconditionFailure("ElementKeys.none has no elements")
        case .one(let key): return key
        case .many(let keys): return keys[position]
        }
    }
}

/// A channel's place in container order: its supervision segment, its element's ordinal (its
/// position at the last full evaluation) and its index within the element.
@inlinable
internal func containerOrder(segment: Int, ordinal: Int, index: Int) -> UInt64 {
    UInt64(truncatingIfNeeded: segment) << 48 | UInt64(truncatingIfNeeded: ordinal & 0xFFFF_FFFF) << 16 | UInt64(min(index, 0xFFFF))
}

/// What a tracker remembers of one element: the channel keys it wanted and its ordinal.
@usableFromInline
internal struct ElementMemo: Sendable {
    @usableFromInline var keys: ElementKeys
    @usableFromInline var ordinal: Int

    @inlinable init(keys: ElementKeys, ordinal: Int) {
        self.keys = keys
        self.ordinal = ordinal
    }
}

/// One element a journaled container's edits touched: the keys it wanted, its channels now (empty
/// when it is gone) and its ordinal.
@usableFromInline
internal struct ElementChange<Action: Sendable> {
    @usableFromInline let previous: ElementKeys
    @usableFromInline let channels: Keep<Action>
    @usableFromInline let ordinal: Int

    @inlinable init(previous: ElementKeys, channels: Keep<Action>, ordinal: Int) {
        self.previous = previous
        self.channels = channels
        self.ordinal = ordinal
    }
}

/// How a keyed container reports its edits (an `IdentifiedArray`'s journal), over the app's state.
@usableFromInline
internal struct LaneJournal<GlobalState, ID>: Sendable {
    /// The container's content version (equal versions, equal contents).
    @usableFromInline let version: @Sendable (GlobalState) -> UInt64
    /// Calls the body with every edit since a version; `false` when the journal cannot tell.
    @usableFromInline let forEachEdit: @Sendable (GlobalState, UInt64, (ContainerEdit<ID>) -> Void) -> Bool
    /// An element's slot: increasing in container order, stable until an edit reorders.
    @usableFromInline let slot: @Sendable (ID, GlobalState) -> Int?

    @inlinable
    init(
        version: @escaping @Sendable (GlobalState) -> UInt64,
        forEachEdit: @escaping @Sendable (GlobalState, UInt64, (ContainerEdit<ID>) -> Void) -> Bool,
        slot: @escaping @Sendable (ID, GlobalState) -> Int?
    ) {
        self.version = version
        self.forEachEdit = forEachEdit
        self.slot = slot
    }
}

/// A keyed-state lane over a container that keeps an edit journal.
@usableFromInline
internal protocol JournaledKeyedState: KeyedState {
    /// The container's content version (equal versions, equal contents).
    func contentVersion(in state: GlobalState) -> UInt64
    /// Calls `body` with every edit since `version`; `false` when the journal cannot tell.
    func forEachEdit(in state: GlobalState, since version: UInt64, _ body: (ContainerEdit<ID>) -> Void) -> Bool
    /// The element's slot: increasing in container order, stable until an edit reorders.
    func slot(of id: ID, in state: GlobalState) -> Int?
    /// Calls `body` for every element with its id and slot, in container order (ids are unique).
    func forEachElementWithSlot(in state: GlobalState, _ body: (ID, Int, Element) -> Void)
}

extension JournaledKeyedState {
    /// This lane's journal as closures, type-erased (see `laneJournal(of:)`).
    @usableFromInline var erasedJournal: Any {
        let lane = self
        return LaneJournal<GlobalState, ID>(
            version: { lane.contentVersion(in: $0) },
            forEachEdit: { state, version, body in lane.forEachEdit(in: state, since: version, body) },
            slot: { id, state in lane.slot(of: id, in: state) }
        )
    }
}

extension JournaledKeyedState {
    /// ``forEachElementWithSlot(in:_:)`` as a closure, type-erased (see `laneSlottedForEach(of:)`).
    @usableFromInline var erasedSlottedForEach: Any {
        let lane = self
        let walk: @Sendable (GlobalState, (ID, Int, Element) -> Void) -> Void = { state, body in lane.forEachElementWithSlot(in: state, body) }
        return walk
    }
}

/// The walk over `lane`'s elements with their slots, when it keeps a journal.
@inlinable
internal func laneSlottedForEach<Lane: KeyedState>(of lane: Lane) -> (@Sendable (Lane.GlobalState, (Lane.ID, Int, Lane.Element) -> Void) -> Void)? {
    (lane as? any JournaledKeyedState)?.erasedSlottedForEach as? @Sendable (Lane.GlobalState, (Lane.ID, Int, Lane.Element) -> Void) -> Void
}

/// The journal of `lane`, when it keeps one.
@inlinable
internal func laneJournal<Lane: KeyedState>(of lane: Lane) -> LaneJournal<Lane.GlobalState, Lane.ID>? {
    (lane as? any JournaledKeyedState)?.erasedJournal as? LaneJournal<Lane.GlobalState, Lane.ID>
}

/// One supervision unit: the whole-state evaluation, and for a collection lift its keyed form.
@usableFromInline
internal struct SupervisionUnit<State: Sendable, Action: Sendable, Environment: Sendable>: Sendable {
    /// The channels the state wants.
    @usableFromInline let supervise: @MainActor @Sendable (State) -> Supervision<Action, Environment>
    /// The same evaluation reading the state where it lies: the Store hands over its storage and
    /// each focus lift its focus, so no level copies a large state onto the stack (only the
    /// address of the `inout` is used: nothing is written).
    @usableFromInline let read: @MainActor @Sendable (inout State) -> Supervision<Action, Environment>
    /// The per-element form, when the unit is (a lift of) a collection lift's supervision.
    @usableFromInline let keyed: KeyedSupervision<State, Action, Environment>?
    /// The part of the state the supervision reads (`touches`): a mutation that writes none of
    /// it cannot change the channels it wants.
    @usableFromInline let footprint: UnitFootprint

    /// A unit evaluated by `supervise`; `read` is its in-place form (by default `supervise` called
    /// with the state where it lies: the closure takes its argument by address, so nothing is
    /// copied on the way in).
    @inlinable
    init(
        _ supervise: @escaping @MainActor @Sendable (State) -> Supervision<Action, Environment>,
        keyed: KeyedSupervision<State, Action, Environment>? = nil,
        footprint: UnitFootprint = .whole,
        read: (@MainActor @Sendable (inout State) -> Supervision<Action, Environment>)? = nil
    ) {
        self.supervise = supervise
        self.read = read ?? { supervise($0) }
        self.keyed = keyed
        self.footprint = footprint
    }
}

/// A collection lift's supervision in keyed form: its lift token and a factory for the per-store
/// tracker that remembers each element's channels.
@usableFromInline
internal struct KeyedSupervision<State: Sendable, Action: Sendable, Environment: Sendable>: Sendable {
    @usableFromInline let token: LiftToken
    @usableFromInline let makeTracker: @MainActor @Sendable () -> any ElementSupervisionTracking<State, Action, Environment>

    @inlinable
    init(token: LiftToken, makeTracker: @escaping @MainActor @Sendable () -> any ElementSupervisionTracking<State, Action, Environment>) {
        self.token = token
        self.makeTracker = makeTracker
    }
}

/// A store's view of one collection lift's supervision: evaluates every element (remembering each
/// element's keys as pending), or just the element an action addresses.
@MainActor
@usableFromInline
internal protocol ElementSupervisionTracking<State, Action, Environment>: AnyObject {
    associatedtype State
    associatedtype Action: Sendable
    associatedtype Environment

    /// Appends every element's channels, in container order, recording each element's keys as
    /// pending. The state is `inout` for its address only (read where it lies, never written),
    /// here and in the other evaluations.
    func evaluateAll(_ state: inout State, _ environment: Environment, into keep: inout Keep<Action>)
    /// Forgets the pending keys (the focus was absent: no element).
    func clearPending()
    /// Makes the pending keys the remembered ones.
    func commitAll()
    /// Forgets the pending keys, which match the memo, and notes that the memo describes the
    /// evaluated content (a journaled container's version).
    func keepMemo()
    /// Whether the memo already describes the last evaluation: the same elements at the same
    /// ordinals (an unchanged desired set can still hide moved or inserted channel-less elements).
    var pendingMatchesMemo: Bool { get }
    /// Appends the container order of every channel the last `evaluateAll` produced.
    func appendOrders(segment: Int, into orders: inout [UInt64])
    /// The keys the element addressed by `action` wanted last, its channels now (empty when it is
    /// gone) and its ordinal; `nil` when the action addresses no element this lift knew.
    func evaluateAddressed(_ action: Action, _ state: inout State, _ environment: Environment) -> (
        previous: ElementKeys, channels: Keep<Action>, ordinal: Int
    )?
    /// Remembers `keys` for the element the last `evaluateAddressed` call addressed.
    func commitAddressed(_ keys: ElementKeys)
    /// The elements the container's edit journal says changed since the memo was last brought up
    /// to date, each with the keys it wanted, its channels now (empty when it is gone) and its
    /// ordinal, appended to `changes` in journal order (a buffer the caller reuses, so a dispatch
    /// allocates no list of them); `false` when the journal cannot say (no journal, too many
    /// edits, a reorder, the focus gone): the segment must be evaluated whole. The state is
    /// `inout` for its address only: it is read in place, never written.
    func evaluateEdits(_ state: inout State, _ environment: Environment, into changes: inout [ElementChange<Action>]) -> Bool
    /// Remembers what the last `evaluateEdits` call found.
    func commitEdits()
    /// Whether the container keeps an edit journal (`evaluateEdits` can answer).
    var hasJournal: Bool { get }
    /// Appends the keys every remembered element wanted (in no particular order).
    func appendRememberedKeys(into keys: inout [AnyHashableSendable])
}

/// The tracker of one `liftCollection`/`liftEach`: typed element ids, a memo of each element's keys.
///
/// The per-element work comes in as closures built by the lift in inlinable code, so it runs
/// specialised for the app's types: this class's own methods are reached through a protocol
/// witness and run unspecialised, where every generic array operation looks up type metadata.
@MainActor
@usableFromInline
internal final class ElementSupervisionTracker<GA: Sendable, GS: Sendable, GE: Sendable, ID: Hashable & Sendable>: ElementSupervisionTracking {
    /// Appends every element's channels in container order, recording each element's id, keys
    /// and ordinal.
    @usableFromInline typealias EvaluateAll = @MainActor (GS, GE, inout Keep<GA>, inout [ID], inout [ElementKeys], inout [Int]) -> Void
    /// Appends one element's channels; `false` when the element is absent.
    @usableFromInline typealias EvaluateOne = @MainActor (ID, GS, GE, inout Keep<GA>) -> Bool
    /// Refills the memo with recorded ids, keys and ordinals (first occurrence of an id wins),
    /// and the memo's id at each ordinal (its inverse: see `memoIDs`), reusing both tables'
    /// storage: a 100k-entry table is not allocated anew (nor its pages made resident again).
    @usableFromInline typealias BuildMemo = (inout [ID: ElementMemo], [ID], [ElementKeys], [Int], inout [ID?]) -> Void
    /// Writes recorded keys into a memo that already holds exactly the recorded ids at the
    /// recorded ordinals, touching only the entries whose keys changed.
    @usableFromInline typealias UpdateMemoKeys = (inout [ID: ElementMemo], [ID], [ElementKeys]) -> Void
    /// Whether a memo of `count` entries whose id at each ordinal is given holds exactly these ids
    /// at these ordinals.
    @usableFromInline typealias MemoMatches = ([ID], [Int], Int, [ID?]) -> Bool
    /// Whether two id lists are equal (in specialised code: a plain loop, no hashing).
    @usableFromInline typealias SameIDs = ([ID], [ID]) -> Bool
    /// Remembers edited elements' keys and ordinals (`nil` keys: the element is gone).
    /// Keeps the memo's id at each ordinal in step.
    @usableFromInline typealias ApplyEdits = (inout [ID: ElementMemo], inout [ID?], [(id: ID, keys: ElementKeys?, ordinal: Int)]) -> Void
    /// Appends the ids the journal says were edited since a version, once each, in edit order;
    /// `false` when it cannot say or the edits include a reorder.
    @usableFromInline typealias EditedIDs = (GS, UInt64, inout [ID]) -> Bool
    /// The element an action addresses, if the memo (passed `inout` only to be read without a
    /// retain) knows it: records its id in the fifth argument, appends its channels to `keep` and
    /// returns what the memo remembers of it. One specialised call: here, unspecialised, the id's
    /// extraction, the memo's lookup and the optional id each looked up type metadata at run time.
    @usableFromInline typealias EvaluateAddressed = @MainActor (GA, GS, GE, inout [ID: ElementMemo], inout ID?, inout Keep<GA>) -> ElementMemo?
    /// Replaces the remembered keys of the element recorded by the last `EvaluateAddressed` call
    /// (in specialised code: a dictionary write here, unspecialised, allocates coroutine frames).
    @usableFromInline typealias CommitAddressed = (inout [ID: ElementMemo], inout ID?, ElementKeys) -> Void
    /// Appends every remembered key (in specialised code, for the same reason).
    @usableFromInline typealias RememberedKeys = ([ID: ElementMemo], inout [AnyHashableSendable]) -> Void

    private let evaluateElements: EvaluateAll
    private let evaluateElement: EvaluateOne
    private let buildMemo: BuildMemo
    private let updateMemoKeys: UpdateMemoKeys
    private let memoMatches: MemoMatches
    private let evaluateAddressedElement: EvaluateAddressed
    private let commitAddressedKeys: CommitAddressed
    private let rememberedKeys: RememberedKeys
    private let applyEdits: ApplyEdits
    private let editedIDs: EditedIDs
    private let sameIDs: SameIDs
    private let journal: LaneJournal<GS, ID>?
    // Not checked for exclusivity at run time: only the main actor touches a tracker, inside a
    // Store's phase 5, which never nests.
    @exclusivity(unchecked) private var memo: [ID: ElementMemo] = [:]
    /// The memo's inverse: at each ordinal, the id the memo places there (`nil`: none). An
    /// evaluation matches the memo exactly when it has as many elements and each id sits at its
    /// ordinal here: a walk over an array, where asking the memo per element hashes into a
    /// large dictionary (cache misses on every element of a 100k collection).
    private var memoIDs: [ID?] = []
    private var pendingIDs: [ID] = []
    private var pendingKeys: [ElementKeys] = []
    private var pendingOrdinals: [Int] = []
    /// The ids and ordinals of the last full commit, in container order, while no element
    /// committed since came, went or moved: the memo then matches an evaluation exactly when
    /// these lists do, compared without hashing.
    private var lastIDs: [ID] = []
    private var lastOrdinals: [Int] = []
    private var lastListsValid = false
    @exclusivity(unchecked) private var lastAddressed: ID?
    /// The content version the memo describes, for a journaled container (`nil`: unknown).
    private var syncedVersion: UInt64?
    /// The content version of the last evaluation, committed with it.
    private var pendingVersion: UInt64?
    private var pendingEdits: [(id: ID, keys: ElementKeys?, ordinal: Int)] = []
    /// A reused buffer of edited ids.
    private var editedBuffer: [ID] = []

    @usableFromInline
    init(
        journal: LaneJournal<GS, ID>?, evaluateAddressed: @escaping EvaluateAddressed, commitAddressed: @escaping CommitAddressed,
        evaluateAll: @escaping EvaluateAll, evaluateOne: @escaping EvaluateOne,
        buildMemo: @escaping BuildMemo, updateMemoKeys: @escaping UpdateMemoKeys, memoMatches: @escaping MemoMatches,
        applyEdits: @escaping ApplyEdits, editedIDs: @escaping EditedIDs, sameIDs: @escaping SameIDs,
        rememberedKeys: @escaping RememberedKeys
    ) {
        evaluateAddressedElement = evaluateAddressed
        commitAddressedKeys = commitAddressed
        self.journal = journal
        self.applyEdits = applyEdits
        self.editedIDs = editedIDs
        self.sameIDs = sameIDs
        evaluateElements = evaluateAll
        evaluateElement = evaluateOne
        self.buildMemo = buildMemo
        self.updateMemoKeys = updateMemoKeys
        self.memoMatches = memoMatches
        self.rememberedKeys = rememberedKeys
    }

    @usableFromInline
    var pendingMatchesMemo: Bool {
        if lastListsValid { return pendingOrdinals == lastOrdinals && sameIDs(pendingIDs, lastIDs) }
        return memoMatches(pendingIDs, pendingOrdinals, memo.count, memoIDs)
    }

    @usableFromInline
    func evaluateAll(_ state: inout GS, _ environment: GE, into keep: inout Keep<GA>) {
        clearPending()
        pendingVersion = journal?.version(state)
        evaluateElements(state, environment, &keep, &pendingIDs, &pendingKeys, &pendingOrdinals)
    }

    @usableFromInline
    func clearPending() {
        pendingIDs.removeAll(keepingCapacity: true)
        pendingKeys.removeAll(keepingCapacity: true)
        pendingOrdinals.removeAll(keepingCapacity: true)
        pendingEdits.removeAll(keepingCapacity: true)
        pendingVersion = nil
    }

    @usableFromInline
    func keepMemo() {
        syncedVersion = pendingVersion
        clearPending()
    }

    @usableFromInline
    func commitAll() {
        // The same elements at the same ordinals (a broadcast, or an element that changed its
        // channels without coming, going or moving): only changed keys are written. Otherwise
        // the memo is refilled in its own storage.
        if pendingMatchesMemo {
            updateMemoKeys(&memo, pendingIDs, pendingKeys)
        } else {
            buildMemo(&memo, pendingIDs, pendingKeys, pendingOrdinals, &memoIDs)
        }
        syncedVersion = pendingVersion
        swap(&lastIDs, &pendingIDs)
        swap(&lastOrdinals, &pendingOrdinals)
        lastListsValid = true
        clearPending()
    }

    @usableFromInline
    func appendOrders(segment: Int, into orders: inout [UInt64]) {
        for position in pendingKeys.indices {
            // The count read in place: a copy of the keys retains and releases them.
            let count: Int
            switch pendingKeys[position] {
            case .none: continue
            case .one: count = 1
            case .many(let keys): count = keys.count
            }
            for index in 0..<count {
                orders.append(containerOrder(segment: segment, ordinal: pendingOrdinals[position], index: index))
            }
        }
    }

    @usableFromInline
    func evaluateAddressed(_ action: GA, _ state: inout GS, _ environment: GE) -> (previous: ElementKeys, channels: Keep<GA>, ordinal: Int)? {
        var keep: Keep<GA> = []
        guard let remembered = evaluateAddressedElement(action, state, environment, &memo, &lastAddressed, &keep) else { return nil }
        return (remembered.keys, keep, remembered.ordinal)
    }

    @usableFromInline
    func commitAddressed(_ keys: ElementKeys) {
        commitAddressedKeys(&memo, &lastAddressed, keys)
    }

    @usableFromInline
    func evaluateEdits(_ state: inout GS, _ environment: GE, into changes: inout [ElementChange<GA>]) -> Bool {
        guard let journal, let synced = syncedVersion else { return false }
        editedBuffer.removeAll(keepingCapacity: true)
        guard editedIDs(state, synced, &editedBuffer) else { return false }
        pendingEdits.removeAll(keepingCapacity: true)
        pendingVersion = journal.version(state)
        for id in editedBuffer {
            var keep: Keep<GA> = []
            let present = evaluateElement(id, state, environment, &keep)
            let remembered = memo[id]
            guard let ordinal = present ? journal.slot(id, state) : remembered?.ordinal else { continue }
            pendingEdits.append((id, present ? ElementKeys(keep) : nil, ordinal))
            changes.append(ElementChange(previous: remembered?.keys ?? .none, channels: keep, ordinal: ordinal))
        }
        return true
    }

    @usableFromInline
    var hasJournal: Bool { journal != nil }

    @usableFromInline
    func commitEdits() {
        // Edits that only modified elements keep the ids and ordinals; any other changes them.
        for edit in pendingEdits where edit.keys == nil || memo[edit.id]?.ordinal != edit.ordinal {
            lastListsValid = false
            break
        }
        applyEdits(&memo, &memoIDs, pendingEdits)
        syncedVersion = pendingVersion
        clearPending()
    }

    @usableFromInline
    func appendRememberedKeys(into keys: inout [AnyHashableSendable]) {
        rememberedKeys(memo, &keys)
    }
}

/// A collection lift's tracker seen through a focus lift (`lift`, `liftOptional`): the same memo,
/// reached through the focus.
@MainActor
@usableFromInline
internal final class FocusedSupervisionTracker<LA: Sendable, LS: Sendable, LE: Sendable, GA: Sendable, GS: Sendable, GE: Sendable>:
    ElementSupervisionTracking
{
    @usableFromInline let inner: any ElementSupervisionTracking<LS, LA, LE>
    @usableFromInline let lift: FocusLift<LA, LS, LE, GA, GS, GE>

    @usableFromInline
    init(inner: any ElementSupervisionTracking<LS, LA, LE>, lift: FocusLift<LA, LS, LE, GA, GS, GE>) {
        self.inner = inner
        self.lift = lift
    }

    @usableFromInline
    func evaluateAll(_ state: inout GS, _ environment: GE, into keep: inout Keep<GA>) {
        // The focus is read where it lies and handed on by address: a large state is not copied
        // per lift level.
        let inner = self.inner
        let narrowed = lift.narrow(environment)
        var local: Keep<LA> = []
        guard lift.inspectFocus(&state, { slice in inner.evaluateAll(&slice, narrowed, into: &local) }) else {
            inner.clearPending()
            return
        }
        let embed = lift.embed
        for channel in local { keep.append(channel.mapAction(embed)) }
    }

    @usableFromInline
    func clearPending() { inner.clearPending() }

    @usableFromInline
    func commitAll() { inner.commitAll() }

    @usableFromInline
    func keepMemo() { inner.keepMemo() }

    @usableFromInline
    var pendingMatchesMemo: Bool { inner.pendingMatchesMemo }

    @usableFromInline
    func appendOrders(segment: Int, into orders: inout [UInt64]) { inner.appendOrders(segment: segment, into: &orders) }

    @usableFromInline
    func evaluateAddressed(_ action: GA, _ state: inout GS, _ environment: GE) -> (previous: ElementKeys, channels: Keep<GA>, ordinal: Int)? {
        guard let local = lift.extract(action) else { return nil }
        let inner = self.inner
        let narrowed = lift.narrow(environment)
        var evaluated: (previous: ElementKeys, channels: Keep<LA>, ordinal: Int)?
        _ = lift.inspectFocus(&state) { slice in evaluated = inner.evaluateAddressed(local, &slice, narrowed) }
        guard let (previous, channels, ordinal) = evaluated else { return nil }
        let embed = lift.embed
        return (previous, channels.map { $0.mapAction(embed) }, ordinal)
    }

    @usableFromInline
    func commitAddressed(_ keys: ElementKeys) { inner.commitAddressed(keys) }

    @usableFromInline
    func appendRememberedKeys(into keys: inout [AnyHashableSendable]) { inner.appendRememberedKeys(into: &keys) }

    @usableFromInline
    func evaluateEdits(_ state: inout GS, _ environment: GE, into changes: inout [ElementChange<GA>]) -> Bool {
        let inner = self.inner
        let narrowed = lift.narrow(environment)
        var local: [ElementChange<LA>] = []
        var evaluated = false
        _ = lift.inspectFocus(&state) { slice in evaluated = inner.evaluateEdits(&slice, narrowed, into: &local) }
        guard evaluated else { return false }
        let embed = lift.embed
        for change in local {
            changes.append(ElementChange(previous: change.previous, channels: change.channels.map { $0.mapAction(embed) }, ordinal: change.ordinal))
        }
        return true
    }

    @usableFromInline
    func commitEdits() { inner.commitEdits() }

    @usableFromInline
    var hasJournal: Bool { inner.hasJournal }
}
