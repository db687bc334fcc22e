import CBridge
import HeritageCore

/// A video file written through FFmpeg. MP4 and MOV are fragmented and
/// Matroska clustered, so the file plays up to its last second at any moment.
public final class VideoWriter {
    private var raw: OpaquePointer?

    /// `codec`: four characters ("avc1", "mp4v", "MJPG"); the container follows the extension.
    public init(path: String, codec: String, framesPerSecond: Double, size: Size) throws(BridgeError) {
        guard let w = cb_video_writer_open(path, codec, framesPerSecond, Int32(size.width), Int32(size.height)) else {
            throw BridgeError.last(path)
        }
        raw = w
    }

    deinit { _ = try? close() }

    /// Encodes and writes a frame of the writer's size; a full disk is an error here.
    public func write(_ frame: Image) throws(BridgeError) {
        guard let raw else { throw BridgeError(operation: "write video", message: "the file is closed") }
        if cb_video_writer_write(raw, frame.raw) != 0 { throw BridgeError.last("write video") }
    }

    /// Drains the encoder, writes the trailer and closes the file; reports any failure, of these
    /// or an earlier write. Closing twice does nothing.
    public func close() throws(BridgeError) {
        guard let w = raw else { return }
        raw = nil
        if cb_video_writer_close(w) != 0 { throw BridgeError.last("close video") }
    }
}
