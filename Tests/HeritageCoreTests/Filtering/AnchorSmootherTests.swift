import Testing
@testable import HeritageCore

@Suite struct AnchorSmootherTests {
    let options = OneEuroFilter.Options(minCutoff: 1.2, beta: 20, derivativeCutoff: 3.0)

    /// Anchors are compared bit for bit between versions: the smoother must give exactly what one
    /// One Euro filter per coordinate gives.
    @Test func pointsAreFilteredCoordinateByCoordinate() {
        var smoother = AnchorSmoother(points: 3, options: options)
        var reference = (0..<6).map { _ in OneEuroFilter(options: options) }
        var rng = SplitMixForTests(seed: 5)
        for frame in 0..<90 {
            let time = Double(frame) / 30
            let points = (0..<3).map { i in Point2(100 * Double(i) + rng.uniform() * 4, 50 + Double(frame) + rng.uniform()) }
            let unit = 30 + rng.uniform()
            let smoothed = smoother.smooth(points, at: time, unit: unit)
            #expect(smoothed.count == 3)
            for (i, p) in points.enumerated() {
                #expect(smoothed[i].x == reference[2 * i].filter(p.x, at: time, unit: unit))
                #expect(smoothed[i].y == reference[2 * i + 1].filter(p.y, at: time, unit: unit))
            }
        }
    }

    @Test func poseComponentsAreFilteredInTheirOwnUnits() {
        var smoother = AnchorSmoother.pose(options: options)
        var reference = (0..<6).map { _ in OneEuroFilter(options: options) }
        for frame in 0..<30 {
            let time = Double(frame) / 30
            let pose = Pose(rotation: Vector3(0.1 * Double(frame), -0.2, 0.05), translation: Vector3(0.01, 0.02 * Double(frame), 0.6))
            let smoothed = smoother.smooth(pose, at: time)
            let expected = (pose.rotation.array + pose.translation.array).indices.map { i in
                reference[i].filter((pose.rotation.array + pose.translation.array)[i], at: time)
            }
            #expect(smoothed.rotation.array + smoothed.translation.array == expected)
        }
    }

    @Test func afterResetTheNextSamplePassesThrough() {
        var smoother = AnchorSmoother(points: 1, options: options)
        _ = smoother.smooth([Point2(0, 0)], at: 0, unit: 1)
        #expect(smoother.smooth([Point2(10, 10)], at: 1.0 / 30, unit: 1) != [Point2(10, 10)])
        smoother.reset()
        #expect(smoother.smooth([Point2(40, -5)], at: 2.0 / 30, unit: 1) == [Point2(40, -5)])
    }
}
