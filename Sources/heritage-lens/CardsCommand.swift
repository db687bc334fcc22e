import ArgumentParser
import Foundation
import HeritageLens

struct Cards: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Card tools.",
        subcommands: [Check.self]
    )

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Rate images as card targets (0-5 stars), each against the others.",
            discussion: """
                Stars: ≥ 300 ORB features; features in ≥ 70 % of a 6x8 grid (and ≥ 90 % for a second \
                star); ≤ 15 % of features repeated within the image; ≤ 5 % of features matched by \
                another card.
                Example: heritage-lens cards check Samples/cards/*.png
                """
        )

        @Argument(help: "Images to rate.")
        var images: [String] = []

        func validate() throws {
            if images.isEmpty { throw ValidationError("name at least one image (e.g. Samples/cards/*.png)") }
        }

        func run() throws {
            do {
                for path in images where !FileManager.default.isReadableFile(atPath: path) {
                    throw CommandFailure("\(path): no such file or not readable")
                }
                let ratings = try TargetRater.rate(images)
                print("image          stars  features  coverage  repeated  confused")
                for r in ratings {
                    let stars = String(repeating: "*", count: r.stars) + String(repeating: ".", count: 5 - r.stars)
                    print(r.name.padding(toLength: 14, withPad: " ", startingAt: 0) + " " + stars
                          + String(format: "  %8d  %7.0f%%  %7.1f%%  %7.1f%%", r.features, r.coverage * 100,
                                   r.repetition * 100, r.confusion * 100))
                }
            } catch {
                exitWithOneLine(error)
            }
        }
    }
}
