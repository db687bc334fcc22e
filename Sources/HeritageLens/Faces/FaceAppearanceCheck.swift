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
    private let scanner: DlibFaceScanner

    /// Takes about 0.6 s: the filters are deserialized from dlib's headers.
    public init(kernel: DlibFaceScanner.Kernel = FaceModelFiles.hogKernel) throws {
        scanner = try DlibFaceScanner(cacheFolder: FaceModelFiles.cacheFolder, kernel: kernel)
    }

    /// The best window around `frame`'s detector box, at most `reach` cells of the detector (a
    /// tenth of the box's side) off its centre; nil when no window scored at all.
    public func appearance(of frame: FaceFrame, in gray: Image, boxOffset: Point2 = Point2(0, 0),
                           boxScale: Double = 1, reach: Int = 1) throws -> FaceAppearance? {
        let centre = frame.detectorBoxCentre(offsetBy: boxOffset)
        let side = frame.detectorBoxSide * boxScale
        guard let best = try scanner.bestWindow(in: gray, centre: centre, side: side, roll: frame.roll, reach: reach)
        else { return nil }
        return FaceAppearance(score: best.score, centre: best.centre, side: best.side)
    }

    /// dlib's search in `region` scaled by `scale`, on the frame thread's own detector: a region
    /// a few boxes wide costs about 5 ms, so it is for faces whose fits cannot be trusted.
    public func detections(in gray: Image, region: Rect, scale: Double) throws -> [FaceDetection] {
        try scanner.detect(in: gray, region: region, scale: scale).map { FaceDetection(box: $0.box, score: $0.score) }
    }
}
