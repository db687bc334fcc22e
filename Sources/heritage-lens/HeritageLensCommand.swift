import ArgumentParser
import HeritageCore
import HeritageLens
import Logging

@main
struct HeritageLensCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "heritage-lens",
        abstract: "Zodiac masks on faces and living solar-term cards, on a webcam or a video, on weak hardware.",
        discussion: """
            Typical use:
              heritage-lens process Samples/sample.mp4 -o out.mp4 --anchors anchors.jsonl
              heritage-lens run --camera 0
              heritage-lens cameras
            """,
        version: HeritageLensVersion.string,
        subcommands: [Run.self, Process.self, Cameras.self, MakeSample.self, EvalFaces.self, EvalCards.self, Cards.self, Bench.self, Kernels.self, Calibrate.self]
    )

    static func main() {
        ProcessSignals.restoreDefaultQuit()
        main(nil)
    }
}
