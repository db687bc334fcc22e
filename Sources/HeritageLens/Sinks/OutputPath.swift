import Foundation

/// Checks an output path before any work starts, so a bad path fails in the first second.
enum OutputPath {
    static func validate(_ path: String) throws {
        try FileName.validate(path)
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw SinkError.outputFolderMissing(path)
        }
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            if isDirectory.boolValue { throw SinkError.outputIsFolder(path) }
            if !FileManager.default.isWritableFile(atPath: path) { throw SinkError.outputNotWritable(path) }
        } else if !FileManager.default.isWritableFile(atPath: folder) {
            throw SinkError.outputNotWritable(path)
        }
    }

    /// A folder new files will be written into.
    static func validateFolder(_ folder: String) throws {
        try FileName.validate(folder)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw SinkError.outputFolderMissing(folder.hasSuffix("/") ? folder : folder + "/")
        }
        guard FileManager.default.isWritableFile(atPath: folder) else { throw SinkError.outputNotWritable(folder) }
    }
}
