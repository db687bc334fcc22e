import Foundation

/// Checks a path the user named as an input file before handing it to a decoder, so that the
/// message says what is wrong with the path rather than what the decoder could not do.
enum InputFile {
    static func validate(_ path: String) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw SourceError.fileNotFound(path)
        }
        if isDirectory.boolValue { throw SourceError.isDirectory(path) }
        guard FileManager.default.isReadableFile(atPath: path) else { throw SourceError.notReadable(path) }
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? -1
        if size == 0 { throw SourceError.emptyFile(path) }
    }
}
