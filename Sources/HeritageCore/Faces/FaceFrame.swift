/// A face's position, size and roll, read off its 68 landmarks: where the next frame's landmark
/// fit looks, and the unit that smoothing and error figures are measured in.
public struct FaceFrame: Hashable, Sendable {
    /// Midpoint between the two eye centres.
    public var eyeMidpoint: Point2
    /// Distance between the eye centres (means of points 36-41 and 42-47), in pixels.
    public var eyeDistance: Double
    /// Angle of the eye line, radians (0 = level, positive = clockwise on screen).
    public var roll: Double
    /// The length the detector box is measured in: the eye distance, or for a face turned so far
    /// that its eyes look close together, 0.8 of the distance from the eyes to the mouth.
    /// Turning shortens the eye distance but not the eyes-to-mouth one, and the detector's box
    /// keeps the head's size: on the 43 annotated faces the eye distance is 0.91 ± 0.10 of the
    /// eyes-to-mouth distance, and the box is 2.38 ± 0.22 of the latter against 2.63 ± 0.33 of
    /// the former. For a face turned about 45° (eyes 0.58 of eyes-to-mouth, box 3.7 eye
    /// distances) a box by the eyes alone is 0.7 of its own: the fit settles beside the face and
    /// the check scores a real face as none.
    public var boxUnit: Double

    /// Where dlib's detector puts its box relative to the landmarks, in box units (eye distances
    /// for a face looking ahead) along the eye line: measured on the 43 annotated faces of
    /// shared/data/faces (mean offset 0.02 ± 0.11 across, 0.54 ± 0.13 down; width 2.63 ± 0.33).
    /// The landmark predictor was trained on such boxes, so a tracked face is fitted in the box the
    /// detector would have given it.
    public static let detectorBoxOffset = Point2(0.02, 0.54)
    public static let detectorBoxWidth = 2.63

    /// The share of the eyes-to-mouth distance under which the eyes are taken as turned away.
    public static let turnedEyesToMouth = 0.8

    public init(eyeMidpoint: Point2, eyeDistance: Double, roll: Double, boxUnit: Double? = nil) {
        self.eyeMidpoint = eyeMidpoint
        self.eyeDistance = eyeDistance
        self.roll = roll
        self.boxUnit = max(eyeDistance, boxUnit ?? eyeDistance)
    }

    public init(landmarks: [Point2]) {
        precondition(landmarks.count == 68, "68 landmarks")
        let right = Array(landmarks[36...41]).centroid  // the subject's right eye, image left
        let left = Array(landmarks[42...47]).centroid
        let d = left - right
        let middle = (left + right) / 2
        let eyesToMouth = Array(landmarks[48...67]).centroid.distance(to: middle)
        self.init(eyeMidpoint: middle, eyeDistance: d.length, roll: _atan2(d.y, d.x),
                  boxUnit: Self.turnedEyesToMouth * eyesToMouth)
    }

    /// The box dlib's detector would give this face: centre and side, rotated by `roll`.
    public var detectorBoxCentre: Point2 {
        eyeMidpoint + (Self.detectorBoxOffset * boxUnit).rotated(by: roll)
    }

    public var detectorBoxSide: Double { Self.detectorBoxWidth * boxUnit }

    /// The detector box's centre moved by `offset` box units in the face's own frame (turned
    /// with it): where a face's box sits when it is unlike the average the predictor was trained
    /// on, as a track learns it (a turned face's box lies to one side of the predicted one).
    public func detectorBoxCentre(offsetBy offset: Point2) -> Point2 {
        detectorBoxCentre + (offset * boxUnit).rotated(by: roll)
    }

    /// The axis-aligned detector box (for association with detections).
    public var detectorBox: Rect {
        let c = detectorBoxCentre, s = detectorBoxSide
        return Rect(x: c.x - s / 2, y: c.y - s / 2, width: s, height: s)
    }

    /// Inverse of `detectorBox` for an upright face: the frame a detection implies.
    public init(detection box: Rect) {
        let s = box.width / Self.detectorBoxWidth
        self.init(eyeMidpoint: box.centre - Self.detectorBoxOffset * s, eyeDistance: s, roll: 0)
    }
}
