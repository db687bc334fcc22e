import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A text file (or stdout) written one line at a time and flushed per line, so another program
/// can follow it live and an interrupted run leaves only whole lines behind.
public final class LineFile {
    public let path: String
    private var file: UnsafeMutablePointer<FILE>?

    /// `-` is standard output.
    public init(path: String) throws {
        self.path = path
        if path == "-" {
            // A private FILE over a duplicate of fd 1: flushed per line like the file case.
            guard let f = fdopen(dup(1), "w") else { throw SinkError.outputNotWritable("standard output") }
            file = f
        } else {
            try OutputPath.validate(path)
            guard let f = fopen(path, "w") else { throw SinkError.outputNotWritable(path) }
            file = f
        }
    }

    deinit { try? close() }

    public func write(line: String) throws {
        guard let f = file else { return }
        var ok = fputs(line, f) >= 0
        ok = ok && fputc(0x0A, f) != EOF
        ok = ok && fflush(f) == 0
        if !ok { throw SinkError.writeFailed(path, reason: String(cString: strerror(errno))) }
    }

    public func close() throws {
        guard let f = file else { return }
        file = nil
        if fclose(f) != 0 { throw SinkError.writeFailed(path, reason: String(cString: strerror(errno))) }
    }
}
