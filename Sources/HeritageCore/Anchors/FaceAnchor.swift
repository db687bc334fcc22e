/// One tracked face in one frame: what the renderer and the anchors stream receive.
public struct FaceAnchor: Hashable, Sendable {
    /// Track id, stable while the face stays tracked.
    public var id: Int
    /// Bounding box of the landmarks, in input-frame pixels.
    public var boundingBox: Rect
    /// The 68 points in iBUG 300-W order, in input-frame pixels.
    public var landmarks: [Point2]
    /// Head pose from the landmarks; nil until a pose could be solved.
    public var pose: Pose?

    public init(id: Int, boundingBox: Rect, landmarks: [Point2], pose: Pose?) {
        self.id = id
        self.boundingBox = boundingBox
        self.landmarks = landmarks
        self.pose = pose
    }

    /// The same face in an image `factor` times the size (analysis pixels to input pixels).
    public func scaled(by factor: Double) -> FaceAnchor {
        FaceAnchor(id: id, boundingBox: boundingBox.scaled(by: factor), landmarks: landmarks.map { $0 * factor }, pose: pose)
    }
}
