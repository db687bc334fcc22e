import HeritageLens
import HeritageCore

/// Collects one bench run's figures from the pipeline's per-frame metrics and anchors.
public final class BenchRecorder: FrameSink {
    public private(set) var stageSamples: [String: [Double]] = [:]
    public private(set) var stageOrder: [String] = []
    public private(set) var totals: [Double] = []
    public private(set) var backgroundSamples: [String: [Double]] = [:]
    public private(set) var cpuPerFrame: [Double] = []
    public private(set) var tierTimeline: [(frame: Int, tier: String)] = []
    /// Per frame: the stage times in order (for the plot).
    public private(set) var frames: [(frame: Int, stages: [(String, Double)], total: Double, tier: String)] = []
    public private(set) var firstFaceTime: Double?
    public private(set) var firstCardTime: Double?
    private var lastCPU = threadCPUNanoseconds()

    public init() {}

    /// The pipeline's `onFrame`.
    public func record(_ m: FrameMetrics) {
        let now = threadCPUNanoseconds()
        cpuPerFrame.append(Double(now - lastCPU) / 1e6)
        lastCPU = now
        totals.append(m.totalMilliseconds)
        for (name, ms) in m.stages {
            if stageSamples[name] == nil { stageOrder.append(name) }
            stageSamples[name, default: []].append(ms)
        }
        for (name, ms) in m.background { backgroundSamples[name, default: []].append(ms) }
        if tierTimeline.last?.tier != m.tier { tierTimeline.append((m.frame, m.tier)) }
        frames.append((m.frame, m.stages.map { ($0.name, $0.milliseconds) }, m.totalMilliseconds, m.tier))
    }

    public func write(_ frame: ProcessedFrame) throws {
        if firstFaceTime == nil, !frame.anchors.faces.isEmpty { firstFaceTime = frame.frame.time }
        if firstCardTime == nil, !frame.anchors.cards.isEmpty { firstCardTime = frame.frame.time }
    }

    public func finish() throws {}
}
