// One of the library's unsafe files: steps and observers read through unowned references.

/// The steps of a dispatch program, read by its loops without reference counting.
///
/// Reading a class reference out of an array retains it, and calling a closure stored in it
/// retains the closure's context: per step and per dispatch. The list owns its steps and keeps an
/// unowned reference to each; the loops below reach a step through a guaranteed reference, so
/// neither the step nor a closure read from it is retained.
///
/// Invariant: `references[i]` points to `steps[i]`, which this list keeps alive for as long as
/// it exists; a step is reached only inside a call on the list, so never after the list is gone.
@usableFromInline
internal struct StepList<Step: AnyObject> {
    /// Owns the steps.
    @usableFromInline let steps: [Step]
    /// The same steps, unowned.
    @usableFromInline let references: [Unmanaged<Step>]

    /// A list of `steps`, in order.
    @inlinable
    init(_ steps: [Step]) {
        self.steps = steps
        references = steps.map { Unmanaged.passUnretained($0) }
    }

    /// The number of steps.
    @inlinable var count: Int { references.count }

    /// Whether there is no step.
    @inlinable var isEmpty: Bool { references.isEmpty }

    /// Calls `body` with the step at `index`, not retained. Loops call it with a closure written
    /// in the loop's body, which is then inlined: a closure handed through another function's
    /// parameter into the loop was called out of line at every step.
    ///
    /// A function of this module rather than `_withUnsafeGuaranteedRef` called by the program: a
    /// main-actor closure handed straight to the standard library has its executor checked at
    /// every call.
    @inlinable
    @inline(__always)
    func withStep<Result>(at index: Int, _ body: (Step) -> Result) -> Result {
        references[index]._withUnsafeGuaranteedRef(body)
    }

    /// Calls `body` with the steps as a buffer of unowned references, for a loop over them.
    @inlinable
    @inline(__always)
    func withUnretainedSteps<Result>(_ body: (UnretainedSteps<Step>) -> Result) -> Result {
        references.withUnsafeBufferPointer { body(UnretainedSteps(references: $0)) }
    }
}

/// A list's steps during one ``StepList/withUnretainedSteps(_:)`` call.
@usableFromInline
internal struct UnretainedSteps<Step: AnyObject> {
    @usableFromInline let references: UnsafeBufferPointer<Unmanaged<Step>>

    @inlinable
    init(references: UnsafeBufferPointer<Unmanaged<Step>>) {
        self.references = references
    }

    /// The number of steps.
    @inlinable var count: Int { references.count }
}

// Each call below is written in the closure handed to the standard library: through a generic
// `(Step) -> Result` helper, the specialised loop stored the action afresh for every step.
// Invariant of both: `index < count` (a loop over `0..<count`, or routes built together with the
// steps, which name only their units; checked in debug builds).
extension UnretainedSteps {
    /// Asks the reducer step at `index`, not retained, to decide and mutate `state`, and merges it
    /// into `change` when it applied.
    @inlinable
    @inline(__always)
    func ask<Action, State>(
        _ index: Int, _ action: Action, _ state: inout State, change: inout PhaseChange, willWrite: () -> Void
    ) where Step == ReducerStep<Action, State> {
        references[index]._withUnsafeGuaranteedRef { step in
            if step.reduce(action, &state, willWrite) { change.merge(scope: step.scope, mask: step.mask) }
        }
    }

    /// Runs the reducer step at `index`, not retained (a unit that always applies).
    @inlinable
    @inline(__always)
    func run<Action, State>(_ index: Int, _ action: Action, _ state: inout State) where Step == ReducerStep<Action, State> {
        references[index]._withUnsafeGuaranteedRef { $0.run(action, &state) }
    }
}

/// An unowned reference to an object that something else owns, reached without reference counting:
/// a closure read from the object through it is called without retaining the closure's context.
///
/// Invariant: the owner keeps the object alive for as long as ``withObject(_:)`` may be called
/// (the Store's observer list keeps each observer until no notification is running).
@usableFromInline
internal struct UnretainedReference<Object: AnyObject> {
    @usableFromInline let reference: Unmanaged<Object>

    /// An unowned reference to `object`.
    @inlinable
    init(_ object: Object) {
        reference = .passUnretained(object)
    }

    /// Calls `body` with the object, not retained.
    @inlinable
    @inline(__always)
    func withObject<Result>(_ body: (Object) -> Result) -> Result {
        reference._withUnsafeGuaranteedRef(body)
    }
}
