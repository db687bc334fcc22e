import Foundation
import HeritageCore
import Testing
@testable import HeritageLens
@testable import HeritageTooling

/// A weak face whose middle is far colder than the rest of it is a badge on coloured cloth; skin
/// is warm in both parts, and gray pictures are never ruled out.
@Suite(.needsHardSet)
struct FaceWarmthTests {
    let warmth = FaceWarmth()

    func annotatedFaces() throws -> [AnnotatedFace] {
        let folder = try #require(TestPaths.sharedFaces)
        let xmls = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".xml") }.sorted()
            .map { (folder as NSString).appendingPathComponent($0) }
        return try AnnotatedFaces.load(xmls)
    }

    /// The image in gray, in three channels (as a gray camera's frames reach the pipeline).
    func grayInColour(_ image: Image) throws -> Image {
        let gray = Image()
        try image.convertToGray(into: gray)
        let g = gray.samples()
        var bgr = [UInt8](repeating: 0, count: g.count * 3)
        for (i, v) in g.enumerated() { bgr[3 * i] = v; bgr[3 * i + 1] = v; bgr[3 * i + 2] = v }
        return try Image(samples: bgr, width: gray.size.width, height: gray.size.height, channels: 3)
    }

    @Test func everyAnnotatedFaceIsWarmToItsMiddle() throws {
        let faces = try annotatedFaces()
        #expect(faces.count >= 40)
        for face in faces {
            let image = try Image(contentsOf: face.imagePath)
            let warm = try #require(try warmth.warmth(of: face.landmarks, in: image))
            #expect(!warmth.rulesOut(warm), "\(face): middle \(warm.middle), around \(warm.around)")
            #expect(warm.middle >= 0.5 * warm.around, "\(face): middle \(warm.middle), around \(warm.around)")
        }
    }

    @Test func noFaceInAGrayPictureIsRuledOut() throws {
        for face in try annotatedFaces().prefix(12) {
            let image = try grayInColour(try Image(contentsOf: face.imagePath))
            let warm = try #require(try warmth.warmth(of: face.landmarks, in: image))
            #expect(abs(warm.middle) < 1 && abs(warm.around) < 1)
            #expect(!warmth.rulesOut(warm))
        }
    }

    /// Seed 289's `look-alikes`: the astronaut's blue name tag on his orange suit, which dlib's
    /// search finds at 0.38 on frame 32, its filters pass and the Haar cascade agrees on.
    @Test func theNameTagOnTheSuitIsRuledOut() throws {
        let sequence = try HardSequences.named("look-alikes", seed: 289)
        let frame = try Image(width: sequence.scene.size.width, height: sequence.scene.size.height)
        try sequence.scene.render(frame: 32, into: frame)
        let gray = Image()
        try frame.convertToGray(into: gray)
        let tag = try #require(try HOGFaceDetector().detect(in: gray, region: nil, scale: 1).max { $0.score < $1.score })
        let fitted = try LandmarkPredictor().fit(in: gray, box: tag.box)
        let warm = try #require(try warmth.warmth(of: fitted, in: frame))
        #expect(warmth.rulesOut(warm), "middle \(warm.middle), around \(warm.around) at \(tag.box)")
    }

    @Test func aFaceOutOfTheImageHasNoWarmth() throws {
        let image = try Image(width: 64, height: 48)
        let far = (0..<68).map { Point2(1000 + Double($0), 1000) }
        #expect(try warmth.warmth(of: far, in: image) == nil)
    }
}
