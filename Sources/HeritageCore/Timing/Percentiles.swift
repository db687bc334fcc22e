/// Percentiles of a sample by the nearest-rank method: the p-th percentile is the smallest value
/// with at least p % of the sample at or below it (so p100 is the maximum).
public struct Percentiles: Sendable {
    public let sorted: [Double]

    public init<S: Sequence>(_ values: S) where S.Element == Double {
        sorted = values.filter { !$0.isNaN }.sorted()
    }

    public var count: Int { sorted.count }

    /// nil for an empty sample.
    public func value(at percent: Double) -> Double? {
        guard !sorted.isEmpty else { return nil }
        let rank = Int((percent / 100 * Double(sorted.count)).rounded(.up))
        return sorted[min(sorted.count, max(1, rank)) - 1]
    }

    public var median: Double? { value(at: 50) }
    public var maximum: Double? { sorted.last }
    public var mean: Double? { sorted.isEmpty ? nil : sorted.reduce(0, +) / Double(sorted.count) }
}
