/// Records how long each stage of one frame took, at the stage boundaries only.
///
/// The pipeline calls `mark(_:)` as each stage ends; stages never time themselves. The first
/// stage's time is measured from the moment the frame became available (the driver's capture
/// time for a camera, the moment the pipeline asked for it for a file).
public struct StageTimer {
    private let clock: any MonotonicClock
    public let start: UInt64
    private var last: UInt64
    public private(set) var stages: [(name: String, milliseconds: Double)] = []

    public init(clock: any MonotonicClock, availableAt: UInt64) {
        self.clock = clock
        let now = clock.nanoseconds()
        // A capture time stamped a hair in the future (clock granularity) counts as now.
        self.start = min(availableAt, now)
        self.last = start
        stages.reserveCapacity(8)
    }

    public mutating func mark(_ stage: String) {
        let now = clock.nanoseconds()
        stages.append((stage, Double(now &- last) / 1e6))
        last = now
    }

    /// Milliseconds from the frame being available to the last mark.
    public var elapsedMilliseconds: Double { Double(last &- start) / 1e6 }
}
