import ArgumentParser
import Foundation
import HeritageCore
import HeritageLens
import Logging

struct Process: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Process a recorded video, an image or a folder of images into outputs.",
        discussion: """
            Every frame is processed in order, however long it takes, so the same input and options \
            give the same anchors on any machine. --realtime instead paces frames at their \
            timestamps and skips those the pipeline is too slow for, as a live camera would.
            """
    )

    @Argument(help: ArgumentHelp("A video file (anything FFmpeg reads; default: the project's sample), an image, or a folder of images (in name order, each scaled to the first one's size); several videos, a folder of videos or @LIST (a file of paths, one a line) process as a batch into --output-dir.", valueName: "input"))
    var inputs: [String] = []

    /// The single input (the project's sample when none is given).
    private var input: String { inputs.first ?? "Samples/sample.mp4" }

    /// Several inputs, a folder of videos, a list or an output folder: one run per video.
    private var isBatch: Bool {
        batch.outputDir != nil || inputs.count > 1 || inputs.contains { $0.hasPrefix("@") }
            || (inputs.count == 1 && BatchInputs.isFolderOfVideos(inputs[0]))
    }

    @Flag(help: "Pace frames like a live camera and drop late ones.")
    var realtime = false

    @Option(parsing: .unconditional, help: ArgumentHelp("Cores for one input: above 1, card recognition and face search run beside the tracking, frames are decoded ahead and OpenCV's kernels run in parallel (also --threads); the anchors are byte-identical for any count.", valueName: "n"))
    var cores: Int = 1

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
    @OptionGroup(title: "Batch") var batch: BatchOptions

    func validate() throws {
        if !(1...64).contains(cores) { throw ValidationError("--cores must be between 1 and 64") }
        if cores > 1 && realtime {
            throw ValidationError("--cores is for processing every frame; --realtime runs detection in the idle time of a live pace instead")
        }
        if isBatch {
            guard batch.outputDir != nil else {
                throw ValidationError("several inputs, a folder of videos or @LIST need --output-dir DIR (each input's outputs go there as NAME.anchors.jsonl, ...)")
            }
            let single: [(Bool, String)] = [
                (outputs.output != nil, "-o/--output"), (outputs.anchors != nil, "--anchors"), (outputs.metrics != nil, "--metrics"),
                (!outputs.snapshotAt.isEmpty, "--snapshot-at"), (realtime, "--realtime"), (loop, "--loop"), (preview, "--preview"),
                (report != nil, "--report"), (!network.isEmpty, "--osc/--serve"), (overlay, "--overlay"),
            ]
            if let (_, name) = single.first(where: { $0.0 }) {
                throw ValidationError("\(name) is for one input; a batch writes per input into --output-dir (choose with --write anchors,metrics,mp4)")
            }
        } else if batch.anyGiven {
            throw ValidationError("--write, --jobs, --force and --shard are batch options: give --output-dir DIR")
        }
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
        ProcessSignals.installStopHandlers()
        var options = self.options
        if cores > 1 && options.threads == 1 { options.threads = cores }
        let logger = options.configureProcess()
        if isBatch { return try runBatch(options: options, logger: logger) }
        do {
            let (source, inputFiles) = try openSource()
            if let images = source as? ImageSource {
                // Each skipped image named (the first few at the default level, all with -v).
                images.onSkip = { [logger, weak images] _, reason in
                    if (images?.skippedImages.count ?? 0) <= 5 { logger.notice("skipped \(reason)") } else { logger.info("skipped \(reason)") }
                }
                let first = source.size
                images.onScale = { [logger, weak images] path, size in
                    let text = "\(path): \(size.width)x\(size.height), scaled to the first image's \(first.width)x\(first.height) (its anchors are in that size)"
                    if (images?.scaledImages ?? 0) <= 5 { logger.notice("\(text)") } else { logger.info("\(text)") }
                }
            }
            if preview && !PreviewWindow.displayAvailable {
                throw CommandFailure("--preview: no display (DISPLAY is unset); drop --preview or run under X11/Wayland")
            }
            var assembly = PipelineAssembly(source: source, outputs: outputs, run: options, faces: faces, cards: cards,
                                            cameraName: nil, backgroundDetection: realtime, preview: preview, logger: logger)
            if overlay || report != nil { assembly.live = (overlay, report) }
            assembly.plan = inputFiles
            assembly.cores = cores
            assembly.looping = loop
            assembly.network = network
            assembly.framesAreSeen = outputs.output != nil || preview || overlay || !outputs.snapshotAt.isEmpty
                || network.serve != nil
            try assembly.execute()
        } catch let stop as ExitCodeInterrupted {
            throw stop.exitCode
        } catch {
            exitWithOneLine(error)
        }
    }

    private func runBatch(options: RunOptions, logger: Logger) throws {
        do {
            var all = try BatchInputs.gather(inputs)
            let selection = try batch.selection()
            if let selection { all = selection.select(all) }
            if all.isEmpty {
                if let selection {
                    logger.notice("shard \(selection): no inputs fall to this shard (fewer inputs than shards); nothing to do")
                    return
                }
                throw BatchInputError.none
            }
            let run = BatchRun(inputs: all, folder: batch.outputDir!, kinds: try batch.kinds(), jobs: batch.jobs,
                               force: batch.force, shard: selection, run: options, faces: faces, cards: cards,
                               maximumSide: maxFrameSide, cores: cores, logger: logger)
            try run.checkPlan()
            logger.notice("batch: \(all.count) input\(all.count == 1 ? "" : "s")\(selection.map { " (shard \($0))" } ?? "") into \(run.folder), \(batch.jobs) at a time")
            try run.execute()
        } catch let exit as ExitCode {
            throw exit
        } catch {
            exitWithOneLine(error)
        }
    }

    /// The source, and its files as inputs that no output may overwrite.
    private func openSource() throws -> (FrameSource, OutputPlan) {
        // The default input is the project's sample wherever heritage-lens runs from.
        let input = ProjectAssets.located(self.input, default: "Samples/sample.mp4")
        if input.hasSuffix("Samples/sample.mp4") && !FileManager.default.fileExists(atPath: input) {
            throw CommandFailure("\(input): the sample has not been made yet; run 'heritage-lens sample' (or scripts/setup.sh)")
        }
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: input, isDirectory: &isDirectory)
        let ext = (input as NSString).pathExtension.lowercased()
        var plan = OutputPlan()
        if exists && isDirectory.boolValue { plan.inputFolder("INPUT", input) } else { plan.input("INPUT", input) }
        // A GIF named on its own is read as a video, so that an animated one plays; in a folder of
        // images it is one image.
        if exists && (isDirectory.boolValue || (ImageSource.imageExtensions.contains(ext) && ext != "gif")) {
            do {
                return (try ImageSource(path: input, framesPerSecond: imageRate, repeats: repeatCount, realtime: realtime,
                                        maximumSide: maxFrameSide), plan)
            } catch SourceError.noImages(let folder) where isDirectory.boolValue {
                throw CommandFailure("\(SourceError.noImages(inFolder: folder)); for a folder of videos, process them as a batch with --output-dir DIR")
            }
        }
        let video = try VideoFileSource(path: input, options: .init(realtime: realtime, loop: loop, maximumSide: maxFrameSide))
        return (cores > 1 ? ReadAheadSource(video) : video, plan)
    }
}
