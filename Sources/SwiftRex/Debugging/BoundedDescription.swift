// Descriptions of any value, cut at a budget without rendering what they leave out: what a
// failure message shows of each side of a difference.

/// The type's name without its module.
func typeName(of value: Any) -> String {
    String(describing: type(of: value))
}

/// A description of `value` of at most about `budget` characters, built without rendering the parts
/// it leaves out (so a large value costs no more than a small one).
package func boundedDescription(_ value: Any, budget: Int = 300) -> String {
    var writer = BoundedWriter(budget: budget)
    writer.write(value, depth: 0)
    return writer.text
}

private struct BoundedWriter {
    var budget: Int
    var text = ""
    /// Characters written so far (`String.count` would recount them on every call).
    var length = 0
    var isFull: Bool { length >= budget }

    mutating func append(_ string: String) {
        guard !isFull else { return }
        let room = budget - length
        let piece = string.prefix(room + 1)
        if piece.count > room {
            text += piece.prefix(room) + "…"
            length = budget
        } else {
            text += piece
            length += piece.count
        }
    }

    mutating func write(_ value: Any, depth: Int) {
        guard !isFull else { return }
        if let collection = value as? any DiffedByElements {
            // The elements, as an array's: never the collection's storage.
            append("[")
            var first = true
            collection.forEachElement { element in
                if !first { append(", ") }
                first = false
                write(element, depth: depth + 1)
                return !isFull
            }
            return append("]")
        }
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .optional?:
            if let some = mirror.children.first { write(some.value, depth: depth) } else { append("nil") }
        case .collection?, .set?:
            append("[")
            writeChildren(mirror, depth: depth, labelled: false)
            append("]")
        case .dictionary?:
            append("[")
            if mirror.children.isEmpty { append(":") }
            var first = true
            for child in mirror.children {
                guard !isFull else { break }
                if !first { append(", ") }
                first = false
                let parts = Array(Mirror(reflecting: child.value).children)
                if parts.count == 2 {
                    write(parts[0].value, depth: depth + 1)
                    append(": ")
                    write(parts[1].value, depth: depth + 1)
                } else {
                    write(child.value, depth: depth + 1)
                }
            }
            append("]")
        case .enum?:
            if let payload = mirror.children.first, let label = payload.label {
                append("." + label)
                let payloadMirror = Mirror(reflecting: payload.value)
                if payloadMirror.displayStyle == .tuple {
                    append("(")
                    writeChildren(payloadMirror, depth: depth, labelled: true)
                    append(")")
                } else {
                    append("(")
                    write(payload.value, depth: depth + 1)
                    append(")")
                }
            } else {
                append("." + String(describing: value))
            }
        case .struct?, .class?:
            guard !mirror.children.isEmpty else { return append(String(reflecting: value)) }
            guard depth < 8 else { return append(typeName(of: value) + "(…)") }
            append(typeName(of: value) + "(")
            writeChildren(mirror, depth: depth, labelled: true)
            append(")")
        case .tuple?:
            append("(")
            writeChildren(mirror, depth: depth, labelled: true)
            append(")")
        default:
            append(String(reflecting: value))
        }
    }

    private mutating func writeChildren(_ mirror: Mirror, depth: Int, labelled: Bool) {
        var first = true
        for child in mirror.children {
            guard !isFull else { break }
            if !first { append(", ") }
            first = false
            if labelled, let label = child.label, !label.hasPrefix(".") { append(label + ": ") }
            write(child.value, depth: depth + 1)
        }
    }
}
