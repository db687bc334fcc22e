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
        work.anchors.faces = try tracker.update(with: work.gray, frameIndex: work.frame.index, time: work.frame.time)
        if backgroundDetection && tracker.detectionMilliseconds > 0 {
            // Idle-time work is reported on its own, never inside a frame stage.
            work.background.append(("face_detect", tracker.detectionMilliseconds))
        }
    }

    public func finish() { tracker.finish() }
}

/// "pose": head pose per face, smoothed per track with the One Euro filter.
public final class FacePoseStage: FrameStage {
    public let name = "pose"
    private let solver: FacePoseSolver
    private let smoothing: OneEuroFilter.Options
    private var state: [Int: (pose: Pose, filter: OneEuroVectorFilter, lastFrame: Int)] = [:]

    public init(intrinsics: Intrinsics,
                smoothing: OneEuroFilter.Options = OneEuroFilter.Options(minCutoff: 1.0, beta: 0.8, derivativeCutoff: 1.0)) {
        solver = FacePoseSolver(intrinsics: intrinsics)
        self.smoothing = smoothing
    }

    public func process(_ work: inout FrameWork) throws {
        let frame = work.frame.index
        for i in work.anchors.faces.indices {
            let face = work.anchors.faces[i]
            let previous = state[face.id].flatMap { frame - $0.lastFrame <= 2 ? $0.pose : nil }
            guard let raw = solver.pose(landmarks: face.landmarks, previous: previous) else { continue }
            var filter = state[face.id]?.filter ?? OneEuroVectorFilter(count: 6, options: smoothing)
            if previous == nil { filter.reset() }
            let v = filter.filter(raw.rotation.array + raw.translation.array, at: work.frame.time)
            let smoothed = Pose(rotation: Vector3(v[0], v[1], v[2]), translation: Vector3(v[3], v[4], v[5]))
            state[face.id] = (raw, filter, frame)
            work.anchors.faces[i].pose = smoothed
        }
        state = state.filter { frame - $0.value.lastFrame < 60 }
    }
}
