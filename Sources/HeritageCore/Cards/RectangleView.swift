import Foundation

/// Checks that four corners can be a rectangle of a known aspect seen through a pinhole camera
/// like ours, whatever the card's pose.
///
/// A homography of a plane seen by a camera is K·[r1 r2 t]: with K taken out, its first two
/// columns must be orthogonal and of equal length. A homography fitted to a wrong or partial set
/// of matches is still a convex, plausible-looking quad (CardQuad passes it) but breaks that
/// constraint badly. The focal length is only roughly known without a calibration, so the check
/// passes when any focal length in `focalRange` (times the assumed one) satisfies it: measured on
/// the synthetic sequences, true quads score below 0.03, the wrong tracks that slipped past every
/// other check 0.18-1.1.
public struct RectangleView: Sendable {
    public var focalLength: Double
    public var principalPoint: Point2
    /// Focal lengths tried, as multiples of `focalLength` (a 62° guess covers 35°-100° lenses).
    public var focalRange: ClosedRange<Double> = 0.5...2
    /// Largest residual accepted: max(|cos| of the angle between r1 and r2, |ln| of their length ratio).
    public var tolerance = 0.1

    public init(focalLength: Double, principalPoint: Point2) {
        self.focalLength = focalLength
        self.principalPoint = principalPoint
    }

    public init(intrinsics k: Intrinsics) {
        self.init(focalLength: (k.fx + k.fy) / 2, principalPoint: Point2(k.cx, k.cy))
    }

    /// `corners`: TL, TR, BR, BL in pixels; `aspect`: the rectangle's width / height.
    public func isConsistent(_ corners: [Point2], aspect: Double) -> Bool {
        residual(corners, aspect: aspect) <= tolerance
    }

    /// The smallest residual over the focal range (infinity for a degenerate quad).
    public func residual(_ corners: [Point2], aspect: Double) -> Double {
        let unit = [Point2(0, 0), Point2(aspect, 0), Point2(aspect, 1), Point2(0, 1)]
        guard corners.count == 4, let h = Homography(from: unit, to: corners) else { return .infinity }
        let m = h.m, c = principalPoint
        // Columns 1 and 2 with the principal point taken out (K⁻¹ up to the focal length).
        let a = (m[0] - c.x * m[6], m[3] - c.y * m[6], m[6])
        let b = (m[1] - c.x * m[7], m[4] - c.y * m[7], m[7])
        var best = Double.infinity
        let steps = 24
        let low = log2(focalRange.lowerBound), high = log2(focalRange.upperBound)
        for k in 0...steps {
            let f = focalLength * pow(2, low + (high - low) * Double(k) / Double(steps))
            let r1 = (a.0 / f, a.1 / f, a.2), r2 = (b.0 / f, b.1 / f, b.2)
            let n1 = (r1.0 * r1.0 + r1.1 * r1.1 + r1.2 * r1.2).squareRoot()
            let n2 = (r2.0 * r2.0 + r2.1 * r2.1 + r2.2 * r2.2).squareRoot()
            guard n1 > 0, n2 > 0 else { continue }
            let cosine = abs(r1.0 * r2.0 + r1.1 * r2.1 + r1.2 * r2.2) / (n1 * n2)
            best = min(best, max(cosine, abs(log(n1 / n2))))
        }
        return best
    }
}
