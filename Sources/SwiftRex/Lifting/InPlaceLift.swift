// The reducer side of a lift whose focus lies at a fixed offset: what each unit reads on every
// action, in one object its closures capture, and side-by-side such units asked in one loop
// specialised for their lane and local state types.

/// What a reducer unit lifted through a focus reached in place reads on every action: the action
/// lane, where the focus lies and the inner unit. Its closures capture this one reference.
@usableFromInline
internal final class InPlaceLiftedReducer<AL: ExtractsAction, LS>: Sendable {
    /// The action lane.
    @usableFromInline let lane: AL
    /// Where the focus lies in the app's state.
    @usableFromInline let focus: InPlaceFocus
    /// Whether the focus is always present (a stored part, not an optional's payload).
    @usableFromInline let isTotal: Bool
    /// The inner unit's closures.
    @usableFromInline let innerApplies: (@Sendable (AL.LocalAction, inout LS) -> Bool)?
    @usableFromInline let innerRun: @Sendable (AL.LocalAction, inout LS) -> Void
    @usableFromInline let innerReduce: @Sendable (AL.LocalAction, inout LS, () -> Void) -> Bool
    /// The focus's byte offset when it is a stored part (`.stored`; `0`, unread, otherwise): the
    /// closures of such a unit read it here instead of capturing it, so they capture one reference.
    @usableFromInline let storedOffset: Int

    @inlinable
    init(_ lane: AL, focus: InPlaceFocus, isTotal: Bool, inner: ReducerUnit<AL.LocalAction, LS>) {
        self.lane = lane
        self.focus = focus
        if case .stored(let offset) = focus { storedOffset = offset } else { storedOffset = 0 }
        self.isTotal = isTotal
        innerApplies = inner.applies
        innerRun = inner.run
        innerReduce = inner.reduce
    }

    /// The pre-mutation test: the action extracts, the focus is present and the inner unit applies.
    @inlinable @inline(__always)
    func applies<GS>(_ action: AL.GlobalAction, _ state: inout GS) -> Bool {
        guard let local = lane.extract(action) else { return false }
        guard let innerApplies else { return isTotal || focus.project(&state, as: LS.self) { _ in } != nil }
        return focus.project(&state, as: LS.self) { innerApplies(local, &$0) } ?? false
    }

    /// Runs the inner unit on the focus, where it lies, when the action extracts.
    @inlinable @inline(__always)
    func run<GS>(_ action: AL.GlobalAction, _ state: inout GS) {
        guard let local = lane.extract(action) else { return }
        _ = focus.project(&state, as: LS.self) { innerRun(local, &$0) }
    }

    /// Runs `body` on the focus stored at ``storedOffset`` of `state`, where it lies.
    @inlinable @inline(__always)
    func withStoredFocus<GS, Result>(_ state: inout GS, _ body: (inout LS) -> Result) -> Result {
        InPlaceFocus.modifyPart(at: storedOffset, of: &state, as: LS.self, body)
    }

    /// Runs the inner unit on the focus stored at ``storedOffset``, the action extracted.
    @inlinable @inline(__always)
    func runStoredFocus<GS>(_ local: AL.LocalAction, _ state: inout GS) {
        withStoredFocus(&state) { innerRun(local, &$0) }
    }

    /// Tells `willWrite`, then runs the inner unit on the focus stored at ``storedOffset``, the
    /// action extracted (``reduceAlwaysApplying(_:_:_:)`` for a stored focus, past its extract).
    @inlinable @inline(__always)
    func runStoredFocus<GS>(_ local: AL.LocalAction, _ state: inout GS, _ willWrite: () -> Void) {
        withStoredFocus(&state) { (focus: inout LS) -> Void in
            willWrite()
            innerRun(local, &focus)
        }
    }

    /// The inner unit's decide-and-mutate on the focus stored at ``storedOffset``, the action
    /// extracted (``reduce(_:_:_:)`` for a stored focus, past its extract).
    @inlinable @inline(__always)
    func reduceStoredFocus<GS>(_ local: AL.LocalAction, _ state: inout GS, _ willWrite: () -> Void) -> Bool {
        withStoredFocus(&state) { innerReduce(local, &$0, willWrite) }
    }

    /// Decides and mutates in one pass, the inner unit always applying: observers are told, then
    /// it runs directly.
    @inlinable @inline(__always)
    func reduceAlwaysApplying<GS>(_ action: AL.GlobalAction, _ state: inout GS, _ willWrite: () -> Void) -> Bool {
        guard let local = lane.extract(action) else { return false }
        return focus.project(&state, as: LS.self) { (focus: inout LS) -> Void in
            willWrite()
            innerRun(local, &focus)
        } != nil
    }

    /// Decides and mutates in one pass, the inner unit deciding for itself.
    @inlinable @inline(__always)
    func reduce<GS>(_ action: AL.GlobalAction, _ state: inout GS, _ willWrite: () -> Void) -> Bool {
        guard let local = lane.extract(action) else { return false }
        return focus.project(&state, as: LS.self) { innerReduce(local, &$0, willWrite) } ?? false
    }

    /// What the unit's own decide-and-mutate does (``reduceAlwaysApplying(_:_:_:)`` or
    /// ``reduce(_:_:_:)``), as a fused loop asks it: the extract inline, the rest out of line, so
    /// that asking a unit whose action does not extract stays a call and a test.
    @inlinable @inline(__always)
    func reduceInGroup<GS>(_ action: AL.GlobalAction, _ state: inout GS, _ willWrite: () -> Void) -> Bool {
        guard let local = lane.extract(action) else { return false }
        return reduceExtracted(local, &state, willWrite)
    }

    /// The rest of ``reduceInGroup(_:_:_:)`` once the action extracted.
    @inlinable @inline(never)
    func reduceExtracted<GS>(_ local: AL.LocalAction, _ state: inout GS, _ willWrite: () -> Void) -> Bool {
        guard innerApplies != nil else {
            return focus.project(&state, as: LS.self) { (focus: inout LS) -> Void in
                willWrite()
                innerRun(local, &focus)
            } != nil
        }
        return focus.project(&state, as: LS.self) { innerReduce(local, &$0, willWrite) } ?? false
    }
}

/// The fusion shape of units lifted through a focus reached in place: the action lane's type
/// `AL` and the local state's type `LS` (each unit has its own lane value, focus and inner unit).
@usableFromInline
internal final class InPlaceLiftFusion<AL: ExtractsAction, LS, State>: ReducerFusion<AL.GlobalAction, State>, @unchecked Sendable {
    /// The unit's lifted parts.
    @usableFromInline let member: InPlaceLiftedReducer<AL, LS>
    /// Builds the loop over members in order; made where the types are known, so it runs
    /// specialised for them.
    @usableFromInline let makeReduce: @Sendable ([InPlaceLiftedReducer<AL, LS>]) -> @Sendable (AL.GlobalAction, inout State, () -> Void) -> Bool

    @inlinable
    init(
        member: InPlaceLiftedReducer<AL, LS>,
        makeReduce: @escaping @Sendable ([InPlaceLiftedReducer<AL, LS>]) -> @Sendable (AL.GlobalAction, inout State, () -> Void) -> Bool
    ) {
        self.member = member
        self.makeReduce = makeReduce
        super.init()
    }

    /// This fusion, unowned, as a unit holds it (the unit's `applies` closure keeps it alive).
    @inlinable
    var unowned: UnretainedReference<ReducerFusion<AL.GlobalAction, State>> {
        UnretainedReference(self)
    }

    @usableFromInline
    override func accepts(_ other: ReducerFusion<AL.GlobalAction, State>) -> Bool {
        other is InPlaceLiftFusion<AL, LS, State>
    }

    @usableFromInline
    override func reduce(with others: [ReducerFusion<AL.GlobalAction, State>]) -> @Sendable (AL.GlobalAction, inout State, () -> Void) -> Bool {
        var members = [member]
        members.reserveCapacity(others.count + 1)
        for other in others {
            guard let other = other as? InPlaceLiftFusion<AL, LS, State> else {
                preconditionFailure("Internal inconsistency: a reducer fusion of another shape")
            }
            members.append(other.member)
        }
        return makeReduce(members)
    }
}

/// Side-by-side units lifted through foci reached in place, asked in one loop: every member in
/// order, each doing what its own unit's decide-and-mutate does.
@usableFromInline
internal final class InPlaceLiftGroup<AL: ExtractsAction, LS>: Sendable {
    /// The members, in order, read by the loop without retaining.
    @usableFromInline let members: StepList<InPlaceLiftedReducer<AL, LS>>

    @inlinable
    init(_ members: [InPlaceLiftedReducer<AL, LS>]) {
        self.members = StepList(members)
    }

    /// Asks every member, in order; returns whether any applied.
    @inlinable @inline(__always)
    func reduce<GS>(_ action: AL.GlobalAction, _ state: inout GS, _ willWrite: () -> Void) -> Bool {
        var applied = false
        members.withUnretainedSteps { members in
            for index in 0..<members.count {
                if members.withStep(index, { $0.reduceInGroup(action, &state, willWrite) }) { applied = true }
            }
        }
        return applied
    }
}
