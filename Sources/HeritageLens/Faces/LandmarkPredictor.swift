import Foundation
import HeritageCore

/// dlib's 68-point shape predictor (Kazemi & Sullivan's regression trees), loaded once into a
/// compact copy that fits faster on a weak core than dlib's own layout (see landmarks.cpp).
///
/// Fitting only reads the model, so one predictor may serve several threads.
public final class LandmarkPredictor: Sendable {
    private let model: DlibShapePredictor

    /// Loads the model (about 0.35 s for Debian's 100 MB file, under 0.1 s from `cacheFolder`).
    /// `keepingReference` also keeps dlib's own predictor, for `referenceFit` (comparisons; twice
    /// the memory).
    public init(path: String = FaceModelFiles.landmarks68, keepingReference: Bool = false,
                cacheFolder: String? = FaceModelFiles.cacheFolder) throws {
        guard FileManager.default.fileExists(atPath: path) else {
            throw ModelFileError(path: path, package: "libdlib-data", reason: "landmark model missing")
        }
        do {
            model = try DlibShapePredictor(path: path, keepingReference: keepingReference, cacheFolder: cacheFolder)
        } catch {
            throw ModelFileError(path: path, package: "libdlib-data", reason: error.message)
        }
    }

    /// Fits the 68 points to the face whose detector-style box is centred at `centre` with side
    /// `side`, rolled by `roll` radians.
    public func fit(in gray: Image, centre: Point2, side: Double, roll: Double) throws -> [Point2] {
        try model.fit(in: gray, centre: centre, side: side, roll: roll)
    }

    /// Fits inside an upright detection box.
    public func fit(in gray: Image, box: Rect) throws -> [Point2] {
        try fit(in: gray, centre: box.centre, side: (box.width + box.height) / 2, roll: 0)
    }

    /// The same fit by dlib's own evaluation (points on the crop's integer pixels); needs
    /// `keepingReference`.
    public func referenceFit(in gray: Image, centre: Point2, side: Double, roll: Double) throws -> [Point2] {
        try model.referenceFit(in: gray, centre: centre, side: side, roll: roll)
    }
}
