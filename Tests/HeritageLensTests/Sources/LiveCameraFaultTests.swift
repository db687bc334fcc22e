import Foundation
import HeritageCore
import Testing
@testable import HeritageLens

/// What a webcam does wrong, done by the emulator (FAKECAM_FAULTS) to a running `heritage-lens run`:
/// each is survived, the run goes on to its last frame, and its outputs stay valid.
extension LiveCameraPathTests {
    @Suite struct Faults {
        /// A run of the plain picture with nothing but the capture path in it, frames stamped.
        func run(frames: Int, faults: [String], extra: [String] = [], name: String = #function) async throws -> FakeCamera.Run {
            try await FakeCamera.run(
                ["run", "--camera", "0", "--no-preview", "--frames", "\(frames)", "--detector", "none", "--no-cards",
                 "--no-overlay", "--anchors", "anchors.jsonl", "--metrics", "metrics.jsonl", "-o", "out.avi"] + extra,
                video: FakeCamera.plain, faults: faults, stamp: true, name: name)
        }

        /// The anchors are one valid line per frame, numbered without a gap, in time order.
        func expectValidOutputs(_ run: FakeCamera.Run, frames: Int) throws {
            let anchors = try FakeCamera.jsonLines(run.output("--anchors"))
            #expect(anchors.count == frames)
            #expect(anchors.map { $0["frame"] as? Int } == Array(0..<frames).map { Optional($0) })
            let times = anchors.compactMap { $0["t"] as? Double }
            #expect(times.count == frames && zip(times, times.dropFirst()).allSatisfy { $0 < $1 })
            #expect(try FakeCamera.jsonLines(run.output("--metrics")).count == frames)
        }

        @Test(.enabled(if: FakeCamera.sample != nil, "needs Samples/debian (scripts/fetch-debian-assets.sh)"))
        func unplugAndReplugAreSurvived() async throws {
            // Pulled out after 75 frames, back a second later: the run reconnects and finds the face
            // again in the frames of the new stream. 180 frames: searches run in idle time, which a
            // machine busy with other tests gives late, and the face must be found after the replug.
            let run = try await FakeCamera.run(
                ["run", "--camera", "0", "--no-preview", "--frames", "180", "--no-cards", "--no-overlay",
                 "--anchors", "anchors.jsonl", "--metrics", "metrics.jsonl", "-o", "out.avi"],
                video: FakeCamera.sample!, faults: ["unplug:after=75,for=1"], stamp: true)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stderr.contains("/dev/video0: the camera was disconnected; reconnecting"))
            #expect(run.stderr.contains("/dev/video0: camera back"))
            #expect(run.log.unplugs == 1 && run.log.replugs == 1 && run.log.streams.count == 2)
            try expectValidOutputs(run, frames: 180)
            // The new stream numbers its frames from 0 again: where the stamps fall back is where
            // the frames of the replugged camera begin (at the first frame when the camera was
            // pulled out before the pipeline had started).
            let sequences = try SequenceStamps.read(video: run.output("-o"))
            let restart = sequences.indices.dropFirst().first { sequences[$0] < sequences[$0 - 1] } ?? 0
            #expect(restart < 130, "only \(180 - restart) frames after the replug")
            let anchors = try FakeCamera.jsonLines(run.output("--anchors"))
            let after = anchors[restart...].filter { !(($0["faces"] as? [Any]) ?? []).isEmpty }.count
            #expect(after >= 1, "no face after the replug")
        }

        /// Pulled out while the run is still loading its models, and back before they are loaded:
        /// the device must have been let go by then, or the camera comes back as /dev/video1 (the
        /// old number is still held, as uvcvideo does it) and the run waits for /dev/video0 in vain.
        @Test(.enabled(if: FakeCamera.sample != nil, "needs Samples/debian (scripts/fetch-debian-assets.sh)"))
        func aCameraPulledOutWhileTheRunStartsComesBackUnderItsName() async throws {
            let run = try await FakeCamera.run(
                ["run", "--camera", "0", "--no-preview", "--frames", "30", "--no-cards", "--anchors", "anchors.jsonl",
                 "--metrics", "metrics.jsonl"], video: FakeCamera.sample!, faults: ["unplug:after=3,for=0.3"], timeout: 30)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.log.text.contains("replug as /dev/video0"), "\(run.log.text.split(separator: "\n").filter { $0.contains("plug") })")
            try expectValidOutputs(run, frames: 30)
        }

        /// A camera that opens and then sends nothing (pulled out at its first frame) until Ctrl-C:
        /// the files of an earlier run with the same names are left as they were.
        @Test func aStopBeforeTheCameraSentAFrameChangesNoFile() async throws {
            let earlier = TestPaths.scratch()
            let files = ["anchors.jsonl", "metrics.jsonl", "out.avi"].map { (earlier as NSString).appendingPathComponent($0) }
            for file in files { try "earlier run \(file)\n".write(toFile: file, atomically: true, encoding: .utf8) }
            let run = try await FakeCamera.run(
                ["run", "--camera", "0", "--no-preview", "-v", "--detector", "none", "--no-cards", "--no-overlay",
                 "--anchors", files[0], "--metrics", files[1], "-o", files[2]],
                video: FakeCamera.plain, faults: ["unplug:after=0,for=60"], timeout: 40,
                interruptWhen: { $0.contains("/dev/video0: waiting for the first frame") })
            #expect(run.status == 130, "\(run.stderr)")
            #expect(run.stderr.contains("stopped before the first frame; no output was created or changed"), "\(run.stderr)")
            for file in files {
                #expect(try String(contentsOfFile: file, encoding: .utf8) == "earlier run \(file)\n")
            }
        }

        @Test func aStallLongerThanTheTimeoutReconnects() async throws {
            let run = try await run(frames: 75, faults: ["stall:after=60,for=4"])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stderr.contains("no frame for 3 s; the camera has stalled; reconnecting"))
            #expect(run.log.stalls == 1 && run.log.streams.count == 2)
            try expectValidOutputs(run, frames: 75)
        }

        @Test func aShortStallIsWaitedOut() async throws {
            let run = try await run(frames: 90, faults: ["stall:after=60,for=1"])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.log.stalls == 1 && run.log.streams.count == 1, "reconnected for a one-second stall")
            try expectValidOutputs(run, frames: 90)
            // The gap shows in the frames' times, which come from the driver's timestamps.
            let times = try FakeCamera.jsonLines(run.output("--anchors")).compactMap { $0["t"] as? Double }
            let longest = zip(times, times.dropFirst()).map { $1 - $0 }.max() ?? 0
            #expect(longest > 0.9 && longest < 1.2, "longest gap \(longest) s")
        }

        /// Frames no decoder can read, and frames cut short, are left out: no reconnection, and
        /// no output frame is made from one (or from an older frame in its place).
        @Test(arguments: ["corrupt:every=7", "truncate:every=7"])
        func damagedMJPEGFramesAreSkipped(fault: String) async throws {
            let run = try await run(frames: 60, faults: [fault], name: "damaged-\(fault.prefix(7))")
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.log.streams.count == 1, "reconnected: \(run.stderr)")
            #expect(!run.log.damaged.isEmpty)
            try expectValidOutputs(run, frames: 60)
            let sequences = try SequenceStamps.read(video: run.output("-o"))
            #expect(zip(sequences, sequences.dropFirst()).allSatisfy { $0 < $1 }, "\(sequences)")
            let used = Set(sequences.map { [0, $0] })
            #expect(used.isDisjoint(with: run.log.damaged), "damaged frames used: \(used.intersection(run.log.damaged))")
        }

        /// Three frames handed over at once (a late USB completion): the capture thread takes the
        /// newest and gives the two older ones back undecoded, rather than deliver them in turn.
        @Test func ofFramesArrivingTogetherOnlyTheNewestIsUsed() async throws {
            let run = try await run(frames: 100, faults: ["burst:after=75,frames=3"])
            #expect(run.status == 0, "\(run.stderr)")
            try expectValidOutputs(run, frames: 100)
            #expect(run.log.burst.count == 3, "\(run.log.burst)")
            let used = Set(try SequenceStamps.read(video: run.output("-o")).map { [0, $0] })
            #expect(used.contains(run.log.burst.last!), "the newest of the burst was not used")
            #expect(used.isDisjoint(with: run.log.burst.dropLast()), "older frames of the burst used: \(used.intersection(run.log.burst))")
        }

        @Test func theLowLightRateDropIsFollowed() async throws {
            // Auto exposure with exposure priority (the power-on state): 30 fps, then 15.
            let run = try await run(frames: 75, faults: ["lowlight:after=30"])
            #expect(run.status == 0, "\(run.stderr)")
            try expectValidOutputs(run, frames: 75)
            let times = try FakeCamera.jsonLines(run.output("--anchors")).compactMap { $0["t"] as? Double }
            let steps = zip(times, times.dropFirst()).map { $1 - $0 }
            #expect(abs(steps.suffix(10).median - 1.0 / 15) < 0.01, "late frame intervals \(steps.suffix(10))")
            let totals = try FakeCamera.jsonLines(run.output("--metrics")).compactMap { $0["total_ms"] as? Double }
            #expect(totals.allSatisfy { $0 >= 0 } && totals.suffix(10).median < 2000.0 / 15)
        }

        @Test func aBusyCameraIsOneLineOfError() async throws {
            let run = try await run(frames: 10, faults: ["busy"])
            #expect(run.status != 0)
            #expect(run.stderr == "heritage-lens: error: /dev/video0: the camera is busy; close the other program using it and try again\n")
            let listed = try await FakeCamera.run(["cameras"], video: FakeCamera.plain, faults: ["busy"])
            #expect(listed.stderr.hasPrefix("heritage-lens: error: /dev/video0: the camera is busy;"), "\(listed.stderr)")
        }

        @Test func tooLittleUSBBandwidthSaysSo() async throws {
            let run = try await run(frames: 10, faults: ["nospace"])
            #expect(run.status != 0)
            #expect(run.stderr.hasPrefix("heritage-lens: error: /dev/video0: ") && run.stderr.contains("USB bandwidth"),
                    "\(run.stderr)")
            #expect(run.stderr.split(separator: "\n").count == 1)
        }
    }
}
