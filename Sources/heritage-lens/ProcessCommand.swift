import ArgumentParser
import CBridge
import Foundation
import HeritageCore
import HeritageLens

struct Process: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Process a recorded video, an image or a folder of images into outputs.",
        discussion: """
            Every frame is processed in order, however long it takes, so the same input and options \
            give the same anchors on any machine. --realtime instead paces frames at their \
            timestamps and skips those the pipeline is too slow for, as a live camera would.
            """
    )

    @Argument(help: "A video file (anything FFmpeg reads), an image, or a folder of images.")
    var input: String = "Samples/sample.mp4"

    @Flag(help: "Pace frames like a live camera and drop late ones.")
    var realtime = false

    @Flag(help: "Play a video file again from the start when it ends (soak runs; stop with --frames or Ctrl-C).")
    var loop = false

    @Option(parsing: .unconditional, help: ArgumentHelp("Frame rate given to images and image folders.", valueName: "fps"))
    var imageRate: Double = 30

    @Option(name: .customLong("repeat"), parsing: .unconditional,
            help: ArgumentHelp("Frames each image gives (a still as a short clip, so trackers can lock on).", valueName: "n"))
    var repeatCount: Int = 1

    @Option(parsing: .unconditional,
            help: ArgumentHelp("Largest image or video frame accepted, pixels a side (a 20000x20000 PNG decodes to 1.2 GB).", valueName: "px"))
    var maxFrameSide: Int = FrameLimits.defaultMaximumSide

    @Flag(help: "Show the preview window while processing (needs a display).")
    var preview = false

    @Flag(help: "Draw the stats panel (fps, tier, latency, stage bars) on the output, as run does.")
    var overlay = false

    @Option(help: ArgumentHelp("Print a latency report at the end and write it as JSON.", valueName: "file"))
    var report: String?

    @OptionGroup var faces: FaceOptions
    @OptionGroup var cards: CardOptions
    @OptionGroup var outputs: OutputOptions
    @OptionGroup var options: RunOptions
    @OptionGroup var network: NetworkOptions

    func validate() throws {
        if !(imageRate > 0 && imageRate <= 1000) { throw ValidationError("--image-rate must be more than 0 and at most 1000") }
        if !(1...10_000).contains(repeatCount) { throw ValidationError("--repeat must be between 1 and 10000") }
        if !(16...65_536).contains(maxFrameSide) { throw ValidationError("--max-frame-side must be between 16 and 65536") }
        if !network.isEmpty && !realtime {
            throw ValidationError("--osc and --serve need --realtime: they serve frames as they happen, as a camera gives them")
        }
    }

    func run() throws {
        // Before any file is opened: a stop from here on finalizes what exists, or leaves
        // everything untouched when no output was created yet.
        cb_install_stop_handlers()
        let logger = options.configureProcess()
        do {
            let (source, inputFiles) = try openSource()
            if let images = source as? ImageSource {
                // Each skipped image named (the first few at the default level, all with -v).
                images.onSkip = { [logger, weak images] _, reason in
                    if (images?.skippedImages.count ?? 0) <= 5 { logger.notice("skipped \(reason)") } else { logger.info("skipped \(reason)") }
                }
            }
            if preview && !PreviewWindow.displayAvailable {
                throw CommandFailure("--preview: no display (DISPLAY is unset); drop --preview or run under X11/Wayland")
            }
            var assembly = PipelineAssembly(source: source, outputs: outputs, run: options, faces: faces, cards: cards,
                                            cameraName: nil, backgroundDetection: realtime, preview: preview, logger: logger)
            if overlay || report != nil { assembly.live = (overlay, report) }
            assembly.plan = inputFiles
            assembly.looping = loop
            assembly.network = network
            try assembly.execute()
        } catch let stop as ExitCodeInterrupted {
            throw stop.exitCode
        } catch {
            exitWithOneLine(error)
        }
    }

    /// The source, and its files as inputs that no output may overwrite.
    private func openSource() throws -> (FrameSource, OutputPlan) {
        // The default input is the project's sample wherever heritage-lens runs from.
        let input = self.input == "Samples/sample.mp4" && !FileManager.default.fileExists(atPath: self.input)
            ? ProjectAssets.path(self.input) : self.input
        if input.hasSuffix("Samples/sample.mp4") && !FileManager.default.fileExists(atPath: input) {
            throw CommandFailure("\(input): the sample has not been made yet; run 'heritage-lens sample' (or scripts/setup.sh)")
        }
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: input, isDirectory: &isDirectory)
        let ext = (input as NSString).pathExtension.lowercased()
        var plan = OutputPlan()
        if exists && isDirectory.boolValue { plan.inputFolder("INPUT", input) } else { plan.input("INPUT", input) }
        if exists && (isDirectory.boolValue || ImageSource.imageExtensions.contains(ext)) {
            return (try ImageSource(path: input, framesPerSecond: imageRate, repeats: repeatCount, realtime: realtime,
                                    maximumSide: maxFrameSide), plan)
        }
        return (try VideoFileSource(path: input, options: .init(realtime: realtime, loop: loop, maximumSide: maxFrameSide)), plan)
    }
}
