/// Order statistics of a sample set (nanoseconds per operation in the lab).
public struct Summary: Codable, Equatable, Sendable {
    /// Smallest value.
    public var min: Double
    /// Median: the middle value, or the mean of the two middle values for even counts.
    public var median: Double
    /// 90th percentile, linearly interpolated between closest ranks (index `0.9 × (n − 1)`).
    public var p90: Double
    /// Largest value.
    public var max: Double

    /// Creates a summary from explicit values.
    public init(min: Double, median: Double, p90: Double, max: Double) {
        self.min = min
        self.median = median
        self.p90 = p90
        self.max = max
    }
}

/// Pure statistics helpers.
public enum Statistics {
    /// Summarises `values`; nil when empty.
    public static func summarize(_ values: [Double]) -> Summary? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        return Summary(
            min: sorted[0],
            median: percentile(sorted: sorted, 0.5),
            p90: percentile(sorted: sorted, 0.9),
            max: sorted[sorted.count - 1]
        )
    }

    /// The `p` quantile (0…1) of already sorted values, linear interpolation
    /// between closest ranks; `p = 0.5` is the usual median.
    public static func percentile(sorted: [Double], _ p: Double) -> Double {
        precondition(!sorted.isEmpty, "percentile of an empty set")
        let position = Swift.min(Swift.max(p, 0), 1) * Double(sorted.count - 1)
        let lower = Int(position.rounded(.down))
        let upper = Swift.min(lower + 1, sorted.count - 1)
        let fraction = position - Double(lower)
        return sorted[lower] + (sorted[upper] - sorted[lower]) * fraction
    }
}
