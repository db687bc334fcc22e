import Foundation
import HeritageCore
import HeritageLens

/// A kernel: a name, what it does, and how to make its measured call from the fixture.
struct Kernel {
    let name: String
    let summary: String
    let make: (KernelFixture) throws -> () throws -> Void
}

/// The hot kernels, in pipeline order. Each `make` does its set-up (and priming of trackers)
/// outside the measured call.
enum KernelCatalog {
    static var all: [Kernel] { [
        Kernel(name: "convert", summary: "BGR to gray, 640x480") { f in
            let gray = Image()
            return { try f.frames[0].convertToGray(into: gray) }
        },
        Kernel(name: "detect-hog", summary: "dlib HOG search of the whole frame (faces from 28 px between the eyes; AVX2 where the CPU has it)") { f in
            let detector = try HOGFaceDetector()
            let scale = DetectionRunner.searchScale(minimumEyeDistance: 28)
            return { _ = try detector.detect(in: f.grays[0], region: nil, scale: scale) }
        },
        Kernel(name: "detect-hog-baseline", summary: "the same, dlib as Debian compiles it (x86-64 baseline, SSE2)") { f in
            let detector = try HOGFaceDetector(kernel: .baseline)
            let scale = DetectionRunner.searchScale(minimumEyeDistance: 28)
            return { _ = try detector.detect(in: f.grays[0], region: nil, scale: scale) }
        },
        Kernel(name: "detect-verify", summary: "dlib HOG around one tracked face (re-confirmation)") { f in
            let detector = try HOGFaceDetector()
            let box = FaceFrame(landmarks: f.face.landmarks).detectorBox
            let side = box.width * 1.8
            let region = Rect(x: box.centre.x - side / 2, y: box.centre.y - side / 2, width: side, height: side)
            let scale = min(2.5, max(0.4, 110 / box.width))
            return { _ = try detector.detect(in: f.grays[0], region: region, scale: scale) }
        },
        Kernel(name: "detect-lbp", summary: "OpenCV LBP cascade search of the whole frame") { f in
            let detector = try CascadeFaceDetector(path: FaceModelFiles.cascadeFolder + "/" + FaceModelFiles.cascades["lbp"]!)
            let scale = DetectionRunner.searchScale(minimumEyeDistance: 28)
            return { _ = try detector.detect(in: f.grays[0], region: nil, scale: scale) }
        },
        Kernel(name: "landmarks", summary: "dlib 68-point fit of one face from its last landmarks") { f in
            let face = FaceFrame(landmarks: f.face.landmarks)
            return { _ = try f.predictor.fit(in: f.grays[1], centre: face.detectorBoxCentre, side: face.detectorBoxSide, roll: face.roll) }
        },
        // dlib's own evaluation of the same fit, for comparison: it runs about as many
        // instructions, but reads its leaves scattered over 65 MB, so on a real core it is
        // several times slower (callgrind's counts do not show memory stalls).
        Kernel(name: "landmarks-dlib", summary: "the same fit by dlib's own evaluation (for comparison)") { f in
            let face = FaceFrame(landmarks: f.face.landmarks)
            let reference = try LandmarkPredictor(keepingReference: true)
            return { _ = try reference.referenceFit(in: f.grays[1], centre: face.detectorBoxCentre, side: face.detectorBoxSide, roll: face.roll) }
        },
        Kernel(name: "second-opinion", summary: "Haar cascade on one face's box turned upright (a weak start's check, once a fit)") { f in
            let opinion = try FaceSecondOpinion()
            let face = FaceFrame(landmarks: f.face.landmarks)
            return { _ = try opinion.agrees(with: face, in: f.grays[0]) }
        },
        Kernel(name: "face-look", summary: "where one face's look went between two frames (a fast face's fit start, a slide's test)") { f in
            let box = FaceFrame(landmarks: f.face.landmarks).detectorBox
            return { _ = try FaceTracker.motion(of: box, from: f.grays[0], to: f.grays[1], frames: 1) }
        },
        Kernel(name: "face-track", summary: "face tracker update, one face (fit, checks, smoothing)") { f in
            let tracker = FaceTracker(detector: try HOGFaceDetector(), predictor: f.predictor, appearance: try FaceAppearanceCheck(), secondOpinion: try FaceSecondOpinion(), background: false, logger: .component("faces"))
            var i = 0
            func step(detect: Bool) throws {
                let gray = f.grays[i % 2]
                if detect { try tracker.scheduleDetection(on: gray, frameIndex: i) }
                _ = try tracker.update(with: gray, frameIndex: i, time: Double(i) / 30)
                i += 1
            }
            for _ in 0..<4 { try step(detect: true) }
            guard !tracker.trackIDs.isEmpty else { throw KernelFixture.Failure.notTracked("face") }
            return { try step(detect: false) }
        },
        Kernel(name: "face-pose", summary: "head pose, solvePnP refined from the last pose") { f in
            let solver = PoseSolver(intrinsics: f.intrinsics)
            let previous = f.face.pose
            return { _ = solver.headPose(landmarks: f.face.landmarks, previous: previous) }
        },
        Kernel(name: "orb", summary: "ORB, 1500 features on the frame (recognition's first step)") { f in
            let orb = try CardRecognizer.frameExtractor()
            return { _ = try orb.detect(in: f.grays[0]) }
        },
        Kernel(name: "match", summary: "two nearest frame features for each of one card's features (Hamming)") { f in
            let frame = try CardRecognizer.frameExtractor().detect(in: f.grays[0])
            let card = f.cards.cards[0].features
            return { _ = try nearestTwo(card, frame) }
        },
        Kernel(name: "match-popcnt", summary: "the same, one pair at a time with the popcnt instruction (no vector kernel)") { f in
            let frame = try CardRecognizer.frameExtractor().detect(in: f.grays[0])
            let card = f.cards.cards[0].features
            return { _ = try nearestTwo(card, frame, kernel: .popcnt) }
        },
        Kernel(name: "card-recognize", summary: "full card recognition: ORB, matching to six cards, RANSAC, check") { f in
            var options = CardRecognizer.Options()
            options.view = RectangleView(intrinsics: f.intrinsics)
            let recognizer = try CardRecognizer(cards: f.cards, options: options)
            return { _ = try recognizer.recognize(in: f.grays[0]) }
        },
        Kernel(name: "card-track", summary: "card tracker update, one card (flow, re-alignment, smoothing), high tier") { f in
            try cardTrackKernel(f, tier: .high)
        },
        Kernel(name: "card-track-low", summary: "the same in the low tier (aligned with the reference on a half-size copy)") { f in
            try cardTrackKernel(f, tier: .low)
        },
        Kernel(name: "card-pose", summary: "card pose, IPPE from four corners") { f in
            let solver = PoseSolver(intrinsics: f.intrinsics)
            let plane = f.cards.cards.first { $0.id == f.card.id }!.plane
            return { _ = solver.cardPose(corners: f.card.corners, plane: plane) }
        },
        Kernel(name: "mask-low", summary: "dragon mask, low tier (one similarity warp)") { f in
            try maskKernel(f, tier: .low)
        },
        Kernel(name: "mask-high", summary: "dragon mask, high tier (mesh warp, feather, lighting, pose parts)") { f in
            try maskKernel(f, tier: .high)
        },
        Kernel(name: "effect-low", summary: "card effect, low tier (flat particles through the homography)") { f in
            try effectKernel(f, tier: .low)
        },
        Kernel(name: "effect-high", summary: "card effect, high tier (3D particles above the card)") { f in
            try effectKernel(f, tier: .high)
        },
        Kernel(name: "frame-low", summary: "the per-frame path, low tier: convert, track, pose, render") { f in
            try frameKernel(f, tier: .low)
        },
        Kernel(name: "frame-high", summary: "the per-frame path, high tier") { f in
            try frameKernel(f, tier: .high)
        },
    ] }

    private static func cardTrackKernel(_ f: KernelFixture, tier: Tier) throws -> () throws -> Void {
        let tracker = try CardTracker(cards: f.cards, background: false, intrinsics: f.intrinsics, logger: .component("cards"))
        var i = 0
        var found = false
        func step(recognize: Bool) throws {
            let gray = f.grays[i % 2]
            if recognize { try tracker.scheduleRecognition(on: gray, frameIndex: i) }
            found = !(try tracker.update(with: gray, frameIndex: i, time: Double(i) / 30, tier: tier)).isEmpty
            i += 1
        }
        for _ in 0..<8 { try step(recognize: true) }
        guard found else { throw KernelFixture.Failure.notTracked("card") }
        return { try step(recognize: false) }
    }

    private static func maskKernel(_ f: KernelFixture, tier: Tier) throws -> () throws -> Void {
        let renderer = MaskRenderer(library: try MaskLibrary(), focalLength: f.intrinsics.fx)
        let canvas = try f.frames[0].copy()
        return { try renderer.draw(.dragon, on: f.face, tier: tier, into: canvas, gray: f.grays[0]) }
    }

    private static func effectKernel(_ f: KernelFixture, tier: Tier) throws -> () throws -> Void {
        let effects = try CardEffects(intrinsics: f.intrinsics, cards: f.cards)
        let canvas = try f.frames[0].copy()
        var time = 0.0
        return {
            try effects.draw(f.card, time: time, tier: tier, into: canvas)
            time += 1.0 / 30
        }
    }

    /// The stages a live run puts on the frame path (detection and recognition go to idle time,
    /// so they are primed here and then left out).
    private static func frameKernel(_ f: KernelFixture, tier: Tier) throws -> () throws -> Void {
        let faces = FaceTracker(detector: try HOGFaceDetector(), predictor: f.predictor, appearance: try FaceAppearanceCheck(), secondOpinion: try FaceSecondOpinion(), background: false, logger: .component("faces"))
        let cards = try CardTracker(cards: f.cards, background: false, intrinsics: f.intrinsics, logger: .component("cards"))
        let configuration = PipelineConfiguration(
            faces: faces, cards: cards, pose: f.intrinsics,
            render: RenderStage(masks: try MaskLibrary(), effects: try CardEffects(intrinsics: f.intrinsics, cards: f.cards),
                                focalLength: f.intrinsics.fx))
        let path = try configuration.stages(.framePathWithoutSearches)
        let finders = try configuration.stages(.searchesOnly)
        let canvases = try f.frames.map { try $0.copy() }
        let gray = Image()
        var i = 0
        var last = FrameAnchors(frame: 0, time: 0, size: f.frames[0].size)
        func step(finding: Bool) throws {
            // Each call starts from the unrendered frame, as a camera frame would.
            try f.frames[i % 2].copy(to: canvases[i % 2])
            let frame = Frame(index: i, time: Double(i) / 30, availableAt: 0, image: canvases[i % 2])
            var work = FrameWork(frame: frame, gray: gray, anchors: FrameAnchors(frame: i, time: frame.time, size: frame.size), tier: tier)
            try path[0].process(&work)
            if finding { for s in finders { try s.process(&work) } }
            for s in path.dropFirst() { try s.process(&work) }
            last = work.anchors
            i += 1
        }
        for _ in 0..<8 { try step(finding: true) }
        guard !last.faces.isEmpty, !last.cards.isEmpty else { throw KernelFixture.Failure.notTracked("face and card") }
        return { try step(finding: false) }
    }
}

/// Two consecutive frames of a video where a face and a card are tracked, with their anchors and
/// the models the kernels share.
final class KernelFixture {
    enum Failure: Error, CustomStringConvertible {
        case tooShort(String, Int)
        case endsBefore(String, frames: Int, atFrame: Int)
        case notTracked(String)

        var description: String {
            switch self {
            case .tooShort(let path, let n):
                return "\(path): no face and card tracked by frame \(n); give a video with both in view (or --at-frame)"
            case .endsBefore(let path, let frames, let at):
                return "\(path): --at-frame \(at) is past the video's \(frames) frames; give a frame under \(frames)"
            case .notTracked(let what): return "kernels: the \(what) in the fixture frames was not tracked"
            }
        }
    }

    let frames: [Image]
    let grays: [Image]
    let face: FaceAnchor
    let card: CardAnchor
    let intrinsics: Intrinsics
    let cards: CardSet
    let predictor: LandmarkPredictor

    init(video: String, frame target: Int) throws {
        let source = try VideoFileSource(path: video)
        defer { source.close() }
        intrinsics = Intrinsics.assumed(for: source.size)
        cards = try CardSet(folder: ProjectAssets.path("Samples/cards"))
        predictor = try LandmarkPredictor()
        let faces = FaceTracker(detector: try HOGFaceDetector(), predictor: predictor, appearance: try FaceAppearanceCheck(), secondOpinion: try FaceSecondOpinion(), background: false, logger: .component("faces"))
        let cardTracker = try CardTracker(cards: cards, background: false, intrinsics: intrinsics, logger: .component("cards"))
        let stages = try PipelineConfiguration(faces: faces, cards: cardTracker, pose: intrinsics).stages()
        var kept: [Image] = []
        var anchors: FrameAnchors?
        let gray = Image()
        var read = 0
        while let frame = try source.nextFrame() {
            read += 1
            kept = Array((kept + [try frame.image.copy()]).suffix(2))
            var work = FrameWork(frame: frame, gray: gray, anchors: FrameAnchors(frame: frame.index, time: frame.time, size: frame.size), tier: .low)
            for stage in stages { try stage.process(&work) }
            if frame.index >= target, work.anchors.faces.first?.pose != nil, work.anchors.cards.first?.pose != nil {
                anchors = work.anchors
                break
            }
            if frame.index > target + 300 { break }
        }
        stages.forEach { $0.finish() }
        if anchors == nil, read <= target { throw Failure.endsBefore(video, frames: read, atFrame: target) }
        guard let anchors, kept.count == 2 else { throw Failure.tooShort(video, target + 300) }
        // frames[1] is the frame the anchors belong to; frames[0] the one before.
        frames = kept.reversed()
        grays = try frames.map { f in
            let g = Image()
            try f.convertToGray(into: g)
            return g
        }
        face = anchors.faces[0]
        card = anchors.cards[0]
    }
}
