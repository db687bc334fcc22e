/// Cheap geometric checks that 68 fitted points still look like a face.
///
/// The landmark predictor always returns a face-shaped set of points, even on a wall; what goes
/// wrong when a track drifts is that the shape degenerates (collapses, folds, turns inside out)
/// or jumps. These checks catch that in microseconds; an appearance check (re-detection around
/// the track) catches the rest, less often.
public struct LandmarkPlausibility: Sendable {
    public struct Options: Hashable, Sendable {
        /// Smallest and largest eye distance, in pixels, a track may have.
        public var eyeDistanceRange: ClosedRange<Double> = 6...1000
        /// Largest change of eye distance between consecutive frames (ratio).
        public var maximumScaleChange = 1.35
        /// Largest move of the eye midpoint between consecutive frames, in eye distances.
        public var maximumJump = 1.5
        /// Largest roll change between frames, radians.
        public var maximumRollChange = 0.6

        public init() {}
    }

    public var options: Options

    public init(options: Options = Options()) {
        self.options = options
    }

    public enum Verdict: Equatable, Sendable {
        case plausible
        case implausible(String)
    }

    /// Checks a fit on its own and, given the previous frame's fit, against it.
    public func check(_ points: [Point2], previous: [Point2]?) -> Verdict {
        guard points.count == 68, points.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else {
            return .implausible("not 68 finite points")
        }
        let frame = FaceFrame(landmarks: points)
        guard options.eyeDistanceRange.contains(frame.eyeDistance) else { return .implausible("eye distance") }
        // Work in the face's upright frame: x along the eye line, y down the face, in eye distances.
        let s = frame.eyeDistance
        func upright(_ i: Int) -> Point2 { (points[i] - frame.eyeMidpoint).rotated(by: -frame.roll) / s }
        let noseTip = upright(30), chin = upright(8), mouthLeft = upright(48), mouthRight = upright(54)
        let browRight = upright(19), browLeft = upright(24), jawRight = upright(0), jawLeft = upright(16)
        // Vertical order: brows above eyes, nose below, mouth below nose, chin lowest.
        guard browRight.y < 0, browLeft.y < 0, noseTip.y > 0.25, noseTip.y < 1.6 else { return .implausible("nose") }
        let mouthY = (mouthLeft.y + mouthRight.y) / 2
        guard mouthY > noseTip.y, chin.y > mouthY, chin.y < 3.2 else { return .implausible("mouth and chin") }
        // Left-right order kept (a mirrored fit means the face was lost), widths in human range.
        guard mouthRight.x > mouthLeft.x, jawLeft.x - jawRight.x > 1.2, jawLeft.x - jawRight.x < 4.0 else {
            return .implausible("widths")
        }
        guard abs(noseTip.x) < 1.2 else { return .implausible("nose off centre") }
        if let previous {
            let before = FaceFrame(landmarks: previous)
            let ratio = frame.eyeDistance / before.eyeDistance
            guard ratio < options.maximumScaleChange, ratio > 1 / options.maximumScaleChange else {
                return .implausible("scale jump")
            }
            guard frame.eyeMidpoint.distance(to: before.eyeMidpoint) < options.maximumJump * before.eyeDistance else {
                return .implausible("position jump")
            }
            var dRoll = frame.roll - before.roll
            while dRoll > Double.pi { dRoll -= 2 * Double.pi }
            while dRoll < -Double.pi { dRoll += 2 * Double.pi }
            guard abs(dRoll) < options.maximumRollChange else { return .implausible("roll jump") }
        }
        return .plausible
    }
}
