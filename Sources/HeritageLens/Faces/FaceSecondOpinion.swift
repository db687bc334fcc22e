import HeritageCore

/// A second detector's word on a face the HOG detector and its filters only half believe: OpenCV's
/// Haar frontal-face cascade (`opencv-data`), run on the face's box turned upright at one size:
/// 2.5 ms on the sample's face (`kernels --kernel second-opinion`), so it is asked only while a
/// weakly detected track awaits its word.
///
/// The appearance check alone cannot tell some real faces from some badges: a turned face in a
/// group, or a face 35 % as bright as its background, scores -0.7 to -1.0 on dlib's filters, and so
/// does the round mission patch of the sample's astronaut, found by dlib's search at 0.25-0.45.
/// Haar features are another view of the same window (light-dark rectangles rather than
/// gradients): on the shared faces under every condition of `eval-faces` it finds the face in
/// nearly every frame once the crop's histogram is spread, and it never finds the patch.
public final class FaceSecondOpinion {
    public struct Options: Sendable {
        /// The face's detector box is seen at this many pixels (the cascade's window is 24).
        public var window = 48.0
        /// OpenCV's minNeighbors: with 1 a hit is two overlapping windows (OpenCV keeps groups of
        /// more than this many), the least it takes, since the box is known and only one scale
        /// band is searched.
        public var minimumNeighbours = 1
        /// The side of a detector's box the cascade is asked in (`agrees(inDetectorBox:)`): on
        /// the exported rows that lost a turned man, it agreed at 0.85 on 85-100 % of his
        /// detections and on 3-12 % of the look-alikes' of seven seeds.
        public var detectorBoxShare = 0.85

        public init() {}
    }

    private let cascade: OpenCVCascade
    public let options: Options

    /// Loads the cascade from `path` (Debian's `opencv-data`; about 30 ms).
    public init(path: String = FaceModelFiles.cascadeFolder + "/" + FaceModelFiles.cascades["haar"]!,
                options: Options = Options()) throws {
        cascade = try FaceModelFiles.cascade(at: path)
        self.options = options
    }

    /// Whether the cascade finds a face in the box dlib's detector drew (`box`, its side shrunk to
    /// `detectorBoxShare`: the detector's box is drawn wider than the face the cascade frames),
    /// turned by `roll`: for a face turned well away, whose fitted landmarks sit off it, the
    /// detector's box is where the face is.
    public func agrees(inDetectorBox box: Rect, roll: Double, in gray: Image) throws -> Bool {
        try cascade.confirms(centre: box.centre, side: box.width * options.detectorBoxShare, roll: roll,
                             window: options.window, minimumNeighbours: options.minimumNeighbours, in: gray)
    }

    /// Whether the cascade finds a face in `face`'s detector box on `gray`, placed as the track
    /// learnt its detector's box sits against its landmarks (`boxOffset` in eye distances, turned
    /// with the face; `boxScale` of the side): a face turned well away has its box a fifth to a
    /// third smaller than, and to one side of, the one its landmarks predict.
    public func agrees(with face: FaceFrame, boxOffset: Point2 = Point2(0, 0), boxScale: Double = 1,
                       in gray: Image) throws -> Bool {
        try cascade.confirms(centre: face.detectorBoxCentre(offsetBy: boxOffset), side: face.detectorBoxSide * boxScale,
                             roll: face.roll, window: options.window, minimumNeighbours: options.minimumNeighbours, in: gray)
    }
}
