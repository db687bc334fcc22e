import ArgumentParser
import Foundation
import HeritageCore
import HeritageLens
import Logging

/// Options every pipeline command shares: outputs, limits, logging.
struct OutputOptions: ParsableArguments {
    @Option(name: [.customShort("o"), .long], help: "Write the composited frames to a video (.mp4, .mkv, .mov: H.264; .avi: MJPEG).")
    var output: String?

    @Option(help: ArgumentHelp("Write one JSON line of anchors per frame (schema 1); '-' for stdout.", valueName: "file"))
    var anchors: String?

    @Option(help: ArgumentHelp("Write one JSON line of stage timings per frame.", valueName: "file"))
    var metrics: String?

    @Option(help: ArgumentHelp("Folder for snapshots (PNG), taken with the preview's s key or --snapshot-at. (default: .)", valueName: "dir"))
    var snapshots: String?

    /// Where snapshots go: the folder named, else the working folder.
    var snapshotFolder: String { snapshots ?? "." }

    @Option(parsing: .upToNextOption, help: ArgumentHelp("Frame numbers to snapshot.", valueName: "frame"))
    var snapshotAt: [Int] = []

    func validate() throws {
        if snapshotAt.contains(where: { $0 < 0 }) {
            throw ValidationError("--snapshot-at takes frame numbers from 0")
        }
    }
}

struct RunOptions: ParsableArguments {
    @OptionGroup var quality: QualityOptions

    @Option(help: "Mask on each face: ox, dragon, sheep, monkey, pig, or by-face (each face its own).")
    var mask: MaskSetting = .byFace

    @Flag(help: "Draw no masks or card effects (anchors only).")
    var noRender = false

    @Option(parsing: .unconditional, help: ArgumentHelp("Stop after this many frames.", valueName: "n"))
    var frames: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp("Find and follow faces and cards on a gray copy at most this many pixels on its long side (anchors stay in input pixels, rendering at the input's size): 160-8192, or 0 for the input's own size.", valueName: "px"))
    var analysisSize: Int = 640

    /// The analysis size's long side, nil for the input's own.
    var analysisLongestSide: Int? { analysisSize == 0 ? nil : analysisSize }

    @Option(parsing: .unconditional, help: ArgumentHelp("Stretch every stage to FACTOR times its measured cost, to preview a machine that much slower (1 = off).", valueName: "factor"))
    var emulateSlow: Double = 1

    @OptionGroup var runtime: RuntimeOptions

    var tier: TierSetting { quality.tier }
    var budgetMs: Double? { quality.budgetMs }
    var threads: Int {
        get { runtime.threads }
        set { runtime.threads = newValue }
    }

    enum MaskSetting: String, ExpressibleByArgument, CaseIterable {
        case byFace = "by-face", ox, dragon, sheep, monkey, pig
    }

    func validate() throws {
        if let frames, frames <= 0 { throw ValidationError("--frames must be at least 1") }
        if analysisSize != 0 && !(analysisSize >= 160 && analysisSize <= 8192) {
            throw ValidationError("--analysis-size must be 0 (the input's size) or between 160 and 8192 pixels")
        }
        if !(emulateSlow >= 1 && emulateSlow <= 50) { throw ValidationError("--emulate-slow must be between 1 and 50") }
    }

    /// Sets up logging and OpenCV for a run; call once, first.
    func configureProcess() -> Logger { runtime.configureProcess() }
}

/// The quality tier frames are processed at, and `auto`'s frame budget: pipeline runs and the
/// evaluations alike.
struct QualityOptions: ParsableArguments {
    @Option(help: "Quality tier: low, high or auto.")
    var tier: TierSetting = .low

    @Option(parsing: .unconditional, help: ArgumentHelp("Frame budget for --tier auto, in ms (default: one frame period of the input).", valueName: "ms"))
    var budgetMs: Double?

    func validate() throws {
        if let budgetMs, !(budgetMs > 0 && budgetMs <= 10_000) { throw ValidationError("--budget-ms must be more than 0 and at most 10000") }
    }
}

/// How much a run logs and how many threads OpenCV gets: pipeline runs and the evaluations alike
/// (the evaluations' sequences have their own length and size, so they take nothing else of
/// `RunOptions`).
struct RuntimeOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: ArgumentHelp("OpenCV worker threads (1 = as a weak single core runs it).", valueName: "n"))
    var threads: Int = 1

    @Flag(name: .shortAndLong, help: "More log lines (-v info, -vv debug, -vvv trace).")
    var verbose: Int

    @Flag(help: "Let OpenCV's and FFmpeg's own warnings through.")
    var libraryLogs = false

    func validate() throws {
        if threads < 1 || threads > 256 { throw ValidationError("--threads must be between 1 and 256") }
    }

    /// Sets up logging and OpenCV for a run; call once, first.
    func configureProcess() -> Logger {
        let level: Logger.Level = verbose >= 3 ? .trace : verbose == 2 ? .debug : verbose == 1 ? .info : .notice
        LoggingSystem.bootstrap { label in TerminalLogHandler(logLevel: level, label: label) }
        OpenCVRuntime.setLogging(warnings: libraryLogs)
        // No more than the CPUs there are: TBB refuses more with a warning of its own on stderr.
        OpenCVRuntime.setThreadCount(min(threads, max(1, ProcessInfo.processInfo.activeProcessorCount)))
        return Logger(label: "heritage-lens")
    }
}

/// How faces are found and followed.
struct FaceOptions: ParsableArguments {
    @Option(help: "Face detector: hog (dlib), lbp or haar (OpenCV cascades), or none to skip faces.")
    var detector: DetectorChoice = .hog

    @Option(parsing: .unconditional, help: ArgumentHelp("Smallest face to find, in input pixels between the eye centres (default: 28 at the analysis size, so 28 up to 640 px inputs, 56 at 1280x720).", valueName: "px"))
    var minEyeDistance: Double?

    @Option(parsing: .unconditional, help: ArgumentHelp("Most faces tracked at once.", valueName: "n"))
    var maxFaces: Int = 4

    @Option(help: ArgumentHelp("Camera calibration (OpenCV YAML) for poses; default: Calibration/ lookup, else a 62° field of view.", valueName: "file"))
    var calibration: String?

    @Flag(help: "Draw landmarks, boxes, ids, card outlines and pose axes on the output (a tracker check view).")
    var drawAnchors = false

    enum DetectorChoice: String, ExpressibleByArgument, CaseIterable {
        case hog, lbp, haar, none
    }

    func validate() throws {
        if let minEyeDistance, !(minEyeDistance >= 8 && minEyeDistance <= 500) {
            throw ValidationError("--min-eye-distance must be between 8 and 500 pixels")
        }
        if maxFaces < 1 || maxFaces > 16 { throw ValidationError("--max-faces must be between 1 and 16") }
    }
}

/// Which cards are looked for.
struct CardOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Folder of card images with cards.json (ids, images, widths in metres) (default: the project's Samples/cards, when it is there).", valueName: "dir"))
    var cards: String?

    @Flag(help: "Do not look for cards.")
    var noCards = false

    /// The folder to load, or nil for none.
    func folder() throws -> String? {
        if noCards { return nil }
        if let cards { return cards }
        let standard = ProjectAssets.path("Samples/cards")
        return FileManager.default.fileExists(atPath: standard + "/cards.json") ? standard : nil
    }
}

extension TierSetting: ExpressibleByArgument {}

/// A user-facing failure: printed as one line, exit status 1.
struct CommandFailure: Error, CustomStringConvertible {
    let description: String
    init(_ message: String) { description = message }
}

/// A command line that names something that is not there (a sequence): exit status 64, as
/// ArgumentParser gives for a value out of range.
struct UsageFailure: Error, CustomStringConvertible {
    let description: String
    init(_ message: String) { description = message }
}

/// Prints `error` as one line on stderr and exits non-zero; ArgumentParser's own errors pass.
func exitWithOneLine(_ error: Error) -> Never {
    var text: String
    if let e = error as? PipelineError {
        text = "\(e.underlying)"
        // On the same line: a second line before the error read as a separate event.
        let n = e.summary.framesProcessed
        if n > 0 { text += " (stopped after \(n) frame\(n == 1 ? "" : "s"); the outputs written so far are closed and readable)" }
    } else {
        text = "\(error)"
    }
    FileHandle.standardError.write(Data("heritage-lens: error: \(text)\n".utf8))
    exit(error is UsageFailure ? 64 : 1)
}
