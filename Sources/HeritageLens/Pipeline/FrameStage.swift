import HeritageCore

/// The state of one frame as it passes through the stages.
public struct FrameWork {
    public let frame: Frame
    /// 8-bit gray of the frame, filled by the convert stage.
    public let gray: Image
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
    func process(_ work: inout FrameWork) throws
    /// Called once after the last frame (join threads, release models).
    func finish()
}

extension FrameStage {
    public func finish() {}
}

/// Brings the frame to 8-bit gray for the trackers, reusing one buffer; a YUYV camera's luma
/// plane is taken as it is.
public final class GrayConversionStage: FrameStage {
    public let name = "convert"

    public init() {}

    public func process(_ work: inout FrameWork) throws {
        if let gray = work.frame.gray, gray.size == work.frame.size {
            try gray.copy(to: work.gray)
        } else {
            try work.frame.image.convertToGray(into: work.gray)
        }
    }
}
