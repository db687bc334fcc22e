import HeritageCore

/// "face_detect": hands due detection jobs to the worker. Inline (process), their cost shows
/// here; in the background (run), this stage only copies the gray frame when the worker is free.
public final class FaceDetectionStage: FrameStage {
    public let name = "face_detect"
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
    private let tracker: FaceTracker
    private let backgroundDetection: Bool

    public init(tracker: FaceTracker, backgroundDetection: Bool) {
        self.tracker = tracker
        self.backgroundDetection = backgroundDetection
    }

    public func process(_ work: inout FrameWork) throws {
        let faces = try tracker.update(with: work.gray, frameIndex: work.frame.index, time: work.frame.time)
        work.anchors.faces = work.analysisScale == 1 ? faces : faces.map { $0.scaled(by: 1 / work.analysisScale) }
        if backgroundDetection && tracker.detectionMilliseconds > 0 {
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
    private let faceSolver: FacePoseSolver
    private let cardSolver: CardPoseSolver
    private let planes: [String: CardPlane]
    private let smoothing: OneEuroFilter.Options
    private var faceState: [Int: (pose: Pose, filter: OneEuroVectorFilter, lastFrame: Int)] = [:]
    private var cardFilters: [String: (filter: OneEuroVectorFilter, lastFrame: Int)] = [:]

    public init(intrinsics: Intrinsics, cards: CardSet? = nil,
                smoothing: OneEuroFilter.Options = OneEuroFilter.Options(minCutoff: 1.0, beta: 0.8, derivativeCutoff: 1.0)) {
        faceSolver = FacePoseSolver(intrinsics: intrinsics)
        cardSolver = CardPoseSolver(intrinsics: intrinsics)
        planes = Dictionary(uniqueKeysWithValues: (cards?.cards ?? []).map { ($0.id, $0.plane) })
        self.smoothing = smoothing
    }

    public func process(_ work: inout FrameWork) throws {
        let frame = work.frame.index
        for i in work.anchors.faces.indices {
            let face = work.anchors.faces[i]
            let previous = faceState[face.id].flatMap { frame - $0.lastFrame <= 2 ? $0.pose : nil }
            guard let raw = faceSolver.pose(landmarks: face.landmarks, previous: previous) else { continue }
            var filter = faceState[face.id]?.filter ?? OneEuroVectorFilter(count: 6, options: smoothing)
            if previous == nil { filter.reset() }
            work.anchors.faces[i].pose = smoothed(raw, with: &filter, at: work.frame.time)
            faceState[face.id] = (raw, filter, frame)
        }
        for i in work.anchors.cards.indices {
            let card = work.anchors.cards[i]
            guard let plane = planes[card.id], let raw = cardSolver.pose(corners: card.corners, plane: plane) else { continue }
            var entry = cardFilters[card.id] ?? (OneEuroVectorFilter(count: 6, options: smoothing), frame)
            if frame - entry.lastFrame > 2 { entry.filter.reset() }
            work.anchors.cards[i].pose = smoothed(raw, with: &entry.filter, at: work.frame.time)
            cardFilters[card.id] = (entry.filter, frame)
        }
        faceState = faceState.filter { frame - $0.value.lastFrame < 60 }
    }

    private func smoothed(_ raw: Pose, with filter: inout OneEuroVectorFilter, at time: Double) -> Pose {
        let v = filter.filter(raw.rotation.array + raw.translation.array, at: time)
        return Pose(rotation: Vector3(v[0], v[1], v[2]), translation: Vector3(v[3], v[4], v[5]))
    }
}
