import Foundation
import HeritageCore
import Testing
@testable import HeritageLens

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
        let tracker = FaceTracker(detector: Self.detector, predictor: Self.predictor, background: false)
        let collector = AnchorCollector()
        let pipeline = Pipeline(
            source: try SceneSource(name: "moving", scene: scene, frameCount: frames),
            stages: [GrayConversionStage(), FaceDetectionStage(tracker: tracker),
                     FaceTrackingStage(tracker: tracker, backgroundDetection: false),
                     PoseStage(intrinsics: .assumed(for: scene.size))],
            sinks: [collector])
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

    @Test func anAnimalFaceAndClutterGiveNoAnchors() throws {
        let cat = try #require(TestPaths.debianAsset("chelsea.png"))
        let image = try Image(contentsOf: cat)
        try image.normalizeToBGR()
        let scene = try SyntheticScene(size: Size(width: 640, height: 480), layers: [
            .init(name: "cat", image: image) { i in
                .similarity(pivot: Point2(225, 150), scale: 1.1, angle: 0.01 * Double(i), position: Point2(320, 240))
            },
        ], effects: .init(noiseSigma: 3))
        let tracker = FaceTracker(detector: Self.detector, predictor: Self.predictor, background: false)
        let collector = AnchorCollector()
        _ = try Pipeline(source: try SceneSource(name: "cat", scene: scene, frameCount: 40),
                         stages: [GrayConversionStage(), FaceDetectionStage(tracker: tracker),
                                  FaceTrackingStage(tracker: tracker, backgroundDetection: false)],
                         sinks: [collector]).run()
        #expect(collector.frames.allSatisfy { $0.faces.isEmpty })
    }

    @Test func aFaceFoundByTheBackgroundWorkerIsPickedUpOnALaterFrame() throws {
        let (image, _) = try portrait()
        let gray = Image()
        let frame = try Image(width: 640, height: 480)
        let scene = try SyntheticScene(size: Size(width: 640, height: 480), layers: [
            .init(name: "face", image: image) { _ in .similarity(pivot: Point2(256, 180), scale: 0.7, angle: 0, position: Point2(320, 220)) },
        ])
        try scene.render(frame: 0, into: frame)
        try frame.convertToGray(into: gray)
        let tracker = FaceTracker(detector: try HOGFaceDetector(), predictor: Self.predictor, background: true)
        var found: [FaceAnchor] = []
        for i in 0..<200 where found.isEmpty {
            try tracker.scheduleDetection(on: gray, frameIndex: i)
            found = try tracker.update(with: gray, frameIndex: i, time: Double(i) / 30)
            usleep(10_000)  // the time between frames, when the idle-priority worker runs
        }
        tracker.finish()
        #expect(found.count == 1)
    }
}
