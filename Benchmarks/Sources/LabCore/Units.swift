import Foundation

// Human units for the figures in tables, logs and charts.

/// A duration in nanoseconds in the largest unit that keeps it at or above 1: `85.3 ns`,
/// `1.24 µs`, `3.40 ms`, `1.20 s` (three significant digits).
public func formatDuration(_ nanoseconds: Double) -> String {
    guard nanoseconds.isFinite else { return "\(nanoseconds) ns" }
    return scaled(nanoseconds, units: [(1, "ns"), (1e3, "µs"), (1e6, "ms"), (1e9, "s")])
}

/// `value` in the largest of `units` (factor, name; ascending) that keeps it at or above 1, with
/// three significant digits; a value that rounds up to 1000 of a unit moves to the next one.
func scaled(_ value: Double, units: [(Double, String)]) -> String {
    var index = 0
    while index + 1 < units.count && abs(value) >= units[index + 1].0 { index += 1 }
    var text = significant(value / units[index].0, 3)
    if index + 1 < units.count, abs(Double(text) ?? 0) >= units[index + 1].0 / units[index].0 {
        index += 1
        text = significant(value / units[index].0, 3)
    }
    return text + " " + units[index].1
}

/// A byte count in binary units: `512 B`, `64 KiB`, `1.5 MiB` (three significant digits).
public func formatBytes(_ bytes: Double) -> String {
    scaled(bytes, units: [(1, "B"), (1024, "KiB"), (1_048_576, "MiB"), (1_073_741_824, "GiB")])
}

/// `value` with `digits` significant digits, trailing zeros after the point dropped
/// (`1.20` → `1.2`, `100.0` → `100`, `0.0123` → `0.0123`).
func significant(_ value: Double, _ digits: Int) -> String {
    guard value != 0 else { return "0" }
    guard value.isFinite else { return "\(value)" }
    let exponent = Int(log10(abs(value)).rounded(.down))
    var decimals = max(0, digits - 1 - exponent)
    var text = fixed(value, digits: decimals)
    // Rounding that carries into one more digit (9.996 → 10.00) keeps one decimal fewer.
    if decimals > 0, let rounded = Double(text), abs(rounded) >= pow(10, Double(exponent + 1)) {
        decimals -= 1
        text = fixed(value, digits: decimals)
    }
    if text.contains(".") {
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
    }
    return text
}
