import CBridge
import Foundation
import HeritageCore

/// The composited frames as a video file, at the input's size and rate.
///
/// The container follows the extension: .mp4/.mov/.m4v/.mkv hold H.264 (x264 through FFmpeg),
/// falling back to MPEG-4 Part 2 where H.264 is not available; .avi holds MJPEG. The file plays
/// up to its last second at any moment (fragmented MP4, short Matroska clusters), so a run that
/// is killed keeps what it recorded.
public final class VideoFileSink: FrameSink {
    public let path: String
    public let codec: String
    public private(set) var framesWritten = 0
    private var writer: OpaquePointer?

    public init(path: String, size: Size, framesPerSecond: Double) throws {
        let ext = (path as NSString).pathExtension.lowercased()
        let codecs: [String]
        switch ext {
        case "mp4", "mov", "m4v", "mkv": codecs = ["avc1", "mp4v"]
        case "avi": codecs = ["MJPG"]
        default: throw SinkError.unsupportedVideoExtension(path)
        }
        try OutputPath.validate(path)
        var lastError = ""
        for codec in codecs {
            if let w = cb_video_writer_open(path, codec, framesPerSecond, Int32(size.width), Int32(size.height)) {
                writer = w
                self.codec = codec
                self.path = path
                return
            }
            lastError = String(cString: cb_last_error())
        }
        throw SinkError.videoWriterFailed(path, reason: lastError)
    }

    deinit { try? finish() }

    public func write(_ frame: ProcessedFrame) throws {
        guard let w = writer else { return }
        if cb_video_writer_write(w, frame.output.raw) != 0 {
            throw SinkError.writeFailed(path, reason: String(cString: cb_last_error()))
        }
        framesWritten += 1
    }

    /// Drains the encoder and writes the container's trailer; throws when that, or the close,
    /// fails (the fragments already written stay playable).
    public func finish() throws {
        guard let w = writer else { return }
        writer = nil
        if cb_video_writer_close(w) != 0 {
            throw SinkError.writeFailed(path, reason: String(cString: cb_last_error()))
        }
    }
}
