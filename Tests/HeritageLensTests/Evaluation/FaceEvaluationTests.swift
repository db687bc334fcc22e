import Foundation
import HeritageCore
import Testing
@testable import HeritageLens
@testable import HeritageTooling

struct FaceEvaluationTests {
    /// A face moving 25 px a frame, and a live run that dropped frames 3 and 4: its anchors lines
    /// count on (frame 3 is video frame 5) while `t` says which video frame each shows. Scored by
    /// `t`, every anchor sits on its face; scored by the count, the later ones would be two frames
    /// (50 px, most of an eye distance) off and count as misses and false faces.
    @Test func anchorsAreScoredAgainstTheFrameTheirTimeShows() throws {
        let face = (0..<68).map { Point2(200 + Double($0 % 17) * 3, 200 + Double($0 / 17) * 12) }
        let at: (Int) -> [Point2] = { i in face.map { $0 + Point2(25 * Double(i), 0) } }
        let scene = try SyntheticScene(size: Size(width: 640, height: 480), layers: [])
        let sequence = FaceSequence(name: "drops", scene: scene, frameCount: 8, truth: { i in [0: at(i)] })
        let delivered = [0, 1, 2, 5, 6, 7]
        let anchors = delivered.enumerated().map { count, video in
            FrameAnchors(frame: count, time: Double(video) / 30, size: scene.size,
                         faces: [FaceAnchor(id: 1, boundingBox: Rect(bounding: at(video)), landmarks: at(video), pose: nil)])
        }
        let score = FaceEvaluation.score(sequence, anchors: anchors)
        #expect(score.recall == 1)
        #expect(score.falsePositives == 0)
        #expect(score.idSwitches == 0)
    }

    /// A face under another face's picture for the first four frames: it counts neither way there
    /// (no miss when nothing is found, no false face when something is), as a face partly outside
    /// the frame does; once uncovered it counts again.
    @Test func aFaceUnderAnotherPictureCountsNeitherWay() throws {
        let face = (0..<68).map { Point2(200 + Double($0 % 17) * 3, 200 + Double($0 / 17) * 12) }
        let picture = try Image(width: 100, height: 100)
        let below = SyntheticScene.Layer(name: "face0", image: picture) { _ in .similarity(pivot: Point2(0, 0), scale: 1, angle: 0, position: Point2(150, 150)) }
        // Over the face's right side in frames 0-3, far to the right from frame 4 on.
        let over = SyntheticScene.Layer(name: "face1", image: picture) { i in
            .similarity(pivot: Point2(0, 0), scale: 1, angle: 0, position: Point2(i < 4 ? 230 : 500, 150))
        }
        let covered = FaceSequenceBuilder.covered(by: [(below, { _ in [(0, face)] }), (over, { _ in [] })])
        #expect(covered(0) == [0])
        #expect(covered(4).isEmpty)
        let scene = try SyntheticScene(size: Size(width: 640, height: 480), layers: [below, over])
        var sequence = FaceSequence(name: "covered", scene: scene, frameCount: 8, truth: { _ in [0: face] })
        sequence.covered = covered
        // Found on frames 2, 3 (covered) and 4-7; missed on frames 0 and 1 (covered).
        let anchors = (0..<8).map { i in
            FrameAnchors(frame: i, time: Double(i) / 30, size: scene.size,
                         faces: i < 2 ? [] : [FaceAnchor(id: 1, boundingBox: Rect(bounding: face), landmarks: face, pose: nil)])
        }
        let score = FaceEvaluation.score(sequence, anchors: anchors)
        #expect(score.truthFaceFrames == 4)
        #expect(score.recall == 1)
        #expect(score.falsePositives == 0)
    }
}
