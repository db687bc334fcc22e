import HeritageCore

/// "face_detect": hands due detection jobs to the worker. Inline (process), their cost shows
/// here; in the background (run), this stage only copies the gray frame when the worker is free.
public final class FaceDetectionStage: FrameStage {
    public let name = "face_detect"
    public let reads: Set<FrameField> = [.gray]
    public let writes: Set<FrameField> = []
    private let tracker: FaceTracker

    public init(tracker: FaceTracker) {
        self.tracker = tracker
    }

    public func process(_ work: inout FrameWork) throws {
        try tracker.scheduleDetection(on: work.gray, frameIndex: work.frame.index)
    }
}

/// "faces": one landmark fit per tracked face; faces into the frame's anchors.
public final class FaceTrackingStage: FrameStage {
    public let name = "faces"
    public let reads: Set<FrameField> = [.gray, .image]
    public let writes: Set<FrameField> = [.faces]
    private let tracker: FaceTracker

    public init(tracker: FaceTracker) {
        self.tracker = tracker
    }

    public func process(_ work: inout FrameWork) throws {
        let faces = try tracker.update(with: work.gray, colour: work.frame.image, colourScale: 1 / work.analysisScale,
                                       frameIndex: work.frame.index, time: work.frame.time)
        work.anchors.faces = work.analysisScale == 1 ? faces : faces.map { $0.scaled(by: 1 / work.analysisScale) }
        if tracker.detectsInBackground && tracker.detectionMilliseconds > 0 {
            // Idle-time work is reported on its own, never inside a frame stage.
            work.background.append(("face_detect", tracker.detectionMilliseconds))
        }
    }

    public func finish() { tracker.finish() }
}

/// "pose": head pose per face and card pose per card, each smoothed per track with the One Euro
/// filter.
public final class PoseStage: FrameStage {
    public let name = "pose"
    public let reads: Set<FrameField> = []
    public let writes: Set<FrameField> = [.poses]
    private let solver: PoseSolver
    private let planes: [String: CardPlane]
    private let smoothing: OneEuroFilter.Options
    private var faceState: [Int: (pose: Pose, smoother: AnchorSmoother, lastFrame: Int)] = [:]
    private var cardSmoothers: [String: (smoother: AnchorSmoother, lastFrame: Int)] = [:]

    public init(intrinsics: Intrinsics, cards: CardSet? = nil,
                smoothing: OneEuroFilter.Options = OneEuroFilter.Options(minCutoff: 1.0, beta: 0.8, derivativeCutoff: 1.0)) {
        solver = PoseSolver(intrinsics: intrinsics)
        planes = Dictionary(uniqueKeysWithValues: (cards?.cards ?? []).map { ($0.id, $0.plane) })
        self.smoothing = smoothing
    }

    public func process(_ work: inout FrameWork) throws {
        let frame = work.frame.index
        for i in work.anchors.faces.indices {
            let face = work.anchors.faces[i]
            let previous = faceState[face.id].flatMap { frame - $0.lastFrame <= 2 ? $0.pose : nil }
            guard let raw = solver.headPose(landmarks: face.landmarks, previous: previous) else { continue }
            var smoother = faceState[face.id]?.smoother ?? .pose(options: smoothing)
            if previous == nil { smoother.reset() }
            work.anchors.faces[i].pose = smoother.smooth(raw, at: work.frame.time)
            faceState[face.id] = (raw, smoother, frame)
        }
        for i in work.anchors.cards.indices {
            let card = work.anchors.cards[i]
            guard let plane = planes[card.id], let raw = solver.cardPose(corners: card.corners, plane: plane) else { continue }
            var entry = cardSmoothers[card.id] ?? (.pose(options: smoothing), frame)
            if frame - entry.lastFrame > 2 { entry.smoother.reset() }
            work.anchors.cards[i].pose = entry.smoother.smooth(raw, at: work.frame.time)
            cardSmoothers[card.id] = (entry.smoother, frame)
        }
        faceState = faceState.filter { frame - $0.value.lastFrame < 60 }
    }
}
