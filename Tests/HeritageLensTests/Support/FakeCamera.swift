import Foundation
import HeritageCore
@testable import HeritageLens
@testable import HeritageTooling

/// The camera emulator (Tools/fake-camera, docs/camera.md) around a `heritage-lens` process: it
/// builds the emulator, runs the command with it preloaded and an emulated webcam at /dev/video0,
/// and hands back what the command printed and what the emulator logged.
enum FakeCamera {
    enum Failure: Error, CustomStringConvertible {
        case build(String)
        case missingBinary(String)
        case timedOut([String], seconds: Double)

        var description: String {
            switch self {
            case .build(let output): return "the camera emulator did not build: \(output)"
            case .missingBinary(let path): return "\(path) missing: the heritage-lens executable is built with the tests"
            case .timedOut(let args, let seconds): return "heritage-lens \(args.joined(separator: " ")) ran over \(seconds) s"
            }
        }
    }

    /// What one command under the emulator did.
    struct Run {
        /// The arguments as run: output names (-o, --anchors, --metrics, --report) made paths in `folder`.
        var arguments: [String]
        var status: Int32
        var stdout: String
        var stderr: String
        var log: FakeCameraLog
        /// The scratch folder the command's outputs went to.
        var folder: String

        /// Where the run wrote the output given to `option`.
        func output(_ option: String) -> String { arguments[arguments.firstIndex(of: option)! + 1] }
    }

    /// The emulator library, built once per test process by Tools/fake-camera/build.sh (which
    /// only rebuilds when a source changed).
    static let library: Result<String, Failure> = {
        let script = (TestPaths.packageRoot as NSString).appendingPathComponent("Tools/fake-camera/build.sh")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [script]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        do {
            try process.run()
        } catch {
            return .failure(.build("\(error)"))
        }
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let path = text.split(separator: "\n").last.map(String.init) ?? ""
        guard process.terminationStatus == 0, FileManager.default.fileExists(atPath: path) else { return .failure(.build(text)) }
        return .success(path)
    }()

    /// `heritage-lens` as `swift test` built it: beside the test bundle.
    static var binary: String {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        return bundle.appendingPathComponent("heritage-lens").path
    }

    /// Runs `heritage-lens ARGS` with the emulated camera showing `video`, outputs going to a fresh
    /// scratch folder. `faults` are FAKECAM_FAULTS entries; `formats` restricts the offered formats
    /// ("yuyv"); `stamp` draws each frame's sequence number into it (see `SequenceStamps`);
    /// `interruptWhen` sends Ctrl-C once what the command printed to stderr so far satisfies it
    /// (to stdout, with `watchingStandardOutput`).
    static func run(_ arguments: [String], video: String, faults: [String] = [], formats: String = "",
                    stamp: Bool = false, timeout: Double = 60, interruptWhen: (@Sendable (String) -> Bool)? = nil,
                    watchingStandardOutput: Bool = false, name: String = #function) async throws -> Run {
        let library = try Self.library.get()
        guard FileManager.default.isExecutableFile(atPath: binary) else { throw Failure.missingBinary(binary) }
        let folder = TestPaths.scratch(name)
        var arguments = arguments
        for i in arguments.indices.dropLast()
        where ["-o", "--output", "--anchors", "--metrics", "--report"].contains(arguments[i]) && !arguments[i + 1].hasPrefix("/") {
            arguments[i + 1] = (folder as NSString).appendingPathComponent(arguments[i + 1])
        }
        let logPath = (folder as NSString).appendingPathComponent("fakecam.log")
        let outPath = (folder as NSString).appendingPathComponent("stdout.txt")
        let errPath = (folder as NSString).appendingPathComponent("stderr.txt")
        for file in [outPath, errPath] where !FileManager.default.createFile(atPath: file, contents: nil) {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: file])
        }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: TestPaths.packageRoot)
        var environment = ProcessInfo.processInfo.environment
        environment["LD_PRELOAD"] = [library, environment["LD_PRELOAD"]].compactMap { $0 }.joined(separator: ":")
        environment["FAKECAM_VIDEO"] = video
        environment["FAKECAM_DEVICE"] = "/dev/video0"
        environment["FAKECAM_FAULTS"] = faults.joined(separator: ";")
        environment["FAKECAM_FORMATS"] = formats
        environment["FAKECAM_STAMP"] = stamp ? "1" : ""
        environment["FAKECAM_LOG"] = logPath
        environment["DISPLAY"] = nil
        environment["WAYLAND_DISPLAY"] = nil
        process.environment = environment
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))

        // Waited for without holding a thread: camera runs take seconds of real time.
        let overran = Flag()
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do {
                try launch(process)
            } catch {
                process.terminationHandler = nil
                continuation.resume(throwing: error)
                return
            }
            if let interruptWhen {
                @Sendable func poll() {
                    guard process.isRunning else { return }
                    let watched = watchingStandardOutput ? outPath : errPath
                    if interruptWhen((try? String(contentsOfFile: watched, encoding: .utf8)) ?? "") {
                        process.interrupt()
                    } else {
                        DispatchQueue.global().asyncAfter(deadline: .now() + 0.1, execute: poll)
                    }
                }
                DispatchQueue.global().async(execute: poll)
            }
            // Ctrl-C first (the run finalizes its outputs), then SIGKILL.
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { [process] in
                guard process.isRunning else { return }
                overran.set()
                process.interrupt()
                DispatchQueue.global().asyncAfter(deadline: .now() + 5) {
                    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
                }
            }
        }
        if overran.value { throw Failure.timedOut(arguments, seconds: timeout) }
        let read = { (path: String) in (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
        return Run(arguments: arguments, status: status, stdout: read(outPath), stderr: read(errPath), log: FakeCameraLog(text: read(logPath)),
                   folder: folder)
    }

    /// Starts `process` from a thread that blocks no signal: a child inherits the signal mask of
    /// the thread that starts it, and the threads tests run on block SIGINT and SIGTERM, which
    /// would leave a run that overran deaf to being stopped.
    private static func launch(_ process: Process) throws {
        let failure = Box<Error?>(nil)
        let started = DispatchSemaphore(value: 0)
        let thread = Thread {
            var none = sigset_t()
            sigemptyset(&none)
            pthread_sigmask(SIG_SETMASK, &none, nil)
            do { try process.run() } catch { failure.value = error }
            started.signal()
        }
        thread.start()
        started.wait()
        if let error = failure.value { throw error }
    }

    private final class Box<T>: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: T
        init(_ value: T) { stored = value }
        var value: T {
            get { lock.withLock { stored } }
            set { lock.withLock { stored = newValue } }
        }
    }

    private final class Flag: @unchecked Sendable {
        private let box = Box(false)
        var value: Bool { box.value }
        func set() { box.value = true }
    }

    /// The project's sample (portrait and card): Samples/sample.mp4 when it was made, else made
    /// once per test process; nil without Debian's portrait (scripts/fetch-debian-assets.sh).
    static let sample: String? = {
        let made = (TestPaths.packageRoot as NSString).appendingPathComponent("Samples/sample.mp4")
        if FileManager.default.fileExists(atPath: made) { return made }
        guard TestPaths.debianAsset("astronaut.png") != nil else { return nil }
        let path = (TestPaths.scratch("fake-camera-sample") as NSString).appendingPathComponent("sample.mp4")
        do {
            try SampleVideo().write(to: path)
        } catch {
            return nil
        }
        return path
    }()

    /// A plain test picture in motion (GeneratedVideo), for runs that need frames, not content.
    static let plain: String = {
        let path = (TestPaths.scratch("fake-camera-plain") as NSString).appendingPathComponent("plain.mp4")
        try! GeneratedVideo.write(to: path, frames: 60, size: Size(width: 640, height: 480), fps: 30)
        return path
    }()

    /// The lines of a JSON-lines output (anchors, metrics), decoded.
    static func jsonLines(_ path: String) throws -> [[String: Any]] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
        }
    }
}
