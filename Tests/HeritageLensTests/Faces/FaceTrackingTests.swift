import Foundation
import HeritageCore
import Testing
@testable import HeritageLens
@testable import HeritageTooling

/// The face pipeline on a generated video of a real face (the public-domain portrait Debian ships)
/// moving, rolling and scaling. Ground truth: dlib's own fit on the unmoved portrait, carried
/// through each frame's known transform.
@Suite(.serialized, .enabled(if: TestPaths.debianAsset("astronaut.png") != nil
                                    && FileManager.default.fileExists(atPath: FaceModelFiles.landmarks68),
                             "needs Samples/debian/astronaut.png (scripts/fetch-debian-assets.sh) and libdlib-data"))
struct FaceTrackingTests {
    static let predictor = try! LandmarkPredictor()
    // The suite is serialized, so one detector is never used by two tests at once.
    nonisolated(unsafe) static let detector = try! HOGFaceDetector()
    nonisolated(unsafe) static let appearance = try! FaceAppearanceCheck()
    nonisolated(unsafe) static let secondOpinion = try! FaceSecondOpinion()

    func tracker(background: Bool = false, detector: FaceDetector = detector,
                 options: FaceTracker.Options = FaceTracker.Options(), warmth: FaceWarmth = FaceWarmth()) -> FaceTracker {
        FaceTracker(detector: detector, predictor: Self.predictor, appearance: Self.appearance,
                    secondOpinion: Self.secondOpinion, warmth: warmth, background: background, options: options)
    }

    /// Frames `indices` of `scene` (640x480), in gray, each its own image.
    func grayFrames(of scene: SyntheticScene, _ indices: ClosedRange<Int>) throws -> [Image] {
        let frame = try Image(width: 640, height: 480)
        return try indices.map { i in
            try scene.render(frame: i, into: frame)
            let gray = Image()
            try frame.convertToGray(into: gray)
            return gray
        }
    }

    /// Runs the face stages over `frames` frames of `scene` (inline detection) and returns the anchors.
    func anchors(of scene: SyntheticScene, frames: Int, options: FaceTracker.Options = FaceTracker.Options(),
                 warmth: FaceWarmth = FaceWarmth()) throws -> [FrameAnchors] {
        let tracker = tracker(options: options, warmth: warmth)
        let collector = AnchorCollector()
        _ = try PipelineConfiguration(faces: tracker)
            .makePipeline(source: try SceneSource(name: "scene", scene: scene, frameCount: frames), sinks: [collector]).run()
        return collector.frames
    }

    /// Feeds the scene's first frame again and again to a tracker whose detection runs in the
    /// background, with the time between frames a camera leaves, until it publishes faces (or
    /// `frames` have gone by, and at least `seconds`: the idle-priority worker gets little of a
    /// machine busy with other tests); returns them.
    func firstFacesFoundInTheBackground(on scene: SyntheticScene, frames: Int, seconds: Double = 20) throws -> [FaceAnchor] {
        let gray = Image(), frame = try Image(width: scene.size.width, height: scene.size.height)
        try scene.render(frame: 0, into: frame)
        try frame.convertToGray(into: gray)
        let live = tracker(background: true, detector: try HOGFaceDetector())
        defer { live.finish() }
        var found: [FaceAnchor] = []
        let deadline = Date().addingTimeInterval(seconds)
        var i = 0
        while found.isEmpty && (i < frames || Date() < deadline) {
            try live.scheduleDetection(on: gray, frameIndex: i)
            found = try live.update(with: gray, frameIndex: i, time: Double(i) / 30)
            usleep(10_000)  // the time between frames, when the idle-priority worker runs
            i += 1
        }
        return found
    }

    func portrait() throws -> (Image, [Point2]) {
        let image = try Image(contentsOf: TestPaths.debianAsset("astronaut.png")!)
        try image.normalizeToBGR()
        let gray = Image()
        try image.convertToGray(into: gray)
        let found = try Self.detector.detect(in: gray, region: nil, scale: 1)
        let face = try #require(found.max { $0.score < $1.score })
        return (image, try Self.predictor.fit(in: gray, box: face.box))
    }

    @Test func aMovingFaceIsFoundTrackedUnderOneIdAndFittedClosely() throws {
        let (image, truth0) = try portrait()
        let eye = FaceFrame(landmarks: truth0)
        let frames = 75
        let place: (Int) -> Homography = { i in
            let t = Double(i) / Double(frames - 1)
            return .similarity(pivot: eye.eyeMidpoint, scale: (40 + 20 * Foundation.sin(2 * .pi * t)) / eye.eyeDistance,
                               angle: 0.35 * Foundation.sin(2 * .pi * t), position: Point2(320 + 80 * Foundation.sin(.pi * t), 220))
        }
        let scene = try SyntheticScene(size: Size(width: 640, height: 480),
                                       layers: [.init(name: "face", image: image) { place($0) }],
                                       effects: .init(noiseSigma: 2))
        let tracker = tracker()
        let collector = AnchorCollector()
        let pipeline = try PipelineConfiguration(faces: tracker, pose: .assumed(for: scene.size))
            .makePipeline(source: try SceneSource(name: "moving", scene: scene, frameCount: frames), sinks: [collector])
        _ = try pipeline.run()
        let sequence = FaceSequence(name: "moving", scene: scene, frameCount: frames,
                                    truth: { i in [0: truth0.map(place(i).apply)] })
        let score = FaceEvaluation.score(sequence, anchors: collector.frames)
        #expect(score.recall >= 0.95)
        #expect(score.falsePositives == 0)
        #expect(score.idSwitches == 0)
        #expect(Set(collector.frames.flatMap { $0.faces.map(\.id) }).count == 1)
        let meanError = score.landmarkErrors.reduce(0, +) / Double(score.landmarkErrors.count)
        #expect(meanError < 0.05, "mean landmark error \(meanError)")
        // Every published face has a pose in front of the camera, and roll follows the motion.
        let faces = collector.frames.flatMap(\.faces)
        #expect(faces.allSatisfy { ($0.pose?.translation.z ?? -1) > 0 })
        let rolls = faces.compactMap { $0.pose?.eulerDegrees.z }
        // The portrait is turned ±20° in the image plane: the pose's roll follows the eye line's.
        let eyeRolls = faces.map { FaceFrame(landmarks: $0.landmarks).roll * degreesPerRadian }
        #expect((rolls.max() ?? 0) - (rolls.min() ?? 0) > 30)
        #expect(abs(((rolls.max() ?? 0) - (rolls.min() ?? 0)) - ((eyeRolls.max() ?? 0) - (eyeRolls.min() ?? 0))) < 6)
    }

    /// A head held leaning far (50°, past what the upright search reaches) never passes upright:
    /// the turned searches find it on the first frames, inline and in the background.
    @Test(arguments: [50.0, -50.0])
    func aFaceHeldLeaningIsFoundAtOnce(degrees: Double) throws {
        let (image, truth0) = try portrait()
        let eye = FaceFrame(landmarks: truth0)
        let lean = degrees / degreesPerRadian - eye.roll
        let place = Homography.similarity(pivot: eye.eyeMidpoint, scale: 45 / eye.eyeDistance, angle: lean,
                                          position: Point2(320, 230))
        let scene = try SyntheticScene(size: Size(width: 640, height: 480),
                                       layers: [.init(name: "face", image: image) { _ in place }],
                                       effects: .init(noiseSigma: 2))
        // Upright search alone never finds it.
        var upright = FaceTracker.Options()
        upright.rolledSearchAngle = 0
        let missed = FaceTracker(detector: try HOGFaceDetector(), predictor: Self.predictor, appearance: Self.appearance,
                                 secondOpinion: Self.secondOpinion, background: false, options: upright)
        let unseen = AnchorCollector()
        _ = try PipelineConfiguration(faces: missed)
            .makePipeline(source: try SceneSource(name: "leaning", scene: scene, frameCount: 20), sinks: [unseen]).run()
        #expect(unseen.frames.allSatisfy { $0.faces.isEmpty })
        let frames = try anchors(of: scene, frames: 20)
        let first = try #require(frames.firstIndex { !$0.faces.isEmpty }, "never found")
        #expect(first <= 2)
        let found = try #require(frames.last?.faces.first)
        #expect(abs(FaceFrame(landmarks: found.landmarks).roll * degreesPerRadian - degrees) < 5)
        // Live: a turned search takes the place of every third upright one.
        #expect(try firstFacesFoundInTheBackground(on: scene, frames: 300).count == 1)
    }

    @Test func anAnimalFaceAndClutterGiveNoAnchors() throws {
        let cat = try #require(TestPaths.debianAsset("chelsea.png"))
        let image = try Image(contentsOf: cat)
        try image.normalizeToBGR()
        let scene = try SyntheticScene(size: Size(width: 640, height: 480), layers: [
            .init(name: "cat", image: image) { i in
                .similarity(pivot: Point2(225, 150), scale: 1.1, angle: 0.01 * Double(i), position: Point2(320, 240))
            },
        ], effects: .init(noiseSigma: 3))
        #expect(try anchors(of: scene, frames: 40).allSatisfy { $0.faces.isEmpty })
    }

    /// The astronaut's suit below her face: a round mission patch and a name tag that dlib's search
    /// scores up to 0.7 and its filters pass, turning and growing as in the sample.
    @Test func badgesOnASuitGiveNoAnchorsOnceASecondDetectorIsAsked() throws {
        let photo = try Image(contentsOf: TestPaths.debianAsset("astronaut.png")!)
        try photo.normalizeToBGR()
        let top = Double(photo.height) * 0.4
        let suit = try photo.cropped(to: Rect(x: 0, y: top, width: Double(photo.width), height: Double(photo.height) - top))
        let pivot = Point2(Double(suit.width) / 2, Double(suit.height) / 2)
        let scene = try SyntheticScene(size: Size(width: 640, height: 480), layers: [
            .init(name: "suit", image: suit) { i in
                .similarity(pivot: pivot, scale: 0.9 + 0.01 * Double(i), angle: -0.25 + 0.005 * Double(i),
                            position: Point2(320, 264))
            },
        ], effects: .init(noiseSigma: 3))
        #expect(try anchors(of: scene, frames: 60).allSatisfy { $0.faces.isEmpty })
        // Without the second detector and colour the same frames show a face: the scene is a real test.
        var believing = FaceTracker.Options()
        believing.clearDetectionScore = -.infinity
        var colourBlind = FaceWarmth.Options()
        colourBlind.warmSurround = .infinity
        #expect(try anchors(of: scene, frames: 60, options: believing, warmth: FaceWarmth(options: colourBlind))
            .contains { !$0.faces.isEmpty })
    }

    /// A start under `clearDetectionScore` waits for the second detector's second agreement however
    /// well its fit scores on the check: live at a quarter core, a turned search found the name tag
    /// of eval-faces' `look-alikes` (seed 202) at 0.42, its fit scored 0.53, and one agreement
    /// published it for 125 frames. A slightly blurred face is shown a frame later for it.
    @Test func aWeakStartIsShownOnlyOnItsSecondAgreementHoweverClearItsFit() throws {
        let (image, truth) = try portrait()
        let eye = FaceFrame(landmarks: truth)
        let scene = try SyntheticScene(size: Size(width: 640, height: 480), layers: [
            .init(name: "face", image: image) { _ in
                .similarity(pivot: eye.eyeMidpoint, scale: 36 / eye.eyeDistance, angle: 0, position: Point2(320, 220))
            },
        ], effects: .init(noiseSigma: 3, blurSigma: 1))
        let frame = try Image(width: 640, height: 480), gray = Image()
        try scene.render(frame: 0, into: frame)
        try frame.convertToGray(into: gray)
        // The tracker's search finds this face at 0.85, a weak detection; what makes the start
        // clear is that its fit scores 0 or above on the check and the second detector agrees at
        // once (checked here on the fit from a plain search's box).
        let found = try #require(try Self.detector.detect(in: gray, region: nil, scale: 1).max { $0.score < $1.score })
        let fit = FaceFrame(landmarks: try Self.predictor.fit(in: gray, box: found.box))
        #expect(try (Self.appearance.appearance(of: fit, in: gray)?.score ?? -10) >= 0)
        #expect(try Self.secondOpinion.agrees(with: fit, in: gray))

        let shown = try anchors(of: scene, frames: 10).firstIndex { !$0.faces.isEmpty }
        #expect(shown == 1, "first shown on frame \(shown.map(String.init) ?? "none")")
    }

    @Test func aFaceFoundByTheBackgroundWorkerIsPickedUpOnALaterFrame() throws {
        let (image, _) = try portrait()
        let scene = try SyntheticScene(size: Size(width: 640, height: 480), layers: [
            .init(name: "face", image: image) { _ in .similarity(pivot: Point2(256, 180), scale: 0.7, angle: 0, position: Point2(320, 220)) },
        ])
        #expect(try firstFacesFoundInTheBackground(on: scene, frames: 200).count == 1)
    }

    /// Live, a scene's first frame waits for the search handed out on it, so a face in view from
    /// the start is shown on that frame, as inline. The wait here is long enough for a debug
    /// build's search on a busy machine; a release build's takes 15-28 ms of the 33 ms it gets.
    @Test func aFaceInViewFromTheStartIsShownOnTheFirstFrameLive() throws {
        // Eyes 70 px apart: a size the first part of a split search (the larger faces) finds.
        let scene = try SyntheticScene(size: Size(width: 640, height: 480),
                                       layers: [try portraitLayer(eyeDistance: 70) { _ in Point2(320, 220) }])
        let gray = Image(), frame = try Image(width: 640, height: 480)
        try scene.render(frame: 0, into: frame)
        try frame.convertToGray(into: gray)
        func firstFrameFaces(ownSearchWait: Double) throws -> Int {
            var options = FaceTracker.Options()
            options.newSceneOwnSearchWait = ownSearchWait
            let live = tracker(background: true, detector: try HOGFaceDetector(), options: options)
            defer { live.finish() }
            try live.scheduleDetection(on: gray, frameIndex: 0)
            return try live.update(with: gray, frameIndex: 0, time: 0).count
        }
        #expect(try firstFrameFaces(ownSearchWait: 1800) == 1)
        // Without the wait the search cannot have landed by then: what the test tells apart.
        #expect(try firstFrameFaces(ownSearchWait: 0) == 0)
    }

    /// Live, a frame that follows skipped ones waits by the source's period, not by the gap the
    /// skip left: a cut's first frame 100 s after one that came 1 ms after the first may wait
    /// 1 ms, less than any search of a 640x480 frame takes, so its face is not shown on it yet;
    /// from a source whose period is 100 s the same frame waits for its search and shows it.
    @Test func aFrameAfterASkipWaitsByTheSourcesPeriodNotByTheGap() throws {
        let before = try Image(contentsOf: try #require(TestPaths.debianAsset("coffee.png")))
        try before.normalizeToBGR()
        let cut = 2
        let scene = try SyntheticScene(size: Size(width: 640, height: 480), layers: [
            .init(name: "before the cut", image: before) { i in
                i < cut ? .similarity(pivot: Point2(200, 200), scale: 1.3, angle: 0, position: Point2(320, 240)) : nil
            },
            try portraitLayer(eyeDistance: 70) { $0 >= cut ? Point2(320, 220) : nil },
        ])
        let grays = try grayFrames(of: scene, 0...cut)
        func facesOnTheCutsFrame(times: [Double]) throws -> Int {
            let live = tracker(background: true, detector: try HOGFaceDetector())
            defer { live.finish() }
            for i in 0..<cut {
                try live.scheduleDetection(on: grays[i], frameIndex: i)
                _ = try live.update(with: grays[i], frameIndex: i, time: times[i])
                // The cut's frame then hands out its own search to an idle worker.
                while live.isDetecting { usleep(1000) }
            }
            try live.scheduleDetection(on: grays[cut], frameIndex: cut)
            return try live.update(with: grays[cut], frameIndex: cut, time: times[cut]).count
        }
        #expect(try facesOnTheCutsFrame(times: [0, 0.001, 100]) == 0)
        // What tells the two apart is the period alone: the same frames, waited for.
        #expect(try facesOnTheCutsFrame(times: [0, 100, 200]) == 1)
    }

    /// Live, while a face that left at the edge is awaited, each frame waits for its own search
    /// and takes its result there, so the face coming back is shown on the frame a search first
    /// sees it, as inline; without the wait each search lands on the next frame. (Periods of
    /// 100 s: the wait is never cut short by a slow search.)
    @Test func whileAFaceThatLeftIsAwaitedEachFrameTakesItsOwnSearchLive() throws {
        // In view for 10 frames, out to the right at 25 px a frame (its track dropped on frame
        // 22), away, then back from the right at 25 px a frame from frame 31; over a photograph,
        // so that neither is a cut (on black a face coming or going changes the whole frame).
        let back = 31
        let photo = try Image(contentsOf: try #require(TestPaths.debianAsset("coffee.png")))
        try photo.normalizeToBGR()
        let scene = try SyntheticScene(size: Size(width: 640, height: 480), layers: [
            .init(name: "photograph", image: photo) { _ in
                .similarity(pivot: Point2(200, 200), scale: 1.3, angle: 0, position: Point2(320, 240))
            },
            try portraitLayer { i in
                i < 10 ? Point2(320, 220) : i < 26 ? Point2(320 + 25 * Double(i - 9), 220)
                    : i < back ? nil : Point2(720 - 25 * Double(i - back), 220)
            },
        ], effects: .init(noiseSigma: 3))
        let grays = try grayFrames(of: scene, 0...back + 14)
        let awaited = 24..<back
        func run(returnSearchWait: Double) throws -> (shown: [Int], ownSearchesTaken: Int) {
            var options = FaceTracker.Options()
            options.returnSearchWait = returnSearchWait
            let live = tracker(background: true, detector: try HOGFaceDetector(), options: options)
            defer { live.finish() }
            var shown: [Int] = [], ownSearchesTaken = 0
            for i in grays.indices {
                // Each frame hands out its own search to an idle worker.
                while live.isDetecting { usleep(1000) }
                try live.scheduleDetection(on: grays[i], frameIndex: i)
                shown.append(try live.update(with: grays[i], frameIndex: i, time: 100 * Double(i)).count)
                if awaited.contains(i), !live.isDetecting { ownSearchesTaken += 1 }
            }
            return (shown, ownSearchesTaken)
        }
        let waited = try run(returnSearchWait: 0.75)
        #expect(waited.shown[9] == 1)
        #expect(waited.shown[awaited].allSatisfy { $0 == 0 })
        #expect(waited.ownSearchesTaken == awaited.count)
        #expect(waited.shown.last == 1, "the face was not shown again")
        // The same frames, not waited for: no search lands on the frame it ran on.
        #expect(try run(returnSearchWait: 0).ownSearchesTaken == 0)
    }

    /// A live search lands frames after the frame it ran on; a face crossing the frame has moved
    /// on by then, and its track starts where the face is now (followed there by optical flow),
    /// not where the search saw it.
    @Test func aLateDetectionOfAFastFaceStartsItsTrackOnTheFace() throws {
        // 150 px by the time the result is taken: past where the detector's filters around the
        // old place would look (a box's width), so only the flow finds it.
        let speed = 25.0, late = 6
        let position = { (i: Int) in Point2(120 + speed * Double(i), 220) }
        let scene = try SyntheticScene(size: Size(width: 640, height: 480), layers: [try portraitLayer(position)],
                                       effects: .init(noiseSigma: 3))
        let grays = try grayFrames(of: scene, 0...late + 5)
        // The search is to land on frame `late`: frame 0 does not wait for it.
        var options = FaceTracker.Options()
        options.newSceneOwnSearchWait = 0
        let live = tracker(background: true, detector: try HOGFaceDetector(), options: options)
        defer { live.finish() }
        try live.scheduleDetection(on: grays[0], frameIndex: 0)
        #expect(try live.update(with: grays[0], frameIndex: 0, time: 0).isEmpty)
        // Frames 1 ... late - 1 go by while the search runs; its result is taken on frame `late`.
        while live.isDetecting { usleep(1000) }
        for i in late...late + 5 {
            let faces = try live.update(with: grays[i], frameIndex: i, time: Double(i) / 30)
            // A weak start is shown from its second agreement with the second detector, a fit later.
            if i == late && faces.isEmpty {
                #expect(!live.trackIDs.isEmpty, "no track started on frame \(i)")
                continue
            }
            let face = try #require(faces.first, "no face on frame \(i)")
            let off = FaceFrame(landmarks: face.landmarks).eyeMidpoint.distance(to: position(i))
            #expect(off < 5, "frame \(i): \(off) px from the face")
        }
    }

    // A track must not outlive its face: after a cut, a fast exit or the face turning into noise
    // the landmark predictor still returns a plausible shape there, and only the per-frame
    // appearance check can tell. Each loses its track within 3 frames.

    /// The portrait with its eyes `eyeDistance` px apart, placed by `position(i)` (nil: not in the frame).
    func portraitLayer(eyeDistance: Double = 50, _ position: @escaping (Int) -> Point2?) throws -> SyntheticScene.Layer {
        let (image, truth) = try portrait()
        let eye = FaceFrame(landmarks: truth)
        return .init(name: "face", image: image) { i in
            position(i).map { .similarity(pivot: eye.eyeMidpoint, scale: eyeDistance / eye.eyeDistance, angle: 0, position: $0) }
        }
    }

    /// The first frame index from which no frame has a face anchor.
    func lastAnchoredFrame(_ frames: [FrameAnchors]) -> Int {
        frames.last { !$0.faces.isEmpty }?.frame ?? -1
    }

    @Test func aCutLosesTheTrackWithinThreeFrames() throws {
        let photo = try #require(TestPaths.debianAsset("coffee.png"))
        let after = try Image(contentsOf: photo)
        try after.normalizeToBGR()
        let cut = 30
        let scene = try SyntheticScene(size: Size(width: 640, height: 480), layers: [
            try portraitLayer { $0 < cut ? Point2(300 + Double($0), 220) : nil },
            .init(name: "after the cut", image: after) { i in
                i >= cut ? .similarity(pivot: Point2(200, 200), scale: 1.3, angle: 0, position: Point2(320, 240)) : nil
            },
        ], effects: .init(noiseSigma: 3))
        let frames = try anchors(of: scene, frames: cut + 20)
        #expect(frames[cut - 1].faces.count == 1)
        #expect(lastAnchoredFrame(frames) < cut + 3, "anchors until frame \(lastAnchoredFrame(frames)), cut at \(cut)")
    }

    @Test func aFaceLeavingAtSpeedLosesItsTrackWithinThreeFrames() throws {
        // Still for 30 frames, then out to the right at 25 px a frame.
        let scene = try SyntheticScene(size: Size(width: 640, height: 480), layers: [
            try portraitLayer { i in Point2(320 + 25 * Double(max(0, i - 30)), 220) },
        ], effects: .init(noiseSigma: 3))
        let frames = try anchors(of: scene, frames: 60)
        #expect(frames[29].faces.count == 1)
        // The eye midpoint passes the right edge at frame 30 + 320/25, about 43; the face (some
        // 140 px wide) is gone a few frames later.
        #expect(lastAnchoredFrame(frames) < 46, "anchors until frame \(lastAnchoredFrame(frames))")
    }

    @Test func aFaceTurningIntoNoiseLosesItsTrackWithinThreeFrames() throws {
        let noise = try Image(width: 400, height: 400)
        try noise.fill(blue: 128, green: 128, red: 128)
        try noise.addNoise(sigma: 50, seed: 9)
        try noise.blur(kernel: 5, sigma: 1.5)
        let change = 30
        let scene = try SyntheticScene(size: Size(width: 640, height: 480), layers: [
            try portraitLayer { _ in Point2(320, 220) },
            // Noise over the face from frame 30: the same place, the face gone.
            .init(name: "noise", image: noise) { i in
                i >= change ? .similarity(pivot: Point2(200, 200), scale: 1, angle: 0, position: Point2(320, 240)) : nil
            },
        ], effects: .init(noiseSigma: 3))
        let frames = try anchors(of: scene, frames: change + 20)
        #expect(frames[change - 1].faces.count == 1)
        #expect(lastAnchoredFrame(frames) < change + 3, "anchors until frame \(lastAnchoredFrame(frames))")
    }

    /// One of two faces blurred past recognition for 20 frames (the frame's cells hardly change: no
    /// cut, nothing new for a search to look for): once it is sharp again it is found within a few
    /// frames, because the place it was lost is searched again, not at the next search for new
    /// faces, up to 45 frames later in a still scene.
    @Test func aFaceLostBesideAnotherIsLookedForWhereItWasLost() throws {
        let (image, truth) = try portrait()
        let eye = FaceFrame(landmarks: truth)
        let blurred = try image.copy()
        try blurred.blur(kernel: 41, sigma: 9)
        let (hidden, shown) = (30, 50)
        let place = { (x: Double) in
            Homography.similarity(pivot: eye.eyeMidpoint, scale: 50 / eye.eyeDistance, angle: 0, position: Point2(x, 220))
        }
        let scene = try SyntheticScene(size: Size(width: 640, height: 480), layers: [
            .init(name: "left", image: image) { _ in place(170) },
            .init(name: "right", image: image) { i in (hidden..<shown).contains(i) ? nil : place(470) },
            .init(name: "right blurred", image: blurred) { i in (hidden..<shown).contains(i) ? place(470) : nil },
        ], effects: .init(noiseSigma: 3))
        let frames = try anchors(of: scene, frames: shown + 15)
        let right = { (f: FrameAnchors) in f.faces.contains { $0.boundingBox.centre.x > 320 } }
        let left = { (f: FrameAnchors) in f.faces.contains { $0.boundingBox.centre.x < 320 } }
        #expect(right(frames[hidden - 1]) && left(frames[hidden - 1]))
        #expect(!right(frames[shown - 1]), "the blurred face must be lost")
        #expect(frames[hidden...].allSatisfy(left), "the other face stays tracked")
        let back = frames[shown...].first(where: right)?.frame
        #expect(back != nil && back! <= shown + 2, "found again at frame \(back.map(String.init) ?? "never"), sharp from \(shown)")
    }

    /// `HardSequences.named(name, seed:)` run through the tracker, and its score.
    func tracked(_ name: String, seed: UInt64, options: FaceTracker.Options = FaceTracker.Options())
        throws -> (score: FaceSequenceScore, frames: [FrameAnchors]) {
        let sequence = try HardSequences.named(name, seed: seed)
        let frames = try anchors(of: sequence.scene, frames: sequence.frameCount, options: options)
        return (FaceEvaluation.score(sequence, anchors: frames), frames)
    }

    /// The hard sequence shows no false face and keeps recall at the target.
    func expectNoFalseFace(in name: String, seed: UInt64) throws {
        expectNoFalseFace(in: try tracked(name, seed: seed).score)
    }

    func expectNoFalseFace(in score: FaceSequenceScore) {
        #expect(score.falsePositives == 0, "\(score.falsePositives) false faces")
        #expect(score.recall >= 0.95, "recall \(score.recall)")
    }

    /// No false face, recall at target, and at most `share` of the fits 8 % off or worse.
    func expectFitsOnTheFace(in name: String, seed: UInt64, aboveEightPercentAtMost share: Double) throws {
        let score = try tracked(name, seed: seed).score
        let above = score.landmarkErrors.filter { $0 > 0.08 }.count
        #expect(Double(above) <= share * Double(score.landmarkErrors.count), "\(above) of \(score.landmarkErrors.count) fits above 8 %")
        expectNoFalseFace(in: score)
    }

    /// Three small faces over a photograph (`eval-faces` hard set, seed 11): the middle one, about
    /// 37 px between the eyes, keeps its track through its verifications. When every verification's
    /// box taught the track where the check's window sits, that face's score fell with each one
    /// until the track was lost at frame 60 for 25 frames (continuity 92 %).
    @Test(.needsHardSet)
    func aSmallFaceKeepsItsTrackThroughItsVerifications() throws {
        let score = try tracked("small-three", seed: 11).score
        let continuity = Double(score.continuousPairs) / Double(max(1, score.continuityPairs))
        #expect(continuity >= 0.98, "continuity \(continuity)")
        #expect(score.recall >= 0.95, "recall \(score.recall)")
        #expect(score.falsePositives == 0)
    }

    /// Seed 16's `leave-fast` face is turned well away from the camera: dlib finds it weakly and
    /// the second detector agreed on it only on its first entry. Back from the other side, it is
    /// the face that left, known by its look, and published again at once.
    @Test(.needsHardSet)
    func aTurnedFaceThatLeftIsKnownByItsLookWhenItComesBack() throws {
        let (score, frames) = try tracked("leave-fast", seed: 16)
        #expect(score.recall >= 0.75, "recall \(score.recall)")
        #expect(score.falsePositives == 0)
        // Back under the id it left with.
        let ids = Set(frames.flatMap { $0.faces.map(\.id) })
        #expect(ids.count == 1, "ids \(ids.sorted())")
    }

    /// Seed 38's `backlight-35` face is the man turned well away from the camera, dim: dlib's
    /// search finds him at 0.25-0.45 on every few frames, but the check's window, placed by his
    /// landmarks, sits a third smaller than the detector's box and scores his fits -0.9 to -1.15,
    /// under a strong start's -0.9: never started. Checked in the detector's own box, he starts
    /// and, once the second detector agrees, is shown.
    @Test(.needsHardSet)
    func aTurnedDimFaceStartsFromItsDetectionsOwnBox() throws {
        let score = try tracked("backlight-35", seed: 38).score
        #expect(score.recall >= 0.3, "recall \(score.recall)")
        #expect(score.falsePositives == 0)
    }

    /// Seed 435's `backlight-35`: a dim face found at 0.02-0.25 by search after search, its fits
    /// scoring -0.19 to -0.71 on the check, was started only when one search scored it 0.32, at
    /// frame 36 (recall 0.589). A weak start's fit needs -0.6: it starts on the first search and
    /// is shown once the second detector agrees.
    @Test(.needsHardSet)
    func aDimFaceFoundWeaklyWithFitsUnderZeroStartsOnItsFirstSearch() throws {
        let score = try tracked("backlight-35", seed: 435).score
        #expect(score.recall >= 0.9, "recall \(score.recall)")
        #expect(score.falsePositives == 0)
    }

    /// A weak start the detector never finds again, but the second detector keeps agreeing with
    /// and whose middle stays as warm as skin: seed 610's `noise-defocus` (a man with glasses in
    /// σ 12 noise, found at 0.04-0.11 by three searches in 120 frames) and seed 635's `gamma-2.2`
    /// (a darkened face found at 0.07-0.09). Each was published, then dropped once three
    /// verifications and the searches had found nothing (recall 0.417 and 0.222), while the
    /// cascade agreed on 10 of its 19 and 16 of its 21 fits since and every fit's middle was warm.
    @Test(.needsHardSet, arguments: [("noise-defocus", UInt64(610)), ("gamma-2.2", UInt64(635))])
    func aWeakStartTheSecondDetectorKeepsAgreeingWithIsKept(name: String, seed: UInt64) throws {
        let score = try tracked(name, seed: seed).score
        #expect(score.recall >= 0.85, "recall \(score.recall)")
        #expect(score.falsePositives == 0)
    }

    /// The gentle `enter-leave`: its face comes in at the left edge and is found at 0.01 with a
    /// fifth of its box outside the frame; fitted from the part inside, its fit scored -0.52 and
    /// sat a third of an eye distance off the face until a verification refitted it 20 frames
    /// later (22.7 % of the row's fits above 8 % error). At the frame's edge a weak start needs the
    /// filters' own threshold, and the face is started from a clear detection, on itself.
    @Test(.needsHardSet)
    func aFaceComingInAtTheEdgeIsNotStartedFromAWeakFitOfItsPartInside() throws {
        let sequence = try HardSequences.gentle("enter-leave")
        let score = FaceEvaluation.score(sequence, anchors: try anchors(of: sequence.scene, frames: sequence.frameCount))
        let above = score.landmarkErrors.filter { $0 > 0.08 }.count
        #expect(above * 20 <= score.landmarkErrors.count, "\(above) of \(score.landmarkErrors.count) fits above 8 %")
        expectNoFalseFace(in: score)
    }

    /// Live, a search lands frames after the frame it ran on. Seed 204's `backlight-35` opens on a
    /// dim face turned well away, found at 0.35 by the first search, its fit scoring under the
    /// bar where its landmarks put the check's window and nothing nearby looking more like a face:
    /// a late detection went no further, and the face was found 0.27 s later by a search that
    /// happened to score its fit higher. Checked in its detector's own box, as it is inline, it
    /// starts on the first search's landing. Each result is taken on the frame after the one it
    /// ran on, the worker waited for rather than a clock, so the run is the same on any machine.
    @Test(.needsHardSet)
    func aLateDetectionOfATurnedDimFaceIsCheckedInItsOwnBox() throws {
        let sequence = try HardSequences.named("backlight-35", seed: 204)
        let live = tracker(background: true, detector: try HOGFaceDetector())
        defer { live.finish() }
        try live.scheduleDetection(on: HardSequences.grayFrame(of: sequence, at: 0), frameIndex: 0)
        while live.isDetecting { usleep(1000) }
        _ = try live.update(with: HardSequences.grayFrame(of: sequence, at: 1), frameIndex: 1, time: 1.0 / 30)
        #expect(!live.trackIDs.isEmpty, "no track started from the first search")
    }

    /// Runs the hard sequence through a tracker whose detection runs in the background, one frame
    /// at a time: each frame's jobs are waited for and land on the next frame, as a search a
    /// live run's worker finishes within a frame does. The schedule is a live run's (split
    /// searches, turned ones in their place), and the run the same on any machine. With
    /// `workerFreeEvery` n, jobs are handed to the worker on every n-th frame only, as when its
    /// searches take longer than a frame.
    /// With `scheduledFirst`, each frame's jobs are handed out before its fits, as the pipeline
    /// runs its stages (`face_detect`, then `faces`): a verification's region is then placed from
    /// the fit of the frame before the one its detector sees.
    func trackedLive(_ name: String, seed: UInt64, workerFreeEvery: Int = 1,
                     scheduledFirst: Bool = false) throws -> FaceSequenceScore {
        let sequence = try HardSequences.named(name, seed: seed)
        // Every job lands on the next frame, the same on any machine: a scene's first frame does
        // not wait for its own search (which lands within the wait on a fast machine only).
        var options = FaceTracker.Options()
        options.newSceneOwnSearchWait = 0
        let live = tracker(background: true, detector: try HOGFaceDetector(), options: options)
        defer { live.finish() }
        var frames: [FrameAnchors] = []
        for i in 0..<sequence.frameCount {
            let gray = try HardSequences.grayFrame(of: sequence, at: i)
            let time = Double(i) / sequence.framesPerSecond
            let due = i % workerFreeEvery == 0
            if scheduledFirst, due { try live.scheduleDetection(on: gray, frameIndex: i) }
            let faces = try live.update(with: gray, frameIndex: i, time: time)
            if !scheduledFirst, due { try live.scheduleDetection(on: gray, frameIndex: i) }
            while live.isDetecting { usleep(500) }
            frames.append(FrameAnchors(frame: i, time: time, size: gray.size, faces: faces))
        }
        return FaceEvaluation.score(sequence, anchors: frames)
    }

    /// Held-out seed 645's `leave-fast`, live, as the pipeline orders its stages: the face comes
    /// back fast and stops, and a verification that ran while it moved landed once it had
    /// stopped, when its track no longer looked blurred, and taught the track the box drawn
    /// around the moving face. Fitted from that box, the still face's fit jumped off it every few
    /// frames: 13-17 % of its fits above 8 % error, against 2 % inline.
    @Test(.needsHardSet)
    func aDetectionMadeWhileTheFaceMovedTeachesNoBoxWhenItLands() throws {
        let score = try trackedLive("leave-fast", seed: 645, scheduledFirst: true)
        let above = score.landmarkErrors.filter { $0 > 0.08 }.count
        #expect(above * 20 <= score.landmarkErrors.count, "\(above) of \(score.landmarkErrors.count) fits above 8 %")
    }

    /// Seed 406's `leave-fast`, live: the mouth and chin of the face shown are found as a small
    /// face at 0.34, inside its box; started, the second detector agreed and a false face showed
    /// for 34 frames. A detection inside a face shown starts nothing.
    @Test(.needsHardSet)
    func aSmallFaceFoundInsideAShownOneStartsNothing() throws {
        expectNoFalseFace(in: try trackedLive("leave-fast", seed: 406))
    }

    /// Held-out seed 223's `noise-defocus`, live, its worker free every other frame: the noisy
    /// face's first track, started from a search that landed a frame late and never verified in
    /// its first frames, is refused (the cascade agrees with none of its first six fits), and its
    /// place doubted for 3 s while searches find it there again and again (recall 0.34). A
    /// detection there whose detector box the cascade agrees with starts it again.
    @Test(.needsHardSet)
    func aNoisyFaceRefusedOnceStartsAgainWhereTheSecondDetectorFindsIt() throws {
        let score = try trackedLive("noise-defocus", seed: 223, workerFreeEvery: 2)
        #expect(score.recall >= 0.7, "recall \(score.recall)")
        #expect(score.falsePositives == 0)
    }

    /// The hard sequence, live (`trackedLive`), keeps its faces under one id from frame to frame
    /// at the target, and shows no false face.
    func expectContinuityHeldLive(in name: String, seed: UInt64) throws {
        let score = try trackedLive(name, seed: seed)
        let continuity = Double(score.continuousPairs) / Double(max(1, score.continuityPairs))
        #expect(continuity >= 0.99, "continuity \(continuity)")
        #expect(score.falsePositives == 0)
    }

    /// Seed 203's `leave-fast`, live: the face leaves at the right edge and comes back from the
    /// left at 22 px a frame. With the second part of each split search looking for the smallest
    /// faces and a turned search in every third upright one's place, its size was searched on
    /// one frame in two at most, and it was found two frames after it was whole (continuity
    /// 98.1 %). Looked for at its own size on every frame while it is awaited, it is found on the
    /// frame after.
    @Test(.needsHardSet)
    func aFaceThatLeftAtTheEdgeIsLookedForAtItsSizeUntilItIsBack() throws {
        try expectContinuityHeldLive(in: "leave-fast", seed: 203)
    }

    /// Seed 242's `leave-fast`, live: the face that leaves leans about 19°, and coming back it is
    /// found only on the frame turned its way (continuity 94.1 % while turned searches took turns
    /// with upright ones; in a live run with upright searches alone while it was awaited, 88.1 %).
    /// Awaited, it is looked for on the frame turned its way on every other frame.
    @Test(.needsHardSet)
    func aLeaningFaceThatLeftIsLookedForOnTheFrameTurnedItsWay() throws {
        try expectContinuityHeldLive(in: "leave-fast", seed: 242)
    }

    /// Seed 387's `speed`: the face moves 25 px a frame from the first frame. Its track's first
    /// fit after the start, placed where the face had been, settled half on it a size too large
    /// (eyes 62 px apart on a face of 46) and scored -0.9 to -1.2, enough to be kept and shown off
    /// the face for 12 frames (15 false faces, recall 0.880). Placed where its look went, as a
    /// fast face's later fits are, it is fitted on the face from its second frame.
    @Test(.needsHardSet)
    func aFaceMovingFastFromItsFirstFrameIsFittedWhereItWent() throws {
        try expectFitsOnTheFace(in: "speed", seed: 387, aboveEightPercentAtMost: 0.05)
    }

    /// Seed 319's `small-three`: a girl's face, partly covered by another picture for a while,
    /// whose fits slid half an eye distance towards her cheek and scored there (1.5) about as well
    /// as on her face. The clear detections that verified her track fitted her face at that same
    /// score, not the 0.3 better a refit wants, so the slid fit stayed: a false face on 15 frames.
    /// A slow track a quarter eye distance or more from a clear detection's fit takes that fit at
    /// about its own score.
    @Test(.needsHardSet)
    func aFitSlidOffItsFaceIsTakenBackByAClearDetection() throws {
        let score = try tracked("small-three", seed: 319).score
        #expect(score.falsePositives <= 3, "\(score.falsePositives) false faces")
        #expect(score.recall >= 0.99, "recall \(score.recall)")
    }

    /// Seed 323's `cuts`: its last scene's portrait appears where the face of the scene before was
    /// dropped on the cut. Found near that lost face, it took its id and was held to its usual
    /// score (2.0; the new face scores -0.7 to -0.2): followed unseen for the whole scene, recall
    /// 0.758. A track dropped on a cut leaves nothing to reclaim by place.
    @Test(.needsHardSet)
    func aFaceAfterACutIsNotHeldToTheScoreOfTheFaceBefore() throws {
        try expectNoFalseFace(in: "cuts", seed: 323)
    }

    /// Seed 330's `cuts`: a turned face, lost for three frames and found again where it was, was
    /// held to the usual score of its few sharper first fits (0.33; it scores -0.5 to -0.9), so
    /// followed unseen as if half covered while the detector found it at its place every ten
    /// frames: recall 0.921, continuity 91 %. The detector seeing it clearly, with no other face
    /// beside it, sets its usual score to what it scores now.
    @Test(.needsHardSet)
    func aTurnedFaceTheDetectorFindsIsNotTakenForACoveredOne() throws {
        let score = try tracked("cuts", seed: 330).score
        expectNoFalseFace(in: score)
        #expect(Double(score.continuousPairs) >= 0.95 * Double(score.continuityPairs), "continuity \(score.continuousPairs) of \(score.continuityPairs)")
    }

    /// Seed 321's `leave-fast` brings back two faces of one photograph, the second 80 px behind
    /// the first. Found as the first came in, at the next refresh half a second later the second
    /// had been whole in the frame for 11 frames: recall 0.948, continuity 94.7 %. After a face
    /// comes into view the searches run every third frame for a second.
    @Test(.needsHardSet)
    func aFaceABeatBehindAnotherIsFoundAsItComesIn() throws {
        let score = try tracked("leave-fast", seed: 321).score
        #expect(score.falsePositives == 0)
        #expect(score.recall >= 0.98, "recall \(score.recall)")
        #expect(Double(score.continuousPairs) >= 0.98 * Double(score.continuityPairs), "continuity \(score.continuousPairs) of \(score.continuityPairs)")
    }

    /// Seed 279's `backlight-35`: a frontal face at 35 % of a bright background, which dlib's
    /// search found at 0.5-1.3 only in the frame as it is. Darkened as a washed-out frame (its
    /// mean is over 150), the face sank under the detector's threshold: recall 0.
    @Test(.needsHardSet)
    func aFaceAgainstTheLightIsFoundOnItsFirstFrames() throws {
        try expectNoFalseFace(in: "backlight-35", seed: 279)
    }

    /// Seed 289's `look-alikes`: the astronaut's blue name tag on his orange suit passes dlib's
    /// search, its filters and the Haar cascade alike; it was a face on 107 of 150 frames. Its
    /// colour rules it out (`FaceWarmth`).
    @Test(.needsHardSet)
    func aNameTagOnColouredClothIsNoFace() throws {
        #expect(try tracked("look-alikes", seed: 289).score.falsePositives == 0)
    }

    /// Seed 481's `look-alikes` recorded as an H.264 MP4, as `eval-faces --export` writes it and
    /// `process` reads it: on frame 54 the compressed name tag is found at 1.03, a clear start
    /// no second detector is asked about, and it was a face for 51 frames. Its colour rules it
    /// out however strongly it is found.
    @Test(.needsHardSet)
    func aNameTagFoundStronglyInARecordingIsNoFace() throws {
        let sequence = try HardSequences.named("look-alikes", seed: 481)
        let path = try recorded(sequence, as: "look-alikes")
        let collector = AnchorCollector()
        _ = try PipelineConfiguration(faces: tracker())
            .makePipeline(source: try VideoFileSource(path: path), sinks: [collector]).run()
        #expect(collector.frames.count == sequence.frameCount)
        let score = FaceEvaluation.score(sequence, anchors: collector.frames)
        #expect(score.falsePositives == 0, "\(score.falsePositives) false faces")
    }

    /// The hard sequence written as an MP4 and read back through `process`'s pipeline, scored.
    func trackedRecorded(_ name: String, seed: UInt64) throws -> FaceSequenceScore {
        let sequence = try HardSequences.named(name, seed: seed)
        let path = try recorded(sequence, as: "\(name)-\(seed)")
        let collector = AnchorCollector()
        _ = try PipelineConfiguration(faces: tracker())
            .makePipeline(source: try VideoFileSource(path: path), sinks: [collector]).run()
        return FaceEvaluation.score(sequence, anchors: collector.frames)
    }

    /// The sequence written as an H.264 MP4, as `eval-faces --export` writes it; its path.
    func recorded(_ sequence: FaceSequence, as name: String) throws -> String {
        let path = TestPaths.scratch() + "/\(name).mp4"
        let sink = try VideoFileSink(path: path, size: sequence.scene.size, framesPerSecond: 30)
        var copying = PipelineConfiguration()
        copying.convertsToGray = false
        _ = try copying.makePipeline(source: try SceneSource(name: name, scene: sequence.scene,
                                                             frameCount: sequence.frameCount, paced: false),
                                     sinks: [sink]).run()
        return path
    }

    /// Held-out seed 510's `noise-defocus` recorded as an MP4 and run through `process`: the noisy
    /// face's first fits, refitted from a strong detection, gave it a usual score of 0.41; from its
    /// fifth frame it fits at -0.4 to -0.5 and was followed unseen as a covered face while the
    /// searches every third frame found it where it was, until the next verification six frames
    /// later (recall 0.933, 10.7 % of its fits above 8 %). Found clearly by a search too, with no
    /// other face beside it, it is whole: what it scores now is its usual.
    @Test(.needsHardSet)
    func aNoisyFaceASearchFindsIsNotTakenForACoveredOne() throws {
        expectNoFalseFace(in: try trackedRecorded("noise-defocus", seed: 510))
    }

    /// Held-out seed 486's `noise-defocus` recorded as an MP4 and run through `process`: the face
    /// moves slowly under sensor noise and defocus, and each fit, started from the last, slid a
    /// little further down and to the right along the noise, a third to half an eye distance off
    /// within four or five frames, before its check called it back, again and again (39 % of its
    /// fits above 8 % error). Fitted again from where its look went once a fit sits a tenth of an
    /// eye distance from there, and taken when that scores clearly better: under a tenth.
    @Test(.needsHardSet)
    func aNoisyFacesFitThatSlidesFromWhereItsLookWentIsFittedAgainThere() throws {
        let score = try trackedRecorded("noise-defocus", seed: 486)
        let above = score.landmarkErrors.filter { $0 > 0.08 }.count
        #expect(Double(above) <= 0.12 * Double(score.landmarkErrors.count), "\(above) of \(score.landmarkErrors.count) fits above 8 %")
        expectNoFalseFace(in: score)
    }

    /// Held-out seed 220's `gamma-2.2`: the laughing man turned about 45°, started on the first
    /// frame and fitted on him, was refitted on the second from a verification's box, a fit half
    /// an eye distance beside him that scored about as well, taken as if the track's own fit had
    /// slid off its face; from there its fits stayed beside him (18 false frames, recall 0.77).
    /// A track's first fits are where its start put them: none has had frames to slide. (A later
    /// verification's refit beside him is the next test's.)
    @Test(.needsHardSet)
    func aTracksFirstFitsAreNotTakenForSlidByADetectionBesideThem() throws {
        let score = try tracked("gamma-2.2", seed: 220).score
        #expect(score.falsePositives <= 6, "\(score.falsePositives) false faces")
        #expect(score.recall >= 0.9, "recall \(score.recall)")
    }

    /// The same row, later: the man's track, fitted on him for 40 frames, was refitted from his
    /// verification's box 0.58 eye distances beside him, which scored -0.06 against his -0.24 and
    /// was taken as where his fit had slid to. The next fits from there scored -0.5 to -1.3 and
    /// were shown beside him (5 false frames, recall 0.922). The track as it was, followed on the
    /// next frame too, scores 0.5 better there and takes its place.
    @Test(.needsHardSet)
    func aSlideRefitBesideAFaceIsUndoneWhenTheTrackAsItWasScoresClearlyBetter() throws {
        let score = try tracked("gamma-2.2", seed: 220).score
        #expect(score.falsePositives <= 2, "\(score.falsePositives) false faces")
        #expect(score.recall >= 0.95, "recall \(score.recall)")
    }

    /// Seed 316's `cuts` opens on a face found at 0.49 whose fits the check scores -0.8 to -1.0,
    /// and the cascade, asked where those fits put the face, agreed on none of its first six:
    /// dropped, and the scene's face never shown (recall 0.809). In the box dlib's detector drew
    /// the cascade agrees at the start and at the first verification: shown from its second frame.
    @Test(.needsHardSet)
    func aTurnedFaceIsAgreedWithInItsDetectorsBox() throws {
        try expectNoFalseFace(in: "cuts", seed: 316)
    }

    /// Held-out seeds 449 and 466, `noise-defocus`: a blurred poster beside the face and a patch
    /// of gravel, each found once by the search at 0.06-0.08 and agreed with by the cascade, were
    /// faces for 87 and 51 frames, where no later detection found them. A weak start that three
    /// verifications in a row have not found, and none ever did, is dropped. (Both were found by
    /// turned searches, which no longer start a track at that score: here they still may.)
    @Test(.needsHardSet)
    func aWeakStartNoLaterDetectionFindsIsDropped() throws {
        var options = FaceTracker.Options()
        options.rolledDetectionThreshold = options.weakDetectionThreshold
        for seed: UInt64 in [449, 466] {
            let score = try tracked("noise-defocus", seed: seed, options: options).score
            #expect(score.falsePositives <= 25, "seed \(seed): \(score.falsePositives) false faces")
            #expect(score.recall >= 0.99, "seed \(seed): recall \(score.recall)")
        }
    }

    /// The same two, as a turned search found them (at 0.077 and 0.060): no track starts, so no
    /// frame shows them; the face beside them is tracked throughout.
    @Test(.needsHardSet)
    func aTurnedSearchsDetectionNearZeroStartsNothing() throws {
        for seed: UInt64 in [449, 466] {
            let score = try tracked("noise-defocus", seed: seed).score
            #expect(score.falsePositives == 0, "seed \(seed): \(score.falsePositives) false faces")
            #expect(score.recall >= 0.99, "seed \(seed): recall \(score.recall)")
        }
    }

    /// Seed 149's `backlight-35`: the same turned man, started from his detector's own box on the
    /// second frame. The second detector, asked where his landmarks put the box, agreed on 3 of
    /// his first 15 fits, under the third it wants: dropped, and his place doubted for the rest of
    /// the sequence. Asked where his track learnt the box sits, it agrees on his next two fits.
    @Test(.needsHardSet)
    func theSecondDetectorIsAskedWhereATurnedFacesBoxSits() throws {
        let score = try tracked("backlight-35", seed: 149).score
        #expect(score.recall >= 0.9, "recall \(score.recall)")
        #expect(score.falsePositives == 0)
    }

    /// Seed 34's `cuts` goes from a portrait over a launch pad to bare gravel: on the cut the
    /// track's fit is no plausible face at all, and the next frames' fits on the gravel score just
    /// inside a recently verified face's lenient check. Dropped on the cut, it shows nothing there.
    @Test(.needsHardSet)
    func aTrackWithNoFaceLikeFitOnACutIsDroppedThere() throws {
        try expectNoFalseFace(in: "cuts", seed: 34)
    }

    /// Held-out seed 432's `leave-fast`: a face leaving at speed, whose look, matched on what is
    /// left of it inside the frame, moves less than the face, had its fit stuck inside the edge
    /// and was shown a frame after its eyes had left (one false frame). Where its last step takes
    /// its eyes, the way its look went too, counts as where it is going.
    @Test(.needsHardSet)
    func aFaceLeavingFastIsNotShownAfterItsEyesHaveLeft() throws {
        try expectNoFalseFace(in: "leave-fast", seed: 432)
    }

    /// Seed 26's `leave-fast` face leaves upwards at 20 px a frame: its fit sticks to the chin left
    /// at the top edge, a stuck fit looks like a still face, and a recently verified still face is
    /// shown down to a lenient score. At the frame's edge that leniency is not given: no false face.
    @Test(.needsHardSet)
    func aFaceLeavingAtTheTopLeavesNoFitStuckOnItsChin() throws {
        try expectNoFalseFace(in: "leave-fast", seed: 26)
    }

    /// Held-out seed 498's `leave-fast`: a face still for five seconds leaves upwards at 20 px a
    /// frame. On its first fast frame it is blurred and its fit comes a sixth too large, scoring
    /// far under what it usually does, as a face going behind another picture does: hidden there,
    /// then taken for slid, it was lost for its last 9 frames in view (continuity 98 %). Its look
    /// moved fast on that frame, so it is no covered face: followed until it leaves.
    @Test(.needsHardSet)
    func aStillFaceThatStartsToLeaveFastIsFollowedOut() throws {
        let score = try tracked("leave-fast", seed: 498).score
        #expect(score.continuousPairs == score.continuityPairs,
                "\(score.continuityPairs - score.continuousPairs) of \(score.continuityPairs) frame pairs not under one id")
        expectNoFalseFace(in: score)
    }

    /// Seed 29's `small-three`: the middle face drifts behind the photograph of its neighbour, and
    /// its fit jumps 20 px onto what is left of it, still scoring like a dim face, 0.6 of an eye
    /// distance off the covered face. The face's look did not move: the jump is a slide, a miss.
    @Test(.needsHardSet)
    func aFitThatSlidWhereTheFaceDidNotMoveIsNotShown() throws {
        try expectNoFalseFace(in: "small-three", seed: 29)
    }

    /// Seed 119's `small-three`: the middle face, 36 px between the eyes, has its neighbour's
    /// photograph over one side; in one frame its fit shrinks by a sixth and slips a fifth of an
    /// eye distance down, scoring under what a clear face does, and the next fits creep on from
    /// there to half an eye distance off: twelve false faces. A steady face's weak fit 15 % off
    /// the size of the face shown is a miss.
    @Test(.needsHardSet)
    func aWeakFitFarOffTheSizeOfTheFaceShownIsAMiss() throws {
        try expectNoFalseFace(in: "small-three", seed: 119)
    }

    /// Seed 79's `small-three`: the middle face goes half behind its neighbour's photograph, its
    /// fits score a point and more under what the face usually does and grow over the picture in
    /// front, to twice the face's size: 41 false faces. Followed unseen while it scores like that
    /// (and its fits that grow a fifth in a frame missed), it shows none, and is shown again once
    /// it is out.
    @Test(.needsHardSet)
    func aFacePartlyBehindAnotherPictureIsFollowedUnseen() throws {
        try expectNoFalseFace(in: "small-three", seed: 79)
    }

    /// Seed 53's `small-three` face drifts behind another picture and is followed unseen; its fit
    /// on what is left of it, half an eye distance off and growing, came to score 0.0-0.3 against
    /// a usual 1.2: over 0, where a clear face scores, so it was shown again, four false faces.
    /// Once covered, a face is shown again when its fit scores near its usual score.
    @Test(.needsHardSet)
    func aCoveredFaceIsShownAgainOnlyWhenItScoresLikeItself() throws {
        try expectNoFalseFace(in: "small-three", seed: 53)
    }

    /// Seed 27's `leave-fast` face leaves at 20 px a frame; its fit on the last frame it is half
    /// in scores under the check and is hidden, and the next fit, started where the face was two
    /// frames before, lands on its chin at the edge and scores just above it: one false face. A
    /// fast face that missed a frame and whose motion takes it mostly out of the frame has left.
    @Test(.needsHardSet)
    func aFastFaceThatMissedAFrameOnItsWayOutHasLeft() throws {
        try expectNoFalseFace(in: "leave-fast", seed: 27)
    }

    /// Seed 81's `speed` face, blurred by its motion, was verified every ten frames by detections
    /// whose boxes were a pyramid step larger than the face and drawn where it was a frame before;
    /// its box learnt from them set its fits a size off and a third of an eye distance away, where
    /// they stayed: 41 % of its fits above 8 % and seven false faces. A face moving fast enough to
    /// blur learns nothing from its verifications. (Its fits are now mostly from the detector's
    /// box, which for this face is a size large when blurred: 19 % of them above 8 %, where dlib's
    /// own per-frame fits have 24 %.)
    @Test(.needsHardSet)
    func aFaceBlurredByItsMotionLearnsNothingFromItsVerifications() throws {
        try expectFitsOnTheFace(in: "speed", seed: 81, aboveEightPercentAtMost: 0.2)
    }

    /// Seed 30's `speed` face crosses the frame at 25 px a frame and turns back at each side. Fitted
    /// from half its last motion ahead, each fit started a quarter of an eye distance behind it and
    /// half a face off where it turned, and a fifth of its fits settled 8 % off or worse; fitted
    /// from where its look went, about one in twenty does.
    @Test(.needsHardSet)
    func aFastFaceIsFittedWhereItsLookWent() throws {
        try expectFitsOnTheFace(in: "speed", seed: 30, aboveEightPercentAtMost: 0.1)
    }

    /// Seed 27's `speed` face crosses the frame at 25 px a frame. Each fit, started from the last,
    /// stays near where it starts on a blurred face and scores as well off it as on it: 13 % of its
    /// fits above 8 % error (the turned man of seeds 3 and 32, 63-78 %). A face that moved fast
    /// enough to blur is fitted from the box dlib's detector gives it around where it went, as
    /// dlib's own per-frame use does: 2 % (seeds 3 and 32: 3-6 %).
    @Test(.needsHardSet)
    func aBlurredFastFaceIsFittedFromTheDetectorsBox() throws {
        try expectFitsOnTheFace(in: "speed", seed: 27, aboveEightPercentAtMost: 0.06)
    }

    /// Seed 6's `speed` face turns back every 15 frames at 25 px a frame. The smoothing's speed
    /// estimate lags such a turn, its cutoff drops, and it held the anchors behind the fits on the
    /// first frame back: 0.10 and 0.12 eye distances from the face on two of its nine turns, where
    /// a step that fast is motion, not jitter.
    @Test(.needsHardSet)
    func aFastFaceThatTurnsBackIsNotHeldBehindIt() throws {
        let sequence = try HardSequences.named("speed", seed: 6)
        let frames = try tracked("speed", seed: 6).frames
        var off: [Double] = []
        for i in 2..<frames.count {
            let x = (0...2).map { FaceFrame(landmarks: sequence.truth(i - $0)[0] ?? []).eyeMidpoint.x }
            guard (x[0] - x[1]) * (x[1] - x[2]) < 0, let face = frames[i].faces.first,
                  let truth = sequence.truth(i)[0] else { continue }
            let t = FaceFrame(landmarks: truth)
            off.append(FaceFrame(landmarks: face.landmarks).eyeMidpoint.distance(to: t.eyeMidpoint) / t.eyeDistance)
        }
        #expect(off.count >= 8, "\(off.count) turns shown")
        #expect(off.allSatisfy { $0 <= 0.05 }, "eye distances from the face on the first frame back: \(off)")
    }

    /// Seed 23's `leave-fast` face leaves upwards at 20 px a frame. Fitted from detections while
    /// it moves, on the frame its eyes are 24 px above the frame its fit landed on its mouth and
    /// chin, 30 px below them: a false face. A fast face whose eyes go out of the frame where it is
    /// going has left.
    @Test(.needsHardSet)
    func aFastFaceWhoseEyesGoOutOfTheFrameHasLeft() throws {
        try expectNoFalseFace(in: "leave-fast", seed: 23)
    }
}

extension Trait where Self == ConditionTrait {
    /// The hard set is built from the shared annotated faces and the Debian photographs.
    static var needsHardSet: Self {
        .enabled(if: TestPaths.sharedFaces != nil && TestPaths.debianAsset("coffee.png") != nil, "needs ../shared/data/faces")
    }
}
