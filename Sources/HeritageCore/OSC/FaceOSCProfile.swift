/// The messages FaceOSC (Kyle McDonald's ofxFaceTracker app) sends for one face, computed from
/// this project's 68 landmarks and head pose, so that FaceOSC templates (Processing, Max, Pd,
/// openFrameworks) work unchanged. Addresses, argument types and units follow FaceOSC:
///
/// - `/found` i: 1 with a face, else 0 and nothing more;
/// - `/pose/position` ff: image pixels of the face model's origin, which FaceTracker fits as the
///   centroid of its 66 points: here the centroid of the same 66 landmarks;
/// - `/pose/scale` f: image pixels per FaceTracker model unit (its mean face is 23.6 units between
///   the outer eye corners): the least-squares scale between this project's head model, turned by
///   the head pose, and the landmarks, times millimetres per unit;
/// - `/pose/orientation` fff: pitch, yaw, roll in radians for R = Rx(pitch)·Ry(yaw)·Rz(roll),
///   FaceTracker's order, in the same axes (x to the image's right, y down, z away from the camera);
/// - `/gesture/…` f: FaceTracker measures these between points of its pose-free 3D shape, in model
///   units. Here: the same landmark pairs, in the image, with roll undone and the x and y parts
///   divided by cos(yaw) and cos(pitch), divided by the scale;
/// - `/raw` 132 f: the 66 points in image pixels (FaceTracker's 66 are iBUG's 68 without the two
///   inner mouth corners, 60 and 64).
public enum FaceOSCProfile {
    /// FaceOSC's port, the default of its receiving templates.
    public static let defaultPort: UInt16 = 8338

    /// Millimetres of this project's head model per FaceTracker model unit: the outer eye corners
    /// are 90 mm apart in `HeadModel` and 23.61 units apart in FaceTracker's mean face.
    public static let millimetresPerUnit = 90.0 / 23.61

    /// iBUG 68 indices of FaceTracker's 66 points, in its order.
    public static let rawIndices: [Int] = Array(0..<60) + [61, 62, 63, 65, 66, 67]

    /// Landmark pairs per gesture, in iBUG 68 indices (FaceTracker's pairs mapped from its 66).
    public static let gestures: [(address: String, from: Int, to: Int)] = [
        ("/gesture/mouth/width", 48, 54),
        ("/gesture/mouth/height", 62, 66),
        ("/gesture/eyebrow/left", 38, 20),
        ("/gesture/eyebrow/right", 43, 23),
        ("/gesture/eye/left", 38, 41),
        ("/gesture/eye/right", 43, 46),
        ("/gesture/jaw", 33, 8),
        ("/gesture/nostrils", 31, 35),
    ]

    /// FaceOSC's values for a face, as numbers (what the messages carry, before float32).
    public struct Values: Equatable, Sendable {
        public var position: Point2
        public var scale: Double
        /// Radians: pitch, yaw, roll.
        public var orientation: Vector3
        /// In `gestures` order.
        public var gestures: [Double]
        public var raw: [Point2]
    }

    public static func values(for face: FaceAnchor) -> Values? {
        let points = face.landmarks
        guard points.count == 68 else { return nil }
        let raw = rawIndices.map { points[$0] }
        let position = raw.reduce(Point2.zero, +) / Double(raw.count)
        let rotation = face.pose?.rotationMatrix ?? inPlaneRotation(points)
        let orientation = eulerXYZ(rotation)
        let pixelsPerMillimetre = weakPerspectiveScale(points, rotation: rotation)
        let scale = pixelsPerMillimetre * millimetresPerUnit
        // Foreshortening of the face plane; a profile view would divide by nearly zero.
        let cosYaw = max(0.5, _cos(orientation.y)), cosPitch = max(0.5, _cos(orientation.x))
        let roll = orientation.z
        let gestureValues = gestures.map { g -> Double in
            let d = (points[g.to] - points[g.from]).rotated(by: -roll)
            let frontal = Point2(d.x / cosYaw, d.y / cosPitch)
            return scale > 0 ? frontal.length / scale : 0
        }
        return Values(position: position, scale: scale, orientation: orientation, gestures: gestureValues, raw: raw)
    }

    /// The bundle FaceOSC sends for a frame: for the first face in `anchors`, or `/found 0`.
    public static func bundle(for anchors: FrameAnchors) -> OSCBundle {
        guard let face = anchors.faces.first, let v = values(for: face) else {
            return OSCBundle(messages: [OSCMessage("/found", [.int32(0)])])
        }
        var messages = [
            OSCMessage("/found", [.int32(1)]),
            OSCMessage("/pose/position", floats: [v.position.x, v.position.y]),
            OSCMessage("/pose/scale", floats: [v.scale]),
            OSCMessage("/pose/orientation", floats: v.orientation.array),
        ]
        for (g, value) in zip(gestures, v.gestures) { messages.append(OSCMessage(g.address, floats: [value])) }
        messages.append(OSCMessage("/raw", floats: v.raw.flatMap { [$0.x, $0.y] }))
        return OSCBundle(messages: messages)
    }

    /// Pitch, yaw, roll (radians) with R = Rx(pitch)·Ry(yaw)·Rz(roll).
    public static func eulerXYZ(_ r: Matrix3) -> Vector3 {
        let m = r.m
        let yaw = _asin(max(-1, min(1, m[2])))
        let pitch = _atan2(-m[5], m[8])
        let roll = _atan2(-m[1], m[0])
        return Vector3(pitch, yaw, roll)
    }

    /// The rotation about the camera axis that levels the eye line (a face without a pose yet).
    static func inPlaneRotation(_ points: [Point2]) -> Matrix3 {
        let eyeLine = points[45] - points[36]
        let a = _atan2(eyeLine.y, eyeLine.x)
        let c = _cos(a), s = _sin(a)
        return Matrix3([c, -s, 0, s, c, 0, 0, 0, 1])
    }

    /// Pixels per millimetre: the least-squares scale s minimising Σ|q − q̄ − s·(p − p̄)|² between
    /// the head model's points p, turned by `rotation` and projected orthographically, and the
    /// landmarks q (FaceTracker fits its scale the same way, with its own model).
    static func weakPerspectiveScale(_ points: [Point2], rotation: Matrix3) -> Double {
        let indices = HeadModel.landmarkIndices
        let model = HeadModel.points.map { rotation * ($0 * 1000) }
        let n = Double(indices.count)
        let pMean = model.reduce(Vector3.zero, +) * (1 / n)
        let qMean = indices.reduce(Point2.zero) { $0 + points[$1] } / n
        var dot = 0.0, norm = 0.0
        for (p, index) in zip(model, indices) {
            let px = p.x - pMean.x, py = p.y - pMean.y
            let q = points[index] - qMean
            dot += px * q.x + py * q.y
            norm += px * px + py * py
        }
        return norm > 0 ? max(0, dot / norm) : 0
    }
}
