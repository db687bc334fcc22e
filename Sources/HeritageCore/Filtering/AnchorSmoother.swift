/// The One Euro smoothing of one tracked anchor from frame to frame: its points (a face's
/// landmarks, a card's corners) or its pose, each coordinate filtered on its own.
///
/// Points are smoothed in the anchor's own `unit` (a face's eye distance, a tenth of a card's
/// width), so one setting behaves the same near and far; pose components in their own units
/// (radians, metres).
public struct AnchorSmoother: Sendable {
    private var filter: OneEuroVectorFilter

    /// A smoother for `points` points.
    public init(points: Int, options: OneEuroFilter.Options) {
        self.init(components: 2 * points, options: options)
    }

    /// A smoother for a pose (rotation vector and translation).
    public static func pose(options: OneEuroFilter.Options) -> AnchorSmoother {
        AnchorSmoother(components: 6, options: options)
    }

    private init(components: Int, options: OneEuroFilter.Options) {
        filter = OneEuroVectorFilter(count: components, options: options)
    }

    /// `points` at `time` seconds, smoothed; the first sample (and the first after `reset`)
    /// passes through unchanged.
    public mutating func smooth(_ points: [Point2], at time: Double, unit: Double) -> [Point2] {
        let flat = filter.filter(points.flatMap { [$0.x, $0.y] }, at: time, unit: unit)
        return (0..<flat.count / 2).map { Point2(flat[2 * $0], flat[2 * $0 + 1]) }
    }

    public mutating func smooth(_ pose: Pose, at time: Double) -> Pose {
        let v = filter.filter(pose.rotation.array + pose.translation.array, at: time)
        return Pose(rotation: Vector3(v[0], v[1], v[2]), translation: Vector3(v[3], v[4], v[5]))
    }

    /// Forgets the history: the anchor was lost or jumped, and easing across the gap would show a
    /// slide that never happened.
    public mutating func reset() { filter.reset() }
}
