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

    /// The same card in an image `factor` times the size (analysis pixels to input pixels).
    public func scaled(by factor: Double) -> CardAnchor {
        CardAnchor(id: id, corners: corners.map { $0 * factor }, pose: pose)
    }
}
