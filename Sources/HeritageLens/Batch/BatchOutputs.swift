import Foundation

/// What a batch writes for each input, in the output folder.
public enum BatchOutputKind: String, CaseIterable, Hashable, Sendable {
    case anchors, metrics, mp4, mkv, mov, avi

    /// The file name for an input called `name`.
    public func fileName(for name: String) -> String {
        switch self {
        case .anchors: return "\(name).anchors.jsonl"
        case .metrics: return "\(name).metrics.jsonl"
        default: return "\(name).\(rawValue)"
        }
    }

    public var isVideo: Bool { self != .anchors && self != .metrics }
}

/// One input's outputs: each written under a temporary name beside its final one and renamed
/// when the input is complete, so a file under a final name is always whole, and an input whose
/// final names all exist is done (a re-run after a kill skips it).
public struct BatchOutputs: Sendable {
    public let folder: String
    public let name: String
    public let kinds: [BatchOutputKind]

    public init(folder: String, name: String, kinds: [BatchOutputKind]) {
        self.folder = folder
        self.name = name
        self.kinds = kinds
    }

    public func finalPath(_ kind: BatchOutputKind) -> String {
        (folder as NSString).appendingPathComponent(kind.fileName(for: name))
    }

    /// Hidden, fixed (a new run overwrites what a killed one left), and keeping the extension:
    /// the video writer picks its codec by it.
    public func temporaryPath(_ kind: BatchOutputKind) -> String {
        let file = kind.fileName(for: name)
        let ext = (file as NSString).pathExtension
        return (folder as NSString).appendingPathComponent(".\((file as NSString).deletingPathExtension).partial.\(ext)")
    }

    public var isComplete: Bool {
        kinds.allSatisfy { FileManager.default.fileExists(atPath: finalPath($0)) }
    }

    /// Renames every temporary file to its final name; the input counts as done only once all are.
    public func publish() throws {
        for kind in kinds {
            if rename(temporaryPath(kind), finalPath(kind)) != 0 {
                throw SinkError.writeFailed(finalPath(kind), reason: String(cString: strerror(errno)))
            }
        }
    }

    /// Removes what an unfinished attempt wrote.
    public func discardTemporaries() {
        for kind in kinds { unlink(temporaryPath(kind)) }
    }
}
