/// A readable, line-based difference between an expected and an actual value, for failure messages.
///
/// Both values are rendered with `dump`; lines only in the expected rendering are prefixed `−`,
/// lines only in the actual one `+`, shared lines are shown for context around changes.
public func stateDifference<Value>(expected: Value, actual: Value) -> String {
    var expectedText = ""
    var actualText = ""
    dump(expected, to: &expectedText)
    dump(actual, to: &actualText)
    let old = expectedText.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let new = actualText.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    // Longest common subsequence table, then a walk that emits −/+/space lines.
    var table = Array(repeating: Array(repeating: 0, count: new.count + 1), count: old.count + 1)
    for i in stride(from: old.count - 1, through: 0, by: -1) {
        for j in stride(from: new.count - 1, through: 0, by: -1) {
            table[i][j] = old[i] == new[j] ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
        }
    }
    var lines: [String] = []
    var i = 0
    var j = 0
    while i < old.count || j < new.count {
        if i < old.count, j < new.count, old[i] == new[j] {
            lines.append("  \(old[i])")
            i += 1
            j += 1
        } else if j < new.count, i == old.count || table[i][j + 1] >= table[i + 1][j] {
            lines.append("+ \(new[j])")
            j += 1
        } else {
            lines.append("− \(old[i])")
            i += 1
        }
    }
    return "(expected: −, actual: +)\n" + lines.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }.joined(separator: "\n")
}

import Foundation
