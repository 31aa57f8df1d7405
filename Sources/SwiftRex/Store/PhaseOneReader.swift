// One of the library's unsafe files: phase 1 reads the dispatch's source where the dispatch keeps
// it, through a pointer valid for the dispatch, and a Store lends each dispatch its one reader
// without reference counting.

/// The source of the action being dispatched, lent by the dispatch for its duration: contexts
/// read it where the dispatch keeps it instead of copying it (two strings, retained and
/// released). Invariant: a `LentSource` is used only inside the `lend(_:_:)` call that made it
/// (a reader that outlives phase 1 copies the source first, see `PhaseOneReader.lend(to:_:)`).
@usableFromInline
internal struct LentSource {
    @usableFromInline let pointer: UnsafePointer<ActionSource>

    @inlinable
    init(_ pointer: UnsafePointer<ActionSource>) {
        self.pointer = pointer
    }

    /// The source.
    @inlinable var source: ActionSource { pointer.pointee }

    /// Calls `body` with `source` lent for the call (no copy). A function of this module, not
    /// `withUnsafePointer(to:_:)` called by the Store: a main-actor closure handed straight to the
    /// standard library has its executor checked at every call.
    @inlinable
    @inline(__always)
    static func lend<Result>(_ source: borrowing ActionSource, _ body: (LentSource) -> Result) -> Result {
        withUnsafePointer(to: source) { body(LentSource($0)) }
    }
}

/// A Store's phase-1 reader: reads the live state where it lies (weakly) and, during phase 1, the
/// dispatch's source where the dispatch keeps it, so no dispatch copies its source into a context.
/// A context kept past phase 1 keeps its reader alive: the Store then copies the source into the
/// reader (``keptSource``) and dispatches through a successor, so the kept context still reads
/// its own action's source.
@MainActor
@usableFromInline
internal final class StoreStateReader<State>: PreReducerStateReader<State> {
    @usableFromInline let inspectState: @MainActor ((inout State) -> Void) -> Bool
    /// The source of the dispatch in phase 1 (valid during phase 1 only: see `LentSource`).
    /// Exclusivity is not checked at run time: only the Store's phase 1, on the main actor,
    /// writes it.
    @exclusivity(unchecked) @usableFromInline var dispatchedSource: LentSource?
    /// The source of the dispatch this reader served, once a context outlived its phase 1.
    @exclusivity(unchecked) @usableFromInline var keptSource: ActionSource?

    @inlinable
    init(inspectState: @escaping @MainActor ((inout State) -> Void) -> Bool, generators: @escaping @Sendable () -> StoreGenerators) {
        self.inspectState = inspectState
        super.init(generators: generators)
    }

    @inlinable
    override var source: ActionSource {
        if let keptSource { return keptSource }
        guard let dispatchedSource else { return super.source }
        return dispatchedSource.source
    }

    @inlinable
    override func inspect(_ body: (inout State) -> Void) -> Bool { inspectState(body) }

    /// A reader over the same state and generators, for the dispatches after this one.
    @inlinable
    func successor() -> StoreStateReader {
        StoreStateReader(inspectState: inspectState, generators: readGenerators)
    }
}

/// A Store's phase-1 reader, owned through one unmanaged reference: each dispatch's context is
/// that reference, moved out for phase 1 and back, so no dispatch retains or releases it (an
/// optional emptied for phase 1 had its `nil` released when the reader was stored back).
/// Invariant: the Store owns exactly one reference, released by `release()` in its `deinit`.
@MainActor
@usableFromInline
internal struct PhaseOneReader<State> {
    @usableFromInline var reference: Unmanaged<StoreStateReader<State>>

    /// Owns `reader`.
    @inlinable
    init(_ reader: StoreStateReader<State>) {
        reference = Unmanaged.passRetained(reader)
    }

    /// Phase 1's context around `body`: the reader, reading the lent `source` until `body`
    /// returns. A context kept past phase 1 keeps the reader alive: it then keeps a copy of the
    /// source, and the next dispatches go through a successor.
    @inlinable
    @inline(__always)
    mutating func lend(to source: LentSource, _ body: (PreReducerContext<State>) -> Void) {
        // The reference moves into the context (the slot keeps a stale copy until phase 1 ends).
        let lent = reference.takeRetainedValue()
        lent.dispatchedSource = source
        let context = PreReducerContext<State>(reader: consume lent)
        body(context)
        // The reader the context was given, moved back (it is the Store's own).
        var reader = unsafeDowncast((consume context).reader, to: StoreStateReader<State>.self)
        reader.dispatchedSource = nil
        if !isKnownUniquelyReferenced(&reader) { reader = Self.successor(of: reader, source: source.source) }
        reference = Unmanaged.passRetained(consume reader)
    }

    /// Out of line: a context outliving phase 1 is rare.
    @usableFromInline
    @inline(never)
    static func successor(of reader: StoreStateReader<State>, source: borrowing ActionSource) -> StoreStateReader<State> {
        reader.keptSource = copy source
        return reader.successor()
    }

    /// The reader the next dispatch will lend (tests check its lifetime).
    var current: StoreStateReader<State> { reference.takeUnretainedValue() }

    /// Releases the reader (the Store's `deinit`).
    @inlinable
    func release() {
        reference.release()
    }
}
