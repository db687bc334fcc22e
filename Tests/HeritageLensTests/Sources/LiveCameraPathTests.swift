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
        // Detection runs in the background: once it has found the face (sooner or later, with
        // the machine's load), the face is tracked in nearly every frame.
        let hasFace = anchors.map { !(($0["faces"] as? [Any]) ?? []).isEmpty }
        let first = try #require(hasFace.firstIndex(of: true), "no face in 90 frames")
        let tracked = hasFace[first...].filter { $0 }.count
        #expect(Double(tracked) >= 0.8 * Double(90 - first), "face in \(tracked) of the \(90 - first) frames from the first")
        let withCard = anchors.filter { !(($0["cards"] as? [Any]) ?? []).isEmpty }.count
        #expect(withCard >= 1, "card in \(withCard) of 90 frames")

        // Capture to output, from the driver's timestamps: never negative, and at full speed
        // (this pipeline keeps up with 30 fps) below two frame periods.
        let totals = try FakeCamera.jsonLines(run.output("--metrics")).compactMap { $0["total_ms"] as? Double }
        #expect(totals.count == 90)
        #expect(totals.allSatisfy { $0 >= 0 })
        #expect(totals.median < 2000 * Self.period, "median capture-to-output \(totals.median) ms")
    }

    /// `--backend opencv` opens OpenCV's video library only when asked for (it is not linked) and
    /// reads the camera through it.
    @Test func theOpenCVBackendLoadsItsLibraryAndReadsTheCamera() async throws {
        let run = try await FakeCamera.run(
            ["run", "--camera", "0", "--backend", "opencv", "--no-preview", "--frames", "20", "--detector", "none",
             "--no-cards", "--anchors", "anchors.jsonl"],
            video: FakeCamera.plain)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!run.log.streams.isEmpty, "the camera was never streamed")
        let anchors = try FakeCamera.jsonLines(run.output("--anchors"))
        #expect(anchors.count == 20 && anchors.allSatisfy { $0["width"] as? Int == 640 && $0["height"] as? Int == 480 })
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

    /// A pipeline stretched below the camera's rate (every stage busy-waits to 50 times its cost,
    /// at 1280x720 with the stats panel drawn, so that even a frame without a face is slow): it
    /// takes the newest frame each time, so the sequence numbers stamped into the frames advance
    /// with the camera, not one by one, and the wait before a frame is taken does not build up.
    @Test(.enabled(if: FakeCamera.sample != nil, "needs Samples/debian (scripts/fetch-debian-assets.sh)"))
    func aSlowPipelineGetsTheNewestFrames() async throws {
        let frames = 45
        let run = try await FakeCamera.run(
            ["run", "--camera", "0", "--no-preview", "--frames", "\(frames)", "--size", "1280x720", "--no-cards",
             "--no-render", "--emulate-slow", "50", "-o", "out.avi", "--metrics", "metrics.jsonl"],
            // Fifty times a debug build's stages: 35-52 s for the 45 frames alone on this machine,
            // so the usual minute left a busy CI machine no room.
            video: FakeCamera.sample!, stamp: true, timeout: 180)
        #expect(run.status == 0, "\(run.stderr)")
        let sequences = try SequenceStamps.read(video: run.output("-o"))
        try #require(sequences.count == frames)
        #expect(zip(sequences, sequences.dropFirst()).allSatisfy { $0 < $1 }, "\(sequences)")
        // "45 frames in 3.1 s": the camera sent a frame every period of that time.
        let summary = try #require(run.stderr.split(separator: "\n").first { $0.contains("\(frames) frames in ") })
        let seconds = try #require(Double(summary.split(separator: " in ")[1].split(separator: " ")[0]))
        let sent = seconds / Self.period
        try #require(sent > 1.3 * Double(frames), "the pipeline kept up (\(summary)): nothing to skip")
        // One by one (a queue) would advance by frames - 1; the newest each time, by about `sent`.
        let advance = sequences.last! - sequences.first!
        #expect(Double(advance) > 0.75 * sent - 3, "advanced \(advance) while the camera sent \(Int(sent)): \(sequences)")
        let waits = try FakeCamera.jsonLines(run.output("--metrics")).map {
            (($0["stages"] as? [String: Any])?["capture"] as? Double) ?? .nan
        }
        // A queue in front of a slow pipeline would make this grow by tens of ms a frame.
        #expect(Array(waits.suffix(20)).median < 2000 * Self.period && waits.dropFirst(3).allSatisfy { $0 < 250 },
                "waits \(waits)")
    }
}

extension [Double] {
    var median: Double { isEmpty ? .nan : sorted()[count / 2] }
}
