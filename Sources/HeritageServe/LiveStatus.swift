import Foundation
import HeritageCore

/// `/metrics.json`: the latest frame's timings and a summary of the recent ones, as the viewer
/// shows them (fps, tier, end-to-end and per-stage milliseconds).
struct LiveStatus {
    /// Frames the percentiles cover (5 s at 30 fps).
    static let window = 150
    private var totals: [Double] = []
    private var stages: [String: [Double]] = [:]
    private var stageOrder: [String] = []
    private var arrivals: [Double] = []

    mutating func record(_ m: FrameMetrics, arrivedAt seconds: Double) {
        Self.push(m.totalMilliseconds, into: &totals)
        Self.push(seconds, into: &arrivals)
        for s in m.stages {
            if stages[s.name] == nil { stageOrder.append(s.name) }
            Self.push(s.milliseconds, into: &stages[s.name, default: []])
        }
    }

    private static func push(_ v: Double, into a: inout [Double]) {
        a.append(v)
        if a.count > window { a.removeFirst(a.count - window) }
    }

    /// Frames per second over the window, by arrival time.
    var framesPerSecond: Double {
        guard let first = arrivals.first, let last = arrivals.last, last > first else { return 0 }
        return Double(arrivals.count - 1) / (last - first)
    }

    func json(latest m: FrameMetrics, dropped: Int, clients: (anchors: Int, stream: Int),
              skipped: (anchors: Int, stream: Int)) -> String {
        var j = JSONLineBuilder(capacity: 1024)
        j.raw("{")
        j.key("frame"); j.int(m.frame)
        j.key("t"); j.number(m.time, decimals: 4)
        j.key("tier"); j.string(m.tier)
        j.key("fps"); j.number(framesPerSecond, decimals: 1)
        j.key("window"); j.int(totals.count)
        j.key("total_ms"); Self.summary(last: m.totalMilliseconds, totals, into: &j)
        j.key("stages_ms"); j.raw("{")
        for name in stageOrder {
            guard let values = stages[name], let last = m.milliseconds(of: name) else { continue }
            j.key(name); Self.summary(last: last, values, into: &j)
        }
        j.raw("}")
        j.key("dropped"); j.int(dropped)
        j.key("clients"); j.raw("{")
        j.key("anchors"); j.int(clients.anchors)
        j.key("stream"); j.int(clients.stream)
        j.raw("}")
        j.key("skipped"); j.raw("{")
        j.key("anchors"); j.int(skipped.anchors)
        j.key("stream"); j.int(skipped.stream)
        j.raw("}}")
        return j.text
    }

    private static func summary(last: Double, _ values: [Double], into j: inout JSONLineBuilder) {
        let p = Percentiles(values)
        j.raw("{")
        j.key("last"); j.number(last, decimals: 3)
        j.key("p50"); j.number(p.median ?? 0, decimals: 3)
        j.key("p99"); j.number(p.value(at: 99) ?? 0, decimals: 3)
        j.raw("}")
    }
}
