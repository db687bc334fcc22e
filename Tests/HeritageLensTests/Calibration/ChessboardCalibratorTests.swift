import Foundation
import HeritageCore
import Testing
@testable import HeritageLens
@testable import HeritageTooling

@Suite struct ChessboardCalibratorTests {
    let truth = Intrinsics(fx: 610, fy: 605, cx: 322, cy: 236, distortion: [-0.22, 0.09, 0.0005, -0.0004, 0],
                           size: Size(width: 640, height: 480), origin: "truth")

    /// Twelve views: square-on, tilted both ways about both axes, rolled, near the corners.
    func views(_ synth: SyntheticChessboardViews) -> [Pose] {
        [
            synth.pose(distance: 0.45, pitch: 0, yaw: 0, roll: 0, shiftX: 0, shiftY: 0),
            synth.pose(distance: 0.45, pitch: 0.5, yaw: 0, roll: 0.1, shiftX: 0, shiftY: 0),
            synth.pose(distance: 0.45, pitch: -0.5, yaw: 0.1, roll: 0, shiftX: 0, shiftY: 0),
            synth.pose(distance: 0.45, pitch: 0, yaw: 0.55, roll: 0, shiftX: 0, shiftY: 0),
            synth.pose(distance: 0.45, pitch: 0.1, yaw: -0.55, roll: -0.1, shiftX: 0, shiftY: 0),
            synth.pose(distance: 0.55, pitch: 0.3, yaw: 0.3, roll: 0.3, shiftX: -0.1, shiftY: -0.07),
            synth.pose(distance: 0.55, pitch: -0.3, yaw: 0.3, roll: -0.2, shiftX: 0.1, shiftY: -0.07),
            synth.pose(distance: 0.55, pitch: 0.3, yaw: -0.3, roll: 0.2, shiftX: -0.1, shiftY: 0.07),
            synth.pose(distance: 0.55, pitch: -0.3, yaw: -0.3, roll: -0.3, shiftX: 0.1, shiftY: 0.07),
            synth.pose(distance: 0.35, pitch: 0.2, yaw: 0.2, roll: 0.6, shiftX: 0, shiftY: 0),
            synth.pose(distance: 0.6, pitch: 0.4, yaw: -0.2, roll: -0.5, shiftX: 0.12, shiftY: 0),
            synth.pose(distance: 0.6, pitch: -0.4, yaw: 0.2, roll: 0.5, shiftX: -0.12, shiftY: 0),
        ]
    }

    @Test func knownIntrinsicsAndDistortionAreRecovered() throws {
        let board = ChessboardBoard.standard
        let synth = SyntheticChessboardViews(board: board, intrinsics: truth)
        let picture = try synth.boardImage()
        let calibrator = ChessboardCalibrator(board: board, imageSize: truth.size)
        for pose in views(synth) {
            let gray = try synth.render(pose, picture: picture)
            let corners = try #require(try calibrator.findBoard(in: gray), "board not found")
            calibrator.add(corners)
        }
        let result = try calibrator.solve()
        let k = result.intrinsics
        #expect(abs(k.fx / truth.fx - 1) < 0.01, "fx \(k.fx)")
        #expect(abs(k.fy / truth.fy - 1) < 0.01, "fy \(k.fy)")
        #expect(abs(k.cx / truth.cx - 1) < 0.01, "cx \(k.cx)")
        #expect(abs(k.cy / truth.cy - 1) < 0.01, "cy \(k.cy)")
        #expect(result.rms < 0.3, "rms \(result.rms)")
        #expect(abs(k.distortion[0] - truth.distortion[0]) < 0.05)
        #expect(result.viewErrors.count == 12)
        #expect(calibrator.coverage.covered > 0.5)
    }

    @Test func viewsSavedAsImagesCalibrateThroughAnImageFolder() throws {
        let dir = TestPaths.scratch()
        let synth = SyntheticChessboardViews(board: .standard, intrinsics: truth)
        let picture = try synth.boardImage()
        for (i, pose) in views(synth).enumerated() {
            try synth.render(pose, picture: picture).write(to: "\(dir)/view-" + String(format: "%02d", i) + ".png")
        }
        try Image(width: 640, height: 480).write(to: "\(dir)/z-no-board.png")
        let source = try ImageSource(path: dir)
        let calibrator = ChessboardCalibrator(board: .standard, imageSize: source.size)
        let gray = Image()
        var images = 0
        while let frame = try source.nextFrame() {
            images += 1
            try frame.image.convertToGray(into: gray)
            if let corners = try calibrator.findBoard(in: gray) { calibrator.add(corners) }
        }
        #expect(images == 13 && calibrator.views.count == 12)
        let result = try calibrator.solve()
        #expect(abs(result.intrinsics.fx / truth.fx - 1) < 0.01 && result.rms < 0.3)
        let file = "\(dir)/cam-640x480.yml"
        try CalibrationFile.write(result.intrinsics, camera: "cam", rms: result.rms, date: "2026-11-22", to: file)
        #expect(abs(try CalibrationFile.read(file).intrinsics.cx - result.intrinsics.cx) < 1e-9)
    }

    @Test func tooFewViewsSayHowManyAreNeeded() throws {
        let calibrator = ChessboardCalibrator(board: .standard, imageSize: Size(width: 640, height: 480))
        #expect { try calibrator.solve() } throws: { "\($0)".contains("6 are needed") }
    }

    @Test func noBoardIsNotFound() throws {
        let calibrator = ChessboardCalibrator(board: .standard, imageSize: Size(width: 320, height: 240))
        let blank = try Image(width: 320, height: 240, channels: 1)
        #expect(try calibrator.findBoard(in: blank) == nil)
        #expect(throws: (any Error).self) { try calibrator.findBoard(in: try Image(width: 100, height: 100, channels: 1)) }
    }

    @Test func tiltIsReadOffForeshortening() {
        let board = ChessboardBoard(columns: 3, rows: 3, square: 0.02)
        let flat = [Point2(0, 0), Point2(10, 0), Point2(20, 0), Point2(0, 10), Point2(10, 10), Point2(20, 10),
                    Point2(0, 20), Point2(10, 20), Point2(20, 20)]
        #expect(CalibrationCoverage.tilt(corners: flat, board: board) < 1e-9)
        let squeezed = flat.map { Point2($0.x * 0.5, $0.y) }
        #expect(abs(CalibrationCoverage.tilt(corners: squeezed, board: board) - 60) < 1e-6)
    }
}
