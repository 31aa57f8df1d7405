// One of the library's unsafe files: parts of a value reached at their byte offset, and a whole
// state lent by address to code that does not know its type (`LentState`, at the end).
//
// Where an optic's focus lies inside the whole when it can be reached with pointer arithmetic
// alone: the key-path optics know, and every read and write through them then happens at the
// focus's address. No accessor runs and nothing is copied, whatever the size of the whole or of
// the part; a `get` through a closure, by contrast, returns the part by value, and Swift copies
// a large value type onto the stack to do that. Every use below relies on one invariant: an
// offset is `MemoryLayout<Whole>.offset(of:)` of a key path to a stored part of the given type.
// Two more hold where they are used: a read takes a mutable pointer to storage it never writes
// (for an `inout` that borrows in place), and `LentPart<Part>` has the layout of `Part`.

/// How an optic reaches its focus in place: a stored part at a fixed byte offset, or the payload
/// of an `Optional` stored at a fixed byte offset.
@usableFromInline
internal enum InPlaceFocus: Sendable, Equatable {
    /// The part is stored inline at this byte offset of the whole (a path of stored properties;
    /// `0` for the whole itself).
    case stored(Int)
    /// An `Optional` of the part is stored inline at this byte offset of the whole.
    case optional(Int)

    /// The focus of `inner` (an optic on this focus's part), seen from this whole; `nil` when it
    /// cannot be reached with offsets alone (past an optional).
    @inlinable
    func appending(_ inner: InPlaceFocus?) -> InPlaceFocus? {
        guard case .stored(let outer) = self, let inner else { return nil }
        switch inner {
        case .stored(let offset): return .stored(outer + offset)
        case .optional(let offset): return .optional(outer + offset)
        }
    }

    /// Runs `body` on the focus of `whole` where it lies; `nil` when an optional focus is `nil`.
    ///
    /// `whole` is taken `inout` for its address: nothing is copied, and nothing is written unless
    /// `body` writes. An optional focus is tested and unwrapped in place (see ``LentPart``).
    @inlinable
    func project<Whole, Part, Result>(_ whole: inout Whole, as _: Part.Type, _ body: (inout Part) -> Result) -> Result? {
        withUnsafeMutablePointer(to: &whole) { pointer in
            let raw = UnsafeMutableRawPointer(pointer)
            switch self {
            case .stored(let offset):
                return body(&raw.advanced(by: offset).assumingMemoryBound(to: Part.self).pointee)
            case .optional(let offset):
                return LentPart.modify(raw.advanced(by: offset), body)
            }
        }
    }

    /// Runs `body` on the focus of `whole` where it lies, reading only; `nil` when an optional
    /// focus is `nil`. Nothing is copied: `body` borrows the focus from `whole`'s own storage.
    ///
    /// The focus is reached as an `inout` that nothing writes: in generic code a value handed on
    /// from an `inout` is borrowed where it lies, while one read from a pointer's `pointee` is
    /// first copied onto the stack.
    @inlinable
    func read<Whole, Part, Result>(_ whole: Whole, as _: Part.Type, _ body: (Part) -> Result) -> Result? {
        withUnsafePointer(to: whole) { pointer in
            let raw = UnsafeMutableRawPointer(mutating: pointer)
            switch self {
            case .stored(let offset):
                return LentPart.read(&raw.advanced(by: offset).assumingMemoryBound(to: Part.self).pointee, body)
            case .optional(let offset):
                return LentPart.modify(raw.advanced(by: offset)) { LentPart.read(&$0, body) }
            }
        }
    }
}

/// A part reached where it lies. One stored property, so `LentPart<Part>` and its optional have
/// the layout of `Part` and `Part?`: optional chaining on a `LentPart<Part>?` slot tests its case
/// and reaches the payload in place, where a `switch`, an `if case` or `!= nil` on a generic
/// `Part?` first copies the whole optional onto the stack.
@usableFromInline
internal struct LentPart<Part> {
    @usableFromInline var part: Part

    @inlinable @inline(__always)
    mutating func modify<Result>(_ body: (inout Part) -> Result) -> Result { body(&part) }

    /// Runs `body` on the payload of the `Part?` at `slot`, where it lies; `nil` when it is `nil`.
    /// (Rebound from the raw address: unspecialised code then looks up the metadata of one
    /// optional type, not two.)
    @inlinable @inline(__always)
    static func modify<Result>(_ slot: UnsafeMutableRawPointer, _ body: (inout Part) -> Result) -> Result? {
        slot.withMemoryRebound(to: LentPart<Part>?.self, capacity: 1) { $0.pointee?.modify(body) }
    }

    /// `body` applied to `part`, borrowed where it lies (taken `inout` for its address only).
    @inlinable @inline(__always)
    static func read<Result>(_ part: inout Part, _ body: (Part) -> Result) -> Result { body(part) }

    /// `body` given `part` as an `inout` it never writes: lent where it lies, for code that takes
    /// its reads `inout` for the address only.
    @inlinable @inline(__always)
    static func lend<Result>(_ part: Part, _ body: (inout Part) -> Result) -> Result {
        withUnsafePointer(to: part) { body(&UnsafeMutablePointer(mutating: $0).pointee) }
    }

    /// `body` applied to what `pointer` addresses, borrowed where it lies: an element's id is read
    /// without copying the element.
    @inlinable @inline(__always)
    static func borrow<Result>(_ pointer: UnsafePointer<Part>, _ body: (Part) -> Result) -> Result {
        read(&UnsafeMutablePointer(mutating: pointer).pointee, body)
    }
}

extension InPlaceFocus {
    /// The part stored inline at `offset` of `whole` (a copy of it).
    @inlinable
    @inline(__always)
    static func part<Whole, Part>(at offset: Int, of whole: Whole, as _: Part.Type) -> Part {
        withUnsafePointer(to: whole) { UnsafeRawPointer($0).advanced(by: offset).assumingMemoryBound(to: Part.self).pointee }
    }

    /// Runs `body` on the part stored inline at `offset` of `whole`, where it lies.
    @inlinable
    @inline(__always)
    static func modifyPart<Whole, Part, Result>(
        at offset: Int, of whole: inout Whole, as _: Part.Type, _ body: (inout Part) -> Result
    ) -> Result {
        withUnsafeMutablePointer(to: &whole) { pointer in
            body(&UnsafeMutableRawPointer(pointer).advanced(by: offset).assumingMemoryBound(to: Part.self).pointee)
        }
    }
}

/// The element a walk is at, lent by address for one step of the walk: how one context made for
/// the whole walk reads each element in turn without copying it.
///
/// Invariant: `address` is set only inside `lending`, to the part it lends, and read through an
/// `inout` that never writes.
@usableFromInline
internal final class LentCursor<Part> {
    @usableFromInline var address: UnsafeMutablePointer<Part>?

    @inlinable init() {}

    /// Lends `part` while `body` runs; the cursor lends nothing after.
    @inlinable
    func lending(_ part: Part, _ body: () -> Void) {
        withUnsafePointer(to: part) {
            address = UnsafeMutablePointer(mutating: $0)
            body()
        }
        address = nil
    }

    /// Runs `read` on the part lent now; `false` when none is.
    @inlinable
    func read(_ read: (inout Part) -> Void) -> Bool {
        guard let address else { return false }
        read(&address.pointee)
        return true
    }
}

/// A state lent by address for the duration of one call, readable back only as its own type: how
/// the effect engine, which knows no state type, asks the lifts that built its effects' owners
/// whether an element is still present, without copying or boxing the state.
///
/// Invariant: a `LentState` is used only inside the `lend` call that made it, and `address`
/// points to a value of the type `type` identifies (both set together by `lend`).
@usableFromInline
internal struct LentState {
    @usableFromInline let address: UnsafeRawPointer
    @usableFromInline let type: ObjectIdentifier

    @inlinable
    init(address: UnsafeRawPointer, type: ObjectIdentifier) {
        self.address = address
        self.type = type
    }

    /// Calls `body` with `state` lent by address (not copied).
    @inlinable
    static func lend<State, Result>(_ state: inout State, _ body: (LentState) -> Result) -> Result {
        withUnsafePointer(to: &state) { body(LentState(address: UnsafeRawPointer($0), type: ObjectIdentifier(State.self))) }
    }

    /// Calls `body` with `state` lent by address.
    @inlinable
    static func lend<State, Result>(_ state: State, _ body: (LentState) -> Result) -> Result {
        withUnsafePointer(to: state) { body(LentState(address: UnsafeRawPointer($0), type: ObjectIdentifier(State.self))) }
    }

    /// `body` applied to the lent state read as `State`; `nil` when it is of another type.
    @inlinable
    func read<State, Result>(as _: State.Type, _ body: (State) -> Result) -> Result? {
        guard type == ObjectIdentifier(State.self) else { return nil }
        return LentPart.borrow(address.assumingMemoryBound(to: State.self), body)
    }
}
