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
    private var writer: VideoWriter?

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
            do {
                writer = try VideoWriter(path: path, codec: codec, framesPerSecond: framesPerSecond, size: size)
                self.codec = codec
                self.path = path
                return
            } catch {
                lastError = error.message
            }
        }
        throw SinkError.videoWriterFailed(path, reason: lastError)
    }

    deinit { try? finish() }

    public func write(_ frame: ProcessedFrame) throws {
        guard let w = writer else { return }
        do {
            try w.write(frame.output)
        } catch {
            throw SinkError.writeFailed(path, reason: error.message)
        }
        framesWritten += 1
    }

    /// Drains the encoder and writes the container's trailer; throws when that, or the close,
    /// fails (the fragments already written stay playable).
    public func finish() throws {
        guard let w = writer else { return }
        writer = nil
        do {
            try w.close()
        } catch {
            throw SinkError.writeFailed(path, reason: error.message)
        }
    }
}
