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
        try OutputPath.validateFolder(folder)
        self.folder = folder
        self.frames = frames
    }

    /// `heritage-lens-000017.png`.
    public static func fileName(frame: Int) -> String { String(format: "heritage-lens-%06d.png", frame) }

    /// Snapshot the next frame written.
    public func requestSnapshot() { requested = true }

    public func write(_ frame: ProcessedFrame) throws {
        guard requested || frames.contains(frame.frame.index) else { return }
        requested = false
        let path = (folder as NSString).appendingPathComponent(Self.fileName(frame: frame.frame.index))
        try frame.output.write(to: path)
        written.append(path)
    }

    public func finish() throws {}
}
