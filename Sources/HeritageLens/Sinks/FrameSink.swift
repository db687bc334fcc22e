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
public enum SinkError: Error, CustomStringConvertible, Equatable {
    case outputFolderMissing(String)
    case outputFolderIsAFile(String)
    case outputNotWritable(String)
    case outputIsFolder(String)
    case unsupportedVideoExtension(String)
    case videoWriterFailed(String, reason: String)
    case writeFailed(String, reason: String)
    /// The reader of a pipe (standard output into `head`) closed it.
    case readerClosed(String)
    case overwritesInput(String, option: String, input: String, inputOption: String)
    case sameOutput(String, options: [String])

    public var description: String {
        switch self {
        case .outputFolderMissing(let p):
            return "\(p): the folder does not exist; create it first"
        case .outputNotWritable(let p):
            return "\(p): cannot write here (read-only, permission denied, or a folder that takes no files); choose another path"
        case .outputFolderIsAFile(let p):
            return "\(p): is a file, not a folder; name a folder to write into"
        case .outputIsFolder(let p):
            return "\(p): is a folder; name a file inside it"
        case .unsupportedVideoExtension(let p):
            // `.mp4` alone is a hidden file's name without an extension, not an extension.
            let name = p.split(separator: "/").last.map(String.init) ?? p
            if name.hasPrefix("."), ["mp4", "mkv", "mov", "avi"].contains(name.dropFirst().lowercased()) {
                return "\(p): a file name without a name before its extension; name the file, e.g. out\(name)"
            }
            return "\(p): unsupported video extension; use .mp4, .mkv, .mov or .avi"
        case .videoWriterFailed(let p, let reason):
            return "\(p): cannot write video (\(reason))"
        case .writeFailed(let p, let reason):
            let full = reason.contains("No space left") || reason.contains("quota")
            // A file that cannot even be made where its folder exists: /proc, /sys, a FUSE mount.
            let cannotMake = reason.contains("No such file") || reason.contains("not permitted")
            return "\(p): write failed (\(reason))" + (full ? "; free some space or write to another disk"
                : cannotMake ? "; this folder takes no new files, choose another path" : "")
        case .readerClosed(let p):
            return "\(p): the reader closed the pipe"
        case .overwritesInput(let p, let option, let input, let inputOption):
            let same = p == input ? "" : " (through a link, or the same file by another path)"
            return "\(p): \(option) would overwrite the input \(input) (\(inputOption))\(same); choose another output path"
        case .sameOutput(let p, let options):
            return "\(p): \(options.joined(separator: " and ")) name the same file\(p == "-" ? " (standard output)" : ""); give each output its own path"
        }
    }
}
