import Foundation
import Testing

/// Issue items 1, 2 and 4 through the command line: an output that is an input (by any path,
/// link or hard link) or another output is refused before anything is created or truncated, and
/// every output's folder is checked before the work starts. All on temporary copies.
@Suite(.enabled(if: CLI.available && TestPaths.debianAsset("astronaut.png") != nil,
                "needs the built heritage-lens and Samples/debian (scripts/fetch-debian-assets.sh)"))
struct OutputSafetyTests {
    func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

    @Test func anOutputThatIsTheInputIsRefusedAndTheInputKept() throws {
        let dir = TestPaths.scratch()
        let input = try CLI.sample(in: dir)
        let original = try #require(bytes(input))
        try FileManager.default.createSymbolicLink(atPath: "\(dir)/link.mp4", withDestinationPath: "in.mp4")
        try FileManager.default.linkItem(atPath: input, toPath: "\(dir)/hard.mp4")
        for args in [["-o", "in.mp4"], ["--anchors", "in.mp4"], ["--metrics", "./in.mp4"], ["-o", "link.mp4"],
                     ["--anchors", "hard.mp4"], ["--metrics", "\(dir)/../\((dir as NSString).lastPathComponent)/in.mp4"]] {
            let r = try CLI.run(["process", "in.mp4"] + args, in: dir)
            #expect(r.status == 1, "\(args)")
            #expect(r.stderrLines.count == 1 && r.stderr.contains("would overwrite the input"), "\(args): \(r.stderr)")
            #expect(bytes(input) == original, "\(args) changed the input")
        }
    }

    @Test func twoOutputsOnOneFileAreRefusedBeforeEitherIsCreated() throws {
        let dir = TestPaths.scratch()
        _ = try CLI.sample(in: dir)
        try FileManager.default.createSymbolicLink(atPath: "\(dir)/alias.jsonl", withDestinationPath: "F.jsonl")
        for args in [["-o", "X.mp4", "--anchors", "X.mp4"], ["--anchors", "F.jsonl", "--metrics", "F.jsonl"],
                     ["--anchors", "F.jsonl", "--metrics", "alias.jsonl"], ["--anchors", "-", "--metrics", "-"]] {
            let r = try CLI.run(["process", "in.mp4"] + args, in: dir)
            #expect(r.status == 1, "\(args)")
            #expect(r.stderrLines.count == 1 && r.stderr.contains("name the same file"), "\(args): \(r.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: "\(dir)/X.mp4"))
        #expect(!FileManager.default.fileExists(atPath: "\(dir)/F.jsonl"))
        // Character devices are not files: /dev/null twice is fine.
        let ok = try CLI.run(["process", "in.mp4", "--frames", "2", "--no-cards", "--detector", "none",
                              "--anchors", "/dev/null", "--metrics", "/dev/null"], in: dir)
        #expect(ok.status == 0, "\(ok.stderr)")
    }

    @Test func everyOutputFolderIsCheckedBeforeTheWork() throws {
        let dir = TestPaths.scratch()
        _ = try CLI.sample(in: dir)
        try FileManager.default.createDirectory(atPath: "\(dir)/images", withIntermediateDirectories: true)
        let cases: [[String]] = [
            ["process", "in.mp4", "--report", "nope/r.json"],
            ["process", "in.mp4", "--anchors", "nope/a.jsonl"],
            ["process", "in.mp4", "--snapshots", "nope"],
            ["bench", "in.mp4", "--tier", "low", "--json", "nope/b.json"],
            ["bench", "in.mp4", "--tier", "low", "--plot", "nope/b.svg"],
            ["kernels", "in.mp4", "--json", "nope/k.json"],
            ["calibrate", "--images", "images", "-o", "nope/c.yml"],
            ["calibrate", "--write-board", "nope/board.svg"],
            ["eval-cards", "--videos", "nope"],
        ]
        for args in cases {
            let r = try CLI.run(args, in: dir)
            #expect(r.status != 0, "\(args)")
            #expect(r.stderr.contains("nope") && r.stderr.contains("does not exist"), "\(args): \(r.stderr)")
            // Refused at once: no model loaded, no frame run (each of these takes seconds).
            #expect(r.seconds < 10, "\(args) took \(r.seconds) s")
        }
        let folder = try CLI.run(["process", "in.mp4", "--anchors", "images"], in: dir)
        #expect(folder.stderr.contains("images: is a folder; name a file inside it"), "\(folder.stderr)")
        let file = try CLI.run(["process", "in.mp4", "--output-dir", "in.mp4"], in: dir)
        #expect(file.status != 0 && file.stderr.contains("in.mp4: is a file, not a folder"), "\(file.stderr)")
    }

    /// A scratch folder with the sample as `in.mp4` and an earlier run's `prev.jsonl` and
    /// `prev.mp4`, both holding the bytes returned.
    func folderWithAnEarlierRunsOutputs() throws -> (folder: String, earlier: Data) {
        let dir = TestPaths.scratch()
        _ = try CLI.sample(in: dir)
        let earlier = Data(#"{"earlier":"run"}\n"#.utf8)
        try earlier.write(to: URL(fileURLWithPath: "\(dir)/prev.jsonl"))
        try earlier.write(to: URL(fileURLWithPath: "\(dir)/prev.mp4"))
        return (dir, earlier)
    }

    /// /proc passes the permission bits for root but takes no new file: a run whose second output
    /// was there opened its first, emptying an earlier run's file of that name, before it failed.
    /// Every output is now tried where it goes before any is opened.
    @Test func aFolderThatTakesNoFilesIsRefusedBeforeAnEarlierRunsOutputsAreTouched() throws {
        let (dir, earlier) = try folderWithAnEarlierRunsOutputs()
        let cases: [[String]] = [
            ["--anchors", "prev.jsonl", "--metrics", "/proc/m.jsonl"],
            ["-o", "prev.mp4", "--anchors", "/proc/a.jsonl"],
            ["--anchors", "prev.jsonl", "--report", "/proc/r.json"],
            ["--anchors", "prev.jsonl", "-o", "/proc/x.mp4"],
            ["--anchors", "prev.jsonl", "--snapshots", "/proc", "--snapshot-at", "3"],
        ]
        for args in cases {
            let r = try CLI.run(["process", "in.mp4"] + args, in: dir)
            #expect(r.status == 1 && r.stderrLines.count == 1 && r.stderr.contains("/proc"), "\(args): \(r.stderr)")
            #expect(r.seconds < 10, "\(args) took \(r.seconds) s")
            #expect(bytes("\(dir)/prev.jsonl") == earlier && bytes("\(dir)/prev.mp4") == earlier, "\(args) changed an earlier output")
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.contains("probe") }
        #expect(left.isEmpty, "\(left)")
    }

    /// A port another program holds, or a host that does not resolve, refuses a run as a bad path
    /// does: before any file is opened. The server was started after the files, and its failure
    /// left an earlier run's anchors empty and its video a file of no frames.
    @Test func aNetworkOutputThatCannotStartLeavesEarlierOutputsAsTheyWere() throws {
        let (dir, earlier) = try folderWithAnEarlierRunsOutputs()
        // A real listening socket on a port the system picked holds that port.
        let held = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(held) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(held, $0, length) == 0 && listen(held, 1) == 0 && getsockname(held, $0, &length) == 0 }
        }
        try #require(bound)
        let port = Int(UInt16(bigEndian: address.sin_port))
        let cases: [(args: [String], names: String)] = [
            (["--serve", "127.0.0.1:\(port)"], "127.0.0.1:\(port)"),
            (["--serve", "no-such-host.invalid:8080"], "no-such-host.invalid"),
            (["--osc", "no-such-host.invalid:8338"], "no-such-host.invalid"),
        ]
        for c in cases {
            let r = try CLI.run(["process", "in.mp4", "--realtime", "--frames", "5", "--anchors", "prev.jsonl",
                                 "-o", "prev.mp4", "--metrics", "new.jsonl"] + c.args, in: dir)
            #expect(r.status == 1 && r.stderrLines.count == 1 && r.stderr.contains(c.names), "\(c.args): \(r.stderr)")
            #expect(bytes("\(dir)/prev.jsonl") == earlier && bytes("\(dir)/prev.mp4") == earlier, "\(c.args) changed an earlier output")
            #expect(!FileManager.default.fileExists(atPath: "\(dir)/new.jsonl"), "\(c.args) left a new output behind")
        }
        let unresolved = try CLI.run(["process", "in.mp4", "--realtime", "--serve", "no-such-host.invalid:8080"], in: dir)
        #expect(unresolved.stderr.contains("cannot resolve the host") && !unresolved.stderr.contains("another port"), "\(unresolved.stderr)")
    }
}
