import ArgumentParser
import Foundation
import HeritageCore
import HeritageLens

struct MakeSample: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sample",
        abstract: "Make the sample video (Samples/sample.mp4) that README's main-job command runs on."
    )

    @Option(name: [.customShort("o"), .long], help: "Where to write it.")
    var output: String = "Samples/sample.mp4"

    @Option(parsing: .unconditional, help: "Number of frames (30 per second).")
    var frames: Int = 180

    func validate() throws {
        if frames < 1 || frames > 100_000 { throw ValidationError("--frames must be between 1 and 100000") }
    }

    func run() throws {
        var options = SampleVideo.Options()
        options.frameCount = frames
        do {
            var plan = OutputPlan()
            plan.output("-o", output)
            try plan.check()
            try SampleVideo(options: options).write(to: output)
            print("wrote \(output): \(frames) frames, \(options.size) at \(Int(options.framesPerSecond)) fps")
        } catch {
            exitWithOneLine(error)
        }
    }
}
