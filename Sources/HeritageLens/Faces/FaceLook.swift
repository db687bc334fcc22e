import HeritageCore

/// What a face looks like, aligned by its landmarks: its detector box turned upright and shrunk to
/// a few hundred samples of zero mean and unit variance, so two looks of one person compare by
/// correlation whatever the light's level and the face's size or roll.
///
/// A published face that left and comes back is the same person: remembered by its look, it is
/// taken back at once, where a new start of a weakly detected face (a face turned well away from
/// the camera) waits for a second detector that may never agree on it.
public struct FaceLook: Sendable {
    /// Samples a side: enough for eyes, nose and mouth, few enough that the look of a blurred or
    /// noisy frame still matches a sharp one.
    public static let side = 24

    let samples: [Float]

    /// The look of the face whose 68 points are `landmarks` on `gray`.
    public init(of landmarks: [Point2], in gray: Image) throws {
        let face = FaceFrame(landmarks: landmarks)
        samples = try ImageGeometry.uprightPatch(of: gray, centre: face.detectorBoxCentre, side: face.detectorBoxSide,
                                                 roll: face.roll, size: Self.side)
    }

    /// Normalised cross-correlation with `other`: 1 for the same picture. Measured on
    /// `eval-faces --set hard`, seeds 1-20: one person back after leaving fast 0.54-0.99 (median
    /// 0.85; motion blur and a turn lower it), two people's aligned faces, which share their
    /// layout, up to 0.79; the suit beside a face under 0.5.
    public func similarity(to other: FaceLook) -> Double {
        guard samples.count == other.samples.count, !samples.isEmpty else { return 0 }
        var sum: Float = 0
        for i in samples.indices { sum += samples[i] * other.samples[i] }
        return Double(sum) / Double(samples.count)
    }
}
