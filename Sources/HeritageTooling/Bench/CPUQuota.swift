import HeritageLens
import Foundation

/// This whole process on a fraction of one CPU, through the kernel's CFS bandwidth control (a
/// cgroup with a CPU quota): the frame path, detection threads and decoding all slow down
/// together, as on a slower machine. `--emulate-slow` stretches only the frame path's stages and
/// so hides what a slow core does to detection; this does not.
///
/// Needs root (or a delegated cgroup) and the cgroup cpu controller, v1 or v2.
public final class CPUQuota {
    public enum Failure: Error, CustomStringConvertible {
        case badFraction(Double)
        case noController
        case cannotWrite(String, reason: String)

        public var description: String {
            switch self {
            case .badFraction(let f):
                return "--cpu-share \(f): give a fraction of one CPU above 0.05 and at most 1 (0.25 is about a Raspberry Pi 4 core)"
            case .noController:
                return "--cpu-share: no writable cgroup cpu controller here (/sys/fs/cgroup/cpu or cgroup v2 with cpu); run as root, or run bench without it"
            case .cannotWrite(let path, let reason):
                return "--cpu-share: cannot write \(path) (\(reason)); run as root, or run bench without it"
            }
        }
    }

    public let fraction: Double
    public let periodMicroseconds: Int
    private let directory: String
    private let parentProcs: String

    /// Moves the process (every thread, now and later) into a new cgroup limited to `fraction` of
    /// one CPU per `periodMicroseconds` (short periods, as a slow core is slow all the time, not
    /// in bursts).
    public init(fraction: Double, periodMicroseconds: Int = 4000) throws(Failure) {
        guard fraction >= 0.05, fraction <= 1 else { throw .badFraction(fraction) }
        self.fraction = fraction
        self.periodMicroseconds = periodMicroseconds
        let quota = max(1000, Int((fraction * Double(periodMicroseconds)).rounded()))
        let name = BenchProcessNames.own
        let files = FileManager.default
        var limits: [(String, String)]
        if files.isWritableFile(atPath: "/sys/fs/cgroup/cpu/cgroup.procs") {
            directory = "/sys/fs/cgroup/cpu/" + name
            parentProcs = "/sys/fs/cgroup/cpu/cgroup.procs"
            limits = [("cpu.cfs_period_us", "\(periodMicroseconds)"), ("cpu.cfs_quota_us", "\(quota)")]
        } else if let controllers = try? String(contentsOfFile: "/sys/fs/cgroup/cgroup.controllers", encoding: .utf8),
                  controllers.split(separator: " ").contains(where: { $0.trimmingCharacters(in: .whitespacesAndNewlines) == "cpu" }) {
            directory = "/sys/fs/cgroup/" + name
            parentProcs = "/sys/fs/cgroup/cgroup.procs"
            limits = [("cpu.max", "\(quota) \(periodMicroseconds)")]
        } else {
            throw .noController
        }
        Self.removeGroupsOfEndedBenches(in: (directory as NSString).deletingLastPathComponent)
        // Ctrl-C or a kill ends bench without running `release`: the group goes with it. Set
        // before the group is made, so that no signal finds it made and the handler not yet there.
        ProcessSignals.leaveCgroupOnStop(parentProcs: parentProcs, group: directory)
        do {
            try files.createDirectory(atPath: directory, withIntermediateDirectories: false)
        } catch {
            throw .cannotWrite(directory, reason: (error as NSError).localizedDescription)
        }
        limits.append(("cgroup.procs", "\(getpid())"))
        for (file, value) in limits {
            let path = directory + "/" + file
            if let reason = Self.write(value, to: path) {
                rmdir(directory)
                throw .cannotWrite(path, reason: reason)
            }
        }
    }

    /// Groups an earlier bench left when SIGKILL ended it (nothing else does now): empty, and
    /// named after a process that is gone.
    private static func removeGroupsOfEndedBenches(in folder: String) {
        for name in BenchProcessNames.ofEndedBenches(in: folder) { rmdir(folder + "/" + name) }
    }

    /// Back to where the process was, and the group removed.
    public func release() {
        _ = Self.write("\(getpid())", to: parentProcs)
        rmdir(directory)
    }

    deinit { release() }

    /// nil when written; otherwise why not. Control files take one write(2) each.
    private static func write(_ value: String, to path: String) -> String? {
        let fd = open(path, O_WRONLY)
        guard fd >= 0 else { return String(cString: strerror(errno)) }
        defer { close(fd) }
        let bytes = Array((value + "\n").utf8)
        let n = bytes.withUnsafeBytes { Foundation.write(fd, $0.baseAddress, $0.count) }
        return n == bytes.count ? nil : String(cString: strerror(errno))
    }
}
