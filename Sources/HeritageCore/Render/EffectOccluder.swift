/// Something in front of a card's 3D effect: a face, as a convex outline in the image at a
/// distance from the camera. Parts of an effect farther away than it and inside its outline are
/// hidden, so a head in front of a card hides the swallows flying behind it.
public struct EffectOccluder: Hashable, Sendable {
    /// Convex outline in image pixels, either winding.
    public var outline: [Point2]
    /// Distance from the camera along its axis, metres.
    public var depth: Double

    public init(outline: [Point2], depth: Double) {
        self.outline = outline
        self.depth = depth
    }

    /// A face's outline: the jaw line and the brow line raised by most of an eye distance (the
    /// forehead, which has no landmarks), at the depth of its head pose.
    public init?(face: FaceAnchor) {
        guard face.landmarks.count == 68, let pose = face.pose, pose.translation.z > 0 else { return nil }
        let frame = FaceFrame(landmarks: face.landmarks)
        // "Up" on the face: perpendicular to the eye line, towards the brows.
        let up = Point2(_sin(frame.roll), -_cos(frame.roll)) * (frame.eyeDistance * 0.9)
        let jaw = Array(face.landmarks[0...16])
        let forehead = face.landmarks[17...26].reversed().map { $0 + up }
        self.init(outline: Self.convexHull(jaw + forehead), depth: pose.translation.z)
    }

    /// Whether a point at `depth` metres that projects to `point` is behind this occluder.
    public func hides(_ point: Point2, depth: Double) -> Bool {
        depth > self.depth && contains(point)
    }

    /// Inside the convex outline (the sign of every edge's cross product agrees).
    public func contains(_ p: Point2) -> Bool {
        guard outline.count >= 3 else { return false }
        var sign = 0.0
        for (i, a) in outline.enumerated() {
            let b = outline[(i + 1) % outline.count]
            let cross = (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x)
            if cross == 0 { continue }
            if sign == 0 { sign = cross } else if (cross > 0) != (sign > 0) { return false }
        }
        return true
    }

    /// Andrew's monotone chain.
    static func convexHull(_ points: [Point2]) -> [Point2] {
        let sorted = points.sorted { $0.x != $1.x ? $0.x < $1.x : $0.y < $1.y }
        guard sorted.count >= 3 else { return sorted }
        func cross(_ o: Point2, _ a: Point2, _ b: Point2) -> Double { (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x) }
        var lower: [Point2] = [], upper: [Point2] = []
        for p in sorted {
            while lower.count >= 2, cross(lower[lower.count - 2], lower[lower.count - 1], p) <= 0 { lower.removeLast() }
            lower.append(p)
        }
        for p in sorted.reversed() {
            while upper.count >= 2, cross(upper[upper.count - 2], upper[upper.count - 1], p) <= 0 { upper.removeLast() }
            upper.append(p)
        }
        return Array(lower.dropLast() + upper.dropLast())
    }
}
