import ArgumentParser
import Foundation
import HeritageCore
import HeritageLens
import HeritageTooling

struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Measure the full pipeline on a recorded video, as weak hardware would run it.",
        discussion: """
            Pins itself to N of the CPUs it may run on (one by default: the second of them when \
            there are several, so under taskset -c 0 it stays on CPU 0) with OpenCV on as many \
            threads, runs capture, faces, cards, pose and render on the input (the sample by \
            default) and reports per-stage and end-to-end p50/p95/p99/max, throughput, dropped \
            frames, CPU per frame, peak memory, when the first face and card were anchored, and in \
            auto mode the tier timeline. --paced (default) releases frames at the video's rate like \
            a camera, with detection in idle time; --max runs flat out with detection inline. \
            --cpu-share F previews a slower machine: everything on F of one core.
            """
    )

    enum BenchTier: String, ExpressibleByArgument, CaseIterable { case low, high, auto, all }

    @Argument(help: "A recorded video.")
    var input: String = "Samples/sample.mp4"

    @Option(help: "Tier to measure, or all to run low, high and auto back to back.")
    var tier: BenchTier = .all

    @Option(parsing: .unconditional, help: ArgumentHelp("CPUs to run on (and OpenCV threads).", valueName: "n"))
    var cores: Int = 1

    @Option(parsing: .unconditional, help: ArgumentHelp("Frames per tier, the input looped when it has fewer (default: the whole input once). More frames make a steadier p99: of 180 it is the second-worst frame.", valueName: "n"))
    var frames: Int?

    @Flag(help: "Release frames at the video's rate (--paced, default) or as fast as possible (--max).")
    var pacing: Pacing = .paced

    enum Pacing: String, EnumerableFlag { case paced, max }

    @Option(parsing: .unconditional, help: ArgumentHelp("Frame budget for the auto tier and the plot, ms (default: one frame period).", valueName: "ms"))
    var budgetMs: Double?

    @Option(parsing: .unconditional, help: ArgumentHelp("Stretch every stage to FACTOR times its cost, to preview how a machine that much slower (and its auto tier) would fare.", valueName: "factor"))
    var emulateSlow: Double = 1

    @Option(parsing: .unconditional, help: ArgumentHelp("Run on this fraction of one CPU (a cgroup CPU quota, needs root): frame path, detection and decoding all slowed together, as on a slower machine; 0.05-1, 0.25 is about a Raspberry Pi 4 core.", valueName: "fraction"))
    var cpuShare: Double?

    @Option(parsing: .unconditional, help: ArgumentHelp("Long side of the gray copy faces and cards are found on: 160-8192, or 0 for the input's size.", valueName: "px"))
    var analysisSize: Int = 640

    @Flag(help: "Also write the composited video and anchors (to a temporary folder), as a real run would.")
    var sinks = false

    @Option(help: ArgumentHelp("Write the full report as JSON.", valueName: "file"))
    var json: String?

    @Option(help: ArgumentHelp("Write per-frame latency and the histogram as SVG.", valueName: "file"))
    var plot: String?

    @Option(help: ArgumentHelp("Write each frame's stage times as JSON lines (one file per tier: FILE with the tier before its extension when more than one tier runs), to find what the worst frames spent their time on.", valueName: "file"))
    var metrics: String?

    @OptionGroup var faces: FaceOptions
    @OptionGroup var cards: CardOptions

    func validate() throws {
        if cores < 1 { throw ValidationError("--cores must be at least 1") }
        if let frames, frames < 1 { throw ValidationError("--frames must be at least 1") }
        if let budgetMs, !(budgetMs > 0) { throw ValidationError("--budget-ms must be positive") }
        if !(emulateSlow >= 1 && emulateSlow <= 50) { throw ValidationError("--emulate-slow must be between 1 and 50") }
        if let cpuShare, !(cpuShare >= 0.05 && cpuShare <= 1) {
            throw ValidationError("--cpu-share must be between 0.05 and 1 (a fraction of one CPU; 0.25 is about a Raspberry Pi 4 core)")
        }
    }

    func run() throws {
        do {
            let cpus = try CPUChoice.current().pick(cores, option: "--cores")
            let input = self.input == "Samples/sample.mp4" ? ProjectAssets.path(self.input) : self.input
            if input.hasSuffix("Samples/sample.mp4") && !FileManager.default.fileExists(atPath: input) {
                throw CommandFailure("\(input): the sample has not been made yet; run 'heritage-lens sample' (or scripts/setup.sh)")
            }
            let tiers: [TierSetting] = tier == .all ? [.low, .high, .auto] : [TierSetting(rawValue: tier.rawValue)!]
            // Every output checked before the runs: a bad path fails now, not after minutes.
            var plan = OutputPlan()
            plan.input("VIDEO", input)
            plan.output("--json", json)
            plan.output("--plot", plot)
            for t in tiers { plan.output("--metrics", metrics.map { tiers.count > 1 ? Self.path($0, taggedWith: t.rawValue) : $0 }) }
            try plan.check()
            try CPUChoice.pin(cpus, option: "--cores")
            // Kept until the report is written; released (the group removed) when it goes.
            let quota = try cpuShare.map { share throws(CPUQuota.Failure) in try CPUQuota(fraction: share) }
            defer { quota?.release() }
            let pinned = CPUChoice.list(cpus) + (quota.map { " at \(Int(($0.fraction * 100).rounded())) % (cgroup CPU quota)" } ?? "")
            var runs: [BenchRun] = []
            for t in tiers {
                var args = ["--tier", t.rawValue, "--threads", "\(cores)", "--emulate-slow", "\(emulateSlow)",
                            "--analysis-size", "\(analysisSize)"]
                if let frames { args += ["--frames", "\(frames)"] }
                if let budgetMs { args += ["--budget-ms", "\(budgetMs)"] }
                let options = try RunOptions.parse(args)
                if runs.isEmpty { _ = options.configureProcess() }
                runs.append(try measure(t, options: options, input: input,
                                        metricsPath: metrics.map { tiers.count > 1 ? Self.path($0, taggedWith: t.rawValue) : $0 }))
                FileHandle.standardError.write(Data("bench: tier \(t.rawValue) done\n".utf8))
            }
            let machine = MachineInfo.current(pinned: pinned)
            print(BenchReport.table(runs: runs, machine: machine))
            if let json {
                try WholeFile.write(BenchReport.json(runs: runs, machine: machine, input: input, paced: pacing == .paced), to: json)
            }
            if let plot { try WholeFile.write(LatencyPlot.svg(runs: runs), to: plot) }
        } catch {
            exitWithOneLine(error)
        }
    }

    /// `bench.jsonl` tagged `low` is `bench-low.jsonl`.
    static func path(_ path: String, taggedWith tag: String) -> String {
        let url = URL(fileURLWithPath: path)
        let ext = url.pathExtension
        let stem = url.deletingPathExtension().path
        return ext.isEmpty ? "\(stem)-\(tag)" : "\(stem)-\(tag).\(ext)"
    }

    private func measure(_ t: TierSetting, options: RunOptions, input: String, metricsPath: String?) throws -> BenchRun {
        let paced = pacing == .paced
        // More frames than the input has: the input again, as a looping kiosk would play it.
        let source = try VideoFileSource(path: input, options: .init(realtime: paced, loop: frames != nil))
        let scratch = sinks ? try BenchScratch() : nil
        defer { scratch?.remove() }
        var outputs = try OutputOptions.parse([])
        if let scratch {
            outputs = try OutputOptions.parse(["-o", scratch.path + "/out.mp4", "--anchors", scratch.path + "/anchors.jsonl"])
        }
        let assembly = PipelineAssembly(source: source, outputs: outputs, run: options, faces: faces, cards: cards,
                                        cameraName: nil, backgroundDetection: paced, preview: false,
                                        logger: .init(label: "heritage-lens.bench"))
        let configuration = try assembly.makeConfiguration(intrinsics: assembly.intrinsics())
        let recorder = BenchRecorder()
        var sinkList: [FrameSink] = [recorder]
        if let scratch {
            sinkList.append(try VideoFileSink(path: scratch.path + "/out.mp4", size: source.size, framesPerSecond: source.framesPerSecond))
            sinkList.append(try AnchorsSink(path: scratch.path + "/anchors.jsonl"))
        }
        let metricsSink = try metricsPath.map { try MetricsSink(path: $0) }
        let pipeline = try configuration.makePipeline(source: source, sinks: sinkList, metrics: metricsSink,
                                                      options: .init(tier: t == .high ? .high : .low, frameLimit: frames),
                                                      logger: .component("pipeline"))
        let budget = options.budgetMs ?? 1000 / max(1, source.framesPerSecond)
        if t == .auto { pipeline.setTier(.auto, budgetMilliseconds: budget) }
        pipeline.options.slowdown = options.emulateSlow
        pipeline.onFrame = { recorder.record($0) }
        let cpu0 = ProcessResources.cpuNanoseconds
        let summary = try pipeline.run()
        let cpu = Double(ProcessResources.cpuNanoseconds - cpu0) / 1e9
        return BenchRun(tier: t.rawValue, recorder: recorder, dropped: summary.framesDropped, wallSeconds: summary.wallSeconds,
                        processCPUSeconds: cpu, peakRSSMegabytes: ProcessResources.peakResidentMegabytes,
                        budgetMilliseconds: budget)
    }
}
