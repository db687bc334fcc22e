import Foundation
import HeritageCore

/// A face the detector found: an upright box in frame pixels.
public struct FaceDetection: Hashable, Sendable {
    public var box: Rect
    /// Detector confidence (dlib HOG: SVM margin; cascades: 1).
    public var score: Double
    /// The 68 points fitted in `box` on the frame the detection ran on (filled by the worker).
    public var landmarks: [Point2]? = nil
}

/// Finds upright faces in a gray image.
public protocol FaceDetector: AnyObject {
    /// Searches `region` (nil: the whole image) after scaling it by `scale` (above 1 finds smaller faces).
    func detect(in gray: Image, region: Rect?, scale: Double) throws -> [FaceDetection]
    /// Whether `detectSmallest` costs only its own levels; otherwise it is a whole search.
    var searchesSmallestApart: Bool { get }
    /// Searches only the `levels` finest pyramid levels (each 5/6 of the one before) from `scale`:
    /// the smallest faces alone.
    func detectSmallest(in gray: Image, region: Rect?, scale: Double, levels: Int) throws -> [FaceDetection]
    /// Searches all but the `levels` finest pyramid levels from `scale`: the larger faces alone,
    /// as a whole search at `scale` finds them.
    func detectLarger(in gray: Image, region: Rect?, scale: Double, skipping levels: Int) throws -> [FaceDetection]
}

extension FaceDetector {
    public var searchesSmallestApart: Bool { false }

    public func detectSmallest(in gray: Image, region: Rect?, scale: Double, levels: Int) throws -> [FaceDetection] {
        try detect(in: gray, region: region, scale: scale)
    }

    public func detectLarger(in gray: Image, region: Rect?, scale: Double, skipping levels: Int) throws -> [FaceDetection] {
        try detect(in: gray, region: region, scale: scale * pow(5.0 / 6, Double(levels)))
    }
}

/// dlib's HOG + linear SVM frontal face detector (`get_frontal_face_detector`): the most
/// reliable of the detectors here for frontal and slightly turned faces; its 80 px window means
/// faces under about 30 px between the eyes need `scale` above 1.
public final class HOGFaceDetector: FaceDetector {
    private let scanner: DlibFaceScanner

    /// Unpacking dlib's detector takes about 0.3 s, once per process; from `cacheFolder` a few ms.
    public init(cacheFolder: String? = FaceModelFiles.cacheFolder,
                kernel: DlibFaceScanner.Kernel = FaceModelFiles.hogKernel) throws {
        scanner = try DlibFaceScanner(cacheFolder: cacheFolder, kernel: kernel)
    }

    public func detect(in gray: Image, region: Rect?, scale: Double) throws -> [FaceDetection] {
        try scanner.detect(in: gray, region: region, scale: scale).map { FaceDetection(box: $0.box, score: $0.score) }
    }

    public var searchesSmallestApart: Bool { true }

    public func detectSmallest(in gray: Image, region: Rect?, scale: Double, levels: Int) throws -> [FaceDetection] {
        try scanner.detect(in: gray, region: region, scale: scale, levels: levels)
            .map { FaceDetection(box: $0.box, score: $0.score) }
    }

    public func detectLarger(in gray: Image, region: Rect?, scale: Double, skipping levels: Int) throws -> [FaceDetection] {
        try scanner.detect(in: gray, region: region, scale: scale, skippingLevels: levels)
            .map { FaceDetection(box: $0.box, score: $0.score) }
    }
}

/// An OpenCV cascade (LBP or Haar) from opencv-data: faster per pixel on some machines, less
/// accurate; the LBP cascade cannot see faces under about 45 px.
public final class CascadeFaceDetector: FaceDetector {
    public struct Options: Sendable {
        public var scaleFactor = 1.15
        public var minimumNeighbours = 4
        public var minimumSize = 36

        public init() {}
    }

    private let cascade: OpenCVCascade
    private let options: Options

    public init(path: String, options: Options = Options()) throws {
        cascade = try FaceModelFiles.cascade(at: path)
        self.options = options
    }

    public func detect(in gray: Image, region: Rect?, scale: Double) throws -> [FaceDetection] {
        // Cascade boxes are tighter than dlib's (which the landmark model expects): widen them.
        return try cascade.detect(in: gray, region: region, scale: scale, scaleFactor: options.scaleFactor,
                                  minimumNeighbours: options.minimumNeighbours, minimumSize: options.minimumSize).map { r in
            let grow = 0.08 * r.width
            return FaceDetection(box: Rect(x: r.x - grow, y: r.y - grow * 0.5, width: r.width + 2 * grow,
                                           height: r.height + 2 * grow), score: 1)
        }
    }
}
