import ArgumentParser
import Foundation
import HeritageCore
import HeritageLens
import Logging
import Synchronization

/// Many videos through `process`, each to its own outputs in one folder: published atomically,
/// skipped when already complete (an interrupted batch resumes), a failure reported and the
/// batch going on, one summary line per input, one progress line for all.
struct BatchRun {
    let inputs: [BatchInput]
    let folder: String
    let kinds: [BatchOutputKind]
    let jobs: Int
    let force: Bool
    let shard: ShardSelection?
    let run: RunOptions
    let faces: FaceOptions
    let cards: CardOptions
    let maximumSide: Int
    let cores: Int
    let logger: Logger

    var summaryPath: String {
        let file = shard.map { "summary.shard-\($0.index)-of-\($0.count).jsonl" } ?? "summary.jsonl"
        return (folder as NSString).appendingPathComponent(file)
    }

    /// What decides an input's outputs besides the input itself, recorded beside them: a batch
    /// run again with other settings makes them again instead of skipping them as complete.
    /// (Not the jobs, cores or shard: the outputs are the same bytes whatever they are.)
    var settings: String {
        func text<T>(_ value: T?) -> String { value.map { "\($0)" } ?? "default" }
        return ["heritage-lens \(HeritageLensVersion.string)", "tier \(run.tier.rawValue)", "budget-ms \(text(run.budgetMs))",
                "mask \(run.mask.rawValue)", "no-render \(run.noRender)", "frames \(text(run.frames))",
                "analysis-size \(run.analysisSize)", "emulate-slow \(run.emulateSlow)", "detector \(faces.detector.rawValue)",
                "min-eye-distance \(text(faces.minEyeDistance))", "max-faces \(faces.maxFaces)",
                "calibration \(text(faces.calibration))", "draw-anchors \(faces.drawAnchors)", "cards \(text(cards.cards))",
                "no-cards \(cards.noCards)", "max-frame-side \(maximumSide)"].joined(separator: ", ")
    }

    /// Checks every input against every output before anything is written: no output may be an
    /// input (a folder processed into itself with --write mp4 would otherwise replace its videos).
    func checkPlan() throws {
        var plan = OutputPlan()
        plan.outputFolder("--output-dir", folder)
        for input in inputs { plan.input("INPUT", input.path) }
        for input in inputs {
            let outputs = BatchOutputs(folder: folder, name: input.name, kinds: kinds)
            for kind in kinds {
                plan.output("--output-dir", outputs.finalPath(kind))
                plan.output("--output-dir", outputs.temporaryPath(kind))
            }
            plan.output("--output-dir", outputs.settingsPath)
        }
        plan.output("--output-dir", summaryPath)
        try plan.check()
    }

    /// Runs the batch; the exit status says whether every input succeeded.
    func execute() throws {
        try checkPlan()
        BatchOutputs.removeLeftovers(in: folder, names: Set(inputs.map(\.name)))
        let earlier = BatchRecord.lines(ofSummary: summaryPath)
        let summary = try SummaryWriter(path: summaryPath)
        let progress = BatchProgress(total: inputs.count)
        let queue = Mutex(inputs[...])
        let models = SharedModels()
        let records = Mutex([BatchRecord]())
        // One for the batch: a stop signal, or a summary that can no longer be written, ends every
        // input in progress and starts no other.
        let stop = StopRequest.processSignals()
        let summaryFailure = Mutex<String?>(nil)
        let worker: @Sendable () -> Void = { [self] in
            while !stop.isRequested, let input = queue.withLock({ $0.popFirst() }) {
                let record = process(input, earlier: earlier[input.path], models: models, progress: progress, stop: stop)
                records.withLock { $0.append(record) }
                progress.finished(record)
                do { try summary.append(record) } catch {
                    summaryFailure.withLock { if $0 == nil { $0 = "\(error)" } }
                    stop.request()
                }
            }
        }
        if jobs == 1 {
            worker()
        } else {
            DispatchQueue.concurrentPerform(iterations: min(jobs, inputs.count)) { _ in worker() }
        }
        progress.finish()
        let failedSummary = summaryFailure.withLock { $0 }
        if failedSummary == nil { try summary.close() } else { try? summary.close() }
        let all = records.withLock { $0 }
        let failed = all.filter { $0.status == .failed }
        let done = all.filter { $0.status == .done }.count
        let skipped = all.filter { $0.status == .skipped }.count
        var line = "batch: \(done) done, \(skipped) skipped (already complete), \(failed.count) failed of \(inputs.count)"
        let short = all.filter { $0.warning != nil }.count
        if short > 0 { line += "; \(short) decoded short of the frames announced (truncated or corrupt: see the warning in the summary)" }
        if let shard { line += " in shard \(shard)" }
        logger.notice("\(line); summary: \(summaryPath)")
        let left = inputs.count - all.filter { $0.status != .interrupted }.count
        if let failedSummary {
            logger.error("\(failedSummary); the batch stopped with \(left) input\(left == 1 ? "" : "s") left unfinished; run the same command again to resume")
            throw ExitCode(1)
        }
        if stop.isRequested {
            logger.notice("stopped by \(ExitCodeInterrupted.signalName): finished inputs kept, \(left) input\(left == 1 ? "" : "s") left unfinished (nothing of \(left == 1 ? "it" : "them") kept); run the same command again to resume")
            throw ExitCodeInterrupted().exitCode
        }
        if !failed.isEmpty {
            // Again after the progress lines, where a user looks first.
            for f in failed.prefix(5) { logger.error("failed: \(Self.naming(f.input, in: f.error ?? "failed"))") }
            if failed.count > 5 { logger.error("and \(failed.count - 5) more failed inputs: see \(summaryPath)") }
            throw ExitCode(1)
        }
    }

    /// An input's error naming it once: most errors start with the file already.
    static func naming(_ path: String, in text: String) -> String {
        text.hasPrefix(path) ? text : "\(path): \(text)"
    }

    /// `earlier`: its line in the summary the batch's last run wrote, whose figures a skipped
    /// input keeps.
    private func process(_ input: BatchInput, earlier: BatchRecord?, models: SharedModels, progress: BatchProgress,
                         stop: StopRequest) -> BatchRecord {
        let outputs = BatchOutputs(folder: folder, name: input.name, kinds: kinds, settings: settings)
        if !force {
            switch outputs.state {
            case .complete:
                logger.info("\(input.path): outputs complete, skipped (--force redoes it)")
                // The figures of the run that made its outputs, when its summary line is there.
                var record = earlier.flatMap { $0.status == .done || $0.status == .skipped ? $0 : nil }
                    ?? BatchRecord(input: input.path, status: .skipped)
                record.status = .skipped
                return record
            case .otherSettings(let made):
                let was = made.components(separatedBy: ", ")
                let changed = settings.components(separatedBy: ", ").filter { !was.contains($0) }
                logger.notice("\(input.path): its outputs were made with other settings (now \(changed.joined(separator: ", "))); made again")
            case .incomplete:
                break
            }
        }
        var record = BatchRecord(input: input.path, status: .done)
        let clock = SystemClock()
        let started = clock.nanoseconds()
        let tally = AnchorTallySink { progress.frameDone() }
        do {
            var arguments = ["--snapshots", folder]
            for kind in kinds {
                switch kind {
                case .anchors: arguments += ["--anchors", outputs.temporaryPath(kind)]
                case .metrics: arguments += ["--metrics", outputs.temporaryPath(kind)]
                default: arguments += ["--output", outputs.temporaryPath(kind)]
                }
            }
            let options = try OutputOptions.parse(arguments)
            let video = try VideoFileSource(path: input.path, options: .init(maximumSide: maximumSide))
            let source: FrameSource = cores > 1 ? ReadAheadSource(video) : video
            var assembly = PipelineAssembly(source: source, outputs: options, run: run, faces: faces, cards: cards,
                                            cameraName: nil, backgroundDetection: false, preview: false, logger: logger)
            assembly.plan.input("INPUT", input.path)
            assembly.framesAreSeen = kinds.contains(where: \.isVideo)
            assembly.models = models
            assembly.showsProgress = false
            assembly.isBatchInput = true
            assembly.cores = cores
            assembly.extraSinks = [tally]
            assembly.stopRequest = stop
            let result = try assembly.execute()
            try outputs.publish()
            record.seconds = result.wallSeconds
            record.warning = assembly.shortfall(of: result)
        } catch is ExitCodeInterrupted {
            outputs.discardTemporaries()
            record.status = .interrupted
        } catch {
            outputs.discardTemporaries()
            record.status = stop.isRequested ? .interrupted : .failed
            let text: String
            if let e = error as? PipelineError { text = "\(e.underlying)" } else { text = "\(error)" }
            record.error = text
            if record.status == .failed { logger.error("\(Self.naming(input.path, in: text)); the batch carries on") }
        }
        // Frames as far as it got, also for an input that failed or was stopped.
        record.frames = tally.frames
        if record.status != .done { record.seconds = Double(clock.nanoseconds() - started) / 1e9 }
        record.fps = record.seconds > 0 ? Double(record.frames) / record.seconds : 0
        record.faces = tally.faceIDs.count
        record.framesWithFaces = tally.framesWithFaces
        record.cards = tally.cardIDs.sorted()
        return record
    }
}

/// summary.jsonl: a line per input as it finishes (a killed batch keeps the lines it wrote),
/// every write checked (`LineFile`: a failed one says why in the system's words, and leaves no
/// torn line).
final class SummaryWriter: Sendable {
    let path: String
    private let file: Mutex<LineFile?>

    init(path: String) throws {
        self.path = path
        file = Mutex(try LineFile(path: path))
    }

    func append(_ record: BatchRecord) throws {
        try file.withLock { try $0?.write(line: record.jsonLine()) }
    }

    func close() throws {
        try file.withLock { f in
            defer { f = nil }
            try f?.close()
        }
    }
}

/// The batch's progress line on stderr: inputs done of all, frames per second over the batch, ETA.
final class BatchProgress: Sendable {
    private struct State {
        var frames = 0
        var finished = 0
        var failed = 0
        var framesOfFinished = 0
        var processedInputs = 0
        var lastDraw: UInt64
        var drewAny = false
    }

    private let total: Int
    private let started: UInt64
    private let interactive = isatty(2) != 0
    private let state: Mutex<State>

    init(total: Int) {
        self.total = total
        let now = SystemClock().nanoseconds()
        started = now
        state = Mutex(State(lastDraw: now))
    }

    func frameDone() {
        state.withLock { s in
            s.frames += 1
            draw(&s, force: false)
        }
    }

    func finished(_ record: BatchRecord) {
        state.withLock { s in
            s.finished += 1
            if record.status == .failed { s.failed += 1 }
            if record.status == .done {
                s.processedInputs += 1
                s.framesOfFinished += record.frames
            }
            draw(&s, force: false)
        }
    }

    func finish() {
        state.withLock { s in
            if interactive && s.drewAny { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        }
    }

    private func draw(_ s: inout State, force: Bool) {
        let now = SystemClock().nanoseconds()
        let interval: UInt64 = interactive ? 250_000_000 : 5_000_000_000
        guard force || now - s.lastDraw >= interval else { return }
        s.lastDraw = now
        let seconds = Double(now - started) / 1e9
        let fps = seconds > 0 ? Double(s.frames) / seconds : 0
        var text = "inputs \(s.finished)/\(total)"
        if s.failed > 0 { text += " (\(s.failed) failed)" }
        text += String(format: "  %.0f frames/s", fps)
        // Frames left: the inputs not yet finished, at the mean length of those processed.
        if s.processedInputs > 0, fps > 0 {
            let meanFrames = Double(s.framesOfFinished) / Double(s.processedInputs)
            let left = max(0, Double(total - s.finished) * meanFrames - Double(s.frames - s.framesOfFinished))
            text += String(format: "  ETA %.0f s", left / fps)
        }
        FileHandle.standardError.write(Data((interactive ? "\r\u{1B}[K" + text : text + "\n").utf8))
        s.drewAny = true
    }
}
