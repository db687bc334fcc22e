import HeritageCore

/// Tells a hard cut (an edited recording, a camera switched between scenes) from motion: the
/// frame shrunk to a 32 x 24 thumbnail and compared with the last one at the same mean
/// brightness and contrast, and at the best shift of up to 2 thumbnail pixels (40 px of the frame). A face
/// moving, even fast, changes a few thumbnail pixels; a pan or a change of exposure changes
/// almost none once shifted and matched; a cut changes nearly all of them.
public final class SceneChangeMeter {
    /// Mean absolute difference of the thumbnails (0-255) above which a frame is a cut.
    public let threshold: Double
    private var previous = Image()
    private var current = Image()
    private var hasPrevious = false
    /// The last frame's difference to the one before (0 for the first frame).
    public private(set) var lastDifference = 0.0

    public init(threshold: Double = 22) {
        self.threshold = threshold
    }

    /// Whether `gray` starts a new scene.
    public func isCut(_ gray: Image) throws -> Bool {
        try gray.resize(into: current, width: 32, height: 24, interpolation: .area)
        defer {
            swap(&previous, &current)
            hasPrevious = true
        }
        guard hasPrevious else { return false }
        lastDifference = try current.difference(to: previous, matchingMeansAndShiftingUpTo: 2)
        return lastDifference > threshold
    }
}
