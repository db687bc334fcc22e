import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A file written in one go (a report, a plot, a calibration, a snapshot), every write checked.
///
/// A regular file (or a new one) is written beside its final name, synced and renamed over it,
/// so it is either the old file or the whole new one, never a torn mix; a symbolic link keeps
/// pointing where it did, at the new contents. Anything else (/dev/full, a FIFO, /dev/stdout) is
/// written in place: there a failed write is reported, not hidden.
public enum WholeFile {
    public static func write(_ text: String, to path: String) throws {
        try write(Array(text.utf8), to: path)
    }

    public static func write(_ bytes: [UInt8], to path: String) throws {
        let target = FileIdentity.followLinks(path)
        var info = stat()
        let exists = stat(target, &info) == 0
        let special = path.hasPrefix("/dev/") || path.hasPrefix("/proc/")
        if special || (exists && info.st_mode & S_IFMT != S_IFREG) {
            let d = open(path, O_WRONLY | O_APPEND | O_CLOEXEC)
            guard d >= 0 else { throw failure(path) }
            try writeAll(bytes, to: d, path: path)
            guard Glibc.close(d) == 0 else { throw failure(path) }
            return
        }
        let folder = (target as NSString).deletingLastPathComponent
        let name = (target as NSString).lastPathComponent
        let temporary = ((folder.isEmpty ? "." : folder) as NSString)
            .appendingPathComponent(".\(name).heritage-lens-\(getpid())")
        let d = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, exists ? info.st_mode & 0o7777 : 0o666)
        guard d >= 0 else { throw failure(path) }
        var problem: Error?
        do { try writeAll(bytes, to: d, path: path) } catch { problem = error }
        if problem == nil && fsync(d) != 0 { problem = failure(path) }
        if Glibc.close(d) != 0 && problem == nil { problem = failure(path) }
        if let problem {
            _ = unlink(temporary)
            throw problem
        }
        guard rename(temporary, target) == 0 else {
            let e = failure(path)
            _ = unlink(temporary)
            throw e
        }
    }

    private static func writeAll(_ bytes: [UInt8], to d: Int32, path: String) throws {
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(d, $0.baseAddress! + done, $0.count - done) }
            if n > 0 { done += n } else if n < 0 && errno == EINTR { continue } else {
                if n == 0 { errno = EIO }
                throw failure(path)
            }
        }
    }

    private static func failure(_ path: String) -> SinkError {
        if errno == EPIPE { return .readerClosed(path) }
        return .writeFailed(path, reason: String(cString: strerror(errno)))
    }
}
