import Foundation
import HeritageCore
import Testing

@Suite struct RectangleViewTests {
    let size = Size(width: 640, height: 480)
    let plane = CardPlane(width: 0.105, height: 0.148)
    let reference = Size(width: 105, height: 148)

    func corners(_ pose: Pose, _ k: Intrinsics) -> [Point2] {
        let h = plane.homography(referenceSize: reference, pose: pose, intrinsics: k)
        return [Point2(0, 0), Point2(105, 0), Point2(105, 148), Point2(0, 148)].map(h.apply)
    }

    /// Cards tilted up to 60° in any direction, anywhere in view, pass; also when the real lens is
    /// wider or longer than the 62° the check assumes.
    @Test func realViewsOfTheCardPass() {
        let check = RectangleView(intrinsics: .assumed(for: size))
        for fov in [45.0, 62, 85] {
            let camera = Intrinsics.assumed(for: size, horizontalFieldOfViewDegrees: fov)
            for (rx, ry, rz) in [(0.0, 0.0, 0.0), (1.0, 0, 0.3), (0, -1.0, 2), (0.6, 0.6, -1), (-0.8, 0.3, 3)] {
                for (x, y) in [(0.0, 0.0), (0.1, -0.06), (-0.12, 0.05)] {
                    let pose = Pose(rotation: Vector3(rx, ry, rz), translation: Vector3(x - 0.05, y - 0.07, 0.45))
                    let quad = corners(pose, camera)
                    #expect(check.residual(quad, aspect: 105.0 / 148) < 0.05, "fov \(fov) rotation \(rx),\(ry),\(rz) at \(x),\(y)")
                }
            }
        }
    }

    /// What a homography fitted to the wrong matches looks like: a convex quad with one corner
    /// pulled away. No camera sees a rectangle that way.
    @Test func aQuadWithOneCornerPulledOutFails() {
        let k = Intrinsics.assumed(for: size)
        let check = RectangleView(intrinsics: k)
        var quad = corners(Pose(rotation: Vector3(0.3, 0.2, 0.1), translation: Vector3(-0.05, -0.07, 0.5)), k)
        #expect(check.isConsistent(quad, aspect: 105.0 / 148))
        quad[1] = quad[1] + Point2(30, -25)
        #expect(!check.isConsistent(quad, aspect: 105.0 / 148))
        // Cases met in the evaluation sequences: tracked quads that had drifted off the card.
        #expect(!check.isConsistent([Point2(315, 197), Point2(423, 171), Point2(362, 356), Point2(296, 296)], aspect: 105.0 / 148))
        #expect(!check.isConsistent([Point2(277, 255), Point2(570, 90), Point2(443, 571), Point2(271, 386)], aspect: 105.0 / 148))
        #expect(check.residual([Point2(0, 0), Point2(1, 1), Point2(2, 2), Point2(3, 3)], aspect: 1) == .infinity)
    }
}
