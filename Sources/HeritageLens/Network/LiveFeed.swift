import HeritageCore

/// One finished frame for programs watching live (OSC receivers, browsers).
public struct LiveFrame: Sendable {
    public let anchors: FrameAnchors
    public let metrics: FrameMetrics
    /// A copy of the composited frame when an output asked for it (`LiveOutput.wantsImage`);
    /// nobody writes to it once published.
    public let image: Image?
    /// Frames the source skipped to keep up, so far.
    public let droppedFrames: Int

    public init(anchors: FrameAnchors, metrics: FrameMetrics, image: Image?, droppedFrames: Int = 0) {
        self.anchors = anchors
        self.metrics = metrics
        self.image = image
        self.droppedFrames = droppedFrames
    }
}

/// Something that sends frames to other programs. It is handed every frame on the frame thread
/// and must return at once: encoding and sending happen on its own threads, newest frame first.
public protocol LiveOutput: AnyObject {
    /// Whether the next frame's image is wanted (a video client is due one): the copy is made only
    /// then. Asked on the frame thread.
    var wantsImage: Bool { get }
    func publish(_ frame: LiveFrame)
    /// Stops sending; called once at the end of the run.
    func finish()
}

/// Hands finished frames to live outputs: it copies the composited image while the frame is
/// written out (the source reuses its buffer for the next frame), and publishes when the frame's
/// metrics are known (`frameFinished`, from the pipeline's `onFrame`).
public final class LiveFeedSink: FrameSink {
    private let outputs: [LiveOutput]
    private let droppedFrames: () -> Int
    private var pending: (anchors: FrameAnchors, image: Image?)?
    /// Image buffers handed out; one is reused once no published frame holds it any more.
    private var pool: [Image] = []

    public init(outputs: [LiveOutput], droppedFrames: @escaping () -> Int = { 0 }) {
        self.outputs = outputs
        self.droppedFrames = droppedFrames
    }

    public func write(_ frame: ProcessedFrame) throws {
        var image: Image?
        if outputs.contains(where: { $0.wantsImage }) {
            let buffer = freeBuffer()
            try frame.output.copy(to: buffer)
            image = buffer
        }
        pending = (frame.anchors, image)
    }

    /// Publishes the frame last written, with its metrics.
    public func frameFinished(_ metrics: FrameMetrics) {
        guard let p = pending, p.anchors.frame == metrics.frame else { return }
        pending = nil
        let live = LiveFrame(anchors: p.anchors, metrics: metrics, image: p.image, droppedFrames: droppedFrames())
        for output in outputs { output.publish(live) }
    }

    public func finish() throws {
        pending = nil
        for output in outputs { output.finish() }
    }

    private func freeBuffer() -> Image {
        for i in pool.indices where isKnownUniquelyReferenced(&pool[i]) { return pool[i] }
        let image = Image()
        // Bounded: a consumer holds at most the frame it works on and the newest waiting one.
        if pool.count < 4 { pool.append(image) }
        return image
    }
}
