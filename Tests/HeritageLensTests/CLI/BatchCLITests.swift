import Foundation
import Testing
@testable import HeritageLens

/// `process` over many videos through the command line: the same anchors as one run per video,
/// whatever the shard split or the number of jobs; a killed batch resumes with only the
/// unfinished inputs; a bad input is reported and the rest go on; no output replaces an input.
@Suite(.enabled(if: CLI.available, "needs the built heritage-lens"))
struct BatchCLITests {
    /// Four short videos of the sample scene (faces and a card), of different lengths.
    func videos(in dir: String) throws -> [String] {
        try FileManager.default.createDirectory(atPath: "\(dir)/in", withIntermediateDirectories: true)
        return try [24, 30, 36, 42].map { n in
            let r = try CLI.run(["sample", "-o", "in/clip\(n).mp4", "--frames", "\(n)"], in: dir)
            #expect(r.status == 0, "\(r.stderr)")
            return "clip\(n)"
        }
    }

    func contents(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

    @Test func aBatchGivesEachVideoTheAnchorsOfItsOwnRunInAnyShardSplitOrJobCount() throws {
        let dir = TestPaths.scratch()
        let names = try videos(in: dir)
        for name in names {
            let r = try CLI.run(["process", "in/\(name).mp4", "--anchors", "\(name).single.jsonl"], in: dir)
            #expect(r.status == 0, "\(r.stderr)")
        }
        for dest in ["all", "shards", "jobs"] { try FileManager.default.createDirectory(atPath: "\(dir)/\(dest)", withIntermediateDirectories: true) }
        var r = try CLI.run(["process", "in", "--output-dir", "all", "--write", "anchors,metrics"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        r = try CLI.run(["process", "in", "--output-dir", "jobs", "--jobs", "2"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        for i in 0..<3 {
            r = try CLI.run(["process", "in", "--output-dir", "shards", "--shard", "auto/3"], in: dir,
                            environment: ["SLURM_ARRAY_TASK_ID": "\(i)"])
            #expect(r.status == 0, "\(r.stderr)")
        }
        for name in names {
            let single = contents("\(dir)/\(name).single.jsonl")
            #expect(single != nil && !single!.isEmpty)
            #expect(contents("\(dir)/all/\(name).anchors.jsonl") == single, "\(name): batch")
            #expect(contents("\(dir)/jobs/\(name).anchors.jsonl") == single, "\(name): --jobs 2")
            #expect(contents("\(dir)/shards/\(name).anchors.jsonl") == single, "\(name): shards")
            #expect(FileManager.default.fileExists(atPath: "\(dir)/all/\(name).metrics.jsonl"))
        }
        let summary = CLI.lines(of: "\(dir)/all/summary.jsonl").lines
        #expect(summary.count == 4 && summary.allSatisfy { $0.contains("\"status\":\"done\"") && !$0.contains("\"faces\":0") })
        // Each shard wrote its own summary; together they name every input once.
        let shardLines = (0..<3).flatMap { CLI.lines(of: "\(dir)/shards/summary.shard-\($0)-of-3.jsonl").lines }
        let shardInputs = shardLines.compactMap { line in names.first { line.contains("/\($0).mp4\"") } }
        #expect(shardLines.count == 4 && Set(shardInputs) == Set(names))
        let hidden = try FileManager.default.contentsOfDirectory(atPath: "\(dir)/all").filter { $0.contains(".partial.") }
        #expect(hidden.isEmpty, "temporary files left: \(hidden)")
    }

    @Test func aKilledBatchResumesWithOnlyItsUnfinishedInputs() throws {
        let dir = TestPaths.scratch()
        let names = try videos(in: dir)
        try FileManager.default.createDirectory(atPath: "\(dir)/out", withIntermediateDirectories: true)
        let child = try CLI.Child(["process", "in", "--output-dir", "out"], in: dir)
        let first = "\(dir)/out/.\(names[0]).settings"
        #expect(child.waitUntil(timeout: 120) { FileManager.default.fileExists(atPath: first) })
        child.send(SIGKILL)
        _ = child.wait()
        // Finished is what the batch itself counts as finished: every output published and, last,
        // the settings recorded. A kill between the renames leaves an anchors file of an input
        // that is rightly made again.
        let finished = names.filter { FileManager.default.fileExists(atPath: "\(dir)/out/.\($0).settings") }
        #expect(!finished.isEmpty && finished.count < names.count, "killed after \(finished)")
        let before = finished.map { contents("\(dir)/out/\($0).anchors.jsonl") }
        let r = try CLI.run(["process", "in", "--output-dir", "out"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let summary = CLI.lines(of: "\(dir)/out/summary.jsonl").lines
        for name in names {
            let line = summary.first { $0.contains("/\(name).mp4") } ?? ""
            #expect(line.contains(finished.contains(name) ? "\"status\":\"skipped\"" : "\"status\":\"done\""), "\(line)")
        }
        #expect(finished.map { contents("\(dir)/out/\($0).anchors.jsonl") } == before)
        // Redone inputs match a batch that was never interrupted.
        try FileManager.default.createDirectory(atPath: "\(dir)/clean", withIntermediateDirectories: true)
        _ = try CLI.run(["process", "in", "--output-dir", "clean"], in: dir)
        for name in names {
            #expect(contents("\(dir)/out/\(name).anchors.jsonl") == contents("\(dir)/clean/\(name).anchors.jsonl"), "\(name)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: "\(dir)/out").filter { $0.contains(".partial.") }.isEmpty)
    }

    /// Outputs are complete only for the settings they were made with: a trial run with
    /// `--frames` does not leave its short outputs to pass for the whole batch's. A video that
    /// decodes short of its announced frames is done, and its summary line says so.
    @Test func aBatchRunAgainWithOtherSettingsRedoesItsInputsAndAShortVideoIsFlagged() throws {
        let dir = TestPaths.scratch()
        let names = try videos(in: dir)
        let whole = try #require(contents("\(dir)/in/\(names[3]).mp4"))
        _ = FileManager.default.createFile(atPath: "\(dir)/in/short.mp4", contents: whole.prefix(whole.count * 6 / 10))
        try FileManager.default.createDirectory(atPath: "\(dir)/out", withIntermediateDirectories: true)
        var r = try CLI.run(["process", "in", "--output-dir", "out", "--frames", "5"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        r = try CLI.run(["process", "in", "--output-dir", "out", "--frames", "5"], in: dir)
        // Skipped, with the figures of the run that made their outputs.
        #expect(CLI.lines(of: "\(dir)/out/summary.jsonl").lines.allSatisfy {
            $0.contains("\"status\":\"skipped\"") && $0.contains("\"frames\":5,") && !$0.contains("\"faces\":0")
        })
        r = try CLI.run(["process", "in", "--output-dir", "out"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("other settings"), "\(r.stderr)")
        let summary = CLI.lines(of: "\(dir)/out/summary.jsonl").lines
        #expect(summary.count == names.count + 1 && summary.allSatisfy { $0.contains("\"status\":\"done\"") }, "\(summary)")
        for (name, frames) in zip(names, [24, 30, 36, 42]) {
            #expect(CLI.lines(of: "\(dir)/out/\(name).anchors.jsonl").lines.count == frames, "\(name)")
        }
        let short = summary.first { $0.contains("short.mp4") } ?? ""
        #expect(short.contains("\"warning\":") && short.contains("truncated"), "\(short)")
        #expect(summary.filter { $0.contains("\"warning\":") }.count == 1)
    }

    @Test func aBadInputIsReportedAndTheBatchGoesOn() throws {
        let dir = TestPaths.scratch()
        let names = try videos(in: dir)
        _ = FileManager.default.createFile(atPath: "\(dir)/in/broken.mp4", contents: Data(repeating: 7, count: 5000))
        try FileManager.default.createDirectory(atPath: "\(dir)/out", withIntermediateDirectories: true)
        let r = try CLI.run(["process", "in", "--output-dir", "out"], in: dir)
        #expect(r.status == 1)
        #expect(r.stderr.contains("broken.mp4"))
        let summary = CLI.lines(of: "\(dir)/out/summary.jsonl").lines
        #expect(summary.count == names.count + 1)
        #expect(summary.first { $0.contains("broken.mp4") }?.contains("\"status\":\"failed\"") == true)
        for name in names { #expect(FileManager.default.fileExists(atPath: "\(dir)/out/\(name).anchors.jsonl")) }
        #expect(!FileManager.default.fileExists(atPath: "\(dir)/out/broken.anchors.jsonl"))

        // A list naming a file that is gone: that input fails by name, the others are done.
        try Data("in/\(names[0]).mp4\nin/gone.mp4\n".utf8).write(to: URL(fileURLWithPath: "\(dir)/list.txt"))
        try FileManager.default.createDirectory(atPath: "\(dir)/listed", withIntermediateDirectories: true)
        let listed = try CLI.run(["process", "@list.txt", "--output-dir", "listed"], in: dir)
        #expect(listed.status == 1)
        #expect(listed.stderr.contains("gone.mp4: no such file"), "\(listed.stderr)")
        let lines = CLI.lines(of: "\(dir)/listed/summary.jsonl").lines
        #expect(lines.count == 2)
        #expect(lines.first { $0.contains("gone.mp4") }?.contains("\"status\":\"failed\"") == true)
        #expect(FileManager.default.fileExists(atPath: "\(dir)/listed/\(names[0]).anchors.jsonl"))
    }

    @Test func aBatchIntoItsOwnFolderNeverReplacesAnInput() throws {
        let dir = TestPaths.scratch()
        try FileManager.default.createDirectory(atPath: "\(dir)/in", withIntermediateDirectories: true)
        _ = try CLI.run(["sample", "-o", "in/clip.mp4", "--frames", "10"], in: dir)
        let original = contents("\(dir)/in/clip.mp4")
        let r = try CLI.run(["process", "in", "--output-dir", "in", "--write", "anchors,mp4"], in: dir)
        #expect(r.status != 0)
        #expect(r.stderrLines.count == 1 && r.stderr.contains("clip.mp4"), "\(r.stderr)")
        #expect(contents("\(dir)/in/clip.mp4") == original)
    }

    @Test func batchOptionsWithoutABatchAndSingleOutputsInOneAreRefusedInOneLine() throws {
        let dir = TestPaths.scratch()
        _ = try CLI.sample(in: dir)
        for args in [["process", "in.mp4", "--jobs", "2"], ["process", "in.mp4", "in.mp4", "--output-dir", ".", "--anchors", "a.jsonl"],
                     ["process", "in.mp4", "in.mp4"], ["process", "in.mp4", "--output-dir", ".", "--shard", "3/3"]] {
            let r = try CLI.run(args, in: dir)
            #expect(r.status != 0, "\(args)")
            #expect(r.stderr.contains("--"), "\(args): \(r.stderr)")
        }
    }
}
