import Foundation
import HeritageCore
import Testing
@testable import HeritageLens
@testable import HeritageTooling

/// The Haar cascade's word on a box: the astronaut's face, and the mission patch on her suit that
/// dlib's detector half takes for one.
@Suite(.enabled(if: TestPaths.debianAsset("astronaut.png") != nil
                    && FileManager.default.fileExists(atPath: FaceModelFiles.cascadeFolder + "/" + FaceModelFiles.cascades["haar"]!),
                "needs Samples/debian/astronaut.png (scripts/fetch-debian-assets.sh) and opencv-data"))
struct FaceSecondOpinionTests {
    let opinion = try! FaceSecondOpinion()

    func astronaut() throws -> Image {
        let image = try Image(contentsOf: TestPaths.debianAsset("astronaut.png")!)
        let gray = Image()
        try image.convertToGray(into: gray)
        return gray
    }

    /// The face's box as dlib's detector gives it, rolled either way and at other sizes.
    @Test(arguments: [(0.0, 1.0), (0.3, 1.0), (-0.3, 1.0), (0.0, 0.5), (0.0, 0.25)])
    func agreesOnAFace(roll: Double, scale: Double) throws {
        let gray = try astronaut()
        let box = try #require(try HOGFaceDetector().detect(in: gray, region: nil, scale: 1).max { $0.score < $1.score }).box
        let face = FaceFrame(detection: box)
        let turned = Image()
        try gray.derotate(by: -roll, into: turned)
        let centre = Point2(Double(gray.width - 1) / 2, Double(gray.height - 1) / 2)
        let shown = Image()
        try turned.resize(into: shown, width: Int(Double(gray.width) * scale), height: Int(Double(gray.height) * scale))
        let moved = FaceFrame(eyeMidpoint: face.eyeMidpoint.rotated(by: roll, about: centre) * scale,
                              eyeDistance: face.eyeDistance * scale, roll: roll)
        #expect(try opinion.agrees(with: moved, in: shown))
    }

    /// The round patch on the suit's left (about 80 px across in the 512 px photo), at the sizes
    /// a detection around it gives, and a box half a face off the real face.
    @Test func findsNoFaceOnThePatchOrBesideTheFace() throws {
        let gray = try astronaut()
        for side in [70.0, 85.0, 100.0] {
            let patch = FaceFrame(detection: Rect(x: 170 - side / 2, y: 385 - side / 2, width: side, height: side))
            #expect(try !opinion.agrees(with: patch, in: gray), "patch at \(side) px")
        }
        let box = try #require(try HOGFaceDetector().detect(in: gray, region: nil, scale: 1).max { $0.score < $1.score }).box
        let off = FaceFrame(detection: Rect(x: box.x + box.width * 0.6, y: box.y, width: box.width, height: box.height))
        #expect(try !opinion.agrees(with: off, in: gray))
    }

    /// A face whose landmarks put its box off to one side and too large (as a turned face's do)
    /// is found when the box is placed back where it sits, and not without.
    @Test func looksWhereTheBoxIsPlaced() throws {
        let gray = try astronaut()
        let box = try #require(try HOGFaceDetector().detect(in: gray, region: nil, scale: 1).max { $0.score < $1.score }).box
        let face = FaceFrame(detection: box)
        let shift = Point2(face.detectorBoxSide * 0.6, 0)
        let predicted = FaceFrame(eyeMidpoint: face.eyeMidpoint + shift, eyeDistance: face.eyeDistance * 1.3, roll: 0)
        #expect(try !opinion.agrees(with: predicted, in: gray))
        // The offset is in the predicted face's eye distances, the scale of its box's side.
        let offset = (face.detectorBoxCentre - predicted.detectorBoxCentre) * (1 / predicted.eyeDistance)
        #expect(try opinion.agrees(with: predicted, boxOffset: offset, boxScale: 1 / 1.3, in: gray))
    }
}
