import Synchronization
import Foundation
import HeritageCore
import Testing
@testable import HeritageLens

struct PipelineTests {
    func lines(_ path: String) throws -> [[String: Any]] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
        }
    }

    @Test(arguments: [("avi", "MJPG"), ("mp4", "avc1")])
    func processingKeepsFrameCountSizeAndRate(ext: String, codec: String) throws {
        let dir = TestPaths.scratch()
        try GeneratedVideo.write(to: "\(dir)/in.\(ext)", frames: 36, fps: 24)
        let source = try VideoFileSource(path: "\(dir)/in.\(ext)")
        let video = try VideoFileSink(path: "\(dir)/out.\(ext)", size: source.size, framesPerSecond: source.framesPerSecond)
        #expect(video.codec == codec)
        let pipeline = Pipeline(source: source, stages: [GrayConversionStage()],
                                sinks: [video, try AnchorsSink(path: "\(dir)/anchors.jsonl")],
                                metrics: try MetricsSink(path: "\(dir)/metrics.jsonl"))
        let summary = try pipeline.run()
        #expect(summary.framesProcessed == 36)

        let back = try VideoFileSource(path: "\(dir)/out.\(ext)")
        #expect(back.size == Size(width: 320, height: 240))
        #expect(abs(back.framesPerSecond - 24) < 0.01)
        var n = 0
        while let f = try back.nextFrame() {
            let level = try f.image.mean(channel: 2, in: Rect(x: 0, y: 100, width: 320, height: 100))
            #expect(abs(level - GeneratedVideo.level(n)) < 8, "frame \(n)")
            n += 1
        }
        #expect(n == 36)

        let anchors = try lines("\(dir)/anchors.jsonl")
        #expect(anchors.count == 36)
        #expect(anchors.map { $0["frame"] as! Int } == Array(0..<36))
        #expect(abs((anchors[12]["t"] as! Double) - 0.5) < 1e-3)
        #expect(anchors.allSatisfy { ($0["width"] as? Int) == 320 && ($0["faces"] as? [Any]) != nil })
        let metrics = try lines("\(dir)/metrics.jsonl")
        #expect(metrics.count == 36)
        let stages = try #require(metrics[0]["stages"] as? [String: Double])
        #expect(stages["capture"] != nil && stages["convert"] != nil && stages["sinks"] != nil)
        #expect((metrics[0]["total_ms"] as? Double ?? -1) >= 0)
    }

    /// The quit key's path: a normal end after the current frame, outputs finalized.
    @Test func aStopRequestFinalizesWhatWasWritten() throws {
        let dir = TestPaths.scratch()
        try GeneratedVideo.write(to: "\(dir)/in.avi", frames: 60)
        let source = try VideoFileSource(path: "\(dir)/in.avi")
        let video = try VideoFileSink(path: "\(dir)/out.mp4", size: source.size, framesPerSecond: 25)
        let pipeline = Pipeline(source: source, stages: [GrayConversionStage()],
                                sinks: [video, try AnchorsSink(path: "\(dir)/a.jsonl")])
        pipeline.onFrame = { [unowned pipeline] m in if m.frame == 19 { pipeline.stop() } }
        let summary = try pipeline.run()
        #expect(summary.framesProcessed == 20)
        // The mp4 was finalized (its index written): it opens and holds the 20 frames.
        let back = try VideoFileSource(path: "\(dir)/out.mp4")
        var n = 0
        while try back.nextFrame() != nil { n += 1 }
        #expect(n == 20)
        #expect(try lines("\(dir)/a.jsonl").count == 20)
    }

    /// A stop request belongs to its run: two pipelines in one process (a batch's jobs, tests in
    /// parallel), one interrupted, the other runs to its end.
    @Test func aStopRequestEndsOnlyItsOwnRun() throws {
        let dir = TestPaths.scratch()
        try GeneratedVideo.write(to: "\(dir)/in.avi", frames: 40)
        let results = Mutex<[Int: Pipeline.Summary]>([:])
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 2) { k in
            do {
                let stop = StopRequest(followingProcessSignals: false)
                let pipeline = Pipeline(source: try VideoFileSource(path: "\(dir)/in.avi"), stages: [GrayConversionStage()],
                                        sinks: [try AnchorsSink(path: "\(dir)/a\(k).jsonl")], stopRequest: stop)
                if k == 0 { pipeline.onFrame = { m in if m.frame == 9 { stop.request() } } }
                let summary = try pipeline.run()
                results.withLock { $0[k] = summary }
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
        #expect(failures.withLock { $0 }.isEmpty)
        let done = results.withLock { $0 }
        #expect(done[0]?.framesProcessed == 10 && done[0]?.interrupted == true)
        #expect(done[1]?.framesProcessed == 40 && done[1]?.interrupted == false)
        #expect(try lines("\(dir)/a0.jsonl").count == 10)
        #expect(try lines("\(dir)/a1.jsonl").count == 40)
    }

    @Test func outputPathsAreCheckedBeforeAnyWork() throws {
        let dir = TestPaths.scratch()
        #expect(throws: (any Error).self) {
            try VideoFileSink(path: "\(dir)/missing/out.mp4", size: Size(width: 32, height: 32), framesPerSecond: 30)
        }
        #expect(throws: (any Error).self) {
            try VideoFileSink(path: "\(dir)/out.gif", size: Size(width: 32, height: 32), framesPerSecond: 30)
        }
        #expect(throws: (any Error).self) { try AnchorsSink(path: dir) }
    }

    /// `--emulate-slow`: each stage takes `slowdown` times its own cost, measured on a clock that
    /// moves only when read, so the figures are exact.
    @Test func emulatedSlowdownStretchesEveryStage() throws {
        final class SteppingClock: MonotonicClock, @unchecked Sendable {
            var now: UInt64 = 1_000_000_000
            func nanoseconds() -> UInt64 { now += 100_000; return now }  // 0.1 ms per read
        }
        final class CostlyStage: FrameStage {
            let name: String
            let clock: SteppingClock
            let cost: UInt64
            init(_ name: String, clock: SteppingClock, milliseconds: Double) {
                self.name = name
                self.clock = clock
                cost = UInt64(milliseconds * 1e6)
            }
            func process(_ work: inout FrameWork) throws { clock.now += cost }
        }
        let dir = TestPaths.scratch()
        try GeneratedVideo.write(to: "\(dir)/in.avi", frames: 3)
        func stageTimes(slowdown: Double) throws -> [String: Double] {
            let clock = SteppingClock()
            let pipeline = Pipeline(source: try VideoFileSource(path: "\(dir)/in.avi"),
                                    stages: [CostlyStage("a", clock: clock, milliseconds: 2), CostlyStage("b", clock: clock, milliseconds: 5)],
                                    sinks: [])
            pipeline.options.clock = clock
            pipeline.options.slowdown = slowdown
            var last: FrameMetrics?
            pipeline.onFrame = { last = $0 }
            _ = try pipeline.run()
            return Dictionary(uniqueKeysWithValues: try #require(last).stages.map { ($0.name, $0.milliseconds) })
        }
        let normal = try stageTimes(slowdown: 1), slow = try stageTimes(slowdown: 3)
        for name in ["a", "b"] {
            let n = try #require(normal[name]), s = try #require(slow[name])
            // The busy-wait overshoots by at most one clock step (0.1 ms) plus its own reads.
            #expect(s >= 3 * (n - 0.2) && s <= 3 * n + 0.5, "stage \(name): \(n) ms -> \(s) ms")
        }
    }
}
