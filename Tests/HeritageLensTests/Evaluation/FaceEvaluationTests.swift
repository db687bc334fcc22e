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
}
