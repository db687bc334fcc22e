import HeritageCore

/// What a capture thread drives: something that blocks until the next frame and decodes it.
public protocol FrameGrabber: AnyObject {
    var name: String { get }
    var size: Size { get }
    var framesPerSecond: Double { get }
    /// Waits up to `timeoutMilliseconds` for a frame and decodes it into `image` (and `gray` when
    /// the format carries luma). Returns the frame's capture time (SystemClock nanoseconds), or nil
    /// on timeout. Throws when the device failed or disappeared.
    func grab(into image: Image, gray: Image, timeoutMilliseconds: Int) throws -> (capturedAt: UInt64, hasGray: Bool)?
    func close()
}
