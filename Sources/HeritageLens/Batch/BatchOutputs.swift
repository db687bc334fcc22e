import Foundation
#if canImport(Glibc)
import Glibc
#endif

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
/// final names all exist, made with the same settings, is done (a re-run after a kill skips it).
public struct BatchOutputs: Sendable {
    /// Whether an input needs processing.
    public enum State: Equatable, Sendable {
        /// An output is missing (never made, or a run was killed before publishing it).
        case incomplete
        /// Every output is there, made by a run with other settings (recorded: `settingsPath`).
        case otherSettings(String)
        case complete
    }

    public let folder: String
    public let name: String
    public let kinds: [BatchOutputKind]
    /// What decides the outputs' contents besides the input (version, tier, detector, frames...):
    /// outputs made with other settings are not the ones asked for, and are made again.
    public let settings: String

    public init(folder: String, name: String, kinds: [BatchOutputKind], settings: String = "") {
        self.folder = folder
        self.name = name
        self.kinds = kinds
        self.settings = settings
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

    /// The settings the published outputs were made with, one line, hidden beside them.
    public var settingsPath: String {
        (folder as NSString).appendingPathComponent(".\(name).settings")
    }

    public var state: State {
        guard kinds.allSatisfy({ FileManager.default.fileExists(atPath: finalPath($0)) }) else { return .incomplete }
        let recorded = FileManager.default.contents(atPath: settingsPath).map { String(decoding: $0, as: UTF8.self) }
            .map { $0.trimmingCharacters(in: .newlines) } ?? "unrecorded"
        return recorded == settings ? .complete : .otherSettings(recorded)
    }

    public var isComplete: Bool { state == .complete }

    /// Renames every temporary file to its final name, then records the settings: the input
    /// counts as done only once all are (a kill in between leaves it to be made again).
    public func publish() throws {
        unlink(settingsPath)
        for kind in kinds {
            if rename(temporaryPath(kind), finalPath(kind)) != 0 {
                throw SinkError.writeFailed(finalPath(kind), reason: String(cString: strerror(errno)))
            }
        }
        try WholeFile.write(settings + "\n", to: settingsPath)
    }

    /// Removes what an unfinished attempt wrote.
    public func discardTemporaries() {
        for kind in kinds { unlink(temporaryPath(kind)) }
    }

    /// Removes the settings files' temporaries (`.NAME.settings.heritage-lens-PID`, see
    /// `WholeFile`) that a batch killed while publishing left in `folder`, for these inputs'
    /// names only: a shard of the same batch running elsewhere into the same folder writes other
    /// names, and must keep its own.
    public static func removeLeftovers(in folder: String, names: Set<String>) {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for entry in entries where entry.hasPrefix(".") {
            guard let mark = entry.range(of: ".settings.heritage-lens-", options: .backwards),
                  entry[mark.upperBound...].allSatisfy(\.isNumber),
                  names.contains(String(entry[entry.index(after: entry.startIndex)..<mark.lowerBound])) else { continue }
            unlink((folder as NSString).appendingPathComponent(entry))
        }
    }
}
