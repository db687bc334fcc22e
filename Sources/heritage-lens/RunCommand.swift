import ArgumentParser
import Foundation
import HeritageCore
import HeritageLens

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run live on a camera, with a preview window when a display exists.",
        discussion: """
            Keys in the preview: q/Esc quit, s snapshot, m next mask, t next tier, c card effects on/off. Ctrl-C finalizes the outputs; a second \
            Ctrl-C exits at once.
            """
    )

    @Option(parsing: .unconditional, help: ArgumentHelp("Camera index (0) or device path (/dev/video0).", valueName: "camera"))
    var camera: String = "0"

    @Option(help: ArgumentHelp("Frame size to ask the camera for.", valueName: "WxH"))
    var size: String = "640x480"

    @Option(parsing: .unconditional, help: ArgumentHelp("Frame rate to ask the camera for.", valueName: "fps"))
    var fps: Double = 30

    @Option(help: "Capture backend: v4l2 (direct, driver timestamps) or opencv (OpenCV's VideoCapture).")
    var backend: Backend = .v4l2

    @Flag(help: "No preview window, even when a display exists.")
    var noPreview = false

    @Flag(help: "No stats panel (fps, tier, latency, stage bars) on the output.")
    var noOverlay = false

    @Option(help: ArgumentHelp("On exit, also write the latency report as JSON (it is always printed).", valueName: "file"))
    var report: String?

    @OptionGroup var faces: FaceOptions
    @OptionGroup var cards: CardOptions
    @OptionGroup var outputs: OutputOptions
    @OptionGroup var options: RunOptions
    @OptionGroup var network: NetworkOptions

    enum Backend: String, ExpressibleByArgument, CaseIterable {
        case v4l2, opencv
    }

    func validate() throws {
        _ = try parsedSize()
        if let problem = CameraDevices.problem(naming: camera) { throw ValidationError(problem) }
        if !(fps > 0 && fps <= 1000) { throw ValidationError("--fps must be more than 0 and at most 1000") }
    }

    func parsedSize() throws -> Size {
        guard let parsed = FrameSizeText.parse(size, sides: 16...8192) else {
            throw ValidationError("--size must look like 640x480 (16 to 8192 each side)")
        }
        return parsed
    }

    func run() throws {
        // Before any file is opened: a stop from here on finalizes what exists, or leaves
        // everything untouched when no output was created yet.
        ProcessSignals.installStopHandlers()
        let logger = options.configureProcess()
        do {
            let path = CameraDevices.path(for: camera)
            let requested = try parsedSize()
            var cameraName = path
            if let device = try? CameraDevices.query(path) { cameraName = device.card }
            let backend = self.backend, fps = self.fps
            var announced = false
            let stop = StopRequest.processSignals()
            var reconnection = ReconnectingCameraSource.Options()
            reconnection.camera.stopRequest = stop
            // Opened again after a failure: an unplugged camera is waited for, not fatal.
            let source = try ReconnectingCameraSource(name: path, options: reconnection,
                                                      logger: .component("camera")) { () throws -> FrameGrabber in
                switch backend {
                case .v4l2:
                    let g = try V4L2Grabber(path: path, negotiator: CameraModeNegotiator(requestedSize: requested,
                                                                                         requestedFramesPerSecond: fps))
                    if !announced { logger.notice("camera \(path): \(g.mode)") }
                    announced = true
                    return g
                case .opencv:
                    return try OpenCVCameraGrabber(path: path, requestedSize: requested, framesPerSecond: fps)
                }
            }
            let preview = !noPreview && PreviewWindow.displayAvailable
            if !preview && outputs.output == nil && outputs.anchors == nil && outputs.metrics == nil && network.isEmpty {
                logger.notice("no display and no outputs: nothing will be shown or written (add -o, --anchors or --metrics)")
            }
            var assembly = PipelineAssembly(source: source, outputs: outputs, run: options, faces: faces, cards: cards,
                                            cameraName: cameraName, backgroundDetection: true, preview: preview, logger: logger)
            assembly.live = (!noOverlay, report)
            assembly.plan.input("--camera", path)
            assembly.network = network
            assembly.stopRequest = stop
            assembly.waitsForFirstFrame = true
            try assembly.execute()
        } catch let stop as ExitCodeInterrupted {
            throw stop.exitCode
        } catch {
            exitWithOneLine(error)
        }
    }
}
