import Foundation
import HeritageCore
import Testing
@testable import HeritageLens

@Suite struct TargetRatingTests {
    @Test func starsAddUp() {
        #expect(TargetRating.stars(features: 900, coverage: 0.95, repetition: 0.1, confusion: 0.01) == 5)
        #expect(TargetRating.stars(features: 100, coverage: 0.5, repetition: 0.5, confusion: 0.5) == 0)
        #expect(TargetRating.stars(features: 300, coverage: 0.7, repetition: 0.16, confusion: 0.06) == 2)
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: TestPaths.packageRoot + "/Samples/cards/lichun.png")))
    func aDetailedCardRatesAboveAFlatGradient() throws {
        let dir = TestPaths.scratch()
        let flat = try Image(width: 600, height: 840)
        try flat.fill(blue: 200, green: 200, red: 200)
        flat.drawRect(Rect(x: 100, y: 100, width: 400, height: 300), colour: .black, thickness: 8)
        try flat.write(to: dir + "/flat.png")
        let ratings = try TargetRater.rate([TestPaths.packageRoot + "/Samples/cards/lichun.png", dir + "/flat.png"])
        #expect(ratings[0].features > 3 * ratings[1].features)
        #expect(ratings[0].coverage > ratings[1].coverage)
        #expect(ratings[0].stars > ratings[1].stars)
    }
}
