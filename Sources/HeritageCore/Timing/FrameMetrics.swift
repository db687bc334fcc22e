/// Per-frame timing: one line of the metrics stream (shared/DESIGN.md).
public struct FrameMetrics: Sendable {
    public var frame: Int
    public var time: Double
    public var tier: String
    /// End to end: from the frame being available to its composited output being ready.
    public var totalMilliseconds: Double
    /// Stage durations in pipeline order.
    public var stages: [(name: String, milliseconds: Double)]
    /// Events worth a field of their own (a tier switch).
    public var events: [(name: String, value: String)]
    /// Work done off the frame path (detection in idle time), reported apart from the stages.
    public var background: [(name: String, milliseconds: Double)]

    public init(frame: Int, time: Double, tier: String, totalMilliseconds: Double,
                stages: [(name: String, milliseconds: Double)], events: [(name: String, value: String)] = [],
                background: [(name: String, milliseconds: Double)] = []) {
        self.frame = frame
        self.time = time
        self.tier = tier
        self.totalMilliseconds = totalMilliseconds
        self.stages = stages
        self.events = events
        self.background = background
    }

    public func milliseconds(of stage: String) -> Double? {
        stages.first { $0.name == stage }?.milliseconds
    }

    public var jsonLine: String {
        var j = JSONLineBuilder()
        j.raw("{")
        j.key("frame"); j.int(frame)
        j.key("t"); j.number(time, decimals: 4)
        j.key("tier"); j.string(tier)
        j.key("total_ms"); j.number(totalMilliseconds, decimals: 3)
        j.key("stages"); j.raw("{")
        for stage in stages {
            j.key(stage.name); j.number(stage.milliseconds, decimals: 3)
        }
        j.raw("}")
        if !background.isEmpty {
            j.key("background_ms"); j.raw("{")
            for item in background {
                j.key(item.name); j.number(item.milliseconds, decimals: 3)
            }
            j.raw("}")
        }
        for event in events {
            j.key(event.name); j.string(event.value)
        }
        j.raw("}")
        return j.text
    }
}
