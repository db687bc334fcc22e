import CBridge
import Foundation
import HeritageCore

/// dlib's 68-point shape predictor (Kazemi & Sullivan's regression trees), loaded once into a
/// compact copy that fits faster on a weak core than dlib's own layout (see landmarks.cpp).
///
/// Fitting only reads the model, so one predictor may serve several threads.
public final class LandmarkPredictor: @unchecked Sendable {
    private let raw: OpaquePointer

    /// Loads the model (about 0.35 s for Debian's 100 MB file, under 0.1 s from `cacheFolder`).
    /// `keepingReference` also keeps dlib's own predictor, for `referenceFit` (comparisons; twice
    /// the memory).
    public init(path: String = FaceModelFiles.landmarks68, keepingReference: Bool = false,
                cacheFolder: String? = FaceModelFiles.cacheFolder) throws {
        guard FileManager.default.fileExists(atPath: path) else {
            throw ModelFileError(path: path, package: "libdlib-data", reason: "landmark model missing")
        }
        guard let p = cb_shape_predictor_load(path, keepingReference ? 1 : 0, cacheFolder) else {
            throw ModelFileError(path: path, package: "libdlib-data", reason: String(cString: cb_last_error()))
        }
        raw = p
    }

    deinit { cb_shape_predictor_free(raw) }

    /// Fits the 68 points to the face whose detector-style box is centred at `centre` with side
    /// `side`, rolled by `roll` radians.
    public func fit(in gray: Image, centre: Point2, side: Double, roll: Double) throws -> [Point2] {
        var out = [cb_point2f](repeating: cb_point2f(), count: 68)
        try check(cb_shape_predict(raw, gray.raw, centre.x, centre.y, side, roll, &out), "landmark fit")
        return out.map { Point2(Double($0.x), Double($0.y)) }
    }

    /// Fits inside an upright detection box.
    public func fit(in gray: Image, box: Rect) throws -> [Point2] {
        try fit(in: gray, centre: box.centre, side: (box.width + box.height) / 2, roll: 0)
    }

    /// The same fit by dlib's own evaluation (points on the crop's integer pixels); needs
    /// `keepingReference`.
    public func referenceFit(in gray: Image, centre: Point2, side: Double, roll: Double) throws -> [Point2] {
        var out = [cb_point2f](repeating: cb_point2f(), count: 68)
        try check(cb_shape_predict_reference(raw, gray.raw, centre.x, centre.y, side, roll, &out), "dlib landmark fit")
        return out.map { Point2(Double($0.x), Double($0.y)) }
    }
}
