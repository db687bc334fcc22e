import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs the built `heritage-lens` the way a user does: a child process with arguments, its
/// stdout and stderr captured, its exit status or the signal that ended it.
///
/// The binary is the one SwiftPM built beside this test bundle (`swift test` builds every
/// product), else `.build/debug/heritage-lens` in the package.
enum CLI {
    struct Result {
        var status: Int32
        /// The signal that ended the process, when one did (not an exit).
        var signal: Int32?
        var stdout: Data
        var stderr: String
        var seconds: Double

        var stderrLines: [String] { stderr.split(separator: "\n").map(String.init) }
    }

    static let binary: String = {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        if n > 0 {
            let exe = String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            var folder = (exe as NSString).deletingLastPathComponent
            // xctest bundles on Linux are a file; some toolchains nest them in a folder.
            for _ in 0..<3 {
                let candidate = (folder as NSString).appendingPathComponent("heritage-lens")
                if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
                folder = (folder as NSString).deletingLastPathComponent
            }
        }
        return TestPaths.packageRoot + "/.build/debug/heritage-lens"
    }()

    static var available: Bool { FileManager.default.isExecutableFile(atPath: binary) }

    /// A running child: signal it, wait for it, watch its files. Its stdout and stderr go to
    /// files (not pipes, whose end a grandchild could hold open).
    final class Child: @unchecked Sendable {
        let process = Foundation.Process()
        private let outPath: String, errPath: String
        private let started = Date()

        init(_ arguments: [String], in folder: String, environment: [String: String] = [:], wrapper: [String] = []) throws {
            if wrapper.isEmpty {
                process.executableURL = URL(fileURLWithPath: CLI.binary)
                process.arguments = arguments
            } else {
                process.executableURL = URL(fileURLWithPath: wrapper[0])
                process.arguments = Array(wrapper.dropFirst()) + [CLI.binary] + arguments
            }
            process.currentDirectoryURL = URL(fileURLWithPath: folder)
            var env = ProcessInfo.processInfo.environment
            for (k, v) in environment { env[k] = v }
            process.environment = env
            let capture = TestPaths.scratch("cli-output")
            outPath = capture + "/stdout"
            errPath = capture + "/stderr"
            _ = FileManager.default.createFile(atPath: outPath, contents: nil)
            _ = FileManager.default.createFile(atPath: errPath, contents: nil)
            process.standardOutput = FileHandle(forWritingAtPath: outPath)
            process.standardError = FileHandle(forWritingAtPath: errPath)
            process.standardInput = FileHandle.nullDevice
            try process.run()
        }

        var pid: Int32 { process.processIdentifier }
        func send(_ signal: Int32) { kill(process.processIdentifier, signal) }

        var stderrSoFar: String { String(decoding: FileManager.default.contents(atPath: errPath) ?? Data(), as: UTF8.self) }

        /// Waits up to `timeout` seconds for `condition`, polling.
        @discardableResult
        func waitUntil(timeout: Double, _ condition: () -> Bool) -> Bool {
            let end = Date().addingTimeInterval(timeout)
            while Date() < end {
                if condition() { return true }
                if !process.isRunning { return condition() }
                usleep(20_000)
            }
            return false
        }

        func wait(timeout: Double = 300) -> Result {
            let end = Date().addingTimeInterval(timeout)
            while process.isRunning && Date() < end { usleep(10_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            let bySignal = process.terminationReason == .uncaughtSignal
            return Result(status: bySignal ? 128 + process.terminationStatus : process.terminationStatus,
                          signal: bySignal ? process.terminationStatus : nil,
                          stdout: FileManager.default.contents(atPath: outPath) ?? Data(), stderr: stderrSoFar,
                          seconds: Date().timeIntervalSince(started))
        }
    }

    /// Runs to the end (at most `timeout` seconds).
    static func run(_ arguments: [String], in folder: String, environment: [String: String] = [:],
                    wrapper: [String] = [], timeout: Double = 300) throws -> Result {
        try Child(arguments, in: folder, environment: environment, wrapper: wrapper).wait(timeout: timeout)
    }

    /// A short sample video (the `sample` command's own), made once per test run and copied
    /// into `folder`.
    static func sample(in folder: String, name: String = "in.mp4") throws -> String {
        let path = (folder as NSString).appendingPathComponent(name)
        try FileManager.default.copyItem(atPath: sharedSample, toPath: path)
        return path
    }

    nonisolated(unsafe) private static var madeSample: String?
    private static let sampleLock = NSLock()
    private static var sharedSample: String {
        sampleLock.lock(); defer { sampleLock.unlock() }
        if let made = madeSample { return made }
        let dir = TestPaths.scratch("cli-sample")
        let result = try? run(["sample", "-o", "sample.mp4", "--frames", "150"], in: dir)
        precondition(result?.status == 0, "heritage-lens sample failed: \(result?.stderr ?? "did not run")")
        madeSample = dir + "/sample.mp4"
        return madeSample!
    }

    /// Whole lines of a text file, and whether it ends with a newline.
    static func lines(of path: String) -> (lines: [String], endsWhole: Bool) {
        let data = FileManager.default.contents(atPath: path) ?? Data()
        let text = String(decoding: data, as: UTF8.self)
        return (text.split(separator: "\n").map(String.init), text.isEmpty || text.hasSuffix("\n"))
    }
}
