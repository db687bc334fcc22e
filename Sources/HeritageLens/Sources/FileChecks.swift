import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Checks a path the user named as an input file before handing it to a decoder, so that the
/// message says what is wrong with the path rather than what the decoder could not do.
enum InputFile {
    static func validate(_ path: String) throws {
        try FileName.validate(path)
        var info = stat()
        guard stat(path, &info) == 0 else {
            if errno == EACCES { throw SourceError.notReadable(path) }
            throw SourceError.fileNotFound(path)
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw SourceError.isDirectory(path)
        case S_IFIFO: throw SourceError.notAFile(path, kind: "a FIFO (named pipe)")
        case S_IFCHR: throw SourceError.notAFile(path, kind: "a character device")
        case S_IFBLK: throw SourceError.notAFile(path, kind: "a block device")
        case S_IFSOCK: throw SourceError.notAFile(path, kind: "a socket")
        default: throw SourceError.notAFile(path, kind: "not a regular file")
        }
        guard access(path, R_OK) == 0 else { throw SourceError.notReadable(path) }
        if info.st_size == 0 { throw SourceError.emptyFile(path) }
    }
}

/// Why FFmpeg could not open a file, when the file itself can tell: an MP4 or MOV recording cut
/// short (a killed recorder, a full disk) has its frames but not the index (`moov`) that says
/// where they are, which only the recorder could have written.
enum MP4Probe {
    /// True for an ISO media file (`ftyp` first) with no `moov` and no fragments among its
    /// top-level boxes.
    static func lacksIndex(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let size = (try? handle.seekToEnd()) ?? 0
        var offset: UInt64 = 0
        var types: [String] = []
        while offset + 8 <= size, types.count < 10_000 {
            try? handle.seek(toOffset: offset)
            guard let header = try? handle.read(upToCount: 16), header.count >= 8 else { break }
            let bytes = [UInt8](header)
            var length = UInt64(bytes[0]) << 24 | UInt64(bytes[1]) << 16 | UInt64(bytes[2]) << 8 | UInt64(bytes[3])
            let type = String(decoding: bytes[4..<8], as: UTF8.self)
            guard bytes[4..<8].allSatisfy({ (0x20...0x7e).contains($0) }) else { break }
            types.append(type)
            if length == 1, bytes.count >= 16 { length = bytes[8..<16].reduce(0) { $0 << 8 | UInt64($1) } }
            if length == 0 { break }  // to the end of the file
            guard length >= 8 else { break }
            offset += length
        }
        return types.first == "ftyp" && !types.contains("moov") && !types.contains("moof")
    }
}
