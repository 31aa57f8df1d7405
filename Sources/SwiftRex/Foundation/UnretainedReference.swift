// One of the library's unsafe files: objects reached through references that do not retain.
//
// A class reference read out of an array or a stored property is retained, and a closure stored
// in the object is retained when called: per step and per dispatch on the hot paths. Everything
// that reaches an object without reference counting goes through the two types below, whose one
// invariant is that something else owns the object for as long as the reference is used.

/// An unowned reference to an object that something else owns, reached without reference counting:
/// a closure read from the object through it is called without retaining the closure's context.
///
/// Invariant: the owner keeps the object alive for as long as ``withObject(_:)`` or ``object``
/// may be called (a ``StepList`` owns its steps, the Store's observer list keeps each observer
/// until no notification is running, a unit's closures keep its fusion, a task keeps its run).
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

    /// The object, as a strong (retained) reference.
    @inlinable
    var object: Object { reference.takeUnretainedValue() }
}

// As `Unmanaged` is: sending the reference sends no access; reaching the object is what the
// invariant above governs.
extension UnretainedReference: @unchecked Sendable {}

extension StepList: Sendable where Step: Sendable {}

/// Objects, in order, read by loops without reference counting: the steps of a dispatch program,
/// the members of a lifted group.
///
/// Invariant: `references[i]` points to `steps[i]`, which this list keeps alive for as long as it
/// exists; a step is reached only inside a call on the list, so never after the list is gone.
@usableFromInline
internal struct StepList<Step: AnyObject> {
    /// Owns the steps.
    @usableFromInline let steps: [Step]
    /// The same steps, unowned.
    @usableFromInline let references: [UnretainedReference<Step>]

    /// A list of `steps`, in order.
    @inlinable
    init(_ steps: [Step]) {
        self.steps = steps
        references = steps.map { UnretainedReference($0) }
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
        references[index].withObject(body)
    }

    /// Calls `body` with the steps as a buffer of unowned references, for a loop over them.
    @inlinable
    @inline(__always)
    func withUnretainedSteps<Result>(_ body: (UnretainedSteps<Step>) -> Result) -> Result {
        references.withUnsafeBufferPointer { body(UnretainedSteps(references: $0)) }
    }
}

/// A list's steps during one ``StepList/withUnretainedSteps(_:)`` call.
///
/// Invariant: `index < count` in every call (a loop over `0..<count`, or routes built together
/// with the steps, which name only their units; checked in debug builds).
@usableFromInline
internal struct UnretainedSteps<Step: AnyObject> {
    @usableFromInline let references: UnsafeBufferPointer<UnretainedReference<Step>>

    @inlinable
    init(references: UnsafeBufferPointer<UnretainedReference<Step>>) {
        self.references = references
    }

    /// The number of steps.
    @inlinable var count: Int { references.count }

    /// Calls `body` with the step at `index`, not retained.
    @inlinable
    @inline(__always)
    func withStep<Result>(_ index: Int, _ body: (Step) -> Result) -> Result {
        references[index].reference._withUnsafeGuaranteedRef(body)
    }
}

/// A step a loop asks and runs through ``UnretainedSteps``, without retaining it: the Store's
/// reducer steps.
@usableFromInline
internal protocol UnretainedLoopStep: AnyObject {
    /// What the step is asked with (an action).
    associatedtype Input
    /// What the step mutates (a state).
    associatedtype Target
    /// What the loop accumulates from the steps that applied.
    associatedtype Change

    /// Decides whether the step applies to `input`, mutates `target` if so (calling `willWrite`
    /// first), and merges into `change`.
    func ask(_ input: Input, _ target: inout Target, change: inout Change, willWrite: () -> Void)
    /// Mutates `target` for `input`, for a loop whose steps all apply.
    func runAlways(_ input: Input, _ target: inout Target)
}

// Each call is written in the closure handed to the standard library: through a generic helper
// taking a closure, the specialised loop stored the input afresh for every step. Unsafe as
// `UnretainedSteps` is: `index < count`, and the list owns the step.
extension UnretainedSteps where Step: UnretainedLoopStep {
    /// Asks the step at `index`, not retained (see ``UnretainedLoopStep/ask(_:_:change:willWrite:)``).
    @inlinable
    @inline(__always)
    func ask(_ index: Int, _ input: Step.Input, _ target: inout Step.Target, change: inout Step.Change, willWrite: () -> Void) {
        references[index].reference._withUnsafeGuaranteedRef { $0.ask(input, &target, change: &change, willWrite: willWrite) }
    }

    /// Runs the step at `index`, not retained (a step that always applies).
    @inlinable
    @inline(__always)
    func run(_ index: Int, _ input: Step.Input, _ target: inout Step.Target) {
        references[index].reference._withUnsafeGuaranteedRef { $0.runAlways(input, &target) }
    }
}
