import Foundation
import HeritageCore
import Testing
@testable import HeritageLens
@testable import HeritageTooling

extension LiveCameraPathTests {
    /// `calibrate --camera` on the emulated webcam, shown a chessboard held in eight poses.
    @Suite struct LiveCalibration {
        static let truth = Intrinsics.assumed(for: Size(width: 640, height: 480))

        /// The board seen through `truth`, each pose held for 1.2 s (12 frames at 10 fps), as
        /// someone would hold it up to a camera.
        static let chessboardVideo: String = {
            let synth = SyntheticChessboardViews(board: .standard, intrinsics: truth)
            let poses = [
                synth.pose(distance: 0.5, pitch: 0, yaw: 0, roll: 0, shiftX: 0, shiftY: 0),
                synth.pose(distance: 0.5, pitch: 0.45, yaw: 0.05, roll: 0.1, shiftX: 0.02, shiftY: 0),
                synth.pose(distance: 0.5, pitch: -0.45, yaw: 0.1, roll: -0.05, shiftX: 0, shiftY: 0.02),
                synth.pose(distance: 0.5, pitch: 0.05, yaw: 0.5, roll: 0, shiftX: -0.02, shiftY: 0),
                synth.pose(distance: 0.55, pitch: 0.25, yaw: 0.3, roll: 0.3, shiftX: -0.09, shiftY: -0.06),
                synth.pose(distance: 0.55, pitch: -0.25, yaw: 0.3, roll: -0.25, shiftX: 0.09, shiftY: -0.06),
                synth.pose(distance: 0.55, pitch: 0.25, yaw: -0.3, roll: 0.25, shiftX: -0.09, shiftY: 0.06),
                synth.pose(distance: 0.55, pitch: -0.25, yaw: -0.3, roll: -0.3, shiftX: 0.09, shiftY: 0.06),
            ]
            let path = (TestPaths.scratch("chessboard-video") as NSString).appendingPathComponent("board.avi")
            let picture = try! synth.boardImage()
            let sink = try! VideoFileSink(path: path, size: truth.size, framesPerSecond: 10)
            var index = 0
            for pose in poses {
                let view = try! synth.render(pose, picture: picture)
                try! view.normalizeToBGR()
                for _ in 0..<12 {
                    let frame = Frame(index: index, time: Double(index) / 10, availableAt: 0, image: view)
                    try! sink.write(ProcessedFrame(frame: frame, output: view,
                                                   anchors: FrameAnchors(frame: index, time: 0, size: truth.size)))
                    index += 1
                }
            }
            try! sink.finish()
            return path
        }()

        @Test func calibrateCollectsViewsFromTheCamera() async throws {
            let run = try await FakeCamera.run(["calibrate", "--camera", "/dev/video0", "--views", "6", "-o", "camera.yml"],
                                               video: Self.chessboardVideo, timeout: 45)
            #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
            let lines = run.stdout.split(separator: "\n").map(String.init)
            #expect(lines.filter { $0.hasPrefix("view ") }.count == 6, "\(run.stdout)")
            #expect(lines.contains { $0.hasPrefix("view 6/6: coverage ") })
            #expect(FileManager.default.fileExists(atPath: run.output("-o")))
            // The focal length the views give is the one they were rendered with.
            let fx = try #require(lines.first { $0.hasPrefix("fx ") }.flatMap { Double($0.split(separator: " ")[1]) })
            #expect(abs(fx / Self.truth.fx - 1) < 0.05, "fx \(fx), rendered with \(Self.truth.fx)")
        }

        /// Ctrl-C solves with the views held when there are enough, as `q` does: it was not
        /// followed at all (only a second one ended the run, and lost every view).
        /// `calibrate --camera` asked for 20 views, given Ctrl-C once it has printed the `view`-th.
        func calibrateInterrupted(atView view: Int, name: String = #function) async throws -> FakeCamera.Run {
            try await FakeCamera.run(["calibrate", "--camera", "/dev/video0", "--views", "20", "-o", "camera.yml"],
                                     video: Self.chessboardVideo, timeout: 45,
                                     interruptWhen: { $0.contains("view \(view)/20") }, watchingStandardOutput: true, name: name)
        }

        @Test func ctrlCSolvesWithTheViewsHeld() async throws {
            let run = try await calibrateInterrupted(atView: 6)
            #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
            #expect(run.stdout.contains("stopped by Ctrl-C (SIGINT) with "), "\(run.stdout)")
            #expect(FileManager.default.fileExists(atPath: run.output("-o")))
        }

        /// ...and with too few, says so on one line, writes nothing and exits as interrupted.
        @Test func ctrlCWithTooFewViewsWritesNothing() async throws {
            let run = try await calibrateInterrupted(atView: 2)
            #expect(run.status == 130, "\(run.stdout)\(run.stderr)")
            #expect(run.stderr.contains("nothing written"), "\(run.stderr)")
            #expect(!FileManager.default.fileExists(atPath: run.output("-o")))
        }

        /// A camera unplugged for a second mid-calibration is opened again, and the views held
        /// before are kept: the run used to end there with an error and nothing written.
        @Test func anUnpluggedCameraIsOpenedAgainAndTheViewsKept() async throws {
            let run = try await FakeCamera.run(["calibrate", "--camera", "/dev/video0", "--views", "6", "-o", "camera.yml"],
                                               video: Self.chessboardVideo, faults: ["unplug:after=30,for=1"], timeout: 60)
            #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
            #expect(run.stderr.contains("reconnecting"), "\(run.stderr)")
            #expect(FileManager.default.fileExists(atPath: run.output("-o")))
        }
    }
}
