import HeritageCore

extension PoseSolver {
    /// Head pose from 68 landmarks against the generic head model (`HeadModel`).
    ///
    /// The first pose of a track comes from SQPnP, whose global minimum is never the mirrored
    /// solution behind the camera that the iterative solver can fall into without a start; later
    /// poses refine the previous one iteratively (cheap, and continuous from frame to frame).
    public func headPose(landmarks: [Point2], previous: Pose?) -> Pose? {
        pose(of: HeadModel.points, seenAt: HeadModel.landmarkIndices.map { landmarks[$0] },
             methods: previous == nil ? [.sqpnp, .iterative] : [.iterative], start: previous)
    }
}
