import ArgumentParser
import Foundation
import HeritageCore
import HeritageLens
import HeritageTooling

/// What `eval-faces` and `eval-cards` share: which sequences, how detection runs, check videos.
struct SequenceOptions: ParsableArguments {
    @Flag(help: "Detection on a background thread in idle time, frames paced at 30 fps (as live runs do) instead of inline.")
    var backgroundDetection = false

    @Option(parsing: .upToNextOption, help: ArgumentHelp("Only these sequences.", valueName: "name"))
    var only: [String] = []

    @Option(help: ArgumentHelp("Also write each sequence as <dir>/<name>.mp4 with the anchors drawn.", valueName: "dir"))
    var videos: String?

    @Option(help: ArgumentHelp("Also write each sequence's anchors as <dir>/<name>.anchors.jsonl, as `process --anchors` writes them: a live run's anchors frame by frame, to compare with --export's truth.", valueName: "dir"))
    var anchors: String?

    /// The outputs to check before minutes of evaluation, not after the first sequence (in
    /// `run`: a refused output exits 1, as every command's does, not 64 with the usage).
    var outputPlan: OutputPlan {
        var plan = OutputPlan()
        plan.outputFolder("--videos", videos)
        plan.outputFolder("--anchors", anchors)
        return plan
    }

    /// The sequences `--only` names, in their own order; a name that is none of them is an error
    /// (it used to select nothing and report a perfect score).
    func selected<S>(_ sequences: [S], name: (S) -> String) throws -> [S] {
        let names = sequences.map(name)
        if let unknown = only.first(where: { !names.contains($0) }) {
            throw UsageFailure("--only \(unknown): no such sequence; one of \(names.joined(separator: ", "))")
        }
        return sequences.filter { only.isEmpty || only.contains(name($0)) }
    }
}

/// Runs the pipeline over one evaluation sequence: the given tracking stages after the gray
/// conversion, optionally a video with the anchors drawn; returns every frame's anchors and the
/// per-frame time of the named stages.
struct SequenceRunner {
    /// Paced at 30 fps with detection in idle time (live), or flat out and inline.
    let paced: Bool
    /// Folder for `<name>.mp4` check videos, or nil.
    let videos: String?
    /// Folder for `<name>.anchors.jsonl`, or nil.
    var anchors: String? = nil
    /// The tier frames are processed at (the low tier follows cards on a smaller copy), and the
    /// frame budget of `auto` in ms (nil: one frame period).
    var tier: TierSetting = .low
    var budgetMilliseconds: Double?

    func run(_ name: String, scene: SyntheticScene, frameCount: Int, configuration: PipelineConfiguration,
             timing stageNames: [String]) throws -> (anchors: [FrameAnchors], milliseconds: [Double]) {
        var configuration = configuration
        let collector = AnchorCollector()
        var sinks: [FrameSink] = [collector]
        if let videos {
            configuration.anchorOverlay = Intrinsics.assumed(for: scene.size)
            sinks.append(try VideoFileSink(path: "\(videos)/\(name).mp4", size: scene.size, framesPerSecond: 30))
        }
        if let anchors { sinks.append(try AnchorsSink(path: "\(anchors)/\(name).anchors.jsonl")) }
        let source = try SceneSource(name: name, scene: scene, frameCount: frameCount, paced: paced)
        let pipeline = try configuration.makePipeline(source: source, sinks: sinks,
                                                      options: .init(tier: tier == .high ? .high : .low),
                                                      logger: .component("pipeline"))
        if tier == .auto { pipeline.setTier(.auto, budgetMilliseconds: budgetMilliseconds ?? 1000.0 / 30) }
        var times: [Double] = []
        pipeline.onFrame = { m in times.append(stageNames.compactMap { m.milliseconds(of: $0) }.reduce(0, +)) }
        _ = try pipeline.run()
        FileHandle.standardError.write(Data("  \(name): done\n".utf8))
        return (collector.frames, times)
    }

    /// The sequence's frames alone, as `<folder>/<name>.mp4`: recorded footage for `process`;
    /// and its ground truth as `<folder>/<name>.truth.jsonl`, in the anchors file's schema (the
    /// face key as id, every face even where partly outside the frame or under another face's
    /// photograph: `--score-anchors` builds the sequence again and knows which those are).
    func export(_ name: String, scene: SyntheticScene, frameCount: Int, truth: (Int) -> [Int: [Point2]],
                to folder: String) throws {
        let path = (folder as NSString).appendingPathComponent(name + ".mp4")
        let source = try SceneSource(name: name, scene: scene, frameCount: frameCount, paced: false)
        let sink = try VideoFileSink(path: path, size: scene.size, framesPerSecond: 30)
        var copying = PipelineConfiguration()
        copying.convertsToGray = false
        _ = try copying.makePipeline(source: source, sinks: [sink], logger: .component("pipeline")).run()
        let lines = (0..<frameCount).map { i in
            FrameAnchors(frame: i, time: Double(i) / 30, size: scene.size,
                         faces: truth(i).sorted { $0.key < $1.key }.map { key, points in
                             FaceAnchor(id: key, boundingBox: Rect(bounding: points), landmarks: points, pose: nil)
                         }).jsonLine
        }
        try WholeFile.write(lines.joined(separator: "\n") + "\n", to: (folder as NSString).appendingPathComponent(name + ".truth.jsonl"))
        FileHandle.standardError.write(Data("  \(path): \(sink.framesWritten) frames\n".utf8))
    }
}
