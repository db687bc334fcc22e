import ArgumentParser
import Foundation
import HeritageCore
import HeritageLens
import HeritageTooling

struct EvalCards: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "eval-cards",
        abstract: "Measure the card pipeline on sequences rendered through a pinhole camera.",
        discussion: """
            Renders the sequences (still, motion with tilt to 60° and a full turn, near-far, degraded, \
            dim, bright, side light, occluded, three and six cards, fast, two crossing fast, other \
            pictures and no card, cards crossing the frame from the left, right and top) and prints \
            recall, false anchors, corner error and the card stages' latency.
            Weak-hardware figures: taskset -c 1 .build/release/heritage-lens eval-cards --background-detection
            """
    )

    @Option(help: ArgumentHelp("Card folder (cards.json and images).", valueName: "dir"))
    var cards: String = "Samples/cards"


    @OptionGroup var sequences: SequenceOptions
    @OptionGroup var quality: QualityOptions
    @OptionGroup var runtime: RuntimeOptions

    func run() throws {
        _ = runtime.configureProcess()
        do {
            try sequences.outputPlan.check()
            // The project's own files, found from any working folder as `process` finds its sample.
            let cards = ProjectAssets.located(cards, default: "Samples/cards")
            let pictures = ["Samples/debian/astronaut.png", "Samples/debian/chelsea.png"].map { ProjectAssets.located($0, default: $0) }
            let built = try CardSequenceBuilder(cardFolder: cards, distractors: pictures).build()
            let set = try CardSet(folder: cards)
            var scores: [CardSequenceScore] = []
            for sequence in try self.sequences.selected(built, name: \.name) {
                let tracker = try CardTracker(cards: set, background: self.sequences.backgroundDetection,
                                              intrinsics: .assumed(for: sequence.scene.size), logger: .component("cards"))
                let (anchors, times) = try SequenceRunner(paced: self.sequences.backgroundDetection, videos: self.sequences.videos, anchors: self.sequences.anchors,
                                                   tier: quality.tier, budgetMilliseconds: quality.budgetMs).run(
                    sequence.name, scene: sequence.scene, frameCount: sequence.frameCount,
                    configuration: PipelineConfiguration(cards: tracker, pose: .assumed(for: sequence.scene.size)),
                    timing: ["card_detect", "cards"])
                var score = CardEvaluation.score(sequence, anchors: anchors)
                score.cardStageMilliseconds = times
                scores.append(score)
            }
            print(table(scores))
        } catch {
            exitWithOneLine(error)
        }
    }

    func table(_ scores: [CardSequenceScore]) -> String {
        func f(_ v: Double?, _ d: Int = 2) -> String { v.map { String(format: "%.\(d)f", $0) } ?? "-" }
        func row(_ cells: [String]) -> String {
            zip(cells, [12, 7, 8, 7, 8, 8, 9, 12]).enumerated().map { i, c in
                let pad = String(repeating: " ", count: max(0, c.1 - c.0.count))
                return i == 0 ? c.0 + pad : pad + c.0
            }.joined(separator: " ")
        }
        var lines = [row(["sequence", "frames", "recall", "false", "median", "<=5px", "acquire", "p50/p99 ms"])]
        for s in scores {
            let e = Percentiles(s.cornerErrors), t = Percentiles(s.cardStageMilliseconds)
            let within = s.cornerErrors.isEmpty ? nil : Double(s.cornerErrors.filter { $0 <= 5 }.count) / Double(s.cornerErrors.count) * 100
            let acquire = s.framesToFirstAnchor.max().map { "\(Int((Double($0) * 1000 / 30).rounded())) ms" } ?? "-"
            lines.append(row([s.name, "\(s.frames)", f(s.recall, 3), "\(s.falseAnchors)", f(e.median), within.map { f($0, 1) + "%" } ?? "-",
                              acquire, f(t.median) + "/" + f(t.value(at: 99))]))
        }
        let counted = scores.map(\.countedCardFrames).reduce(0, +)
        let recall = counted > 0 ? Double(scores.map(\.foundCardFrames).reduce(0, +)) / Double(counted) : 1
        let frames = scores.map(\.frames).reduce(0, +)
        let all = scores.flatMap(\.cornerErrors)
        let within = all.isEmpty ? 0 : Double(all.filter { $0 <= 5 }.count) / Double(all.count) * 100
        lines.append("")
        lines.append("recall \(f(recall, 3)) (target >= 0.95); false anchors \(f(Double(scores.map(\.falseAnchors).reduce(0, +)) * 1000 / Double(max(1, frames)))) per 1000 frames (target 0)")
        lines.append("corner error median \(f(Percentiles(all).median)) px (target <= 1.5), \(f(within, 1))% of card-frames within 5 px (target >= 90%)")
        return lines.joined(separator: "\n")
    }
}
