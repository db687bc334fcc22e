import Foundation

/// The names a bench gives what it makes for itself alone (its cgroup, its scratch folder):
/// `heritage-lens-bench-PID`. A bench ended by a signal or SIGKILL leaves them behind; the next
/// bench finds them by the name's process having ended.
enum BenchProcessNames {
    static let prefix = "heritage-lens-bench-"

    /// This process's name.
    static var own: String { prefix + "\(getpid())" }

    /// The entries of `folder` named for benches that are no longer running (never this one's,
    /// nor a running one's).
    static func ofEndedBenches(in folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { name in
            guard name.hasPrefix(prefix), let pid = Int32(name.dropFirst(prefix.count)), pid != getpid() else { return false }
            return kill(pid, 0) != 0 && errno == ESRCH
        }
    }
}
