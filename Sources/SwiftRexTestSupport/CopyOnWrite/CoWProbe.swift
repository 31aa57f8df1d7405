/// What a mutation path did to a copy-on-write payload.
public struct CoWReport: Sendable, Equatable, CustomStringConvertible {
    /// Storage copies counted during the mutation, or `nil` when the payload cannot count them.
    public let copies: Int?
    /// Whether the storage is at the same address after the mutation as before.
    public let addressKept: Bool
    /// Whether the storage was uniquely referenced after the mutation, or `nil` when not checked.
    public let uniqueAfter: Bool?

    /// A report from its parts.
    public init(copies: Int?, addressKept: Bool, uniqueAfter: Bool?) {
        self.copies = copies
        self.addressKept = addressKept
        self.uniqueAfter = uniqueAfter
    }

    /// No copy counted, the same address, and (when checked) unique afterwards: the path mutated in place.
    public var isInPlace: Bool {
        (copies ?? 0) == 0 && addressKept && (uniqueAfter ?? true)
    }

    /// Whether the path copied the storage (a counted copy, or the storage moved).
    public var copied: Bool {
        (copies ?? 0) > 0 || !addressKept
    }

    /// A one-line summary.
    public var description: String {
        let copiesText = copies.map(String.init) ?? "uncounted"
        let uniqueText = uniqueAfter.map { "\($0)" } ?? "unchecked"
        return "CoWReport(copies: \(copiesText), addressKept: \(addressKept), uniqueAfter: \(uniqueText))"
    }
}

/// The outcome of running one mutation twice, swift-collections style: once on uniquely referenced
/// storage and once with a hidden shared copy.
public struct SharedCopyReport: Sendable, Equatable, CustomStringConvertible {
    /// Whether both runs produced equal results.
    public let resultsAgree: Bool
    /// Whether the hidden copy still equals the original value after the shared run.
    public let hiddenCopyUntouched: Bool

    /// A report from its parts.
    public init(resultsAgree: Bool, hiddenCopyUntouched: Bool) {
        self.resultsAgree = resultsAgree
        self.hiddenCopyUntouched = hiddenCopyUntouched
    }

    /// Both checks held: the path has value semantics.
    public var passed: Bool { resultsAgree && hiddenCopyUntouched }

    /// A one-line summary.
    public var description: String {
        "SharedCopyReport(resultsAgree: \(resultsAgree), hiddenCopyUntouched: \(hiddenCopyUntouched))"
    }
}

/// Copy-on-write probes: tell whether a mutation path kept a payload's storage uniquely referenced
/// and in place.
///
/// The probe never holds a second reference to the payload while the mutation runs (it records an
/// address, and a ``ProbeBuffer`` copy count, before and after), so a test that does not hold one
/// either measures the path itself.
///
/// ```swift
/// var state = BigState(values: Array(0..<100_000))
/// let report = CoWProbe.trace(&state, payload: \.values) { reducer.apply(.bump, to: &$0) }
/// #expect(report.isInPlace)
/// ```
public enum CoWProbe {
    /// Runs `mutate` on `root` and reports what happened to the payload at `path`.
    public static func trace<Root, Payload: CoWObservable>(
        _ root: inout Root,
        payload path: WritableKeyPath<Root, Payload>,
        during mutate: (inout Root) throws -> Void
    ) rethrows -> CoWReport {
        try trace(
            &root,
            read: { $0[keyPath: path] },
            checkUnique: { $0[keyPath: path].checkUniquelyReferenced() },
            during: mutate
        )
    }

    /// Runs `mutate` on `root` and reports what happened to the payload `read` finds (for payloads a
    /// key path cannot reach, such as an enum case's).
    ///
    /// - Parameters:
    ///   - root: the value to mutate, in place.
    ///   - read: finds the payload; it may copy it briefly (that copy is gone before `mutate` runs).
    ///   - checkUnique: checks uniqueness after the mutation, in place; `nil` skips the check.
    ///   - mutate: the mutation under test.
    public static func trace<Root, Payload: CoWObservable>(
        _ root: inout Root,
        read: (Root) -> Payload?,
        checkUnique: ((inout Root) -> Bool)? = nil,
        during mutate: (inout Root) throws -> Void
    ) rethrows -> CoWReport {
        let (addressBefore, copiesBefore) = probe(root, read)
        try mutate(&root)
        let (addressAfter, copiesAfter) = probe(root, read)
        let copies: Int? =
            switch (copiesBefore, copiesAfter) {
            case (.some(let before), .some(let after)): after - before
            default: nil
            }
        return CoWReport(
            copies: copies,
            addressKept: addressBefore != nil && addressBefore == addressAfter,
            uniqueAfter: checkUnique.map { $0(&root) }
        )
    }

    /// Runs `mutate` on a fresh value from `make` (unique storage), and on another fresh value while a
    /// hidden copy shares its storage; checks that both results agree and the hidden copy still
    /// equals a third fresh value.
    public static func checkSharedCopy<Root: Equatable>(
        make: () -> Root,
        mutate: (inout Root) throws -> Void
    ) rethrows -> SharedCopyReport {
        var unique = make()
        try mutate(&unique)

        var shared = make()
        let hidden = shared
        try mutate(&shared)

        return SharedCopyReport(resultsAgree: unique == shared, hiddenCopyUntouched: hidden == make())
    }

    @inline(never)
    private static func probe<Root, Payload: CoWObservable>(
        _ root: Root,
        _ read: (Root) -> Payload?
    ) -> (UnsafeRawPointer?, Int?) {
        guard let payload = read(root) else { return (nil, nil) }
        return (payload.storageAddress, payload.countedCopies)
    }
}
