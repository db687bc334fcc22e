import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One video of a batch and the name its outputs take (`NAME.anchors.jsonl`, ...).
public struct BatchInput: Hashable, Sendable {
    public let path: String
    /// The file name without its extension.
    public var name: String { ((path as NSString).lastPathComponent as NSString).deletingPathExtension }

    public init(path: String) {
        self.path = path
    }
}

/// Why the inputs of a batch could not be gathered: one line naming the file and what to do.
public enum BatchInputError: Error, Equatable, CustomStringConvertible {
    case missing(String)
    case unreadableList(String)
    case emptyFolder(String)
    case mixedFolder(String)
    case sameName(String, String, name: String)
    case none

    public var description: String {
        switch self {
        case .missing(let path): return "\(path): no such file or folder; check the path"
        case .unreadableList(let path): return "\(path): cannot read the list file (one video path a line)"
        case .emptyFolder(let path): return "\(path): the folder holds no video files (\(BatchInputs.videoExtensions.sorted().joined(separator: ", ")))"
        case .mixedFolder(let path):
            return "\(path): the folder holds both videos and images; pass the videos (\(path)/*.mp4) or the images' folder on its own"
        case .sameName(let a, let b, let name):
            return "\(a) and \(b) would both write \(name).*; rename one or process them with different --output-dir"
        case .none: return "no inputs left to process (an empty list, or a shard with no inputs); check the arguments"
        }
    }
}

/// The videos a batch processes: files as given, folders to the videos directly inside them,
/// `@FILE` to the paths listed in FILE (one a line; blank lines and lines starting with # skipped,
/// relative paths from the list's folder). A path given on the command line must exist; one
/// listed in a file that does not is kept, and fails when its turn comes. Sorted by path, so
/// every shard of a split agrees on the order whatever order the arguments came in.
public enum BatchInputs {
    public static let videoExtensions: Set<String> = ["mp4", "mkv", "mov", "avi", "webm", "m4v", "mpg", "mpeg", "ts", "wmv", "flv"]
    public static let imageExtensions = ImageSource.imageExtensions

    /// Whether `path` is a folder holding video files (a batch), rather than a folder of images
    /// (one image sequence).
    public static func isFolderOfVideos(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue,
              let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return false }
        return names.contains { videoExtensions.contains(($0 as NSString).pathExtension.lowercased()) }
    }

    public static func gather(_ arguments: [String]) throws(BatchInputError) -> [BatchInput] {
        var paths: [String] = []
        for argument in arguments {
            if argument.hasPrefix("@") {
                paths += try listed(in: String(argument.dropFirst()))
            } else {
                paths += try expanded(argument)
            }
        }
        // One input per file: `./a/../b.mp4` and `b.mp4`, or a link and its target, are processed
        // once, under the first of their names in sorted order.
        var seen: [FileIdentity] = []
        var inputs: [BatchInput] = []
        for path in Set(paths.map(tidied)).sorted() {
            let identity = FileIdentity(path: path)
            if seen.contains(identity) { continue }
            seen.append(identity)
            inputs.append(BatchInput(path: path))
        }
        var byName: [String: BatchInput] = [:]
        for input in inputs {
            if let other = byName[input.name] { throw .sameName(other.path, input.path, name: input.name) }
            byName[input.name] = input
        }
        return inputs
    }

    private static func expanded(_ path: String) throws(BatchInputError) -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { throw .missing(path) }
        guard isDirectory.boolValue else { return [path] }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        let videos = names.filter { videoExtensions.contains(($0 as NSString).pathExtension.lowercased()) }
        if videos.isEmpty { throw .emptyFolder(path) }
        if names.contains(where: { imageExtensions.contains(($0 as NSString).pathExtension.lowercased()) }) {
            throw .mixedFolder(path)
        }
        return videos.map { (path as NSString).appendingPathComponent($0) }
    }

    private static func listed(in list: String) throws(BatchInputError) -> [String] {
        guard let data = FileManager.default.contents(atPath: list) else { throw .unreadableList(list) }
        let base = (list as NSString).deletingLastPathComponent
        var paths: [String] = []
        for raw in String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let path = line.hasPrefix("/") || base.isEmpty ? line : (base as NSString).appendingPathComponent(line)
            // An archive's list outlives some of its files: a missing one is an input that fails
            // (reported in the summary, the batch going on, the exit status 1), and keeps its
            // place in the sorted order so that every shard of a split still agrees on it.
            if !FileManager.default.fileExists(atPath: path) {
                paths.append(path)
                continue
            }
            paths += try expanded(path)
        }
        return paths
    }

    /// The path as given, without `.` components, repeated slashes, or `..` after a folder that
    /// is not a link: spelled as the user spelled it, and read from where the system would read
    /// it. (Foundation's `standardizingPath` also follows symbolic links, taking a relative link's
    /// target from the working folder instead of the link's, so a batch read another file.)
    static func tidied(_ path: String) -> String {
        let absolute = path.hasPrefix("/")
        var parts: [String] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true).map(String.init) {
            if part == "." { continue }
            if part == "..", let last = parts.last, last != ".." {
                var info = stat()
                let sofar = (absolute ? "/" : "") + parts.joined(separator: "/")
                if lstat(sofar, &info) == 0, info.st_mode & S_IFMT != S_IFLNK {
                    parts.removeLast()
                    continue
                }
            }
            parts.append(part)
        }
        let joined = parts.joined(separator: "/")
        return absolute ? "/" + joined : (joined.isEmpty ? "." : joined)
    }
}
