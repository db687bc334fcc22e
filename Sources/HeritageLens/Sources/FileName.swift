import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A path too long for the file system, caught before the system's "no such file" (ENAMETOOLONG
/// reads as a missing file in Foundation's answers) can mislead.
public struct FileNameError: Error, CustomStringConvertible, Equatable {
    public let path: String
    public let reason: String

    public var description: String { "\(path.count > 120 ? String(path.prefix(100)) + "…" : path): \(reason)" }
}

enum FileName {
    /// Linux's limits: 255 bytes a name, 4095 a path.
    static let maximumComponentBytes = Int(NAME_MAX)
    static let maximumPathBytes = Int(PATH_MAX) - 1

    static func validate(_ path: String) throws {
        if path.utf8.count > maximumPathBytes {
            throw FileNameError(path: path, reason: "the path is \(path.utf8.count) bytes long; Linux allows \(maximumPathBytes)")
        }
        for component in path.split(separator: "/") where component.utf8.count > maximumComponentBytes {
            throw FileNameError(path: path, reason: "a name in it is \(component.utf8.count) bytes long; Linux allows \(maximumComponentBytes) per name")
        }
    }
}
