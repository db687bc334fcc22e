import Testing
@testable import HeritageCore

@Suite struct IntrinsicsTests {
    @Test func assumedIntrinsicsGiveTheStatedFieldOfView() {
        let k = Intrinsics.assumed(for: Size(width: 640, height: 480), horizontalFieldOfViewDegrees: 62)
        let halfAngle = _atan2(320, k.fx) * degreesPerRadian
        #expect(abs(halfAngle * 2 - 62) < 1e-9)
        #expect(k.cx == 320 && k.cy == 240 && k.fx == k.fy)
        #expect(!k.hasDistortion)
    }

    @Test func scalingKeepsTheFieldOfView() {
        let k = Intrinsics(fx: 800, fy: 805, cx: 639.5, cy: 359.5, distortion: [0.1, -0.2, 0, 0, 0.05],
                           size: Size(width: 1280, height: 720), origin: "test")
        let half = k.scaled(to: Size(width: 640, height: 360))
        #expect(half.fx == 400 && abs(half.fy - 402.5) < 1e-12)
        #expect(abs(half.cx - 319.5) < 1e-12 && abs(half.cy - 179.5) < 1e-12)
        #expect(half.distortion == k.distortion)
    }

    @Test func shortDistortionIsPadded() {
        let k = Intrinsics(fx: 1, fy: 1, cx: 0, cy: 0, distortion: [0.1, 0.2, 0.0, 0.0],
                           size: Size(width: 2, height: 2), origin: "t")
        #expect(k.distortion == [0.1, 0.2, 0, 0, 0])
    }

    @Test func projectionMapsTheOpticalAxisToThePrincipalPoint() {
        let k = Intrinsics(fx: 800, fy: 805, cx: 639.5, cy: 359.5, size: Size(width: 1280, height: 720), origin: "test")
        #expect(k.project(Vector3(0, 0, 2)) == Point2(639.5, 359.5))
        // A point 0.1 m right and 0.05 m down at 0.5 m: 0.2 and 0.1 focal lengths off the centre.
        let p = k.project(Vector3(0.1, 0.05, 0.5))
        #expect(abs(p.x - (639.5 + 160)) < 1e-9 && abs(p.y - (359.5 + 80.5)) < 1e-9)
        // Depth scales out: the same ray at another distance lands on the same pixel.
        let q = k.project(Vector3(0.2, 0.1, 1.0))
        #expect(abs(p.x - q.x) < 1e-9 && abs(p.y - q.y) < 1e-9)
    }
}
