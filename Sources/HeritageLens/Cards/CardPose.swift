import HeritageCore

extension PoseSolver {
    /// A card's pose from its four corners and physical size, by IPPE (the planar method).
    public func cardPose(corners: [Point2], plane: CardPlane) -> Pose? {
        pose(of: plane.corners, seenAt: corners, methods: [.ippe])
    }
}
