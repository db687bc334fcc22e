import CBridge
import HeritageCore

/// What the detector's filters say about one face-sized window.
public struct FaceAppearance: Hashable, Sendable {
    /// dlib's detection confidence of the best window near the box (faces about 0.3-2.5,
    /// background below 0).
    public var score: Double
    /// Where that window is, as a detector-style box rolled like the asked one.
    public var centre: Point2
    public var side: Double
}

/// Asks dlib's HOG face filters whether a tracked face's box still holds a face: one de-rolled
/// crop at the box's own scale, no search, so it can run on every track every frame. The landmark
/// predictor cannot tell: it returns a plausible face shape on any texture.
///
/// Keeps its own detector (dlib's scanner is not shareable between threads), so the frame
/// thread can check while a background worker searches.
public final class FaceAppearanceCheck {
    private let raw: OpaquePointer

    /// Takes about 0.6 s: the filters are deserialized from dlib's headers.
    public init() throws {
        guard let p = cb_hog_detector_create(FaceModelFiles.cacheFolder) else { throw BridgeError.last("create dlib HOG detector") }
        raw = p
    }

    deinit { cb_hog_detector_free(raw) }

    /// The best window around `frame`'s detector box, at most `reach` cells of the detector (a
    /// tenth of the box's side) off its centre; nil when no window scored at all.
    public func appearance(of frame: FaceFrame, in gray: Image, boxOffset: Point2 = Point2(0, 0),
                           boxScale: Double = 1, reach: Int = 1) throws -> FaceAppearance? {
        let centre = frame.detectorBoxCentre + (boxOffset * frame.eyeDistance).rotated(by: frame.roll)
        let side = frame.detectorBoxSide * boxScale
        var score = 0.0, x = 0.0, y = 0.0, s = 0.0
        let n = try check(cb_hog_score_window(raw, gray.raw, centre.x, centre.y, side, frame.roll, Int32(reach), &score, &x, &y, &s),
                          "face check")
        return n == 1 ? FaceAppearance(score: score, centre: Point2(x, y), side: s) : nil
    }
}
