import Foundation
import HeritageCore
import Testing
@testable import HeritageLens

/// A face's look (`FaceLook`) on the public-domain portrait Debian ships: the same face at another
/// size and turned upright from a roll looks like itself; the suit beside it does not.
@Suite(.enabled(if: TestPaths.debianAsset("astronaut.png") != nil
                    && FileManager.default.fileExists(atPath: FaceModelFiles.landmarks68),
                "needs Samples/debian/astronaut.png (scripts/fetch-debian-assets.sh) and libdlib-data"))
struct FaceLookTests {
    func portrait() throws -> (gray: Image, landmarks: [Point2]) {
        let image = try Image(contentsOf: TestPaths.debianAsset("astronaut.png")!)
        try image.normalizeToBGR()
        let gray = Image()
        try image.convertToGray(into: gray)
        let face = try #require(try HOGFaceDetector().detect(in: gray, region: nil, scale: 1).max { $0.score < $1.score })
        return (gray, try LandmarkPredictor().fit(in: gray, box: face.box))
    }

    @Test func aFaceLooksLikeItselfAtAnotherSizeAndRoll() throws {
        let (gray, landmarks) = try portrait()
        let look = try FaceLook(of: landmarks, in: gray)
        // Shrunk to 60 %: the landmarks shrink with it.
        let small = Image()
        try gray.resize(into: small, width: gray.width * 3 / 5, height: gray.height * 3 / 5)
        let shrunk = try FaceLook(of: landmarks.map { $0 * 0.6 }, in: small)
        #expect(look.similarity(to: shrunk) > 0.9, "\(look.similarity(to: shrunk))")
        // Turned by 0.3 rad: a point p of the turned image shows p.rotated(by: 0.3, about: centre)
        // of the portrait, so the landmarks turn the other way.
        let turned = Image()
        try gray.derotate(by: 0.3, into: turned)
        let centre = Point2(Double(gray.width - 1) / 2, Double(gray.height - 1) / 2)
        let rolled = try FaceLook(of: landmarks.map { $0.rotated(by: -0.3, about: centre) }, in: turned)
        #expect(look.similarity(to: rolled) > 0.85, "\(look.similarity(to: rolled))")
    }

    @Test func whatIsBesideAFaceDoesNotLookLikeIt() throws {
        let (gray, landmarks) = try portrait()
        let look = try FaceLook(of: landmarks, in: gray)
        // The same box two face widths lower: the suit, its badges and the flag.
        let lower = landmarks.map { $0 + Point2(0, 2 * FaceFrame(landmarks: landmarks).detectorBoxSide) }
        let suit = try FaceLook(of: lower, in: gray)
        #expect(look.similarity(to: suit) < 0.5, "\(look.similarity(to: suit))")
    }
}
