import HeritageCore

/// Counts what a run anchored (for a batch's summary): frames, distinct face and card ids, frames
/// with a face.
public final class AnchorTallySink: FrameSink {
    public private(set) var frames = 0
    public private(set) var faceIDs: Set<Int> = []
    public private(set) var cardIDs: Set<String> = []
    public private(set) var framesWithFaces = 0

    private let onFrame: () -> Void

    /// `onFrame`: called after each frame (a batch's progress).
    public init(onFrame: @escaping () -> Void = {}) {
        self.onFrame = onFrame
    }

    public func write(_ frame: ProcessedFrame) throws {
        defer { onFrame() }
        frames += 1
        if !frame.anchors.faces.isEmpty { framesWithFaces += 1 }
        for face in frame.anchors.faces { faceIDs.insert(face.id) }
        for card in frame.anchors.cards { cardIDs.insert(card.id) }
    }

    public func finish() throws {}
}
