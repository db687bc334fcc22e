import HeritageCore

/// The state of one frame as it passes through the stages.
public struct FrameWork {
    public let frame: Frame
    /// 8-bit gray of the frame at the analysis size, filled by the convert stage: what faces and
    /// cards are found and followed on.
    public let gray: Image
    /// Analysis pixels per input pixel (1 unless the input is larger than the analysis size).
    /// Trackers work in analysis pixels; anchors are in input pixels.
    public var analysisScale = 1.0
    public var anchors: FrameAnchors
    /// The tier this frame is rendered at.
    public var tier: Tier
    /// Extra fields for this frame's metrics line.
    public var events: [(name: String, value: String)] = []
    /// Work done off the frame path whose results arrived with this frame (ms of CPU).
    public var background: [(name: String, milliseconds: Double)] = []

    public init(frame: Frame, gray: Image, anchors: FrameAnchors, tier: Tier) {
        self.frame = frame
        self.gray = gray
        self.anchors = anchors
        self.tier = tier
    }
}

/// One step from a frame to its output. Stages transform `FrameWork`; the pipeline times them at
/// their boundaries, so a stage never reads a clock to report its own cost.
public protocol FrameStage: AnyObject {
    /// The name under which the stage's time is reported ("faces", "render").
    var name: String { get }
    /// What must be on the frame's work before the stage runs, and what it adds (`StageOrder`
    /// checks the order of a pipeline against them before its first frame).
    var reads: Set<FrameField> { get }
    var writes: Set<FrameField> { get }
    func process(_ work: inout FrameWork) throws
    /// Called once after the last frame (join threads, release models).
    func finish()
}

extension FrameStage {
    public var reads: Set<FrameField> { [] }
    public var writes: Set<FrameField> { [] }
    public func finish() {}
}

/// Brings the frame to 8-bit gray for the trackers, reusing its buffers; a YUYV camera's luma
/// plane is taken as it is. A frame whose long side exceeds `longestSide` is shrunk to it (area
/// averaging), so that a 1080p camera costs the trackers about what a 480p one does.
public final class GrayConversionStage: FrameStage {
    public let name = "convert"
    public let reads: Set<FrameField> = [.image]
    public let writes: Set<FrameField> = [.gray]
    /// The analysis size's long side (nil: the input's own size).
    public let longestSide: Int?
    private let fullGray = Image()

    public init(longestSide: Int? = nil) {
        self.longestSide = longestSide
    }

    /// The analysis size for frames of `size`, and analysis pixels per input pixel.
    public static func analysisSize(for size: Size, longestSide: Int?) -> (size: Size, scale: Double) {
        let long = max(size.width, size.height)
        guard let longestSide, long > longestSide, long > 0 else { return (size, 1) }
        let scale = Double(longestSide) / Double(long)
        let shrunk = Size(width: max(1, Int((Double(size.width) * scale).rounded())),
                          height: max(1, Int((Double(size.height) * scale).rounded())))
        return (shrunk, scale)
    }

    public func process(_ work: inout FrameWork) throws {
        let (size, scale) = Self.analysisSize(for: work.frame.size, longestSide: longestSide)
        work.analysisScale = scale
        let target = scale == 1 ? work.gray : fullGray
        if let gray = work.frame.gray, gray.size == work.frame.size {
            if scale == 1 { try gray.copy(to: work.gray) }
            else { try gray.resize(into: work.gray, width: size.width, height: size.height, interpolation: .area) }
            return
        }
        try work.frame.image.convertToGray(into: target)
        if scale != 1 {
            try fullGray.resize(into: work.gray, width: size.width, height: size.height, interpolation: .area)
        }
    }
}
