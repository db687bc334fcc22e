/// The figures reported for a set of per-frame durations (milliseconds).
public struct LatencySummary: Hashable, Sendable {
    public var count: Int
    public var mean: Double
    public var p50: Double
    public var p95: Double
    public var p99: Double
    public var max: Double

    /// nil for no samples.
    public init?(_ samples: [Double]) {
        let p = Percentiles(samples)
        guard let mean = p.mean, let p50 = p.median, let p95 = p.value(at: 95), let p99 = p.value(at: 99),
              let max = p.maximum else { return nil }
        count = p.count
        self.mean = mean
        self.p50 = p50
        self.p95 = p95
        self.p99 = p99
        self.max = max
    }

    /// Each figure of `self` divided by the same figure of `other` (tier comparisons).
    public func ratio(to other: LatencySummary) -> LatencySummary {
        func r(_ a: Double, _ b: Double) -> Double { b > 0 ? a / b : .nan }
        var out = self
        out.mean = r(mean, other.mean)
        out.p50 = r(p50, other.p50)
        out.p95 = r(p95, other.p95)
        out.p99 = r(p99, other.p99)
        out.max = r(max, other.max)
        return out
    }
}
