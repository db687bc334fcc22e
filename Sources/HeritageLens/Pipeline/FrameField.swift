/// The parts of a frame's work (`FrameWork`) a stage can need or add; stages declare theirs
/// (`FrameStage.reads`, `.writes`) and `StageOrder` checks a pipeline against them.
public enum FrameField: String, Hashable, Sendable, CustomStringConvertible {
    /// The frame's pixels (the source's).
    case image
    /// The gray analysis image.
    case gray
    /// Face anchors.
    case faces
    /// Card anchors.
    case cards
    /// Poses of the anchors.
    case poses
    /// Masks and effects drawn into the frame's pixels.
    case rendering

    public var description: String { rawValue }
}
