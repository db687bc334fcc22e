import Foundation

/// Every file a command will read and write, checked before anything is created or truncated:
/// each output's folder must exist and take files, no output may be one of the inputs (by any
/// path, link or hard link) and no two outputs may be one file. A run that would destroy its own
/// input, or interleave two outputs into one corrupt file, fails in its first second instead.
public struct OutputPlan {
    /// A path and the option (or argument) that named it, for messages.
    public struct Entry {
        public let option: String
        public let path: String

        public init(_ option: String, _ path: String) {
            self.option = option
            self.path = path
        }
    }

    public private(set) var inputs: [Entry] = []
    public private(set) var outputs: [Entry] = []
    public private(set) var folders: [Entry] = []

    public init() {}

    /// A file the command reads.
    public mutating func input(_ option: String, _ path: String?) {
        if let path { inputs.append(Entry(option, path)) }
    }

    /// Every file directly inside `folder` (an image folder, a card set), as inputs.
    public mutating func inputFolder(_ option: String, _ folder: String?) {
        guard let folder, let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for name in names.sorted() { inputs.append(Entry(option, (folder as NSString).appendingPathComponent(name))) }
    }

    /// A file the command writes (`-`: standard output).
    public mutating func output(_ option: String, _ path: String?) {
        if let path { outputs.append(Entry(option, path)) }
    }

    /// A folder the command writes new files into (snapshots, check videos).
    public mutating func outputFolder(_ option: String, _ path: String?) {
        if let path { folders.append(Entry(option, path)) }
    }

    /// Throws the first problem as a one-line `SinkError`; creates nothing.
    public func check() throws {
        for folder in folders {
            do {
                try OutputPath.validateFolder(folder.path)
            } catch SinkError.outputNotWritable(let path) {
                // A folder named by default (`--snapshots .`) is not one the user typed: say which option.
                throw SinkError.outputNotWritable("\(path) (\(folder.option))")
            }
        }
        for output in outputs where output.path != "-" { try OutputPath.validate(output.path) }
        let inputIDs = inputs.map { ($0, FileIdentity(path: $0.path)) }.filter { $0.1.exists }
        var seen: [(Entry, FileIdentity)] = []
        for output in outputs {
            let id = FileIdentity(path: output.path)
            if let (input, _) = inputIDs.first(where: { $0.1 == id }) {
                throw SinkError.overwritesInput(output.path, option: output.option, input: input.path,
                                                inputOption: input.option)
            }
            // Several outputs to /dev/null (or a terminal) are harmless; to one file they are not.
            if !id.isCharacterDevice, let (other, _) = seen.first(where: { $0.1 == id }) {
                throw SinkError.sameOutput(output.path, options: [other.option, output.option])
            }
            seen.append((output, id))
        }
    }
}
