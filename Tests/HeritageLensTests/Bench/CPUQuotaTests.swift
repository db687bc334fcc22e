import Foundation
import Testing

/// `bench --cpu-share` runs the real binary in a cgroup with a CPU quota: checked by what the
/// quota does (the process gets about that share of a core when it runs flat out) and by what it
/// leaves behind (nothing).
// Serialized: a group one test's bench makes would otherwise show up in, or vanish from, the
// other's before-and-after listing of groups.
@Suite(.serialized) struct CPUQuotaTests {
    static var quotaAvailable: Bool {
        getuid() == 0 && (FileManager.default.isWritableFile(atPath: "/sys/fs/cgroup/cpu/cgroup.procs")
            || ((try? String(contentsOfFile: "/sys/fs/cgroup/cgroup.controllers", encoding: .utf8))?
                .split(whereSeparator: \.isWhitespace).contains("cpu") ?? false))
    }

    static func groups() -> [String] {
        let roots = ["/sys/fs/cgroup", "/sys/fs/cgroup/cpu"]
        return roots.flatMap { root in
            ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).filter { $0.hasPrefix("heritage-lens-bench-") }
        }
    }

    @Test(.enabled(if: CLI.available && quotaAvailable, "needs root and the cgroup cpu controller"))
    func aHalfShareHoldsAFlatOutRunToHalfACoreAndLeavesNoGroupBehind() throws {
        let dir = TestPaths.scratch()
        let video = try CLI.sample(in: dir)
        let before = Self.groups()
        let r = try CLI.run(["bench", video, "--tier", "low", "--max", "--frames", "90", "--cpu-share", "0.5",
                             "--json", "report.json"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(String(decoding: r.stdout, as: UTF8.self).contains("at 50 % (cgroup CPU quota)"))
        let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/report.json"))) as? [String: Any])
        let run = try #require((report["runs"] as? [[String: Any]])?.first)
        let wall = try #require(run["wall_s"] as? Double)
        let cpuPerFrame = try #require(run["process_cpu_ms_per_frame"] as? Double)
        let frames = try #require(run["frames"] as? Int)
        // Flat out, the process would use a whole core; the quota holds it near half of one
        // (some slack for the periods at the run's edges).
        let share = cpuPerFrame * Double(frames) / 1000 / wall
        #expect(share < 0.65, "used \(share) of a core under a 0.5 quota")
        #expect(Self.groups() == before, "bench left its cgroup behind")
    }

    /// Ended by a signal, bench used to leave its group behind (no `defer` runs then); a group a
    /// SIGKILL left, named after a process that is gone, is removed by the next bench.
    @Test(.enabled(if: CLI.available && quotaAvailable, "needs root and the cgroup cpu controller"))
    func aBenchStoppedBySignalOrKilledLeavesNoGroupBehind() throws {
        let dir = TestPaths.scratch()
        let video = try CLI.sample(in: dir)
        for signal in [SIGINT, SIGTERM] {
            let child = try CLI.Child(["bench", video, "--tier", "low", "--max", "--frames", "9000", "--cpu-share", "0.5"], in: dir)
            let grouped = child.waitUntil(timeout: 60) { Self.groups().contains("heritage-lens-bench-\(child.pid)") }
            #expect(grouped, "no group made")
            child.send(signal)
            let r = child.wait(timeout: 30)
            #expect(r.signal == signal, "status \(r.status)")
            #expect(!Self.groups().contains("heritage-lens-bench-\(child.pid)"), "a bench ended by signal \(signal) left its cgroup behind")
        }
        let killed = try CLI.Child(["bench", video, "--tier", "low", "--max", "--frames", "9000", "--cpu-share", "0.5"], in: dir)
        let grouped = killed.waitUntil(timeout: 60) { Self.groups().contains("heritage-lens-bench-\(killed.pid)") }
        #expect(grouped, "no group made")
        killed.send(SIGKILL)
        _ = killed.wait(timeout: 30)
        #expect(Self.groups().contains("heritage-lens-bench-\(killed.pid)"), "a SIGKILL leaves the group (the kernel keeps it)")
        let next = try CLI.run(["bench", video, "--tier", "low", "--max", "--frames", "30", "--cpu-share", "0.5"], in: dir)
        #expect(next.status == 0, "\(next.stderr)")
        #expect(!Self.groups().contains("heritage-lens-bench-\(killed.pid)"), "the next bench did not remove the group a killed one left")
    }

    @Test(.enabled(if: CLI.available, "needs the heritage-lens binary"))
    func aShareOutOfRangeIsRefusedInOneLine() throws {
        let dir = TestPaths.scratch()
        let r = try CLI.run(["bench", "--cpu-share", "2"], in: dir)
        #expect(r.status != 0)
        #expect(r.stderrLines.contains { $0.contains("--cpu-share") })
    }
}
