import Foundation
import HeritageCore
import Testing
@testable import HeritageLens

/// The live camera path for real: `heritage-lens` drives an emulated USB webcam (Tools/fake-camera,
/// preloaded into it) through libv4l2, V4L2Grabber, LiveCameraSource and ReconnectingCameraSource.
/// One at a time: each run streams in real time, and timings are part of what is checked.
@Suite(.serialized) struct LiveCameraPathTests {
    static let period = 1.0 / 30

    @Test func camerasListsTheEmulatedWebcamWithItsModes() async throws {
        let run = try await FakeCamera.run(["cameras"], video: FakeCamera.plain)
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "/dev/video0: HeritageLens Emulated Webcam (uvcvideo, usb-0000:00:14.0-1)")
        #expect(lines.contains("  MJPG") && lines.contains("  YUYV"))
        #expect(lines.contains("    1920x1080: 30, 15 fps"))
        #expect(lines.contains("    1280x720: 10, 5 fps"))
        // uvcvideo's metadata node beside the camera is listed but not taken for a camera
        #expect(lines.last == "/dev/video1: HeritageLens Emulated Webcam (uvcvideo) — not a capture device")
    }

    @Test(.enabled(if: FakeCamera.sample != nil, "needs Samples/debian (scripts/fetch-debian-assets.sh)"))
    func runAnchorsTheSampleSeenByTheCamera() async throws {
        let run = try await FakeCamera.run(
            ["run", "--camera", "/dev/video0", "--no-preview", "--frames", "90", "--anchors", "anchors.jsonl",
             "--metrics", "metrics.jsonl"],
            video: FakeCamera.sample!)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("camera /dev/video0: MJPG 640x480 @ 30 fps"))
        #expect(run.log.streams == ["MJPG 640x480 1/30"])
        let anchors = try FakeCamera.jsonLines(run.output("--anchors"))
        #expect(anchors.count == 90)
        #expect(anchors.map { $0["frame"] as? Int } == Array(0..<90))
        #expect(anchors.allSatisfy { $0["width"] as? Int == 640 && $0["height"] as? Int == 480 })
        let withFace = anchors.filter { !(($0["faces"] as? [Any]) ?? []).isEmpty }.count
        let withCard = anchors.filter { !(($0["cards"] as? [Any]) ?? []).isEmpty }.count
        #expect(withFace >= 45, "face in \(withFace) of 90 frames")
        #expect(withCard >= 1, "card in \(withCard) of 90 frames")

        // Capture to output, from the driver's timestamps: never negative, and at full speed
        // (this pipeline keeps up with 30 fps) below two frame periods.
        let totals = try FakeCamera.jsonLines(run.output("--metrics")).compactMap { $0["total_ms"] as? Double }
        #expect(totals.count == 90)
        #expect(totals.allSatisfy { $0 >= 0 })
        #expect(totals.median < 2000 * Self.period, "median capture-to-output \(totals.median) ms")
    }

    @Test func askingFor720pAt30PicksMJPEG() async throws {
        let run = try await FakeCamera.run(
            ["run", "--camera", "0", "--no-preview", "--frames", "10", "--size", "1280x720", "--fps", "30",
             "--detector", "none", "--no-cards", "--anchors", "anchors.jsonl"],
            video: FakeCamera.plain)
        #expect(run.status == 0, "\(run.stderr)")
        // YUYV offers 1280x720 at 10 fps only: MJPEG is the format that reaches 30.
        #expect(run.stderr.contains("camera /dev/video0: MJPG 1280x720 @ 30 fps"))
        #expect(run.log.streams == ["MJPG 1280x720 1/30"])
        let anchors = try FakeCamera.jsonLines(run.output("--anchors"))
        #expect(anchors.count == 10 && anchors.allSatisfy { $0["width"] as? Int == 1280 && $0["height"] as? Int == 720 })
    }

    @Test(.enabled(if: FakeCamera.sample != nil, "needs Samples/debian (scripts/fetch-debian-assets.sh)"))
    func aYUYVOnlyCameraIsReadThroughItsLuma() async throws {
        let run = try await FakeCamera.run(
            ["run", "--camera", "0", "--no-preview", "--frames", "60", "--no-cards", "--anchors", "anchors.jsonl"],
            video: FakeCamera.sample!, formats: "yuyv")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("camera /dev/video0: YUYV 640x480 @ 30 fps"))
        let anchors = try FakeCamera.jsonLines(run.output("--anchors"))
        #expect(anchors.count == 60)
        // Past the first background detection, the face is found in the luma plane.
        let withFace = anchors.suffix(30).filter { !(($0["faces"] as? [Any]) ?? []).isEmpty }.count
        #expect(withFace >= 15, "face in \(withFace) of the last 30 frames")
    }

    /// A pipeline stretched far below the camera's rate: it skips to the newest frame each time
    /// (the sequence numbers stamped into the frames jump), and latency does not build up behind it.
    @Test(.enabled(if: FakeCamera.sample != nil, "needs Samples/debian (scripts/fetch-debian-assets.sh)"))
    func aSlowPipelineGetsTheNewestFrames() async throws {
        let run = try await FakeCamera.run(
            ["run", "--camera", "0", "--no-preview", "--frames", "30", "--no-cards", "--no-render", "--no-overlay",
             "--emulate-slow", "50", "-o", "out.avi", "--metrics", "metrics.jsonl"],
            video: FakeCamera.sample!, stamp: true)
        #expect(run.status == 0, "\(run.stderr)")
        let sequences = try SequenceStamps.read(video: run.output("-o"))
        #expect(sequences.count == 30)
        let steps = zip(sequences, sequences.dropFirst()).map { $1 - $0 }
        #expect(steps.allSatisfy { $0 >= 1 }, "\(sequences)")
        // Until the first face is found a frame costs little even stretched, and other tests share
        // the machine: a third of the steps skipping is the floor that still tells newest-frame
        // from queued delivery (a queue would give none).
        #expect(steps.filter { $0 > 1 }.count >= steps.count / 3, "\(sequences)")
        // The wait from the driver's timestamp to the pipeline taking the frame (the rest of the
        // latency is the stretched processing itself): no longer at the end than at the start.
        let waits = try FakeCamera.jsonLines(run.output("--metrics")).compactMap {
            ($0["stages"] as? [String: Any])?["capture"] as? Double
        }
        #expect(waits.count == 30)
        let early = Array(waits.dropFirst(2).prefix(10)), late = Array(waits.suffix(10))
        #expect(late.median < max(early.median, 1000 * Self.period) + 1000 * Self.period, "early \(early) late \(late)")
    }
}

extension [Double] {
    var median: Double { isEmpty ? .nan : sorted()[count / 2] }
}
