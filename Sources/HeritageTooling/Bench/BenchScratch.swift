import Foundation

/// The folder `bench --sinks` writes its video and anchors to: made per process, removed when the
/// bench ends. A bench ended by a signal or SIGKILL cannot remove its own, so each new one removes
/// the folders of benches that are no longer running.
public struct BenchScratch: Sendable {
    /// The folder itself.
    public let path: String

    /// Makes this process's folder in `parent` (the temporary folder by default), after removing
    /// those of ended benches there.
    public init(in parent: String = NSTemporaryDirectory()) throws {
        for name in BenchProcessNames.ofEndedBenches(in: parent) {
            try? FileManager.default.removeItem(atPath: (parent as NSString).appendingPathComponent(name))
        }
        path = (parent as NSString).appendingPathComponent(BenchProcessNames.own)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// Removes the folder and what is in it.
    public func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
