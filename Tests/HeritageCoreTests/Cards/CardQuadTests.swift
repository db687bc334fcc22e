import Testing
@testable import HeritageCore

@Suite struct CardQuadTests {
    let quad = CardQuad()
    let upright = [Point2(100, 100), Point2(205, 100), Point2(205, 248), Point2(100, 248)]

    @Test func anUprightCardIsPlausible() {
        #expect(quad.isPlausible(upright, aspect: 105.0 / 148.0))
    }

    @Test func aPerspectiveViewIsPlausible() {
        let tilted = [Point2(100, 110), Point2(200, 90), Point2(200, 270), Point2(100, 250)]
        #expect(quad.isPlausible(tilted, aspect: 105.0 / 148.0))
    }

    @Test func impossibleQuadsAreRejected() {
        let aspect = 105.0 / 148.0
        // Mirror image (counter-clockwise), bow-tie, sliver, too small, wildly stretched.
        #expect(!quad.isPlausible(upright.reversed(), aspect: aspect))
        #expect(!quad.isPlausible([upright[0], upright[2], upright[1], upright[3]], aspect: aspect))
        #expect(!quad.isPlausible([Point2(0, 0), Point2(300, 0), Point2(300, 3), Point2(0, 3)], aspect: aspect))
        #expect(!quad.isPlausible([Point2(0, 0), Point2(20, 0), Point2(20, 28), Point2(0, 28)], aspect: aspect))
        #expect(!quad.isPlausible([Point2(0, 0), Point2(400, 0), Point2(400, 60), Point2(0, 60)], aspect: aspect))
        // A concave quad.
        #expect(!quad.isPlausible([Point2(100, 100), Point2(200, 100), Point2(130, 130), Point2(100, 250)], aspect: aspect))
    }

    @Test func signedAreaIsPositiveClockwiseOnScreen() {
        #expect(abs(CardQuad.signedArea(upright) - 105 * 148) < 1e-9)
    }
}

@Suite struct CardPlaneTests {
    @Test func theHomographyMatchesProjectingTheCorners() throws {
        let plane = CardPlane(width: 0.105, height: 0.148)
        let k = Intrinsics.assumed(for: Size(width: 640, height: 480))
        let pose = Pose(rotation: Vector3(0.3, -0.5, 0.2), translation: Vector3(-0.02, 0.01, 0.5))
        let h = plane.homography(referenceSize: Size(width: 1240, height: 1748), pose: pose, intrinsics: k)
        let reference = [Point2(0, 0), Point2(1240, 0), Point2(1240, 1748), Point2(0, 1748)]
        for (r, corner) in zip(reference, plane.corners) {
            let projected = k.project(pose.transform(corner))
            #expect(h.apply(r).distance(to: projected) < 1e-9)
        }
    }
}
