import ArgumentParser
import Foundation
import HeritageCore
import HeritageLens

struct Kernels: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Micro-benchmarks of the hot kernels, one at a time, on a frame of a video.",
        discussion: """
            Takes a frame of the input (the sample by default) where a face and a card are tracked, \
            then times each kernel on it alone: conversion, detection, landmark fit, pose, matching, \
            tracking, mask warps and card effects per tier, and the whole per-frame path. Pinned to one \
            CPU with OpenCV single-threaded, like bench. Each kernel's measured calls run inside one \
            call of the C function cb_bench_section, so callgrind can count their instructions \
            alone: scripts/callgrind-kernels.sh does that for every kernel.
            """
    )

    @Argument(help: "A recorded video to take the frame from.")
    var input: String = "Samples/sample.mp4"

    @Option(name: .customLong("kernel"), parsing: .upToNextOption,
            help: ArgumentHelp("Kernels to run (default: all; see --list).", valueName: "name"))
    var names: [String] = []

    @Option(parsing: .unconditional, help: ArgumentHelp("Measured calls per kernel.", valueName: "n"))
    var iterations = 200

    @Option(parsing: .unconditional, help: ArgumentHelp("Unmeasured calls first (caches, lazy set-up).", valueName: "n"))
    var warmup = 10

    @Option(parsing: .unconditional, help: ArgumentHelp("CPU to pin to (default: 1 when there are two or more, else 0).", valueName: "n"))
    var cpu: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp("Frame of the input to measure on (a face and a card must be tracked there).", valueName: "n"))
    var atFrame = 45

    @Flag(help: "List the kernels and exit.")
    var list = false

    @Option(help: ArgumentHelp("Write the figures as JSON.", valueName: "file"))
    var json: String?

    func validate() throws {
        if !(1...1_000_000).contains(iterations) { throw ValidationError("--iterations must be between 1 and 1000000") }
        if !(0...100_000).contains(warmup) { throw ValidationError("--warmup must be between 0 and 100000") }
        if atFrame < 1 { throw ValidationError("--at-frame must be at least 1") }
        let known = Set(KernelCatalog.all.map(\.name))
        if let bad = names.first(where: { !known.contains($0) }) {
            throw ValidationError("--kernel \(bad): unknown; one of \(KernelCatalog.all.map(\.name).joined(separator: ", "))")
        }
    }

    func run() throws {
        if list {
            for k in KernelCatalog.all { print(k.name.padding(toLength: KernelResult.nameWidth + 1, withPad: " ", startingAt: 0) + k.summary) }
            return
        }
        do {
            let choice = try CPUChoice.current()
            let target = try cpu.map { try choice.pick(exactly: $0, option: "--cpu") } ?? choice.pick(1, option: "--cpu")
            _ = try RunOptions.parse([]).configureProcess()
            let input = self.input == "Samples/sample.mp4" ? ProjectAssets.path(self.input) : self.input
            var plan = OutputPlan()
            plan.input("VIDEO", input)
            plan.output("--json", json)
            try plan.check()
            try CPUChoice.pin(target, option: "--cpu")
            if input.hasSuffix("Samples/sample.mp4") && !FileManager.default.fileExists(atPath: input) {
                throw CommandFailure("\(input): the sample has not been made yet; run 'heritage-lens sample' (or scripts/setup.sh)")
            }
            FileHandle.standardError.write(Data("kernels: preparing frame \(atFrame) of \(input)\n".utf8))
            let fixture = try KernelFixture(video: input, frame: atFrame)
            let selected = names.isEmpty ? KernelCatalog.all : KernelCatalog.all.filter { names.contains($0.name) }
            var results: [KernelResult] = []
            print("kernel" + String(repeating: " ", count: KernelResult.nameWidth - 6) + "  p50 ms   p99 ms   min ms   calls  what")
            for kernel in selected {
                let body = try kernel.make(fixture)
                for _ in 0..<warmup { try body() }
                let samples = try measure(body)
                let result = KernelResult(name: kernel.name, summary: kernel.summary, milliseconds: samples)
                print(result.row)
                results.append(result)
            }
            print("CPU \(CPUChoice.list(target)), OpenCV 1 thread, dlib HOG \(FaceModelFiles.hogKernel.rawValue), \(iterations) calls each after \(warmup) warm-up; frame \(atFrame) of \(input)")
            if let json {
                let rows = results.map { r in
                    "    {\"kernel\": \"\(r.name)\", \"p50_ms\": \(r.p50), \"p99_ms\": \(r.p99), \"min_ms\": \(r.min), \"calls\": \(r.milliseconds.count)}"
                }
                let text = "{\n  \"cpu\": \(target[0]),\n  \"frame\": \(atFrame),\n  \"kernels\": [\n\(rows.joined(separator: ",\n"))\n  ]\n}\n"
                try WholeFile.write(text, to: json)
            }
        } catch {
            exitWithOneLine(error)
        }
    }

    /// Runs `iterations` timed calls inside one profiler section (callgrind's window).
    private func measure(_ body: () throws -> Void) throws -> [Double] {
        var samples: [Double] = []
        samples.reserveCapacity(iterations)
        var failure: Error?
        let clock = SystemClock()
        ProfilerSection.run {
            do {
                for _ in 0..<iterations {
                    let start = clock.nanoseconds()
                    try body()
                    samples.append(Double(clock.nanoseconds() - start) / 1e6)
                }
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        return samples
    }
}

/// One kernel's timings.
struct KernelResult {
    let name: String
    let summary: String
    let milliseconds: [Double]

    var p50: Double { Percentiles(milliseconds).value(at: 50) ?? 0 }
    var p99: Double { Percentiles(milliseconds).value(at: 99) ?? 0 }
    var min: Double { milliseconds.min() ?? 0 }

    /// The longest kernel name, so every row's figures line up.
    static let nameWidth = max(15, KernelCatalog.all.map(\.name.count).max() ?? 0)

    var row: String {
        let n = name.padding(toLength: Self.nameWidth, withPad: " ", startingAt: 0)
        return n + String(format: "%8.3f %8.3f %8.3f %7d  ", p50, p99, min, milliseconds.count) + summary
    }
}
