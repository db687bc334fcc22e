import Foundation
import HeritageCore

/// Writes chosen composited frames as PNG: frames named up front (`--snapshot-at`) and any the
/// user asks for with the preview's key.
public final class SnapshotSink: FrameSink {
    public let folder: String
    private var frames: Set<Int>
    private var requested = false
    public private(set) var written: [String] = []

    public init(folder: String, frames: Set<Int> = []) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw SinkError.outputFolderMissing(folder + "/")
        }
        guard FileManager.default.isWritableFile(atPath: folder) else { throw SinkError.outputNotWritable(folder) }
        self.folder = folder
        self.frames = frames
    }

    /// Snapshot the next frame written.
    public func requestSnapshot() { requested = true }

    public func write(_ frame: ProcessedFrame) throws {
        guard requested || frames.contains(frame.frame.index) else { return }
        requested = false
        let path = (folder as NSString).appendingPathComponent(String(format: "heritage-lens-%06d.png", frame.frame.index))
        do {
            try frame.output.write(to: path)
        } catch {
            throw SinkError.writeFailed(path, reason: "\(error)")
        }
        written.append(path)
    }

    public func finish() throws {}
}
