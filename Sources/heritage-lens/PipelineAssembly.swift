import ArgumentParser
import Foundation
import HeritageCore
import HeritageLens
import HeritageTooling
import Logging

/// Wires a source, the stages and the sinks the user asked for into a pipeline, runs it and
/// reports. The only place that knows about terminals.
struct PipelineAssembly {
    let source: FrameSource
    let outputs: OutputOptions
    let run: RunOptions
    let faces: FaceOptions
    let cards: CardOptions
    /// The camera's name for the calibration lookup (nil for files).
    let cameraName: String?
    /// Detection off the frame path (live input) or inline and deterministic (batch).
    let backgroundDetection: Bool
    let preview: Bool
    let logger: Logger
    /// Live runs: the stats panel on the output, and a latency report on exit (to `report` as JSON
    /// when given, as a table on stderr always).
    var live: (overlay: Bool, report: String?)? = nil
    /// The source starts over at its end (`process --loop`).
    var looping = false
    /// The source's own files (the command fills them in); the rest is added by `checkedPlan()`.
    var plan = OutputPlan()
    /// OSC receivers and the live server (`--osc`, `--serve`).
    var network: NetworkOptions? = nil
    /// Whether anything shows or keeps the rendered frames. `process --anchors FILE` alone has
    /// nobody to see masks and effects, so it does not draw them (anchors never depend on drawing).
    var framesAreSeen = true
    /// Models loaded once for many runs (a batch); nil loads them for this run.
    var models: SharedModels? = nil
    /// The frame-by-frame progress line (a batch draws its own).
    var showsProgress = true
    /// One input of a batch: its outputs are published by the batch, or dropped when stopped.
    var isBatchInput = false
    /// More sinks (a batch's tally of what was anchored).
    var extraSinks: [FrameSink] = []
    /// Cores for one input (`process --cores`): above 1, detection runs beside the tracking and
    /// frames are decoded ahead; the anchors are the same for any count.
    var cores = 1
    /// Ends the run early; the command's own follows Ctrl-C and the other stop signals, a batch's
    /// is shared by its inputs.
    var stopRequest = StopRequest.processSignals()
    /// Wait for the source's first frame before any output is made (a live camera, which can open
    /// and then send nothing until Ctrl-C). Files need no wait: they decode their first frame when
    /// opened, and holding one back would shift a `--realtime` run's pacing.
    var waitsForFirstFrame = false

    func intrinsics() throws -> Intrinsics {
        if let path = faces.calibration {
            let found = try CalibrationFile.read(path).intrinsics
            return found.size == source.size ? found : found.scaled(to: source.size)
        }
        if let cameraName {
            return try CalibrationStore.standard.intrinsics(camera: cameraName, size: source.size, logger: logger)
        }
        let assumed = Intrinsics.assumed(for: source.size)
        logger.info("calibration: none given for a file; \(assumed.origin) (use --calibration FILE)")
        return assumed
    }

    /// The run the options describe: its trackers with their models, the pose, the drawing.
    func makeConfiguration(intrinsics: Intrinsics) throws -> PipelineConfiguration {
        let analysis = GrayConversionStage.analysisSize(for: source.size, longestSide: run.analysisLongestSide)
        var configuration = PipelineConfiguration(analysisLongestSide: run.analysisLongestSide)
        var cardSet: CardSet?
        if let folder = try cards.folder() {
            cardSet = try models?.cardSet(folder: folder) ?? CardSet(folder: folder)
        } else if !cards.noCards {
            logger.notice("cards: no Samples/cards/cards.json here; looking for faces only (use --cards DIR)")
        }
        var faceTracker: FaceTracker?
        var cardTracker: CardTracker?
        if faces.detector != .none {
            let detector: FaceDetector
            switch faces.detector {
            case .hog: detector = try HOGFaceDetector()
            case .lbp, .haar:
                let file = FaceModelFiles.cascades[faces.detector.rawValue]!
                detector = try CascadeFaceDetector(path: FaceModelFiles.cascadeFolder + "/" + file)
            case .none: fatalError("unreachable")
            }
            let predictor = try models?.landmarkPredictor() ?? LandmarkPredictor()
            var options = FaceTracker.Options()
            // The default smallest face is one the detector finds at the analysis size without
            // enlarging it; a smaller one asked for is searched on an enlarged copy, at its cost.
            if let asked = faces.minEyeDistance { options.minimumEyeDistance = asked * analysis.scale }
            if analysis.scale < 1 {
                logger.info("analysis at \(analysis.size): faces from \(Int((options.minimumEyeDistance / analysis.scale).rounded())) px between the eyes (--min-eye-distance, --analysis-size)")
            }
            options.maximumFaces = faces.maxFaces
            faceTracker = FaceTracker(detector: detector, predictor: predictor, appearance: try FaceAppearanceCheck(),
                                      secondOpinion: try FaceSecondOpinion(), background: backgroundDetection, beside: cores > 1, options: options,
                                      logger: .component("faces"))
        }
        if let cardSet {
            cardTracker = try CardTracker(cards: cardSet, background: backgroundDetection, beside: cores > 1,
                                          intrinsics: analysis.scale == 1 ? intrinsics : intrinsics.scaled(to: analysis.size),
                                          logger: .component("cards"))
        }
        configuration.faces = faceTracker
        configuration.cards = cardTracker
        if faces.detector != .none || cardSet != nil { configuration.pose = intrinsics }
        if !run.noRender && framesAreSeen {
            let library = faces.detector == .none ? nil : try MaskLibrary()
            let effects = try cardSet.map { try CardEffects(intrinsics: intrinsics, cards: $0) }
            let choice: RenderStage.MaskChoice = run.mask == .byFace ? .byFace : .all(MaskKind(rawValue: run.mask.rawValue)!)
            configuration.render = RenderStage(masks: library, effects: effects, maskChoice: choice, focalLength: intrinsics.fx)
        }
        if faces.drawAnchors { configuration.anchorOverlay = intrinsics }
        return configuration
    }

    /// Snapshots come from `--snapshot-at` or the preview's key.
    private var takesSnapshots: Bool { preview || !outputs.snapshotAt.isEmpty }

    /// A video that decoded short of the frames its container announced (truncated or corrupt),
    /// said in words; nil when it decoded whole or was not read to its end.
    func shortfall(of summary: Pipeline.Summary) -> String? {
        guard let expected = summary.expectedFrames, run.frames == nil, !summary.interrupted, !(source is ImageSource),
              summary.framesProcessed + summary.framesDropped < expected - 1 else { return nil }
        return "the container announced \(expected) frames but only \(summary.framesProcessed + summary.framesDropped) could be decoded (truncated or corrupt file)"
    }

    /// Every file this run reads besides the source's own (which the command adds to `plan`),
    /// and every output, checked before anything is created.
    func checkedPlan() throws {
        var plan = self.plan
        plan.input("--calibration", faces.calibration)
        plan.inputFolder("--cards", try cards.folder())
        plan.inputFolder("the masks", ProjectAssets.path("Samples/masks"))
        plan.input("the landmark model", FaceModelFiles.landmarks68)
        for file in FaceModelFiles.cascades.values { plan.input("the face cascades", FaceModelFiles.cascadeFolder + "/" + file) }
        plan.output("-o", outputs.output)
        plan.output("--anchors", outputs.anchors)
        plan.output("--metrics", outputs.metrics)
        plan.output("--report", live?.report)
        // Checked where a snapshot can be taken or the folder was named: a run from a folder it
        // may not write to (the default is the working folder) needs no such folder otherwise.
        if takesSnapshots || outputs.snapshots != nil { plan.outputFolder("--snapshots", outputs.snapshotFolder) }
        for frame in outputs.snapshotAt {
            plan.output("--snapshot-at", (outputs.snapshotFolder as NSString).appendingPathComponent(SnapshotSink.fileName(frame: frame)))
        }
        try plan.check()
    }

    /// A stop that came before any output was made: said once, and nothing to finalize.
    private func throwIfStoppedBeforeOutputs() throws {
        guard stopRequest.isRequested else { return }
        logger.notice("stopped before the first frame; no output was created or changed")
        throw ExitCodeInterrupted()
    }

    /// The source, once its first frame is in when `waitsForFirstFrame`: a run stopped or ended
    /// before then has made no output.
    private func sourceWithItsFirstFrame() throws -> FrameSource {
        guard waitsForFirstFrame else { return source }
        let held = FirstFrameHeldSource(source)
        logger.info("\(source.name): waiting for the first frame")
        guard try held.waitForFirstFrame() else {
            source.close()
            try throwIfStoppedBeforeOutputs()
            throw SourceError.noFramesDecoded(source.name)
        }
        return held
    }

    @discardableResult
    func execute() throws -> Pipeline.Summary {
        try checkedPlan()
        // The slow part (models, card features) before any output is created, so that a run
        // stopped during it leaves every file as it was.
        let intrinsics = try intrinsics()
        var configuration = try makeConfiguration(intrinsics: intrinsics)
        let overlay = live?.overlay == true ? StatsOverlayStage() : nil
        configuration.statsOverlay = overlay
        try throwIfStoppedBeforeOutputs()
        let source = try sourceWithItsFirstFrame()
        // The files this run makes anew, removed again when it fails before its first frame (an
        // input that decodes nothing): an empty output would read as a video with no face in it.
        let made = [outputs.output, outputs.anchors, outputs.metrics].compactMap { $0 }
            .filter { $0 != "-" && !FileManager.default.fileExists(atPath: $0) }
        // The network outputs first: a port taken or a host that does not resolve refuses the run
        // before any file is created or truncated.
        let feed = try network?.makeFeed(droppedFrames: { source.droppedFrameCount }, logger: logger)
        let snapshots: SnapshotSink?
        do {
            snapshots = takesSnapshots ? try SnapshotSink(folder: outputs.snapshotFolder, frames: Set(outputs.snapshotAt)) : nil
        } catch {
            try? feed?.finish()
            throw error
        }
        var sinks: [FrameSink] = []
        var video: VideoFileSink?
        let metrics: MetricsSink?
        do {
            if let path = outputs.output {
                let sink = try VideoFileSink(path: path, size: source.size, framesPerSecond: source.framesPerSecond)
                video = sink
                sinks.append(sink)
            }
            if let path = outputs.anchors { sinks.append(try AnchorsSink(path: path)) }
            metrics = try outputs.metrics.map { try MetricsSink(path: $0) }
        } catch {
            for sink in sinks { try? sink.finish() }
            try? feed?.finish()
            for path in made { try? FileManager.default.removeItem(atPath: path) }
            throw error
        }
        if let snapshots { sinks.append(snapshots) }
        var window: PreviewWindow?
        if preview {
            let w = PreviewWindow()
            sinks.append(w)
            window = w
        }
        if let feed { sinks.append(feed) }
        sinks += extraSinks
        let recorder = live != nil ? BenchRecorder() : nil
        if let recorder { sinks.insert(recorder, at: 0) }
        let pipeline = try configuration.makePipeline(
            source: source, sinks: sinks, metrics: metrics,
            options: .init(tier: run.tier == .high ? .high : .low, frameLimit: run.frames),
            stopRequest: stopRequest, logger: .component("pipeline"))
        pipeline.options.slowdown = run.emulateSlow
        if run.emulateSlow > 1 { logger.notice("emulating a machine \(run.emulateSlow)x slower: every stage is stretched by busy-waiting") }
        let budget = run.budgetMs ?? 1000 / max(1, source.framesPerSecond)
        if run.tier == .auto { pipeline.setTier(.auto, budgetMilliseconds: budget) }
        let renderer = configuration.render
        var tierSetting = run.tier
        window?.onKey = { [weak pipeline, weak snapshots] key in
            switch key {
            case .quit: pipeline?.stop()
            case .snapshot: snapshots?.requestSnapshot()
            case .nextMask: renderer?.cycleMask()
            case .toggleCards: renderer?.cardsVisible.toggle()
            case .nextTier:
                let all = TierSetting.allCases
                tierSetting = all[(all.firstIndex(of: tierSetting)! + 1) % all.count]
                pipeline?.setTier(tierSetting, budgetMilliseconds: budget)
            }
        }
        // A looping source has no end of its own: --frames is then the whole run.
        let expected = source.expectedFrameCount.map { looping ? nil : $0 } ?? nil
        let progress = ProgressLine(expected: run.frames.map { looping ? $0 : min($0, expected ?? $0) } ?? expected,
                                    enabled: showsProgress)
        pipeline.onFrame = { m in
            progress.update(frame: m.frame)
            overlay?.record(m)
            recorder?.record(m)
            feed?.frameFinished(m)
        }
        logger.info("input \(source.name): \(source.size) at \(String(format: "%.3g", source.framesPerSecond)) fps")
        let summary: Pipeline.Summary
        do {
            summary = try pipeline.run()
        } catch let error as PipelineError {
            progress.finish()
            if case SinkError.readerClosed = error.underlying {
                // `--anchors - | head`: the reader has what it wanted; not a failure.
                let n = error.summary.framesProcessed
                logger.notice("the reader of standard output closed it; stopped after \(n) frame\(n == 1 ? "" : "s"), other outputs finalized")
                return error.summary
            }
            // The caller says how many frames were done, on the error's own line.
            if error.summary.framesProcessed == 0 {
                for path in made { try? FileManager.default.removeItem(atPath: path) }
            }
            throw error
        }
        progress.finish()
        var report = "\(summary.framesProcessed) frame\(summary.framesProcessed == 1 ? "" : "s") in \(String(format: "%.1f", summary.wallSeconds)) s"
        if summary.wallSeconds > 0 {
            report += String(format: " (%.1f fps)", Double(summary.framesProcessed) / summary.wallSeconds)
        }
        if summary.framesDropped > 0 { report += ", \(summary.framesDropped) dropped to keep up" }
        // A batch's video is still under its temporary name here; the batch names the outputs.
        if let video, showsProgress { report += "; video: \(video.path) (\(video.codec), \(video.framesWritten) frame\(video.framesWritten == 1 ? "" : "s"))" }
        for path in snapshots?.written ?? [] { report += "; snapshot: \(path)" }
        if let images = self.source as? ImageSource, !images.skippedImages.isEmpty {
            report += "; \(images.skippedImages.count) image\(images.skippedImages.count == 1 ? "" : "s") skipped"
            if images.skippedImages.count > 5 { report += " (-v names them all)" }
        }
        logger.notice("\(showsProgress ? "" : "\(source.name): ")\(report)")
        if let shortfall = shortfall(of: summary) { logger.warning("\(source.name): \(shortfall)") }
        if let recorder, let live {
            let run = BenchRun(tier: run.tier.rawValue, recorder: recorder, dropped: summary.framesDropped,
                               wallSeconds: summary.wallSeconds, processCPUSeconds: Double(ProcessResources.cpuNanoseconds) / 1e9,
                               peakRSSMegabytes: ProcessResources.peakResidentMegabytes, budgetMilliseconds: budget)
            let machine = MachineInfo.current(pinned: "all")
            FileHandle.standardError.write(Data((BenchReport.table(runs: [run], machine: machine) + "\n").utf8))
            if let path = live.report {
                try WholeFile.write(BenchReport.json(runs: [run], machine: machine, input: source.name, paced: true), to: path)
                logger.notice("latency report: \(path)")
            }
        }
        if summary.interrupted {
            // A batch's input is not finalized but dropped, and the batch says so.
            if !isBatchInput { logger.notice("stopped by \(ExitCodeInterrupted.signalName); outputs finalized") }
            throw ExitCodeInterrupted()
        }
        return summary
    }
}

/// Exit status 128 + the signal (130 for Ctrl-C) after a stop signal, as shells expect, once
/// everything is finalized.
struct ExitCodeInterrupted: Error {
    static var signalName: String {
        switch ProcessSignals.firstStopSignal {
        case SIGHUP: return "SIGHUP (the terminal closed)"
        case SIGQUIT: return "SIGQUIT"
        case SIGTERM: return "SIGTERM"
        default: return "Ctrl-C (SIGINT)"
        }
    }
    var exitCode: ExitCode { ExitCode(128 + (ProcessSignals.firstStopSignal ?? SIGINT)) }
}

/// The progress line on stderr: frames, rate and ETA. Redrawn in place on a terminal, a plain
/// line every few seconds otherwise (logs, CI).
final class ProgressLine {
    private let expected: Int?
    private let started = SystemClock().nanoseconds()
    /// The first line waits one interval too: the first frame's rate (model loading, warm-up)
    /// would give a wild ETA.
    private lazy var lastDraw: UInt64 = started
    private var frames = 0
    private let interactive = isatty(2) != 0
    private var drewAny = false
    private let enabled: Bool

    init(expected: Int?, enabled: Bool = true) {
        self.expected = expected
        self.enabled = enabled
    }

    func update(frame: Int) {
        guard enabled else { return }
        frames = frame + 1
        let now = SystemClock().nanoseconds()
        let interval: UInt64 = interactive ? 250_000_000 : 5_000_000_000
        guard now - lastDraw >= interval else { return }
        lastDraw = now
        draw(now: now)
    }

    private func draw(now: UInt64) {
        let seconds = Double(now - started) / 1e9
        let fps = seconds > 0 ? Double(frames) / seconds : 0
        var text = "frame \(frames)"
        if let expected { text += "/\(expected)" }
        text += String(format: "  %.1f fps", fps)
        if let expected, fps > 0 {
            text += String(format: "  ETA %.0f s", max(0, Double(expected - frames) / fps))
        }
        FileHandle.standardError.write(Data((interactive ? "\r\u{1B}[K" + text : text + "\n").utf8))
        drewAny = true
    }

    func finish() {
        if interactive && drewAny { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    }
}
