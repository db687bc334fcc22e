import CBridge
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
}

func bridgeRect(_ r: Rect?) -> cb_rect {
    guard let r else { return cb_rect(x: 0, y: 0, width: 0, height: 0) }
    return cb_rect(x: Int32(r.x.rounded(.down)), y: Int32(r.y.rounded(.down)), width: Int32(r.width.rounded(.up)),
                   height: Int32(r.height.rounded(.up)))
}

/// dlib's HOG + linear SVM frontal face detector (`get_frontal_face_detector`): the most
/// reliable of the detectors here for frontal and slightly turned faces; its 80 px window means
/// faces under about 30 px between the eyes need `scale` above 1.
public final class HOGFaceDetector: FaceDetector {
    private let raw: OpaquePointer
    private var rects = [cb_rect](repeating: cb_rect(), count: 64)
    private var scores = [Double](repeating: 0, count: 64)

    /// Unpacking dlib's detector takes about 0.3 s, once per process; from `cacheFolder` a few ms.
    public init(cacheFolder: String? = FaceModelFiles.cacheFolder) throws {
        guard let p = cb_hog_detector_create(cacheFolder) else { throw BridgeError.last("create dlib HOG detector") }
        raw = p
    }

    deinit { cb_hog_detector_free(raw) }

    public func detect(in gray: Image, region: Rect?, scale: Double) throws -> [FaceDetection] {
        let n = try check(cb_hog_detect(raw, gray.raw, bridgeRect(region), scale, &rects, &scores, Int32(rects.count)),
                          "dlib HOG detection")
        return (0..<Int(n)).map { i in
            FaceDetection(box: Rect(x: Double(rects[i].x), y: Double(rects[i].y), width: Double(rects[i].width),
                                    height: Double(rects[i].height)), score: scores[i])
        }
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

    private let raw: OpaquePointer
    private let options: Options
    private var rects = [cb_rect](repeating: cb_rect(), count: 64)

    public init(path: String, options: Options = Options()) throws {
        guard FileManager.default.fileExists(atPath: path) else {
            throw ModelFileError(path: path, package: "opencv-data", reason: "cascade file missing")
        }
        guard let p = cb_cascade_load(path) else {
            throw ModelFileError(path: path, package: "opencv-data", reason: String(cString: cb_last_error()))
        }
        raw = p
        self.options = options
    }

    deinit { cb_cascade_free(raw) }

    public func detect(in gray: Image, region: Rect?, scale: Double) throws -> [FaceDetection] {
        let n = try check(cb_cascade_detect(raw, gray.raw, bridgeRect(region), scale, options.scaleFactor,
                                            Int32(options.minimumNeighbours), Int32(options.minimumSize), &rects,
                                            Int32(rects.count)), "cascade detection")
        // Cascade boxes are tighter than dlib's (which the landmark model expects): widen them.
        return (0..<Int(n)).map { i in
            let r = rects[i]
            let grow = 0.08 * Double(r.width)
            return FaceDetection(box: Rect(x: Double(r.x) - grow, y: Double(r.y) - grow * 0.5,
                                           width: Double(r.width) + 2 * grow, height: Double(r.height) + 2 * grow),
                                 score: 1)
        }
    }
}
