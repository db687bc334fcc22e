import CBridge
import HeritageCore

/// A video file read through FFmpeg, or a camera through OpenCV's V4L2 backend (its library
/// opened on first use).
public final class VideoReader {
    /// What the container or device says; the frame count may be 0 or wrong.
    public struct Info: Sendable {
        public var size: Size
        public var framesPerSecond: Double
        public var frameCount: Int
        /// The codec's four characters ("avc1").
        public var codec: String
    }

    private let raw: OpaquePointer
    public let info: Info

    /// Opens a video file.
    public convenience init(path: String) throws(BridgeError) {
        guard let r = cb_video_reader_open(path) else { throw BridgeError.last(path) }
        self.init(raw: r)
    }

    /// Opens a camera through OpenCV's V4L2 backend, asking for a size and rate and a one-frame
    /// driver queue.
    public convenience init(camera path: String, size: Size, framesPerSecond: Double) throws(BridgeError) {
        guard let r = cb_video_reader_open_camera(path, Int32(size.width), Int32(size.height), framesPerSecond) else {
            throw BridgeError.last(path)
        }
        self.init(raw: r)
    }

    private init(raw: OpaquePointer) {
        self.raw = raw
        var i = cb_video_info()
        cb_video_reader_info(raw, &i)
        info = Info(size: Size(width: Int(i.width), height: Int(i.height)), framesPerSecond: i.fps,
                    frameCount: Int(i.frame_count),
                    codec: withUnsafeBytes(of: i.fourcc) { String(decoding: $0.prefix(4), as: UTF8.self) })
    }

    deinit { cb_video_reader_free(raw) }

    /// What one read gave.
    public enum Result: Sendable {
        /// A frame (8-bit BGR) with its presentation time in milliseconds.
        case frame(presentationMilliseconds: Double)
        case endOfStream
        /// A frame that did not decode.
        case failed
    }

    /// Decodes the next frame and says when it shows, without converting it to BGR: a frame
    /// skipped after this (late, live) costs its decoding only. `retrieve(into:)` converts it.
    public func grab() -> Result {
        var pts = 0.0
        switch cb_video_reader_grab(raw, &pts) {
        case 0: return .endOfStream
        case let s where s > 0: return .frame(presentationMilliseconds: pts)
        default: return .failed
        }
    }

    /// The last grabbed frame as 8-bit BGR into `image`; false when it did not convert.
    public func retrieve(into image: Image) -> Bool {
        cb_video_reader_retrieve(raw, image.raw) > 0
    }

    /// Decodes the next frame into `image`.
    public func read(into image: Image) -> Result {
        var pts = 0.0
        switch cb_video_reader_read(raw, image.raw, &pts) {
        case 0: return .endOfStream
        case let s where s > 0: return .frame(presentationMilliseconds: pts)
        default: return .failed
        }
    }
}
