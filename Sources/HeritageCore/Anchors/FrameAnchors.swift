/// Everything found in one frame: one line of the anchors stream (schema 1, shared/DESIGN.md).
public struct FrameAnchors: Hashable, Sendable {
    public static let schema = 1

    /// Index of the frame among those the source delivered, from 0.
    public var frame: Int
    /// The frame's timestamp in seconds.
    public var time: Double
    public var size: Size
    public var faces: [FaceAnchor]
    public var cards: [CardAnchor]

    public init(frame: Int, time: Double, size: Size, faces: [FaceAnchor] = [], cards: [CardAnchor] = []) {
        self.frame = frame
        self.time = time
        self.size = size
        self.faces = faces
        self.cards = cards
    }
}
