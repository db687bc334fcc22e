import HeritageLens
import Foundation
import HeritageCore

/// Frames rendered from a synthetic scene on demand: the evaluation sequences and benchmarks run
/// the real pipeline on them without a file in between.
public final class SceneSource: FrameSource {
    public let name: String
    public let scene: SyntheticScene
    public let framesPerSecond: Double
    public let frameCount: Int
    public var size: Size { scene.size }
    public var expectedFrameCount: Int? { frameCount }
    public let droppedFrameCount = 0
    private let buffer: Image
    private var rendered: [Image] = []
    private var next = 0
    /// Release frames at their times, as a camera would (frames are rendered ahead of time, so
    /// rendering costs nothing on the measured path).
    public let paced: Bool
    private var startedAt: UInt64?

    public init(name: String, scene: SyntheticScene, frameCount: Int, framesPerSecond: Double = 30,
                paced: Bool = false) throws {
        self.paced = paced
        self.name = name
        self.scene = scene
        self.frameCount = frameCount
        self.framesPerSecond = framesPerSecond
        buffer = try Image(width: scene.size.width, height: scene.size.height)
        if paced {
            // Rendering on the measured core would eat the idle time that background work uses.
            for i in 0..<frameCount {
                let image = try Image(width: scene.size.width, height: scene.size.height)
                try scene.render(frame: i, into: image)
                rendered.append(image)
            }
        }
    }

    public func nextFrame() throws -> Frame? {
        guard next < frameCount else { return nil }
        let image = paced ? rendered[next] : buffer
        if !paced { try scene.render(frame: next, into: buffer) }
        defer { next += 1 }
        let clock = SystemClock()
        var available = clock.nanoseconds()
        if paced {
            let start = startedAt ?? available
            startedAt = start
            let due = start + UInt64(Double(next) / framesPerSecond * 1e9)
            if due > available { usleep(UInt32((due - available) / 1000)) }
            available = max(due, min(available, clock.nanoseconds()))
        }
        return Frame(index: next, time: Double(next) / framesPerSecond, availableAt: available, image: image)
    }

    public func close() {
        next = frameCount
        rendered = []
    }
}

/// Keeps every frame's anchors (evaluation, tests).
public final class AnchorCollector: FrameSink {
    public private(set) var frames: [FrameAnchors] = []

    public init() {}

    public func write(_ frame: ProcessedFrame) throws { frames.append(frame.anchors) }
    public func finish() throws {}
}
