import Foundation
import HeritageCore
import Testing
@testable import HeritageLens

/// Issue items 3, 4 and 6 through the command line: a write that fails is a non-zero exit and one
/// line naming the file; what was written before stays usable (whole JSON lines, a video that
/// plays); a reader that closes standard output ends the run cleanly.
@Suite(.enabled(if: CLI.available && TestPaths.debianAsset("astronaut.png") != nil,
                "needs the built heritage-lens and Samples/debian (scripts/fetch-debian-assets.sh)"))
struct WriteFailureTests {
    /// A disk that fills in the middle of the run: the file size limit (`ulimit -f`, with
    /// SIGXFSZ ignored) fails writes past it as a full disk does, without root or a mount.
    /// scripts/fault-injection.sh does the same on a real full tmpfs.
    func runWithFileLimit(kilobytes: Int, _ args: [String], in dir: String) throws -> CLI.Result {
        try CLI.run(args, in: dir, wrapper: ["/bin/sh", "-c", "trap '' XFSZ; ulimit -f \(kilobytes * 2); exec \"$0\" \"$@\""])
    }

    @Test(arguments: ["mp4", "mkv", "avi"])
    func aDiskFillingDuringTheVideoIsAnErrorAndWhatWasWrittenPlays(ext: String) throws {
        let dir = TestPaths.scratch()
        _ = try CLI.sample(in: dir)
        let limit = ext == "avi" ? 1200 : 150
        let r = try runWithFileLimit(kilobytes: limit, ["process", "in.mp4", "--no-cards", "--detector", "none",
                                                         "-o", "out.\(ext)", "--anchors", "a.jsonl"], in: dir)
        #expect(r.status == 1)
        let last = try #require(r.stderrLines.last)
        #expect(last.hasPrefix("heritage-lens: error: out.\(ext): write failed (File too large)"), "\(r.stderr)")
        let anchors = CLI.lines(of: "\(dir)/a.jsonl")
        #expect(anchors.endsWhole)
        // The frames on disk decode, from the first one on: the torn end was cut off.
        var decoded = 0
        let video = try VideoFileSource(path: "\(dir)/out.\(ext)")
        while try video.nextFrame() != nil { decoded += 1 }
        #expect(decoded >= 10 && decoded <= anchors.lines.count, "\(decoded) of \(anchors.lines.count) frames")
    }

    @Test func aDiskFillingDuringTheAnchorsLeavesOnlyWholeLines() throws {
        let dir = TestPaths.scratch()
        _ = try CLI.sample(in: dir)
        for output in ["--anchors", "--metrics"] {
            let r = try runWithFileLimit(kilobytes: 20, ["process", "in.mp4", "--detector", "none", output, "out.jsonl"], in: dir)
            #expect(r.status == 1)
            #expect(r.stderrLines.last?.contains("out.jsonl: write failed (File too large)") == true, "\(r.stderr)")
            let written = CLI.lines(of: "\(dir)/out.jsonl")
            #expect(written.endsWhole, "\(output) left a torn line")
            #expect(written.lines.count > 5)
            for line in written.lines { #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil) }
        }
    }

    @Test func everyOutputToAFullDeviceIsAnError() throws {
        let dir = TestPaths.scratch()
        _ = try CLI.sample(in: dir)
        let cases: [[String]] = [
            ["process", "in.mp4", "--frames", "3", "--detector", "none", "--no-cards", "--anchors", "/dev/full"],
            ["process", "in.mp4", "--frames", "3", "--detector", "none", "--no-cards", "--metrics", "/dev/full"],
            ["process", "in.mp4", "--frames", "3", "--detector", "none", "--no-cards", "--report", "/dev/full"],
            ["bench", "in.mp4", "--tier", "low", "--frames", "3", "--detector", "none", "--no-cards", "--json", "/dev/full"],
            ["bench", "in.mp4", "--tier", "low", "--frames", "3", "--detector", "none", "--no-cards", "--plot", "/dev/full"],
            ["kernels", "in.mp4", "--kernel", "convert", "--iterations", "2", "--warmup", "0", "--json", "/dev/full"],
            ["calibrate", "--write-board", "/dev/full"],
        ]
        for args in cases {
            let r = try CLI.run(args, in: dir)
            #expect(r.status != 0, "\(args): exit 0")
            #expect(r.stderrLines.last?.contains("/dev/full") == true, "\(args): \(r.stderr)")
            #expect(!String(decoding: r.stdout, as: UTF8.self).contains("wrote /dev/full"), "\(args) claimed success")
        }
    }

    /// `--anchors - | head -c 100`: the reader has what it wanted. The run stops, finalizes the
    /// other outputs and exits 0 with a one-line note (not a silent 141, not an error: the closed
    /// pipe is how `head` says "enough").
    @Test func aReaderThatClosesStandardOutputEndsTheRunCleanly() throws {
        let dir = TestPaths.scratch()
        _ = try CLI.sample(in: dir)
        let script = "\"$0\" process in.mp4 --detector none --anchors - -o out.mkv | head -c 100 > head.txt; exit ${PIPESTATUS[0]}"
        let r = try CLI.run([], in: dir, wrapper: ["/bin/bash", "-c", script])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("the reader of standard output closed it"), "\(r.stderr)")
        #expect(FileManager.default.contents(atPath: "\(dir)/head.txt")?.count == 100)
        let video = try VideoFileSource(path: "\(dir)/out.mkv")
        #expect(try video.nextFrame() != nil)
    }
}
