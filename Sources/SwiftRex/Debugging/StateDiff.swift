/// A readable difference between an expected and an actual value, for failure messages: only the
/// parts that differ, each under the path that leads to it, with unchanged parts left out.
///
/// ```
/// (expected −, actual +; equal parts omitted)
///   AppState
///     .rows: [Row] (100000 elements)
///       [41] (id: 42)
/// −       .title: "buy milk"
/// +       .title: "buy oat milk"
/// ```
///
/// Values are walked through `Mirror` in lockstep. Any part that is `Equatable` and equal on both
/// sides is skipped whole, with one `==`; arrays of `Equatable` elements are compared element by
/// element without reflection, their equal prefix and suffix skipped. Where the element counts
/// differ, `Identifiable` elements are matched by id (changed, removed and inserted elements);
/// other elements in the differing middle are listed as removed and inserted. An
/// `IdentifiedArray` is walked as the array of its elements, paired by id, never through its
/// storage.
///
/// - Parameters:
///   - expected: the value the test expected.
///   - actual: the value it got.
///   - limit: how many differences to show; the rest are counted.
/// - Complexity: O(n) in the size of the two values, and the output is bounded by `limit`
///   differences, each value shown in at most a few hundred characters.
public func stateDifference<Value>(expected: Value, actual: Value, limit: Int = 20) -> String {
    stateDifferenceReport(expected: expected, actual: actual, limit: limit).text
}

/// ``stateDifference(expected:actual:limit:)`` with the amount of work it did, for tests that hold
/// it linear.
@_spi(Testing)
public func stateDifferenceReport<Value>(expected: Value, actual: Value, limit: Int = 20) -> (text: String, differences: Int, comparisons: Int) {
    stateDifferenceReport(expected: expected, actual: actual, limit: limit, legend: "(expected −, actual +; equal parts omitted)")
}

/// The difference under `legend`, the line that says which side is which.
func stateDifferenceReport<Value>(expected: Value, actual: Value, limit: Int, legend: String) -> (text: String, differences: Int, comparisons: Int) {
    var differ = StateDiffer(limit: max(1, limit))
    differ.diff(expected, actual, path: [PathStep(label: typeName(of: expected), context: "")], depth: 0)
    if differ.total == 0 {
        // `==` said unequal but no part differs (a custom `==`, or NaN): show the whole values.
        differ.record(path: [], expected: boundedDescription(expected), actual: boundedDescription(actual))
    }
    return (differ.render(legend: legend), differ.total, differ.comparisons)
}

// MARK: - Differ

/// One step of the path from the root to a difference: how it is written (`.rows`, `[41]`) and a
/// little context (`[Row] (100000 elements)`, `(id: 42)`).
struct PathStep: Equatable {
    var label: String
    var context: String
}

/// One difference: where it is, and the two sides (`nil` for a side where the part is absent: an
/// element removed or inserted).
struct Difference {
    var path: [PathStep]
    var expected: String?
    var actual: String?
}

/// Walks two values in lockstep and records where they differ; the work is linear in their size.
struct StateDiffer {
    let limit: Int
    /// The differences shown (at most `limit`).
    private(set) var shown: [Difference] = []
    /// Every difference found, shown or not.
    private(set) var total = 0
    /// Nodes visited and elements compared: what a test holds linear.
    var comparisons = 0
    /// Class instances on the current path, so a reference cycle ends the walk.
    private var visiting: Set<ObjectIdentifier> = []
    /// Walks deeper than this are reported as one difference.
    private let maxDepth = 64

    init(limit: Int) {
        self.limit = limit
    }

    /// Counts a difference, and keeps it while fewer than `limit` are kept (the path and the
    /// descriptions are only built then).
    mutating func record(path: @autoclosure () -> [PathStep], expected: @autoclosure () -> String?, actual: @autoclosure () -> String?) {
        total += 1
        if shown.count < limit { shown.append(Difference(path: path(), expected: expected(), actual: actual())) }
    }

    /// Records the differences between two values of the same static type, below `path`.
    mutating func diff(_ expected: Any, _ actual: Any, path: [PathStep], depth: Int) {
        comparisons += 1
        if let equal = anyEquals(expected, actual), equal { return }
        guard depth < maxDepth, type(of: expected) == type(of: actual) else {
            return leaf(expected, actual, path: path)
        }
        if let collection = expected as? any DiffedByElements {
            collection.diffElements(against: actual, in: &self, path: path, depth: depth)
            return
        }
        if let array = expected as? any IdentifiedElementArray {
            array.diffIdentifiedElements(against: actual, in: &self, path: path, depth: depth)
            return
        }
        if let array = expected as? any EquatableElementArray {
            array.diffElements(against: actual, in: &self, path: path, depth: depth)
            return
        }
        let expectedMirror = Mirror(reflecting: expected)
        let actualMirror = Mirror(reflecting: actual)
        let before = total
        switch expectedMirror.displayStyle {
        case .optional?:
            switch (expectedMirror.children.first, actualMirror.children.first) {
            case (nil, nil): return
            case (let some?, let other?): diff(some.value, other.value, path: path, depth: depth + 1)
            default: leaf(expected, actual, path: path)
            }
        case .enum?:
            let expectedCase = caseName(expected, expectedMirror)
            guard expectedCase == caseName(actual, actualMirror),
                expectedMirror.children.count == actualMirror.children.count
            else { return leaf(expected, actual, path: path) }
            if let payload = expectedMirror.children.first, let other = actualMirror.children.first {
                diff(payload.value, other.value, path: path + [PathStep(label: ".\(expectedCase)", context: "")], depth: depth + 1)
            }
        case .class?:
            let identity = ObjectIdentifier(expected as AnyObject)
            if identity == ObjectIdentifier(actual as AnyObject) { return }
            guard visiting.insert(identity).inserted else { return }
            diffFields(allChildren(expectedMirror), allChildren(actualMirror), path: path, depth: depth)
            visiting.remove(identity)
        case .struct?, .tuple?:
            diffFields(Array(expectedMirror.children), Array(actualMirror.children), path: path, depth: depth)
        case .collection?:
            diffSequences(expectedMirror.children.map(\.value), actualMirror.children.map(\.value), path: path, depth: depth)
        case .dictionary?:
            diffDictionaries(expectedMirror, actualMirror, path: path, depth: depth)
        case .set?:
            diffSets(expectedMirror, actualMirror, path: path)
        default:
            if expectedMirror.children.isEmpty {
                if String(reflecting: expected) != String(reflecting: actual) { leaf(expected, actual, path: path) }
            } else {
                diffFields(Array(expectedMirror.children), Array(actualMirror.children), path: path, depth: depth)
            }
        }
        if total == before, anyEquals(expected, actual) == false {
            // Unequal by `==`, yet no part differs: show the values themselves.
            leaf(expected, actual, path: path)
        }
    }

    /// Records both sides of a part that differs as a whole.
    mutating func leaf(_ expected: Any, _ actual: Any, path: [PathStep]) {
        record(path: path, expected: boundedDescription(expected), actual: boundedDescription(actual))
    }

    /// Stored properties (or tuple elements) in lockstep.
    private mutating func diffFields(_ expected: [Mirror.Child], _ actual: [Mirror.Child], path: [PathStep], depth: Int) {
        guard expected.count == actual.count else {
            // Only possible for custom mirrors: compare what both sides show, by position.
            return diffSequences(expected.map(\.value), actual.map(\.value), path: path, depth: depth)
        }
        for index in expected.indices {
            let label = expected[index].label.map { ".\($0)" } ?? ".\(index)"
            let child = expected[index].value
            diff(child, actual[index].value, path: path + [PathStep(label: label, context: context(of: child))], depth: depth + 1)
        }
    }

    /// Two ordered sequences of elements: the equal prefix and suffix are skipped, and the middle
    /// is handed to ``diffMiddle(expectedRange:actualRange:expectedElement:actualElement:path:depth:)``.
    mutating func diffSequences(_ expected: [Any], _ actual: [Any], path: [PathStep], depth: Int) {
        let shared = min(expected.count, actual.count)
        var prefix = 0
        while prefix < shared, isSame(expected[prefix], actual[prefix]) { prefix += 1 }
        var suffix = 0
        while suffix < shared - prefix, isSame(expected[expected.count - 1 - suffix], actual[actual.count - 1 - suffix]) { suffix += 1 }
        let expectedMiddle = prefix..<(expected.count - suffix)
        let actualMiddle = prefix..<(actual.count - suffix)
        diffMiddle(
            expectedRange: expectedMiddle, actualRange: actualMiddle,
            expectedElement: { expected[$0] }, actualElement: { actual[$0] },
            path: path, depth: depth
        )
    }

    /// The differing middle of two sequences :
    /// `Identifiable` elements are paired by id (changed, removed, inserted, reordered); others by
    /// position when the counts agree, else listed as removed and inserted.
    mutating func diffMiddle(
        expectedRange: Range<Int>, actualRange: Range<Int>,
        expectedElement: (Int) -> Any, actualElement: (Int) -> Any,
        path: [PathStep], depth: Int
    ) {
        if let first = expectedRange.first.map(expectedElement) ?? actualRange.first.map(actualElement), elementID(of: first) != nil {
            return diffByID(
                expectedRange: expectedRange, actualRange: actualRange,
                expectedElement: expectedElement, actualElement: actualElement, path: path, depth: depth
            )
        }
        if expectedRange.count == actualRange.count {
            for offset in 0..<expectedRange.count {
                let expectedIndex = expectedRange.lowerBound + offset
                let element = expectedElement(expectedIndex)
                diff(element, actualElement(actualRange.lowerBound + offset), path: path + [elementStep(expectedIndex, element)], depth: depth + 1)
            }
            return
        }
        for index in expectedRange {
            record(path: path + [PathStep(label: "[\(index)]", context: "")], expected: boundedDescription(expectedElement(index)), actual: nil)
        }
        for index in actualRange {
            record(path: path + [PathStep(label: "[\(index)]", context: "")], expected: nil, actual: boundedDescription(actualElement(index)))
        }
    }

    /// Pairs elements by id: a pair is compared, an unpaired element is removed or inserted, and
    /// equal pairs in another order are reported as a reorder.
    private mutating func diffByID(
        expectedRange: Range<Int>, actualRange: Range<Int>,
        expectedElement: (Int) -> Any, actualElement: (Int) -> Any,
        path: [PathStep], depth: Int
    ) {
        var actualByID: [AnyHashable: Int] = [:]
        actualByID.reserveCapacity(actualRange.count)
        for index in actualRange {
            comparisons += 1
            if let id = elementID(of: actualElement(index)), actualByID[id] == nil { actualByID[id] = index }
        }
        let before = total
        var matched = Set<Int>()
        var lastMatch = -1
        var reordered = false
        for index in expectedRange {
            comparisons += 1
            let element = expectedElement(index)
            if let id = elementID(of: element), let other = actualByID[id], matched.insert(other).inserted {
                if other < lastMatch { reordered = true }
                lastMatch = other
                diff(element, actualElement(other), path: path + [elementStep(index, element)], depth: depth + 1)
            } else {
                record(path: path + [elementStep(index, element)], expected: boundedDescription(element), actual: nil)
            }
        }
        for index in actualRange where !matched.contains(index) {
            let element = actualElement(index)
            record(path: path + [elementStep(index, element)], expected: nil, actual: boundedDescription(element))
        }
        if reordered, total == before {
            var expectedIDs = BoundedList()
            for index in expectedRange { expectedIDs.append(elementID(of: expectedElement(index))) }
            var actualIDs = BoundedList()
            for index in actualRange { actualIDs.append(elementID(of: actualElement(index))) }
            record(path: path + [PathStep(label: "(order of ids)", context: "")], expected: expectedIDs.text + "]", actual: actualIDs.text + "]")
        }
    }

    /// Whether two parts are equal, checked without recording anything: `==` when available, else
    /// a silent walk.
    mutating func isSame(_ expected: Any, _ actual: Any) -> Bool {
        comparisons += 1
        if let equal = anyEquals(expected, actual) { return equal }
        var probe = StateDiffer(limit: 1)
        probe.diff(expected, actual, path: [], depth: 0)
        comparisons += probe.comparisons
        return probe.total == 0
    }

    private mutating func diffDictionaries(_ expected: Mirror, _ actual: Mirror, path: [PathStep], depth: Int) {
        var actualEntries: [String: Any] = [:]
        for child in actual.children {
            comparisons += 1
            let (key, value) = keyAndValue(child.value)
            actualEntries[key] = value
        }
        var seen = Set<String>()
        var expectedEntries: [(key: String, value: Any)] = []
        for child in expected.children {
            comparisons += 1
            expectedEntries.append(keyAndValue(child.value))
        }
        // Sorted by key, so a message reads the same on every run.
        for (key, value) in expectedEntries.sorted(by: { $0.key < $1.key }) {
            seen.insert(key)
            let step = PathStep(label: "[\(key)]", context: "")
            if let other = actualEntries[key] {
                diff(value, other, path: path + [step], depth: depth + 1)
            } else {
                record(path: path + [step], expected: boundedDescription(value), actual: nil)
            }
        }
        for key in actualEntries.keys.sorted() where !seen.contains(key) {
            record(path: path + [PathStep(label: "[\(key)]", context: "")], expected: nil, actual: boundedDescription(actualEntries[key]!))
        }
    }

    private mutating func diffSets(_ expected: Mirror, _ actual: Mirror, path: [PathStep]) {
        let expectedMembers = Dictionary(expected.children.map { (boundedDescription($0.value), $0.value) }, uniquingKeysWith: { first, _ in first })
        let actualMembers = Dictionary(actual.children.map { (boundedDescription($0.value), $0.value) }, uniquingKeysWith: { first, _ in first })
        comparisons += expectedMembers.count + actualMembers.count
        for member in expectedMembers.keys.sorted() where actualMembers[member] == nil {
            record(path: path + [PathStep(label: "(member)", context: "")], expected: member, actual: nil)
        }
        for member in actualMembers.keys.sorted() where expectedMembers[member] == nil {
            record(path: path + [PathStep(label: "(member)", context: "")], expected: nil, actual: member)
        }
    }

    // MARK: Rendering

    /// The differences as an indented tree: each path step is written once, under its parent, and
    /// each difference as a `−` line (expected) above a `+` line (actual).
    func render(legend: String) -> String {
        var lines = [legend]
        var previous: [PathStep] = []
        for difference in shown {
            let steps = difference.path
            let head = steps.dropLast()
            var common = 0
            while common < head.count, common < previous.count, previous[common] == steps[common] { common += 1 }
            for index in common..<head.count {
                let step = head[head.startIndex + index]
                lines.append(String(repeating: "  ", count: index + 1) + step.label + (step.context.isEmpty ? "" : " " + step.context))
            }
            let indent = String(repeating: "  ", count: head.count)
            let label = steps.last.map { $0.label + ": " } ?? ""
            if let expected = difference.expected { lines.append("−" + indent + " " + label + expected) }
            if let actual = difference.actual { lines.append("+" + indent + " " + label + actual) }
            previous = Array(head)
        }
        if total > shown.count {
            lines.append("… and \(total - shown.count) more difference\(total - shown.count == 1 ? "" : "s")")
        }
        return lines.joined(separator: "\n")
    }

    // MARK: Helpers

    private func caseName(_ value: Any, _ mirror: Mirror) -> String {
        if let label = mirror.children.first?.label { return label }
        return boundedDescription(value, budget: 80)
    }

    private func allChildren(_ mirror: Mirror) -> [Mirror.Child] {
        var children: [Mirror.Child] = []
        var current: Mirror? = mirror
        while let level = current {
            children.append(contentsOf: level.children)
            current = level.superclassMirror
        }
        return children
    }

    private func keyAndValue(_ entry: Any) -> (key: String, value: Any) {
        let parts = Array(Mirror(reflecting: entry).children)
        guard parts.count == 2 else { return (boundedDescription(entry, budget: 80), entry) }
        return (boundedDescription(parts[0].value, budget: 80), parts[1].value)
    }

    /// A little context for a child: the element count of a collection.
    private func context(of value: Any) -> String {
        if let collection = value as? any DiffedByElements {
            return "(\(collection.elementCount) element\(collection.elementCount == 1 ? "" : "s"))"
        }
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .collection?, .set?, .dictionary?:
            return "(\(mirror.children.count) element\(mirror.children.count == 1 ? "" : "s"))"
        default:
            return ""
        }
    }
}

/// The step to an element: its index, and its id when it has one.
func elementStep(_ index: Int, _ element: Any) -> PathStep {
    PathStep(label: "[\(index)]", context: elementID(of: element).map { "(id: \(boundedDescription($0.base, budget: 60)))" } ?? "")
}

/// Whether two values are the same enum case (always `true` for values that are not enums).
package func isSameCase(_ lhs: Any, _ rhs: Any) -> Bool {
    let left = Mirror(reflecting: lhs)
    let right = Mirror(reflecting: rhs)
    guard left.displayStyle == .enum, right.displayStyle == .enum else { return true }
    let leftCase = left.children.first?.label ?? String(describing: lhs)
    let rightCase = right.children.first?.label ?? String(describing: rhs)
    return leftCase == rightCase
}

/// A list of ids written until a budget is spent.
private struct BoundedList {
    var text = "["
    var count = 0
    var isFull = false

    mutating func append(_ id: AnyHashable?) {
        guard !isFull else { return }
        if text.count > 200 {
            text += ", …"
            isFull = true
            return
        }
        text += (count == 0 ? "" : ", ") + boundedDescription(id.map { $0.base } ?? "?", budget: 40)
        count += 1
    }
}

/// The id of an `Identifiable` element, or `nil`.
func elementID(of element: Any) -> AnyHashable? {
    guard let identifiable = element as? any Identifiable else { return nil }
    return hashableID(of: identifiable)
}

private func hashableID<Element: Identifiable>(of element: Element) -> AnyHashable {
    AnyHashable(element.id)
}

/// `==` for two values of unknown type: `nil` when the type is not `Equatable`.
func anyEquals(_ lhs: Any, _ rhs: Any) -> Bool? {
    guard let lhs = lhs as? any Equatable else { return nil }
    return lhs.isEqual(toAny: rhs)
}

extension Equatable {
    fileprivate func isEqual(toAny other: Any) -> Bool {
        guard let other = other as? Self else { return false }
        return self == other
    }
}
