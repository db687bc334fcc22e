/// One recognised card in one frame.
public struct CardAnchor: Hashable, Sendable {
    /// The card's id (`lichun`, …, or a custom card's file stem).
    public var id: String
    /// Where the reference image's corners appear: top-left, top-right, bottom-right, bottom-left.
    public var corners: [Point2]
    /// The card's pose from its corners and physical size; nil until solved.
    public var pose: Pose?

    public init(id: String, corners: [Point2], pose: Pose?) {
        self.id = id
        self.corners = corners
        self.pose = pose
    }
}
