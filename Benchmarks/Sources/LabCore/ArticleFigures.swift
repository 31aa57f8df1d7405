import Foundation

/// The Performance article's table of measured costs, generated from a results file so that its
/// figures are the baseline's, never copied by hand. `swiftrex-lab summary --article PATH`
/// rewrites the table between the article's markers; a lab test checks the committed article
/// against the committed baseline.
public enum ArticleFigures {
    /// The line before the generated table.
    public static let begin = "<!-- Generated from Results/baseline.json by `swiftrex-lab summary --article`; do not edit. -->"
    /// The line after it.
    public static let end = "<!-- End of generated figures. -->"

    /// One row: a cost a user meets, its scenario, and the control it is read against.
    struct Row {
        var cost: String
        var scenario: RecordKey
        var control: RecordKey?
    }

    static let rows: [Row] = [
        Row(
            cost: "One row's edit in a supervised collection of 100,000 rows",
            scenario: RecordKey(name: "reconcile.oneRowChanged", size: 100_000),
            control: RecordKey(name: "reconcile.oneRowChanged.raw", size: 100_000)),
        Row(
            cost: "A chat app's action mix, each conversation supervised",
            scenario: RecordKey(name: "app.chat", size: nil), control: RecordKey(name: "app.chat.unsupervised", size: nil)),
        Row(cost: "A dispatch that restarts a pending debounce", scenario: RecordKey(name: "effects.debounce.storm", size: nil), control: nil),
        Row(
            cost: "Restarting one of 10,000 pending debounces",
            scenario: RecordKey(name: "effects.debounce.pending", size: 10_000),
            control: RecordKey(name: "effects.debounce.pending", size: 100)),
        Row(
            cost: "An insert or removal in a supervised IdentifiedArray of 100,000 rows",
            scenario: RecordKey(name: "supervision.insertRemove", size: 100_000), control: nil),
        Row(
            cost: "The same edit in a supervised plain array",
            scenario: RecordKey(name: "supervision.insertRemove.plainArray", size: 100_000),
            control: RecordKey(name: "supervision.insertRemove", size: 100_000)),
        Row(
            cost: "The same edit in a supervised dictionary (evaluated whole)",
            scenario: RecordKey(name: "supervision.insertRemove.dictionary", size: 100_000),
            control: RecordKey(name: "supervision.insertRemove", size: 100_000)),
        Row(
            cost: "The chat app's mix with its conversations in a plain array",
            scenario: RecordKey(name: "app.chat.plainArray", size: nil), control: RecordKey(name: "app.chat", size: nil)),
        Row(
            cost: "Routing an action to a row by id, 100,000 rows",
            scenario: RecordKey(name: "lift.collection.byId", size: 100_000),
            control: RecordKey(name: "lift.collection.byId.rawDictionary", size: 100_000)),
        Row(
            cost: "One row's edit with every one of 10,000 rows observed",
            scenario: RecordKey(name: "store.observe.rows", size: 10_000),
            control: RecordKey(name: "store.observe.rows", size: 100)),
    ]

    /// The generated table, or the keys `file` lacks.
    public static func table(_ file: ResultsFile) throws(MissingFigures) -> String {
        let missing = rows.flatMap { [$0.scenario] + ($0.control.map { [$0] } ?? []) }.filter { file.record($0.name, size: $0.size) == nil }
        guard missing.isEmpty else { throw MissingFigures(keys: missing) }
        var out = "| Cost | Scenario | Time/op | Allocations/op | Instructions/op | Against | Ratio |\n"
        out += "|---|---|---:|---:|---:|---|---:|\n"
        for row in rows {
            // Both are present: checked above.
            guard let record = file.record(row.scenario.name, size: row.scenario.size) else { continue }
            let control = row.control.flatMap { file.record($0.name, size: $0.size) }
            let cells = [
                row.cost, "`\(row.scenario)`", formatDuration(record.nsPerOp.median), significant(record.allocsPerOp, 3),
                record.instructionsPerOp.map { significant($0, 3) } ?? "—",
                row.control.map { "`\($0)`" } ?? "—",
                control.map { ratio(record, $0) } ?? "—",
            ]
            out += "| " + cells.joined(separator: " | ") + " |\n"
        }
        return out
    }

    /// `article` with the text between its markers replaced by the table of `file`.
    public static func updating(_ article: String, from file: ResultsFile) throws -> String {
        guard let range = tableRange(in: article) else { throw MissingFigures(markers: true) }
        return article.replacingCharacters(in: range, with: try table(file))
    }

    /// The text between `article`'s markers, or `nil` when it has none.
    public static func committedTable(in article: String) -> String? {
        tableRange(in: article).map { String(article[$0]) }
    }

    /// Where the generated table lies in `article`: after the line of ``begin``, up to ``end``.
    private static func tableRange(in article: String) -> Range<String.Index>? {
        guard let start = article.range(of: begin + "\n"), let stop = article.range(of: end, range: start.upperBound..<article.endIndex) else {
            return nil
        }
        return start.upperBound..<stop.lowerBound
    }

    /// Instructions over instructions when both were counted (deterministic), else median time
    /// over median time (`×`, as measured in one run).
    private static func ratio(_ record: BenchmarkRecord, _ control: BenchmarkRecord) -> String {
        if let numerator = record.instructionsPerOp, let denominator = control.instructionsPerOp, denominator > 0 {
            return significant(numerator / denominator, 3) + "× (instructions)"
        }
        guard control.nsPerOp.median > 0 else { return "—" }
        return significant(record.nsPerOp.median / control.nsPerOp.median, 3) + "× (time)"
    }
}

/// A results file without a scenario the article's table names, or an article without markers.
public struct MissingFigures: Error, CustomStringConvertible {
    var keys: [RecordKey] = []
    var markers = false

    public var description: String {
        markers
            ? "the article has no generated-figures markers (\(ArticleFigures.begin) … \(ArticleFigures.end))"
            : "the results lack \(keys.map(\.description).joined(separator: ", ")), which the article's table names"
    }
}
