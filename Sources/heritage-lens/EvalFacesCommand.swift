import ArgumentParser
import Foundation
import HeritageCore
import HeritageLens
import HeritageTooling

struct EvalFaces: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "eval-faces",
        abstract: "Measure the face pipeline on sequences built from annotated photos.",
        discussion: """
            Builds the sequences (still, motion with roll ±30° and scale 0.6-1.6, degraded, dark, \
            backlit, side-lit, three and four faces, no face, entering and leaving) from dlib-format \
            landmark XML files, runs the real pipeline on each and prints recall, false positives, \
            landmark error, still-face jitter, track continuity, time to first anchor and the face \
            stages' latency. For the weak-hardware figures run it as
              taskset -c 1 .build/release/heritage-lens eval-faces
            """
    )

    @Option(help: ArgumentHelp("Folder with dlib landmark XML files and their photos (the default, and the photo options' defaults, are found in the repository from any working folder).", valueName: "dir"))
    var faces: String = Self.defaultFaces
    static let defaultFaces = "../shared/data/faces"

    @Option(help: ArgumentHelp("A non-face picture for the no-face sequence.", valueName: "file"))
    var distractor: String = Self.defaultDistractor
    static let defaultDistractor = "Samples/debian/chelsea.png"

    @Option(help: ArgumentHelp("Which sequences: gentle (the eleven first ones), hard (cuts, speed, leaving at speed, noise with defocus, backlight, gamma, small faces, over photographs; look-alikes with no face) or all.", valueName: "set"))
    var set: SequenceSet = .all

    @Option(parsing: .unconditional, help: ArgumentHelp("Seed of the hard sequences: which faces, photos and paths. Tune on one seed, report others.", valueName: "n"))
    var seed: UInt64 = 11

    @Option(parsing: .upToNextOption, help: ArgumentHelp("Photos with no face for the hard sequences' backgrounds.", valueName: "file"))
    var backgrounds: [String] = Self.defaultBackgrounds
    static let defaultBackgrounds = ["coffee.png", "rocket.jpg", "hubble_deep_field.jpg", "brick.png", "grass.png", "gravel.png",
                                     "chelsea.png"].map { "Samples/debian/" + $0 }

    @Option(help: ArgumentHelp("A photo whose lower part (below 40 % of its height) holds no face but things dlib's detector half takes for one, for the hard set's look-alikes sequence.", valueName: "file"))
    var lookAlikes: String = Self.defaultLookAlikes
    static let defaultLookAlikes = "Samples/debian/astronaut.png"

    enum SequenceSet: String, ExpressibleByArgument, CaseIterable {
        case gentle, hard, all
    }

    @Option(help: ArgumentHelp("Write the figures as JSON.", valueName: "file"))
    var json: String?

    @Option(help: ArgumentHelp("Write each sequence as <dir>/<name>.mp4 (no overlay) with its ground truth as <dir>/<name>.truth.jsonl, and evaluate nothing: footage for `process`, scored afterwards with --score-anchors.", valueName: "dir"))
    var export: String?

    @Option(help: ArgumentHelp("Score the anchors files <dir>/<name>.anchors.jsonl that `process` wrote for the exported sequences, instead of running the pipeline. Each line is scored against the frame its time `t` shows (a --realtime run drops frames).", valueName: "dir"))
    var scoreAnchors: String?

    @OptionGroup var sequences: SequenceOptions
    @OptionGroup var quality: QualityOptions
    @OptionGroup var runtime: RuntimeOptions

    func validate() throws {
        if export != nil, scoreAnchors != nil {
            throw ValidationError("--export and --score-anchors are two steps: export, run process on the videos, then score")
        }
        if let scoreAnchors, !FileManager.default.fileExists(atPath: scoreAnchors) {
            throw ValidationError("--score-anchors \(scoreAnchors): no such folder; export the sequences and run process on them first")
        }
    }

    func run() throws {
        _ = runtime.configureProcess()
        do {
            var plan = sequences.outputPlan
            plan.output("--json", json)
            plan.outputFolder("--export", export)
            try plan.check()
            // The defaults are the repository's files, found from its root wherever this runs, as
            // `process` finds the sample; a path given is taken as given.
            let faces = ProjectAssets.located(self.faces, default: Self.defaultFaces)
            let distractor = ProjectAssets.located(self.distractor, default: Self.defaultDistractor)
            let backgrounds = self.backgrounds == Self.defaultBackgrounds
                ? self.backgrounds.map { ProjectAssets.located($0, default: $0) } : self.backgrounds
            let lookAlikes = ProjectAssets.located(self.lookAlikes, default: Self.defaultLookAlikes)
            let xmls = ((try? FileManager.default.contentsOfDirectory(atPath: faces)) ?? [])
                .filter { $0.hasSuffix(".xml") }.sorted().map { (faces as NSString).appendingPathComponent($0) }
            guard !xmls.isEmpty else {
                throw CommandFailure("\(faces): no landmark XML files; pass --faces DIR (shared/data/faces holds 43 annotated faces)")
            }
            let annotated = try AnnotatedFaces.load(xmls)
            let builder = FaceSequenceBuilder(faces: annotated, distractorPath: distractor)
            var built: [FaceSequence] = []
            if set != .hard { built += try builder.build() }
            if set != .gentle {
                for path in backgrounds where !FileManager.default.fileExists(atPath: path) {
                    throw CommandFailure("\(path): background photo missing; run scripts/fetch-debian-assets.sh or pass --backgrounds FILE...")
                }
                guard FileManager.default.fileExists(atPath: lookAlikes) else {
                    throw CommandFailure("\(lookAlikes): look-alikes photo missing; run scripts/fetch-debian-assets.sh or pass --look-alikes FILE")
                }
                built += try HardFaceSequenceBuilder(base: builder, backgroundPaths: backgrounds, lookAlikePath: lookAlikes)
                    .build(seed: seed)
            }
            let detector = try HOGFaceDetector()
            let predictor = try LandmarkPredictor()
            let appearance = try FaceAppearanceCheck()
            let secondOpinion = try FaceSecondOpinion()
            var scores: [FaceSequenceScore] = []
            let chosen = try self.sequences.selected(built, name: \.name)
            FileHandle.standardError.write(Data("evaluating \(chosen.count) sequence\(chosen.count == 1 ? "" : "s") from \(annotated.count) annotated faces\n".utf8))
            for sequence in chosen {
                if let export {
                    try SequenceRunner(paced: false, videos: nil).export(sequence.name, scene: sequence.scene,
                                                                         frameCount: sequence.frameCount, truth: sequence.truth, to: export)
                    continue
                }
                if let scoreAnchors {
                    let path = (scoreAnchors as NSString).appendingPathComponent(sequence.name + ".anchors.jsonl")
                    scores.append(FaceEvaluation.score(sequence, anchors: try AnchorsFileReader.read(path)))
                    continue
                }
                let tracker = FaceTracker(detector: detector, predictor: predictor, appearance: appearance,
                                          secondOpinion: secondOpinion, background: self.sequences.backgroundDetection, logger: .component("faces"))
                let (anchors, times) = try SequenceRunner(paced: self.sequences.backgroundDetection, videos: self.sequences.videos, anchors: self.sequences.anchors,
                                                   tier: quality.tier, budgetMilliseconds: quality.budgetMs).run(
                    sequence.name, scene: sequence.scene, frameCount: sequence.frameCount,
                    configuration: PipelineConfiguration(faces: tracker, pose: .assumed(for: sequence.scene.size)),
                    timing: ["face_detect", "faces", "pose"])
                var score = FaceEvaluation.score(sequence, anchors: anchors)
                score.faceStageMilliseconds = times
                scores.append(score)
            }
            if export != nil { return }
            print(FaceReport(scores: scores).table)
            if let json { try WholeFile.write(FaceReport(scores: scores).json, to: json) }
        } catch {
            exitWithOneLine(error)
        }
    }
}

/// The evaluation's figures as a table and as JSON.
struct FaceReport {
    let scores: [FaceSequenceScore]

    var errors: Percentiles { Percentiles(scores.flatMap(\.landmarkErrors)) }
    var recall: Double {
        let truth = scores.map(\.truthFaceFrames).reduce(0, +)
        return truth > 0 ? Double(scores.map(\.matchedFaceFrames).reduce(0, +)) / Double(truth) : 1
    }
    var frames: Int { scores.map(\.frames).reduce(0, +) }
    var falsePositivesPer1000: Double { Double(scores.map(\.falsePositives).reduce(0, +)) * 1000 / Double(max(1, frames)) }
    var over8: Double {
        let all = scores.flatMap(\.landmarkErrors)
        return all.isEmpty ? 0 : Double(all.filter { $0 > 0.08 }.count) / Double(all.count)
    }
    var continuity: Double {
        let pairs = scores.map(\.continuityPairs).reduce(0, +)
        return pairs > 0 ? Double(scores.map(\.continuousPairs).reduce(0, +)) / Double(pairs) : 1
    }

    func f(_ v: Double?, _ digits: Int = 2) -> String { v.map { String(format: "%.\(digits)f", $0) } ?? "-" }

    /// Columns padded to the widths of the header.
    func row(_ cells: [String]) -> String {
        let widths = [12, 7, 7, 4, 9, 7, 7, 8, 8, 12]
        return zip(cells, widths).enumerated().map { i, c in
            let pad = String(repeating: " ", count: max(0, c.1 - c.0.count))
            return i == 0 ? c.0 + pad : pad + c.0
        }.joined(separator: " ")
    }

    var table: String {
        var lines = [row(["sequence", "frames", "recall", "FP", "err mean", "err>8%", "jitter", "contin.", "acquire",
                          "p50/p99 ms"])]
        for s in scores {
            let e = Percentiles(s.landmarkErrors)
            let over = s.landmarkErrors.isEmpty ? 0 : Double(s.landmarkErrors.filter { $0 > 0.08 }.count) / Double(s.landmarkErrors.count)
            let t = Percentiles(s.faceStageMilliseconds)
            let acquire = s.framesToFirstAnchor.max().map { "\(Int((Double($0) * 1000 / 30).rounded())) ms" } ?? "-"
            let cont = s.continuityPairs > 0 ? Double(s.continuousPairs) / Double(s.continuityPairs) : nil
            lines.append(row([s.name, "\(s.frames)", f(s.recall, 3), "\(s.falsePositives)",
                              f(e.mean.map { $0 * 100 }) + "%", f(over * 100, 1) + "%", f(s.jitterPixels),
                              f(cont.map { $0 * 100 }, 1), acquire, f(t.median) + "/" + f(t.value(at: 99))]))
        }
        lines.append("")
        lines.append("recall \(f(recall, 3)) (target >= 0.95); false positives \(f(falsePositivesPer1000, 2)) per 1000 frames (<= 1)")
        lines.append("landmark error mean \(f(errors.mean.map { $0 * 100 }))% of outer-eye distance (<= 3.5%), \(f(over8 * 100, 1))% of faces above 8% (<= 5%)")
        lines.append("still-face jitter \(f(scores.compactMap(\.jitterPixels).max())) px RMS (<= 0.3); continuity \(f(continuity * 100, 2))% of frame pairs (>= 99%)")
        return lines.joined(separator: "\n")
    }

    var json: String {
        var j = JSONLineBuilder()
        j.raw("{")
        j.key("recall"); j.number(recall, decimals: 4)
        j.key("false_positives_per_1000_frames"); j.number(falsePositivesPer1000, decimals: 3)
        j.key("landmark_error_mean"); j.number(errors.mean ?? .nan, decimals: 5)
        j.key("landmark_error_over_8_percent"); j.number(over8, decimals: 4)
        j.key("continuity"); j.number(continuity, decimals: 5)
        j.key("sequences"); j.raw("[")
        for (i, s) in scores.enumerated() {
            if i > 0 { j.raw(",") }
            let t = Percentiles(s.faceStageMilliseconds)
            j.raw("{")
            j.key("name"); j.string(s.name)
            j.key("frames"); j.int(s.frames)
            j.key("recall"); j.number(s.recall, decimals: 4)
            j.key("false_positives"); j.int(s.falsePositives)
            j.key("landmark_error_mean"); j.number(Percentiles(s.landmarkErrors).mean ?? .nan, decimals: 5)
            j.key("jitter_px"); j.number(s.jitterPixels ?? .nan, decimals: 3)
            j.key("id_switches"); j.int(s.idSwitches)
            j.key("frames_to_first_anchor"); j.numbers(s.framesToFirstAnchor.map(Double.init), decimals: 0)
            j.key("face_ms_p50"); j.number(t.median ?? .nan, decimals: 3)
            j.key("face_ms_p99"); j.number(t.value(at: 99) ?? .nan, decimals: 3)
            j.raw("}")
        }
        j.raw("]}")
        return j.text + "\n"
    }
}
