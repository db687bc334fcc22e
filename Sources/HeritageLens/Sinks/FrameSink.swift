import HeritageCore

/// What a sink receives for each frame: the composited image and the anchors behind it.
public struct ProcessedFrame {
    public let frame: Frame
    /// The composited output (the renderer draws into the frame's buffer).
    public let output: Image
    public let anchors: FrameAnchors

    public init(frame: Frame, output: Image, anchors: FrameAnchors) {
        self.frame = frame
        self.output = output
        self.anchors = anchors
    }
}

/// Where processed frames go: a window, a video file, snapshots, the anchors stream.
///
/// Sinks are written to in pipeline order after the frame's output is ready; `finish()` is called
/// exactly once, also after an error or an interrupt, and must leave a valid file behind.
public protocol FrameSink: AnyObject {
    func write(_ frame: ProcessedFrame) throws
    func finish() throws
}

/// Why a sink could not write, phrased for the person who named the output.
public enum SinkError: Error, CustomStringConvertible {
    case outputFolderMissing(String)
    case outputNotWritable(String)
    case unsupportedVideoExtension(String)
    case videoWriterFailed(String, reason: String)
    case writeFailed(String, reason: String)

    public var description: String {
        switch self {
        case .outputFolderMissing(let p):
            return "\(p): the folder does not exist; create it first"
        case .outputNotWritable(let p):
            return "\(p): cannot write here (read-only or permission denied); choose another path"
        case .unsupportedVideoExtension(let p):
            return "\(p): unsupported video extension; use .mp4, .mkv, .mov or .avi"
        case .videoWriterFailed(let p, let reason):
            return "\(p): cannot write video (\(reason))"
        case .writeFailed(let p, let reason):
            return "\(p): write failed (\(reason)); is the disk full?"
        }
    }
}
