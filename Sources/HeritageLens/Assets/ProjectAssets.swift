import Foundation

/// Finds the project's own files (masks, cards, calibrations, the sample) whether heritage-lens
/// runs from the repository root or elsewhere: `HERITAGE_LENS_HOME` when set, else the working
/// directory when it holds them, else the checkout the binary was built in (found by walking up
/// from the executable, which lives in `.build/<configuration>/`).
public enum ProjectAssets {
    public static let root: String = {
        let fm = FileManager.default
        if let home = ProcessInfo.processInfo.environment["HERITAGE_LENS_HOME"], !home.isEmpty { return home }
        let marker = "Samples/masks/layout.json"
        let cwd = fm.currentDirectoryPath
        if fm.fileExists(atPath: cwd + "/" + marker) { return cwd }
        var dir = URL(fileURLWithPath: CommandLine.arguments.first ?? cwd).resolvingSymlinksInPath().deletingLastPathComponent()
        while dir.path != "/" {
            if fm.fileExists(atPath: dir.appendingPathComponent(marker).path) { return dir.path }
            dir.deleteLastPathComponent()
        }
        return cwd
    }()

    /// `relative` inside the project root (absolute paths pass through).
    public static func path(_ relative: String) -> String {
        relative.hasPrefix("/") ? relative : (root as NSString).appendingPathComponent(relative)
    }

    /// An option's value as given or, when it is the option's default (`value`, one of the
    /// project's own files) and is not there from the working folder, that default inside the
    /// project root: a command run from another folder still finds the repository's files.
    public static func located(_ path: String, default value: String) -> String {
        path == value && !FileManager.default.fileExists(atPath: path) ? self.path(path) : path
    }
}
