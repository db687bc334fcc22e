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
            if !FileManager.default.isWritableFile(atPath: path) || !opensForWriting(path) {
                throw SinkError.outputNotWritable(path)
            }
        } else if !FileManager.default.isWritableFile(atPath: folder) || !takesNewFiles(folder) {
            throw SinkError.outputNotWritable(path)
        }
    }

    /// Whether a new file can be made in `folder`, tried with a hidden file made and removed at
    /// once. The permission bits do not say: root may write to /proc and /sys by them, where no
    /// file can be made, and a run refused only once its second output failed to open had
    /// already emptied the earlier run's file named by its first.
    static func takesNewFiles(_ folder: String) -> Bool {
        let probe = (folder as NSString).appendingPathComponent(".heritage-lens-probe-\(getpid())-\(UInt32.random(in: 0 ... .max))")
        let fd = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return false }
        close(fd)
        unlink(probe)
        return true
    }

    /// Whether an existing regular file opens for writing, tried without truncating it (a pipe or
    /// a device is left to the permission bits: opening one can block or have effects).
    static func opensForWriting(_ path: String) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return true }
        let fd = open(path, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        close(fd)
        return true
    }

    /// A folder new files will be written into.
    static func validateFolder(_ folder: String) throws {
        try FileName.validate(folder)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) else {
            throw SinkError.outputFolderMissing(folder.hasSuffix("/") ? folder : folder + "/")
        }
        guard isDirectory.boolValue else { throw SinkError.outputFolderIsAFile(folder) }
        guard FileManager.default.isWritableFile(atPath: folder), takesNewFiles(folder) else {
            throw SinkError.outputNotWritable(folder)
        }
    }
}
