import Foundation
import HeritageCore
import Testing
@testable import HeritageLens
@testable import HeritageTooling

/// The per-frame check scores the shared annotated faces as faces and photos without faces as
/// not, at the thresholds the tracker uses.
@Suite(.serialized, .enabled(if: TestPaths.sharedFaces != nil && TestPaths.debianAsset("coffee.png") != nil,
                             "needs ../shared/data/faces and Samples/debian"))
struct FaceAppearanceCheckTests {
    nonisolated(unsafe) static let check = try! FaceAppearanceCheck()

    @Test func annotatedFacesPassAndBackgroundFails() throws {
        let folder = TestPaths.sharedFaces!
        let xmls = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".xml") }
            .map { (folder as NSString).appendingPathComponent($0) }
        let faces = try AnnotatedFaces.load(xmls)
        let options = FaceTracker.Options()
        var scores: [Double] = []
        var images: [String: Image] = [:]
        for face in faces {
            let g = try images[face.imagePath] ?? TestImages.gray(at: face.imagePath)
            images[face.imagePath] = g
            scores.append(try Self.check.appearance(of: FaceFrame(landmarks: face.landmarks), in: g)?.score ?? -10)
        }
        let kept = scores.filter { $0 >= options.keepScore }.count
        #expect(Double(kept) >= 0.95 * Double(faces.count), "\(kept) of \(faces.count) faces kept: \(scores.sorted().prefix(5))")

        // Windows of every size and roll over photos with no face.
        var rng = SplitMix64(seed: 3)
        var worst = -Double.infinity
        for name in ["coffee.png", "rocket.jpg", "brick.png", "gravel.png"] {
            guard let path = TestPaths.debianAsset(name) else { continue }
            let g = try TestImages.gray(at: path)
            for _ in 0..<150 {
                let frame = FaceFrame(eyeMidpoint: Point2(rng.next(in: 0...Double(g.width)), rng.next(in: 0...Double(g.height))),
                                      eyeDistance: rng.next(in: 25...90), roll: rng.next(in: -0.3...0.3))
                worst = max(worst, try Self.check.appearance(of: frame, in: g)?.score ?? -10)
            }
        }
        #expect(worst < options.confirmScore, "best background window \(worst)")
    }

    /// The annotated faces turned so far that their eyes sit closer than 0.8 of the way from the
    /// eyes to the mouth (four of 43): the box their landmarks give is nearer the one dlib's
    /// detector drew than the eye distance alone made it, and the check scores each of them
    /// higher there. The most turned, the laughing elderly man of the hard sequences' rows at
    /// recall 0, had a box a third too small; his is now within a tenth.
    @Test func aTurnedFaceIsCheckedInABoxOfItsHeadsSize() throws {
        let folder = TestPaths.sharedFaces!
        let xmls = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".xml") }
            .map { (folder as NSString).appendingPathComponent($0) }
        let turned = try AnnotatedFaces.load(xmls).filter {
            let f = FaceFrame(landmarks: $0.landmarks)
            return f.boxUnit > f.eyeDistance
        }
        #expect(turned.count >= 3)
        var sizeOff: [Double] = [], eyesOff: [Double] = []
        for face in turned {
            let g = try TestImages.gray(at: face.imagePath)
            let f = FaceFrame(landmarks: face.landmarks)
            let byEyes = FaceFrame(eyeMidpoint: f.eyeMidpoint, eyeDistance: f.eyeDistance, roll: f.roll)
            sizeOff.append(abs(log(f.detectorBoxSide / face.box.width)))
            eyesOff.append(abs(log(byEyes.detectorBoxSide / face.box.width)))
            let score = try Self.check.appearance(of: f, in: g)?.score ?? -10
            let scoreByEyes = try Self.check.appearance(of: byEyes, in: g)?.score ?? -10
            #expect(score > scoreByEyes, "\(face.imagePath): \(score) in its box, \(scoreByEyes) by the eyes")
        }
        #expect(sizeOff.reduce(0, +) < eyesOff.reduce(0, +), "box size off by \(sizeOff), by the eyes \(eyesOff)")
        let most = try #require(eyesOff.indices.max { eyesOff[$0] < eyesOff[$1] })
        #expect(eyesOff[most] > log(1.25) && sizeOff[most] < log(1.1), "most turned: \(sizeOff[most]) against \(eyesOff[most])")
    }

    @Test func aWindowOffTheFaceIsFoundWithAWiderReach() throws {
        let folder = TestPaths.sharedFaces!
        let xml = try #require(try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".xml") }.first)
        let face = try #require(try AnnotatedFaces.load([(folder as NSString).appendingPathComponent(xml)]).first)
        let g = try TestImages.gray(at: face.imagePath)
        let f = FaceFrame(landmarks: face.landmarks)
        let off = FaceFrame(eyeMidpoint: f.eyeMidpoint + Point2(f.detectorBoxSide * 0.25, 0), eyeDistance: f.eyeDistance, roll: f.roll)
        let near = try #require(try Self.check.appearance(of: off, in: g, reach: 3))
        #expect(near.centre.distance(to: f.detectorBoxCentre) < 0.12 * f.detectorBoxSide)
    }
}
