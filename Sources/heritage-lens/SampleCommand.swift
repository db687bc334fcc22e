import ArgumentParser
import Foundation
import HeritageCore
import HeritageLens
import HeritageTooling

struct MakeSample: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sample",
        abstract: "Make the sample video (Samples/sample.mp4) that README's main-job command runs on."
    )

    @Option(name: [.customShort("o"), .long], help: "Where to write it.")
    var output: String = "Samples/sample.mp4"

    @Option(parsing: .unconditional, help: "Number of frames (30 per second).")
    var frames: Int = 180

    @Option(help: ArgumentHelp("Frame size: the same scene at another resolution (1280x720, 1920x1080), to measure what a larger camera costs.", valueName: "WxH"))
    var size: String = "640x480"

    /// `size` as numbers, nil when it is not WxH with sides from 160 to 8192.
    private var parsedSize: Size? { FrameSizeText.parse(size, sides: 160...8192) }

    func validate() throws {
        if frames < 1 || frames > 100_000 { throw ValidationError("--frames must be between 1 and 100000") }
        if parsedSize == nil { throw ValidationError("--size must look like 1280x720 (160 to 8192 each side)") }
    }

    func run() throws {
        var options = SampleVideo.Options()
        options.frameCount = frames
        options.size = parsedSize!
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
