import Testing
@testable import HeritageCore

/// A synthetic, upright 68-point face: eyes at ±d/2 from `centre`, parts placed in proportion.
func syntheticFace(centre: Point2 = Point2(320, 240), eyeDistance d: Double = 60, roll: Double = 0) -> [Point2] {
    var p = [Point2](repeating: .zero, count: 68)
    for i in 0...16 {  // jaw from the right ear round the chin to the left ear
        let a = Double.pi * Double(i) / 16
        p[i] = Point2(-1.1 * d * _cos(a), 0.1 * d + 1.5 * d * _sin(a))
    }
    for i in 17...21 { p[i] = Point2(-0.9 * d + 0.16 * d * Double(i - 17), -0.35 * d) }
    for i in 22...26 { p[i] = Point2(0.26 * d + 0.16 * d * Double(i - 22), -0.35 * d) }
    for i in 27...30 { p[i] = Point2(0, 0.18 * d * Double(i - 26)) }
    for i in 31...35 { p[i] = Point2(-0.2 * d + 0.1 * d * Double(i - 31), 0.8 * d) }
    let eye: [Point2] = [Point2(-0.2, 0), Point2(-0.1, -0.06), Point2(0.1, -0.06), Point2(0.2, 0), Point2(0.1, 0.06),
                         Point2(-0.1, 0.06)]
    for (k, e) in eye.enumerated() {
        p[36 + k] = Point2(-d / 2 + e.x * d, e.y * d)
        p[42 + k] = Point2(d / 2 + e.x * d, e.y * d)
    }
    for i in 48...67 {
        let a = 2 * Double.pi * Double(i - 48) / 20
        p[i] = Point2(-0.45 * d * _cos(a), 1.15 * d + 0.15 * d * _sin(a))
    }
    return p.map { ($0.rotated(by: roll)) + centre }
}

@Suite struct FaceFrameTests {
    @Test func eyeMidpointDistanceAndRollAreReadOffTheLandmarks() {
        let f = FaceFrame(landmarks: syntheticFace(centre: Point2(300, 200), eyeDistance: 50, roll: 0.3))
        #expect(f.eyeMidpoint.distance(to: Point2(300, 200)) < 1e-9)
        #expect(abs(f.eyeDistance - 50) < 1e-9)
        #expect(abs(f.roll - 0.3) < 1e-9)
    }

    @Test func detectorBoxFollowsRoll() {
        let f = FaceFrame(eyeMidpoint: Point2(100, 100), eyeDistance: 40, roll: .pi / 2)
        // Rolled by 90°, "down the face" points to -x on screen.
        let c = f.detectorBoxCentre
        #expect(abs(c.x - (100 - FaceFrame.detectorBoxOffset.y * 40)) < 1e-9)
        #expect(abs(f.detectorBoxSide - FaceFrame.detectorBoxWidth * 40) < 1e-9)
    }

    /// Turning shortens the eye distance, not the head: the box keeps about its size, measured
    /// from the eyes to the mouth. A face looking ahead keeps the eye-distance box.
    @Test func aFaceTurnedAwayKeepsItsBoxSize() {
        let ahead = FaceFrame(landmarks: syntheticFace(eyeDistance: 60))
        #expect(ahead.boxUnit == ahead.eyeDistance)
        let turned = syntheticFace(eyeDistance: 60).map { Point2(320 + ($0.x - 320) * 0.6, $0.y) }
        let f = FaceFrame(landmarks: turned)
        #expect(abs(f.eyeDistance - 36) < 1e-9)
        #expect(abs(f.detectorBoxSide / ahead.detectorBoxSide - 1) < 0.1, "\(f.detectorBoxSide) against \(ahead.detectorBoxSide)")
        let moved = f.detectorBoxCentre - f.eyeMidpoint
        #expect(abs(moved.y - FaceFrame.detectorBoxOffset.y * f.boxUnit) < 1e-9)
    }

    @Test func detectionAndLandmarkBoxesAreInverse() {
        let box = Rect(x: 50, y: 60, width: 120, height: 120)
        let f = FaceFrame(detection: box)
        let back = f.detectorBox
        #expect(abs(back.x - box.x) < 1e-9 && abs(back.y - box.y) < 1e-9 && abs(back.width - box.width) < 1e-9)
    }
}

@Suite struct LandmarkPlausibilityTests {
    let check = LandmarkPlausibility()

    @Test(arguments: [0.0, 0.4, -0.5, 1.2])
    func aFaceShapeIsPlausibleAtAnyRoll(roll: Double) {
        #expect(check.check(syntheticFace(roll: roll), previous: nil) == .plausible)
    }

    @Test func collapsedOrMirroredShapesAreNot() {
        let collapsed = [Point2](repeating: Point2(10, 10), count: 68)
        #expect(check.check(collapsed, previous: nil) != .plausible)
        let mirrored = syntheticFace().map { Point2(640 - $0.x, $0.y) }
        #expect(check.check(mirrored, previous: nil) != .plausible)
        let upsideDown = syntheticFace().map { Point2($0.x, 480 - $0.y) }
        #expect(check.check(upsideDown, previous: syntheticFace()) != .plausible)
    }

    @Test func jumpsBetweenFramesAreNot() {
        let before = syntheticFace()
        #expect(check.check(syntheticFace(centre: Point2(330, 240)), previous: before) == .plausible)
        #expect(check.check(syntheticFace(centre: Point2(450, 240)), previous: before) != .plausible)
        #expect(check.check(syntheticFace(eyeDistance: 90), previous: before) != .plausible)
        #expect(check.check(syntheticFace(roll: 0.8), previous: before) != .plausible)
    }
}

@Suite struct DetectionScheduleTests {
    @Test func searchesOftenWhileNothingIsTrackedAndRarelyOtherwise() {
        var s = DetectionSchedule(options: .init(searchInterval: 2, refreshInterval: 15, verifyInterval: 10))
        let idle = (0..<10).filter { s.searchDue(at: $0, trackedFaces: 0) }
        #expect(idle == [0, 2, 4, 6, 8])
        let tracking = (10..<60).filter { s.searchDue(at: $0, trackedFaces: 1) }
        #expect(tracking == [23, 38, 53])
    }

    /// At once when new (a track may start off its face), then every `verifyInterval` frames.
    @Test func eachTrackIsVerifiedOnItsOwnClock() {
        var s = DetectionSchedule(options: .init(verifyInterval: 10))
        var due: [Int: [Int]] = [:]
        for frame in 0..<25 {
            let ids = frame < 5 ? [1] : [1, 2]
            for id in s.verificationsDue(at: frame, trackIDs: ids) { due[id, default: []].append(frame) }
        }
        #expect(due[1] == [0, 10, 20])
        #expect(due[2] == [5, 15])
    }

    /// For `settlingFrames` after a face came into view, every `settlingInterval` frames, changed
    /// scene or not; then the refresh interval (the quiet one, as nothing changed here).
    @Test func aFaceComingIntoViewBringsTheSearchesCloserForASecond() {
        var s = DetectionSchedule(options: .init(searchInterval: 2, refreshInterval: 15, verifyInterval: 10,
                                                 settlingInterval: 3, settlingFrames: 30))
        _ = s.searchDue(at: 0, trackedFaces: 0)
        s.faceCameIntoView(at: 0)
        let due = (1..<80).filter { s.searchDue(at: $0, trackedFaces: 1, sceneChanged: { false }) }
        #expect(due == [3, 6, 9, 12, 15, 18, 21, 24, 27, 72])
        #expect(s.isSettling(at: 29) && !s.isSettling(at: 30))
    }

    @Test func aCutOrALostFaceSearchesOnTheNextFrame() {
        var s = DetectionSchedule(options: .init(searchInterval: 2, refreshInterval: 15, verifyInterval: 10))
        _ = s.searchDue(at: 0, trackedFaces: 1)
        s.searchSoon()
        let due = (1..<20).filter { s.searchDue(at: $0, trackedFaces: 1) }
        #expect(due == [1, 16])
    }
}
