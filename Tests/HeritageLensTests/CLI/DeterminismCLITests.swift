import Foundation
import Testing

/// Issue item 7 through the command line: `process` gives the same anchors, byte for byte, alone
/// and next to a busy loop on the same core, and whatever bytes freed memory held
/// (MALLOC_PERTURB_ fills it: any read of memory the program never wrote shows up as a change).
@Suite(.enabled(if: CLI.available && TestPaths.debianAsset("astronaut.png") != nil
                    && FileManager.default.isExecutableFile(atPath: "/usr/bin/taskset"),
                "needs the built heritage-lens, Samples/debian and taskset"))
struct DeterminismCLITests {
    @Test func processGivesTheSameAnchorsAloneAndUnderLoad() throws {
        let dir = TestPaths.scratch()
        _ = try CLI.sample(in: dir)
        func anchors(_ name: String, environment: [String: String] = [:], pinned: Bool = false) throws -> Data {
            let r = try CLI.run(["process", "in.mp4", "--frames", "60", "--anchors", name], in: dir,
                                environment: environment, wrapper: pinned ? ["/usr/bin/taskset", "-c", "0"] : [])
            #expect(r.status == 0, "\(r.stderr)")
            return FileManager.default.contents(atPath: "\(dir)/\(name)") ?? Data()
        }
        let alone = try anchors("alone.jsonl")
        #expect(String(decoding: alone, as: UTF8.self).contains("\"cards\":[{"), "the sample's card must be tracked")
        // A busy loop on CPU 0, the run on CPU 0 beside it.
        let busy = Process()
        busy.executableURL = URL(fileURLWithPath: "/usr/bin/taskset")
        busy.arguments = ["-c", "0", "/bin/sh", "-c", "while :; do :; done"]
        try busy.run()
        // SIGKILL: this runner's threads may block SIGTERM, and the child inherits that.
        defer { kill(busy.processIdentifier, SIGKILL); busy.waitUntilExit() }
        let loaded = try anchors("loaded.jsonl", environment: ["MALLOC_PERTURB_": "85"], pinned: true)
        let perturbed = try anchors("perturbed.jsonl", environment: ["MALLOC_PERTURB_": "170"])
        #expect(loaded == alone)
        #expect(perturbed == alone)
    }

    /// `--cores N`: detection beside the tracking and frames decoded ahead give the anchors of one
    /// core, byte for byte, alone and with a busy loop on one of the cores.
    @Test func anyCoreCountGivesTheSameAnchors() throws {
        let dir = TestPaths.scratch()
        _ = try CLI.sample(in: dir)
        func anchors(_ cores: Int, _ name: String) throws -> Data {
            let r = try CLI.run(["process", "in.mp4", "--frames", "90", "--cores", "\(cores)", "--anchors", name], in: dir)
            #expect(r.status == 0, "\(r.stderr)")
            return FileManager.default.contents(atPath: "\(dir)/\(name)") ?? Data()
        }
        let one = try anchors(1, "one.jsonl")
        #expect(String(decoding: one, as: UTF8.self).contains("\"cards\":[{"), "the sample's card must be tracked")
        #expect(try anchors(2, "two.jsonl") == one)
        let busy = Process()
        busy.executableURL = URL(fileURLWithPath: "/usr/bin/taskset")
        busy.arguments = ["-c", "0", "/bin/sh", "-c", "while :; do :; done"]
        try busy.run()
        defer { kill(busy.processIdentifier, SIGKILL); busy.waitUntilExit() }
        #expect(try anchors(4, "four.jsonl") == one)
    }
}
