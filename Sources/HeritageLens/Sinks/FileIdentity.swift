import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What a path names on disk, so that two paths can be told to be one file: through symbolic
/// links (followed to their targets, also dangling ones, whose target a write would create),
/// hard links (the same device and inode) and relative or `..` spellings (the canonical folder).
public struct FileIdentity: Equatable, CustomStringConvertible {
    /// The path after every symbolic link, with its folder made canonical.
    public let resolvedPath: String
    /// Device and inode when the file exists.
    public let node: (device: UInt64, inode: UInt64)?
    /// A character device (/dev/null, /dev/full, a terminal): several outputs may share one.
    public let isCharacterDevice: Bool
    public let isRegularFile: Bool
    public let isDirectory: Bool
    public var exists: Bool { node != nil }

    /// `-` is standard output.
    public init(path: String) {
        var info = stat()
        if path == "-" {
            self.init(resolvedPath: "/dev/stdout", info: fstat(1, &info) == 0 ? info : nil)
            return
        }
        let target = Self.followLinks(path)
        self.init(resolvedPath: Self.canonical(target), info: stat(target, &info) == 0 ? info : nil)
    }

    private init(resolvedPath: String, info: stat?) {
        self.resolvedPath = resolvedPath
        let type = info.map { $0.st_mode & S_IFMT }
        node = info.map { (UInt64($0.st_dev), UInt64($0.st_ino)) }
        isCharacterDevice = type == S_IFCHR
        isRegularFile = type == S_IFREG
        isDirectory = type == S_IFDIR
    }

    /// One file: the same inode when both exist, else the same resolved path (two outputs not
    /// yet created, or a dangling link to an output's path).
    public static func == (a: FileIdentity, b: FileIdentity) -> Bool {
        if let x = a.node, let y = b.node { return x.device == y.device && x.inode == y.inode }
        return a.resolvedPath == b.resolvedPath
    }

    public var description: String { resolvedPath }

    /// The path a write through `path` would reach: symbolic links followed, at most 40 deep
    /// (the kernel's own limit), relative targets taken from the link's folder.
    static func followLinks(_ path: String) -> String {
        var current = path
        for _ in 0..<40 {
            var info = stat()
            guard lstat(current, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else { return current }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let n = readlink(current, &buffer, buffer.count - 1)
            guard n > 0 else { return current }
            let target = String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            current = target.hasPrefix("/") ? target
                : ((current as NSString).deletingLastPathComponent as NSString).appendingPathComponent(target)
        }
        return current
    }

    /// The folder made canonical (realpath) with the last component kept as named: the file
    /// itself may not exist yet.
    static func canonical(_ path: String) -> String {
        let absolute = path.hasPrefix("/") ? path
            : (FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(path)
        let folder = (absolute as NSString).deletingLastPathComponent
        let name = (absolute as NSString).lastPathComponent
        guard let real = realpath(folder, nil) else { return (absolute as NSString).standardizingPath }
        defer { free(real) }
        return (String(cString: real) as NSString).appendingPathComponent(name)
    }
}
