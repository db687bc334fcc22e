import Foundation
import HeritageCore
import Testing

@Suite struct EffectOccluderTests {
    @Test func insideMeansInsideTheHullEitherWinding() {
        let square = [Point2(0, 0), Point2(10, 0), Point2(10, 10), Point2(0, 10)]
        for outline in [square, Array(square.reversed())] {
            let o = EffectOccluder(outline: outline, depth: 1)
            #expect(o.contains(Point2(5, 5)))
            #expect(o.contains(Point2(0, 5)))  // on an edge
            #expect(!o.contains(Point2(11, 5)))
            #expect(!o.contains(Point2(5, -0.1)))
        }
        #expect(!EffectOccluder(outline: [Point2(0, 0), Point2(1, 1)], depth: 1).contains(Point2(0.5, 0.5)))
    }

    @Test func onlyWhatIsFartherAwayIsHidden() {
        let o = EffectOccluder(outline: [Point2(0, 0), Point2(10, 0), Point2(10, 10), Point2(0, 10)], depth: 0.5)
        #expect(o.hides(Point2(5, 5), depth: 0.8))
        #expect(!o.hides(Point2(5, 5), depth: 0.4))
        #expect(!o.hides(Point2(20, 5), depth: 0.8))
    }

    /// A face's outline spans the jaw and a forehead above the brows, turned with the face's roll.
    @Test func aFaceOutlineCoversJawAndForehead() throws {
        // A stylised face: jaw on a half circle below the eyes, brows above them.
        var marks = [Point2](repeating: Point2(100, 100), count: 68)
        for i in 0...16 {
            let a = Double.pi * Double(i) / 16
            marks[i] = Point2(100 - 50 * cos(a), 100 + 60 * sin(a))
        }
        for i in 17...26 { marks[i] = Point2(60 + Double(i - 17) * 80 / 9, 80) }
        for i in 36...41 { marks[i] = Point2(80, 95) }
        for i in 42...47 { marks[i] = Point2(120, 95) }
        let pose = Pose(rotation: Vector3(0, 0, 0), translation: Vector3(0, 0, 0.7))
        let o = try #require(EffectOccluder(face: FaceAnchor(id: 1, boundingBox: Rect(bounding: marks), landmarks: marks, pose: pose)))
        #expect(o.depth == 0.7)
        #expect(o.contains(Point2(100, 150)))  // chin area
        #expect(o.contains(Point2(100, 60)))  // forehead, above the brows (eye distance 40: up to 80-36)
        #expect(!o.contains(Point2(100, 30)))
        #expect(!o.contains(Point2(20, 100)))
        #expect(EffectOccluder(face: FaceAnchor(id: 1, boundingBox: Rect(bounding: marks), landmarks: marks, pose: nil)) == nil)
    }
}
