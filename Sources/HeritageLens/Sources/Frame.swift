import HeritageCore

/// One frame as a source delivers it.
///
/// `image` is the source's own buffer, valid until the next `nextFrame()` call: the pipeline works
/// on it in place and never keeps it.
public struct Frame {
    /// Position among the frames the source delivered, from 0 (dropped frames are not counted).
    public let index: Int
    /// Seconds: the video's presentation time, or the capture time relative to the first frame.
    public let time: Double
    /// Monotonic nanoseconds (SystemClock) when the frame became available to the pipeline.
    public let availableAt: UInt64
    /// 8-bit BGR.
    public let image: Image
    /// 8-bit gray when the source had it for free (a YUYV camera's luma plane), else nil.
    public let gray: Image?

    public init(index: Int, time: Double, availableAt: UInt64, image: Image, gray: Image? = nil) {
        self.index = index
        self.time = time
        self.availableAt = availableAt
        self.image = image
        self.gray = gray
    }

    public var size: Size { image.size }
}

/// Where frames come from: a camera, a video file, images.
public protocol FrameSource: AnyObject {
    /// What the user named (a path or device), for messages.
    var name: String { get }
    var size: Size { get }
    var framesPerSecond: Double { get }
    /// Frames the source expects to deliver, when known (a file's frame count).
    var expectedFrameCount: Int? { get }
    /// Frames skipped to keep up (a live camera's or `--realtime` file's), so far.
    var droppedFrameCount: Int { get }
    /// The next frame, or nil at the end of the stream or once a stop was requested.
    func nextFrame() throws -> Frame?
    /// Releases the device or file; further calls to `nextFrame()` return nil.
    func close()
}
