import Foundation
import Testing

/// `eval-faces --anchors`: the anchors a run wrote are the ones it scored, so a live run's
/// misses can be looked at frame by frame against `--export`'s truth.
@Suite(.enabled(if: CLI.available && TestPaths.sharedFaces != nil && TestPaths.debianAsset("chelsea.png") != nil,
                "needs the built heritage-lens, ../shared/data/faces and Samples/debian"))
struct EvalAnchorsCLITests {
    /// The figures of one sequence in the JSON report, without its timings (scoring a file has none).
    func figures(_ path: String) throws -> [String: String] {
        let json = try JSONSerialization.jsonObject(with: try Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any]
        let row = (json?["sequences"] as? [[String: Any]])?.first ?? [:]
        return row.filter { !$0.key.hasPrefix("face_ms") }.mapValues { "\($0)" }
    }

    @Test func theAnchorsARunWritesScoreAsTheRunDid() throws {
        let dir = TestPaths.scratch()
        try FileManager.default.createDirectory(atPath: "\(dir)/anchors", withIntermediateDirectories: true)
        var r = try CLI.run(["eval-faces", "--only", "motion", "--anchors", "anchors", "--json", "run.json"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let lines = (try? String(contentsOfFile: "\(dir)/anchors/motion.anchors.jsonl", encoding: .utf8))?
            .split(separator: "\n") ?? []
        #expect(lines.count == 150)
        r = try CLI.run(["eval-faces", "--only", "motion", "--score-anchors", "anchors", "--json", "scored.json"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let run = try figures("\(dir)/run.json"), scored = try figures("\(dir)/scored.json")
        #expect(run["recall"] == "1" && run == scored, "\(run) against \(scored)")
    }
}
