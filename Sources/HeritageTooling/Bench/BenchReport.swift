import HeritageLens
import Foundation
import HeritageCore

/// One tier's run of `bench`: every figure the report carries.
public struct BenchRun {
    public var tier: String
    public var frames: Int
    public var dropped: Int
    public var wallSeconds: Double
    public var total: LatencySummary?
    public var stages: [(name: String, summary: LatencySummary)]
    public var background: [(name: String, summary: LatencySummary)]
    public var cpuPerFrame: LatencySummary?
    /// CPU of all threads (idle-time detection included) per processed frame, ms.
    public var processCPUPerFrame: Double
    public var peakRSSMegabytes: Double
    public var faceAcquireMilliseconds: Double?
    public var cardAcquireMilliseconds: Double?
    public var tierTimeline: [(frame: Int, tier: String)]
    public var budgetMilliseconds: Double
    public var recorder: BenchRecorder

    public var throughput: Double { wallSeconds > 0 ? Double(frames) / wallSeconds : 0 }

    public init(tier: String, recorder: BenchRecorder, dropped: Int, wallSeconds: Double, processCPUSeconds: Double,
                peakRSSMegabytes: Double, budgetMilliseconds: Double) {
        self.tier = tier
        self.recorder = recorder
        frames = recorder.totals.count
        self.dropped = dropped
        self.wallSeconds = wallSeconds
        total = LatencySummary(recorder.totals)
        stages = recorder.stageOrder.compactMap { name in LatencySummary(recorder.stageSamples[name] ?? []).map { (name, $0) } }
        background = recorder.backgroundSamples.keys.sorted().compactMap { name in
            LatencySummary(recorder.backgroundSamples[name] ?? []).map { (name, $0) }
        }
        cpuPerFrame = LatencySummary(Array(recorder.cpuPerFrame.dropFirst()))
        processCPUPerFrame = frames > 0 ? processCPUSeconds * 1000 / Double(frames) : 0
        self.peakRSSMegabytes = peakRSSMegabytes
        faceAcquireMilliseconds = recorder.firstFaceTime.map { $0 * 1000 }
        cardAcquireMilliseconds = recorder.firstCardTime.map { $0 * 1000 }
        tierTimeline = recorder.tierTimeline
        self.budgetMilliseconds = budgetMilliseconds
    }
}

/// The machine a bench ran on.
public struct MachineInfo {
    public var cpuModel: String
    public var onlineCPUs: Int
    public var pinnedCPUs: String
    public var openCVVersion: String
    public var openCVBuild: [String]
    /// How dlib's HOG search ran (baseline or avx2).
    public var hogKernel: String

    public static func current(pinned: String) -> MachineInfo {
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model = cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
            .map { String($0.split(separator: ":", maxSplits: 1).last ?? "").trimmingCharacters(in: .whitespaces) } ?? "unknown"
        let build = OpenCVRuntime.buildInformation
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { $0.hasPrefix("Baseline") || $0.hasPrefix("Dispatched code") || $0.hasPrefix("Parallel framework")
                || $0.hasPrefix("Version control") }
        return MachineInfo(cpuModel: model, onlineCPUs: ProcessInfo.processInfo.activeProcessorCount, pinnedCPUs: pinned,
                           openCVVersion: OpenCVRuntime.version, openCVBuild: build,
                           hogKernel: FaceModelFiles.hogKernel.rawValue)
    }
}


/// `bench`'s report as JSON and as a table.
public enum BenchReport {
    static func write(_ s: LatencySummary?, into j: inout JSONLineBuilder) {
        guard let s else {
            j.raw("null")
            return
        }
        j.raw("{")
        j.key("count"); j.int(s.count)
        for (k, v) in [("mean", s.mean), ("p50", s.p50), ("p95", s.p95), ("p99", s.p99), ("max", s.max)] {
            j.key(k); j.number(v, decimals: 3)
        }
        j.raw("}")
    }

    public static func json(runs: [BenchRun], machine: MachineInfo, input: String, paced: Bool) -> String {
        var j = JSONLineBuilder()
        j.raw("{")
        j.key("input"); j.string(input)
        j.key("paced"); j.raw(paced ? "true" : "false")
        j.key("machine"); j.raw("{")
        j.key("cpu"); j.string(machine.cpuModel)
        j.key("online_cpus"); j.int(machine.onlineCPUs)
        j.key("pinned_cpus"); j.string(machine.pinnedCPUs)
        j.key("opencv"); j.string(machine.openCVVersion)
        j.key("dlib_hog_kernel"); j.string(machine.hogKernel)
        j.key("opencv_build"); j.raw("[")
        for (i, line) in machine.openCVBuild.enumerated() {
            if i > 0 { j.raw(",") }
            j.string(line)
        }
        j.raw("]}")
        j.key("runs"); j.raw("[")
        for (i, r) in runs.enumerated() {
            if i > 0 { j.raw(",") }
            j.raw("{")
            j.key("tier"); j.string(r.tier)
            j.key("frames"); j.int(r.frames)
            j.key("dropped"); j.int(r.dropped)
            j.key("wall_s"); j.number(r.wallSeconds, decimals: 3)
            j.key("throughput_fps"); j.number(r.throughput, decimals: 2)
            j.key("budget_ms"); j.number(r.budgetMilliseconds, decimals: 2)
            j.key("total_ms"); write(r.total, into: &j)
            j.key("stages_ms"); j.raw("{")
            for (name, s) in r.stages { j.key(name); write(s, into: &j) }
            j.raw("}")
            j.key("background_ms"); j.raw("{")
            for (name, s) in r.background { j.key(name); write(s, into: &j) }
            j.raw("}")
            j.key("cpu_ms_per_frame"); write(r.cpuPerFrame, into: &j)
            j.key("process_cpu_ms_per_frame"); j.number(r.processCPUPerFrame, decimals: 3)
            j.key("peak_rss_mb"); j.number(r.peakRSSMegabytes, decimals: 1)
            j.key("face_acquire_ms"); r.faceAcquireMilliseconds.map { j.number($0, decimals: 1) } ?? j.raw("null")
            j.key("card_acquire_ms"); r.cardAcquireMilliseconds.map { j.number($0, decimals: 1) } ?? j.raw("null")
            j.key("tier_timeline"); j.raw("[")
            for (k, t) in r.tierTimeline.enumerated() {
                if k > 0 { j.raw(",") }
                j.raw("{"); j.key("frame"); j.int(t.frame); j.key("tier"); j.string(t.tier); j.raw("}")
            }
            j.raw("]}")
        }
        j.raw("]}")
        return j.text + "\n"
    }

    public static func table(runs: [BenchRun], machine: MachineInfo) -> String {
        func f(_ v: Double?) -> String { v.map { String(format: "%.2f", $0) } ?? "-" }
        func pad(_ s: String, _ n: Int, left: Bool = false) -> String {
            let p = String(repeating: " ", count: max(0, n - s.count))
            return left ? s + p : p + s
        }
        var lines = ["machine: \(machine.cpuModel), \(machine.onlineCPUs) CPUs, pinned to \(machine.pinnedCPUs); OpenCV \(machine.openCVVersion); dlib HOG \(machine.hogKernel)"]
        for r in runs {
            lines.append("")
            lines.append("tier \(r.tier): \(r.frames) frames in \(String(format: "%.1f", r.wallSeconds)) s (\(String(format: "%.1f", r.throughput)) fps), \(r.dropped) dropped, budget \(f(r.budgetMilliseconds)) ms")
            lines.append(pad("stage (ms)", 14, left: true) + ["p50", "p95", "p99", "max"].map { pad($0, 9) }.joined())
            let rows = r.stages.map { ($0.name, Optional($0.summary)) } + [("end to end", r.total)]
                + r.background.map { ("bg " + $0.name, Optional($0.summary)) }
            for (name, s) in rows {
                lines.append(pad(name, 14, left: true) + [s?.p50, s?.p95, s?.p99, s?.max].map { pad(f($0), 9) }.joined())
            }
            lines.append("CPU per frame: \(f(r.cpuPerFrame?.mean)) ms on the frame thread, \(f(r.processCPUPerFrame)) ms all threads; peak RSS \(String(format: "%.0f", r.peakRSSMegabytes)) MB")
            lines.append("first face anchor at \(r.faceAcquireMilliseconds.map { String(format: "%.0f ms", $0) } ?? "-"), first card anchor at \(r.cardAcquireMilliseconds.map { String(format: "%.0f ms", $0) } ?? "-")")
            if r.tier == "auto" || r.tierTimeline.count > 1 {
                lines.append("tier timeline: " + r.tierTimeline.map { "\($0.tier) from frame \($0.frame)" }.joined(separator: ", "))
            }
        }
        let low = runs.first { $0.tier == "low" }, high = runs.first { $0.tier == "high" }
        if let low, let high, let lt = low.total, let ht = high.total {
            lines.append("")
            lines.append("high / low ratios")
            let e2e = ht.ratio(to: lt)
            lines.append(pad("end to end", 14, left: true) + [e2e.p50, e2e.p95, e2e.p99, e2e.max].map { pad(f($0), 9) }.joined())
            if let hr = high.stages.first(where: { $0.name == "render" })?.summary,
               let lr = low.stages.first(where: { $0.name == "render" })?.summary {
                let r = hr.ratio(to: lr)
                lines.append(pad("render", 14, left: true) + [r.p50, r.p95, r.p99, r.max].map { pad(f($0), 9) }.joined())
            }
        }
        return lines.joined(separator: "\n")
    }
}
