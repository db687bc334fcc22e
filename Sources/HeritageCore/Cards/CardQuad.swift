/// Checks that four corners can be a flat card seen by a camera: a convex quadrilateral in the
/// right order, big enough, not folded to a sliver, and not stretched beyond what a tilt of
/// about 70° can do. Impossible quads are how a wrong homography usually shows itself.
public struct CardQuad: Sendable {
    public struct Options: Hashable, Sendable {
        /// Smallest area in square pixels.
        public var minimumArea = 900.0
        /// Shortest side in pixels: below it a card's features crowd together and a homography
        /// fitted to them extrapolates badly to the corners.
        public var minimumSide = 36.0
        /// Largest ratio of opposite sides (perspective foreshortening).
        public var maximumOppositeSideRatio = 4.0
        /// Largest difference between the quad's aspect and the card's, as a ratio.
        public var maximumAspectDistortion = 3.5

        public init() {}
    }

    public var options: Options

    public init(options: Options = Options()) {
        self.options = options
    }

    /// Signed area by the shoelace formula: positive for clockwise corners on screen (y down).
    public static func signedArea(_ q: [Point2]) -> Double {
        var a = 0.0
        for i in 0..<q.count {
            let p = q[i], n = q[(i + 1) % q.count]
            a += p.x * n.y - n.x * p.y
        }
        return a / 2
    }

    /// `corners`: TL, TR, BR, BL in frame pixels; `aspect`: the card's width / height.
    public func isPlausible(_ corners: [Point2], aspect: Double) -> Bool {
        guard corners.count == 4, corners.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else { return false }
        // Convex, same turn at every corner, and clockwise (a mirror image is not the card).
        for i in 0..<4 {
            let a = corners[i], b = corners[(i + 1) % 4], c = corners[(i + 2) % 4]
            let cross = (b.x - a.x) * (c.y - b.y) - (b.y - a.y) * (c.x - b.x)
            if cross <= 0 { return false }
        }
        guard Self.signedArea(corners) >= options.minimumArea else { return false }
        let sides = (0..<4).map { corners[$0].distance(to: corners[($0 + 1) % 4]) }
        guard sides.min()! >= options.minimumSide else { return false }
        for (a, b) in [(sides[0], sides[2]), (sides[1], sides[3])] {
            if max(a, b) / max(min(a, b), 1e-9) > options.maximumOppositeSideRatio { return false }
        }
        let width = (sides[0] + sides[2]) / 2, height = (sides[1] + sides[3]) / 2
        let distortion = (width / height) / aspect
        return distortion < options.maximumAspectDistortion && distortion > 1 / options.maximumAspectDistortion
    }
}
