import ArgumentParser
import Foundation
import HeritageCore
import HeritageLens

struct Calibrate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Calibrate a camera from chessboard views (a folder of images, or live).",
        discussion: """
            Print Calibration/chessboard-9x6-25mm.svg at 100 % (or --write-board FILE for another \
            size), then either photograph it from many angles and run
              heritage-lens calibrate --images DIR --name "My camera"
            or show it to a live camera:
              heritage-lens calibrate --camera 0
            Live, a view is taken whenever the whole board is seen somewhere new or at a new tilt \
            (at most one a second); move it over the whole image and tilt it up to about 45°. It \
            solves after --views views (or on q / Ctrl-C when there are enough) and writes \
            Calibration/<camera>-<W>x<H>.yml.
            """
    )

    @Option(help: ArgumentHelp("Folder of images of the board.", valueName: "dir"))
    var images: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Live camera: index or /dev/videoN.", valueName: "camera"))
    var camera: String?

    @Option(help: ArgumentHelp("Inner corners across x down.", valueName: "CxR"))
    var board: String = "9x6"

    @Option(parsing: .unconditional, help: ArgumentHelp("Square side in millimetres, as printed.", valueName: "mm"))
    var squareMm: Double = 25

    @Option(help: ArgumentHelp("Camera name for the file (default: the V4L2 name, or 'camera' for images).", valueName: "name"))
    var name: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Views to collect live.", valueName: "n"))
    var views: Int = 20

    @Option(name: [.customShort("o"), .long], help: ArgumentHelp("Where to write the calibration (default: the project's Calibration/<camera>-<W>x<H>.yml, or HERITAGE_LENS_CALIBRATION's folder, where run and process look).", valueName: "file"))
    var output: String?

    @Option(help: ArgumentHelp("Write a printable board (SVG) for --board and --square-mm, and exit.", valueName: "file"))
    var writeBoard: String?

    func parsedBoard() throws -> ChessboardBoard {
        let parts = board.lowercased().split(separator: "x")
        guard parts.count == 2, let c = Int(parts[0]), let r = Int(parts[1]), (3...40).contains(c), (3...40).contains(r) else {
            throw ValidationError("--board must look like 9x6 (inner corners, 3 to 40 each)")
        }
        return ChessboardBoard(columns: c, rows: r, square: squareMm / 1000)
    }

    func validate() throws {
        _ = try parsedBoard()
        if !(squareMm > 1 && squareMm < 500) { throw ValidationError("--square-mm must be between 1 and 500") }
        if writeBoard == nil && (images == nil) == (camera == nil) {
            throw ValidationError("give either --images DIR or --camera CAMERA")
        }
        if let camera, let problem = CameraDevices.problem(naming: camera) { throw ValidationError(problem) }
        if views < ChessboardCalibrator.minimumViews || views > 200 {
            throw ValidationError("--views must be between \(ChessboardCalibrator.minimumViews) and 200")
        }
    }

    func run() throws {
        do {
            let board = try parsedBoard()
            var plan = OutputPlan()
            plan.inputFolder("--images", images)
            plan.output("--write-board", writeBoard)
            plan.output("-o", writeBoard == nil ? output : nil)
            if writeBoard == nil && output == nil { plan.outputFolder("-o (default)", CalibrationStore.standard.folder) }
            try plan.check()
            if let writeBoard {
                try WholeFile.write(board.svg, to: writeBoard)
                print("wrote \(writeBoard): \(board.columns) x \(board.rows) inner corners, \(squareMm) mm squares")
                return
            }
            if let images { try calibrateImages(images, board: board) } else { try calibrateLive(board: board) }
        } catch let e as ExitCode {
            throw e
        } catch {
            exitWithOneLine(error)
        }
    }

    private func calibrateImages(_ folder: String, board: ChessboardBoard) throws {
        var isDirectory: ObjCBool = false
        if !FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) {
            throw CommandFailure("--images \(folder): no such folder; give the folder holding the photos of the board")
        }
        if !isDirectory.boolValue {
            throw CommandFailure("--images \(folder): is a file, not a folder; put the photos of the board in a folder and give that")
        }
        let source: ImageSource
        do { source = try ImageSource(path: folder) } catch { throw CommandFailure("--images \(error)") }
        let calibrator = ChessboardCalibrator(board: board, imageSize: source.size)
        let gray = Image()
        var used: [Int] = []
        var index = 0
        while let frame = try source.nextFrame() {
            try frame.image.convertToGray(into: gray)
            if let corners = try calibrator.findBoard(in: gray) {
                calibrator.add(corners)
                used.append(index)
            }
            index += 1
        }
        if used.count < ChessboardCalibrator.minimumViews {
            throw CommandFailure("--images \(folder): the board was found in \(used.count) of \(index) images, \(ChessboardCalibrator.minimumViews) needed; check --board (its inner corners) and that each photo shows the whole board")
        }
        print("board found in \(used.count) of \(index) images; image coverage \(Int(calibrator.coverage.covered * 100)) %")
        try finish(calibrator, cameraName: name ?? "camera")
    }

    private func calibrateLive(board: ChessboardBoard) throws {
        let path = CameraDevices.path(for: camera!)
        let device = try CameraDevices.query(path)
        // Ctrl-C ends the wait for the next frame as `q` does, and an unplugged or stalled camera
        // is opened again as `run` does: the views held so far are not lost to either.
        ProcessSignals.installStopHandlers()
        let stop = StopRequest.processSignals()
        var reconnection = ReconnectingCameraSource.Options()
        reconnection.camera.stopRequest = stop
        let source = try ReconnectingCameraSource(name: path, options: reconnection, logger: .component("camera")) {
            try V4L2Grabber(path: path, negotiator: CameraModeNegotiator(requestedSize: Size(width: 640, height: 480),
                                                                       requestedFramesPerSecond: 30))
        }
        defer { source.close() }
        let calibrator = ChessboardCalibrator(board: board, imageSize: source.size)
        let window = PreviewWindow.displayAvailable ? PreviewWindow(title: "HeritageLens calibration") : nil
        let gray = Image()
        var lastTaken = 0.0
        var quit = false
        window?.onKey = { if $0 == .quit { quit = true } }
        while calibrator.views.count < views, !quit, !stop.isRequested, let frame = try source.nextFrame() {
            try frame.image.convertToGray(into: gray)
            let corners = try calibrator.findBoard(in: gray)
            if let corners {
                let before = calibrator.coverage
                var trial = before
                trial.add(corners: corners, board: board)
                let tilt = CalibrationCoverage.tilt(corners: corners, board: board)
                let newTilt = !before.tilts.contains { abs($0 - tilt) < 5 }
                if frame.time - lastTaken > 1, trial.covered > before.covered || newTilt {
                    calibrator.add(corners)
                    lastTaken = frame.time
                    print("view \(calibrator.views.count)/\(views): coverage \(Int(calibrator.coverage.covered * 100)) %, tilt \(Int(tilt))°")
                    // Seen as it happens also when stdout is a file or a pipe (a log, `tee`).
                    fflush(nil)
                }
                for p in corners { frame.image.drawCircle(at: p, radius: 3, colour: .green) }
            }
            frame.image.drawText("views \(calibrator.views.count)/\(views)  coverage \(Int(calibrator.coverage.covered * 100))%  q: finish",
                                 at: Point2(10, 24), scale: 0.6, colour: .amber, thickness: 2)
            if let window {
                try window.write(ProcessedFrame(frame: frame, output: frame.image,
                                                anchors: FrameAnchors(frame: frame.index, time: frame.time, size: frame.size)))
            }
        }
        try window?.finish()
        if calibrator.views.count < ChessboardCalibrator.minimumViews {
            let how = stop.isRequested ? "stopped by \(ExitCodeInterrupted.signalName)" : "stopped"
            FileHandle.standardError.write(Data("heritage-lens: --camera \(path): \(how) with \(calibrator.views.count) view\(calibrator.views.count == 1 ? "" : "s") of the \(ChessboardCalibrator.minimumViews) needed; nothing written. Show the board at more places and tilts before stopping\n".utf8))
            throw stop.isRequested ? ExitCodeInterrupted().exitCode : ExitCode.failure
        }
        if stop.isRequested { print("stopped by \(ExitCodeInterrupted.signalName) with \(calibrator.views.count) views; solving with those") }
        try finish(calibrator, cameraName: name ?? device.card)
    }

    private func finish(_ calibrator: ChessboardCalibrator, cameraName: String) throws {
        let result = try calibrator.solve()
        let k = result.intrinsics
        // By default where run and process look for it, wherever this is run from.
        let file = output ?? (CalibrationStore.standard.folder as NSString)
            .appendingPathComponent(CalibrationStore.fileName(camera: cameraName, size: calibrator.imageSize))
        let date = ISO8601DateFormatter().string(from: Date())
        try CalibrationFile.write(k, camera: cameraName, rms: result.rms, date: date, to: file)
        print(String(format: "RMS reprojection error %.3f px over %d views", result.rms, result.viewErrors.count))
        print(String(format: "fx %.2f  fy %.2f  cx %.2f  cy %.2f", k.fx, k.fy, k.cx, k.cy)
              + "  distortion " + k.distortion.map { String(format: "%.4f", $0) }.joined(separator: " "))
        print("per view: " + result.viewErrors.map { String(format: "%.2f", $0) }.joined(separator: " "))
        print("wrote \(file)")
    }
}
