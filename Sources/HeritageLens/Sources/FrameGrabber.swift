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
    /// Frames the device sent that `grab` did not deliver (corrupt, or passed over for newer ones).
    var skippedFrameCount: Int { get }
    func close()
}

extension FrameGrabber {
    /// A grabber that cannot tell is taken to deliver every frame.
    public var skippedFrameCount: Int { 0 }
}
