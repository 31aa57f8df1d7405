// Arrays whose elements are `Equatable` (or also `Identifiable`), diffed with their static element
// type: compared element by element without reflection, paired by id where counts differ.

/// An array whose elements are `Equatable`: compared element by element with no reflection.
protocol EquatableElementArray {
    func diffElements(against other: Any, in differ: inout StateDiffer, path: [PathStep], depth: Int)
}

extension Array: EquatableElementArray where Element: Equatable {
    func diffElements(against other: Any, in differ: inout StateDiffer, path: [PathStep], depth: Int) {
        guard let other = other as? [Element] else { return differ.leaf(self, other, path: path) }
        diffEquatableElements(self, other, in: &differ, path: path, depth: depth)
    }
}

extension ContiguousArray: EquatableElementArray where Element: Equatable {
    func diffElements(against other: Any, in differ: inout StateDiffer, path: [PathStep], depth: Int) {
        guard let other = other as? ContiguousArray<Element> else { return differ.leaf(self, other, path: path) }
        diffEquatableElements(Array(self), Array(other), in: &differ, path: path, depth: depth)
    }
}

/// An array whose elements are `Equatable` and `Identifiable`: paired by id with no reflection.
protocol IdentifiedElementArray {
    func diffIdentifiedElements(against other: Any, in differ: inout StateDiffer, path: [PathStep], depth: Int)
}

extension Array: IdentifiedElementArray where Element: Equatable & Identifiable {
    func diffIdentifiedElements(against other: Any, in differ: inout StateDiffer, path: [PathStep], depth: Int) {
        guard let other = other as? [Element] else { return differ.leaf(self, other, path: path) }
        diffIdentified(self, other, in: &differ, path: path, depth: depth)
    }
}

extension ContiguousArray: IdentifiedElementArray where Element: Equatable & Identifiable {
    func diffIdentifiedElements(against other: Any, in differ: inout StateDiffer, path: [PathStep], depth: Int) {
        guard let other = other as? ContiguousArray<Element> else { return differ.leaf(self, other, path: path) }
        diffIdentified(Array(self), Array(other), in: &differ, path: path, depth: depth)
    }
}

/// The equal prefix and suffix skipped with `==`; in the middle, elements paired by id (typed, so
/// no element is boxed unless it differs): a pair that differs is walked, an unpaired element is
/// removed or inserted, and equal pairs in another order are reported as a reorder.
private func diffIdentified<Element: Equatable & Identifiable>(
    _ expected: [Element], _ actual: [Element],
    in differ: inout StateDiffer, path: [PathStep], depth: Int
) {
    let (prefix, suffix) = equalEnds(expected, actual)
    differ.comparisons += prefix + suffix
    let expectedRange = prefix..<(expected.count - suffix)
    let actualRange = prefix..<(actual.count - suffix)
    // The usual case: the same ids at the same places.
    if expectedRange.count == actualRange.count, expectedRange.indices.allSatisfy({ expected[$0].id == actual[$0].id }) {
        for index in expectedRange {
            differ.comparisons += 1
            if expected[index] != actual[index] {
                differ.diff(expected[index], actual[index], path: path + [elementStep(index, expected[index])], depth: depth + 1)
            }
        }
        return
    }
    var actualByID: [Element.ID: Int] = [:]
    actualByID.reserveCapacity(actualRange.count)
    for index in actualRange where actualByID[actual[index].id] == nil { actualByID[actual[index].id] = index }
    var matched = [Bool](repeating: false, count: actualRange.count)
    let before = differ.total
    var lastMatch = -1
    var reordered = false
    for index in expectedRange {
        differ.comparisons += 1
        let element = expected[index]
        if let other = actualByID[element.id], !matched[other - prefix] {
            matched[other - prefix] = true
            if other < lastMatch { reordered = true }
            lastMatch = other
            if element != actual[other] {
                differ.diff(element, actual[other], path: path + [elementStep(index, element)], depth: depth + 1)
            }
        } else {
            differ.record(path: path + [elementStep(index, element)], expected: boundedDescription(element), actual: nil)
        }
    }
    for index in actualRange where !matched[index - prefix] {
        differ.record(path: path + [elementStep(index, actual[index])], expected: nil, actual: boundedDescription(actual[index]))
    }
    if reordered, differ.total == before {
        differ.record(
            path: path + [PathStep(label: "(order of ids)", context: "")],
            expected: boundedDescription(expectedRange.map { expected[$0].id }, budget: 200),
            actual: boundedDescription(actualRange.map { actual[$0].id }, budget: 200)
        )
    }
}

/// The equal prefix and suffix skipped with `==`, the middle handed to the differ. Takes arrays, not
/// a generic collection: an array's subscript is a plain call, where a generic collection's would
/// allocate a coroutine frame per element in the unoptimised builds tests run.
private func diffEquatableElements<Element: Equatable>(
    _ expected: [Element], _ actual: [Element],
    in differ: inout StateDiffer, path: [PathStep], depth: Int
) {
    let (prefix, suffix) = equalEnds(expected, actual)
    differ.comparisons += prefix + suffix
    differ.diffMiddle(
        expectedRange: prefix..<(expected.count - suffix), actualRange: prefix..<(actual.count - suffix),
        expectedElement: { expected[$0] }, actualElement: { actual[$0] },
        path: path, depth: depth
    )
}

/// How many elements the two arrays share at their start, and then at their end, compared with `==`.
private func equalEnds<Element: Equatable>(_ expected: [Element], _ actual: [Element]) -> (prefix: Int, suffix: Int) {
    let shared = Swift.min(expected.count, actual.count)
    var prefix = 0
    while prefix < shared, expected[prefix] == actual[prefix] { prefix &+= 1 }
    var suffix = 0
    while suffix < shared - prefix, expected[expected.count - 1 - suffix] == actual[actual.count - 1 - suffix] { suffix &+= 1 }
    return (prefix, suffix)
}
