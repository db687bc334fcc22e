import HeritageCore

/// "overlay_stats": a small panel in the corner of live output: frames per second, tier, end-to-end
/// milliseconds and one bar per stage, from the previous frame's metrics (this frame's are not
/// finished while it is drawn).
public final class StatsOverlayStage: FrameStage {
    public let name = "stats"
    public let reads: Set<FrameField> = [.image]
    public let writes: Set<FrameField> = []
    private var last: FrameMetrics?
    private var frameTimes: [Double] = []

    public init() {}

    /// Feed each frame's metrics (the pipeline's `onFrame`).
    public func record(_ m: FrameMetrics) {
        last = m
        frameTimes.append(m.time)
        if frameTimes.count > 30 { frameTimes.removeFirst() }
    }

    public func process(_ work: inout FrameWork) throws {
        guard let m = last else { return }
        let image = work.frame.image
        let stages = m.stages.filter { $0.name != "sinks" && $0.name != "stats" }
        let height = Double(44 + 14 * stages.count)
        image.drawRect(Rect(x: 6, y: 6, width: 214, height: height), colour: .black, opacity: 0.55, thickness: -1)
        var fps = 0.0
        if let first = frameTimes.first, let lastTime = frameTimes.last, lastTime > first {
            fps = Double(frameTimes.count - 1) / (lastTime - first)
        }
        image.drawText(String(format: "%.1f fps  ", fps) + m.tier + String(format: "  %.1f ms", m.totalMilliseconds),
                       at: Point2(12, 24), scale: 0.45, colour: .white)
        let scale = 120 / max(8, m.totalMilliseconds)
        for (i, s) in stages.enumerated() {
            let y = 36 + Double(i) * 14
            image.drawText(s.name, at: Point2(12, y + 10), scale: 0.35, colour: .white)
            image.drawRect(Rect(x: 92, y: y + 2, width: max(1, s.milliseconds * scale), height: 9),
                           colour: s.milliseconds > 8 ? Colour(red: 240, green: 80, blue: 70) : .green, thickness: -1)
        }
    }
}
