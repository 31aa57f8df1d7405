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

/// The segment of each lift token that appears once among a plan's units, looked up by binary
/// search over the sorted tokens: a handful of comparisons, where a dictionary hashes.
@usableFromInline
internal struct SegmentsByToken: Sendable {
    @usableFromInline let tokens: [UInt64]
    @usableFromInline let segments: [Int]

    /// Keeps the tokens that appear once in `tokens` (a token lifted twice is ambiguous), each
    /// with its position.
    init(_ tokens: [LiftToken?]) {
        var counts: [LiftToken: Int] = [:]
        for token in tokens.compactMap({ $0 }) { counts[token, default: 0] += 1 }
        let unique = tokens.indices.compactMap { index in
            tokens[index].flatMap { counts[$0] == 1 ? ($0.raw, index) : nil }
        }.sorted { $0.0 < $1.0 }
        self.tokens = unique.map(\.0)
        segments = unique.map(\.1)
    }

    /// The segment of `token`, if it appears once.
    @inlinable
    subscript(token: LiftToken) -> Int? {
        var low = 0
        var high = tokens.count
        while low < high {
            let middle = (low &+ high) / 2
            if tokens[middle] < token.raw { low = middle &+ 1 } else { high = middle }
        }
        return low < tokens.count && tokens[low] == token.raw ? segments[low] : nil
    }
}
