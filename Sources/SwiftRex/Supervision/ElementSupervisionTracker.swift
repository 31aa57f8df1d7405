// One of the library's files with unsafe code: the tracker's memo skips the runtime's exclusivity
// checks, since only the main actor touches it, inside a Store's phase 5, which never nests.
// Exercised under TSan and ASan by the supervision tests.

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
    /// Appends one element's channels, given the keys it wanted last; `false` when the element is absent.
    @usableFromInline typealias EvaluateOne = @MainActor (ID, GS, GE, ElementKeys, inout Keep<GA>) -> Bool
    /// ``EvaluateOne`` for the element at an offset of a watched plain array (where its edit says
    /// it lies): no id table is read.
    @usableFromInline typealias EvaluateAt = @MainActor (ID, Int, GS, GE, ElementKeys, inout Keep<GA>) -> Bool
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
    /// Evaluates the elements a journal says were edited since a version (see `journaledEdits`).
    @usableFromInline typealias EvaluateJournaled =
        @MainActor (GS, GE, UInt64, inout [ID: ElementMemo], inout IDLists, inout [ElementChange<GA>]) -> UInt64?
    /// Evaluates the elements a plain array's edits name, then the one an action addresses (see
    /// `watchedEdits`).
    @usableFromInline typealias EvaluateWatched =
        @MainActor ([ArrayEdit<ID>], GA?, GS, GE, Int, inout [ID: ElementMemo], inout IDLists, inout [ElementChange<GA>]) -> Bool
    /// Remembers the pending edits in the memo and its inverse (see `rememberEdits`).
    @usableFromInline typealias RememberEdits = (inout [ID: ElementMemo], inout [ID?], inout IDLists) -> Bool
    /// Empties the pending ids and edits (see `emptyPending`).
    @usableFromInline typealias ClearLists = (inout IDLists) -> Void
    /// The element an action addresses, if the memo (passed `inout` only to be read without a
    /// retain) knows it: records its id in the fifth argument, appends its channels to `keep` and
    /// returns what the memo remembers of it. One specialised call: here, unspecialised, the id's
    /// extraction, the memo's lookup and the optional id each looked up type metadata at run time.
    @usableFromInline typealias EvaluateAddressed = @MainActor (GA, GS, GE, inout [ID: ElementMemo], inout ID?, inout Keep<GA>) -> ElementMemo?
    /// Feeds the element an action addresses in place, from its own channels (see
    /// `ElementSupervisionTracking.feedAddressed`), recording its id like `EvaluateAddressed`.
    @usableFromInline typealias FeedAddressed =
        @MainActor (GA, GS, GE, inout [ID: ElementMemo], inout ID?, inout ChannelReconciler<GA>, ElementFeedTarget<GA>, inout Keep<GA>) ->
        AddressedFeed
    /// Replaces the remembered keys of the element recorded by the last `EvaluateAddressed` call
    /// (in specialised code: a dictionary write here, unspecialised, allocates coroutine frames).
    @usableFromInline typealias CommitAddressed = (inout [ID: ElementMemo], inout ID?, ElementKeys) -> Void
    /// Appends every remembered key (in specialised code, for the same reason).
    @usableFromInline typealias RememberedKeys = ([ID: ElementMemo], inout [AnyHashableSendable]) -> Void

    private let evaluateElements: EvaluateAll
    private let buildMemo: BuildMemo
    private let updateMemoKeys: UpdateMemoKeys
    private let memoMatches: MemoMatches
    private let evaluateAddressedElement: EvaluateAddressed
    private let feedAddressedElement: FeedAddressed
    private let commitAddressedKeys: CommitAddressed
    private let rememberedKeys: RememberedKeys
    private let evaluateJournaled: EvaluateJournaled?
    private let evaluateWatched: EvaluateWatched
    private let rememberEditLists: RememberEdits
    private let clearLists: ClearLists
    private let sameIDs: SameIDs
    private let journal: LaneJournal<GS, ID>?
    /// The edits of a plain array container, told by the Store's bracketed writes (`nil`: the
    /// container is not one).
    private let watch: ContainerWatch<GS, ID>?
    // Not checked for exclusivity at run time: only the main actor touches a tracker, inside a
    // Store's phase 5, which never nests.
    @exclusivity(unchecked) private var memo: [ID: ElementMemo] = [:]
    /// The memo's inverse: at each ordinal, the id the memo places there (`nil`: none). An
    /// evaluation matches the memo exactly when it has as many elements and each id sits at its
    /// ordinal here: a walk over an array, where asking the memo per element hashes into a
    /// large dictionary (cache misses on every element of a 100k collection).
    private var memoIDs: [ID?] = []
    private var lists = IDLists()
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

    @usableFromInline
    init(
        journal: LaneJournal<GS, ID>?, watch: ContainerWatch<GS, ID>?, evaluateAddressed: @escaping EvaluateAddressed,
        feedAddressed: @escaping FeedAddressed,
        commitAddressed: @escaping CommitAddressed,
        evaluateAll: @escaping EvaluateAll,
        buildMemo: @escaping BuildMemo, updateMemoKeys: @escaping UpdateMemoKeys, memoMatches: @escaping MemoMatches,
        evaluateJournaled: EvaluateJournaled?, evaluateWatched: @escaping EvaluateWatched, rememberEdits: @escaping RememberEdits,
        clearLists: @escaping ClearLists, sameIDs: @escaping SameIDs, rememberedKeys: @escaping RememberedKeys
    ) {
        evaluateAddressedElement = evaluateAddressed
        feedAddressedElement = feedAddressed
        commitAddressedKeys = commitAddressed
        self.journal = journal
        self.watch = watch
        self.evaluateJournaled = evaluateJournaled
        self.evaluateWatched = evaluateWatched
        rememberEditLists = rememberEdits
        self.clearLists = clearLists
        self.sameIDs = sameIDs
        evaluateElements = evaluateAll
        self.buildMemo = buildMemo
        self.updateMemoKeys = updateMemoKeys
        self.memoMatches = memoMatches
        self.rememberedKeys = rememberedKeys
    }

    @usableFromInline
    var pendingMatchesMemo: Bool {
        if lastListsValid { return pendingOrdinals == lastOrdinals && sameIDs(lists.pendingIDs, lastIDs) }
        return memoMatches(lists.pendingIDs, pendingOrdinals, memo.count, memoIDs)
    }

    @usableFromInline
    func evaluateAll(_ state: inout GS, _ environment: GE, into keep: inout Keep<GA>) {
        clearPending()
        watch?.reset()
        pendingVersion = journal?.version(state)
        evaluateElements(state, environment, &keep, &lists.pendingIDs, &pendingKeys, &pendingOrdinals)
    }

    @usableFromInline
    func clearPending() {
        clearLists(&lists)
        pendingKeys.removeAll(keepingCapacity: true)
        pendingOrdinals.removeAll(keepingCapacity: true)
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
            updateMemoKeys(&memo, lists.pendingIDs, pendingKeys)
        } else {
            buildMemo(&memo, lists.pendingIDs, pendingKeys, pendingOrdinals, &memoIDs)
        }
        syncedVersion = pendingVersion
        swap(&lastIDs, &lists.pendingIDs)
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
    func evaluateAddressed(_ action: GA, _ state: inout GS, _ environment: GE, into keep: inout Keep<GA>) -> (previous: ElementKeys, ordinal: Int)? {
        guard let remembered = evaluateAddressedElement(action, state, environment, &memo, &lastAddressed, &keep) else { return nil }
        return (remembered.keys, remembered.ordinal)
    }

    @usableFromInline
    func feedAddressed(
        _ action: GA, _ state: inout GS, _ environment: GE, target: ElementFeedTarget<GA>, reconciler: inout ChannelReconciler<GA>,
        into keep: inout Keep<GA>
    ) -> AddressedFeed {
        feedAddressedElement(action, state, environment, &memo, &lastAddressed, &reconciler, target, &keep)
    }

    @usableFromInline
    func commitAddressed(_ keys: ElementKeys) {
        commitAddressedKeys(&memo, &lastAddressed, keys)
    }

    @usableFromInline
    func evaluateEdits(_ state: inout GS, _ environment: GE, action: GA?, into changes: inout [ElementChange<GA>]) -> Bool {
        if let watch {
            // The memo must describe the container the edits start from; a memo whose ordinals
            // grew far past its size is renumbered by a whole evaluation.
            guard watch.isArmed, !watch.isLost, memoIDs.count <= 2 * memo.count + 1_024 else { return false }
            if let count = watch.countBefore, count != memo.count { return false }
            pendingVersion = nil
            return evaluateWatched(watch.edits, action, state, environment, memoIDs.count, &memo, &lists, &changes)
        }
        guard let evaluateJournaled, let synced = syncedVersion,
            let version = evaluateJournaled(state, environment, synced, &memo, &lists, &changes)
        else { return false }
        pendingVersion = version
        return true
    }

    @usableFromInline
    var hasJournal: Bool { journal != nil }

    @usableFromInline
    var containerWatch: (any ContainerWatching<GS>)? { watch }

    @usableFromInline
    func commitEdits() {
        // Edits that only modified elements keep the ids and ordinals; any other changes them.
        if rememberEditLists(&memo, &memoIDs, &lists) { lastListsValid = false }
        syncedVersion = pendingVersion
        watch?.reset()
        clearPending()
    }

    @usableFromInline
    func appendRememberedKeys(into keys: inout [AnyHashableSendable]) {
        rememberedKeys(memo, &keys)
    }
}
