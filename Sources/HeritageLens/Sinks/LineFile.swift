import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A text file (or stdout) written one whole line at a time, straight to the kernel, so another
/// program can follow it live and a killed run leaves only whole lines behind.
///
/// Each line goes out in as few `write` calls as the kernel takes; should one fail (a full
/// disk), a regular file is cut back to its last whole line before the error is thrown, so no
/// torn JSON line is ever left at the end.
public final class LineFile {
    public let path: String
    private var descriptor: Int32
    /// Where the last whole line ends (regular files only; nil: a pipe, terminal or device).
    private var wholeBytes: off_t?

    /// `-` is standard output.
    public init(path: String) throws {
        self.path = path
        if path == "-" {
            // A duplicate of fd 1, so closing this never closes the process's stdout.
            descriptor = dup(1)
            guard descriptor >= 0 else { throw SinkError.outputNotWritable("standard output") }
        } else {
            try OutputPath.validate(path)
            descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
            guard descriptor >= 0 else {
                throw SinkError.writeFailed(path, reason: String(cString: strerror(errno)))
            }
        }
        var info = stat()
        if fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG {
            wholeBytes = lseek(descriptor, 0, SEEK_CUR)
        }
    }

    deinit { try? close() }

    public func write(line: String) throws {
        guard descriptor >= 0 else { return }
        var bytes = Array(line.utf8)
        bytes.append(0x0A)
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + done, $0.count - done) }
            if n > 0 {
                done += n
            } else if n < 0 && errno == EINTR {
                continue
            } else {
                try failed(errno: n < 0 ? errno : EIO)
            }
        }
        if let whole = wholeBytes { wholeBytes = whole + off_t(bytes.count) }
    }

    private func failed(errno code: Int32) throws -> Never {
        if let whole = wholeBytes {
            _ = ftruncate(descriptor, whole)
            _ = lseek(descriptor, whole, SEEK_SET)
        }
        if code == EPIPE { throw SinkError.readerClosed(path == "-" ? "standard output" : path) }
        throw SinkError.writeFailed(path == "-" ? "standard output" : path, reason: String(cString: strerror(code)))
    }

    public func close() throws {
        guard descriptor >= 0 else { return }
        let d = descriptor
        descriptor = -1
        if Glibc.close(d) != 0 && errno != EINTR {
            throw SinkError.writeFailed(path, reason: String(cString: strerror(errno)))
        }
    }
}
