import CBridge
import HeritageCore

/// dlib's shape predictor (regression trees) loaded into the bridge's compact copy. Fitting only
/// reads the model.
public final class DlibShapePredictor: Sendable {
    // Immutable after loading; the C side never writes it again, so sharing between threads is safe.
    private nonisolated(unsafe) let raw: OpaquePointer

    /// `keepingReference` also keeps dlib's own predictor for `referenceFit`; `cacheFolder` keeps
    /// the compact copy between runs (nil: parse the file each time).
    public init(path: String, keepingReference: Bool, cacheFolder: String?) throws(BridgeError) {
        guard let p = cb_shape_predictor_load(path, keepingReference ? 1 : 0, cacheFolder) else {
            throw BridgeError.last("load \(path)")
        }
        raw = p
    }

    deinit { cb_shape_predictor_free(raw) }

    /// The 68 points of the face in the square centred at `centre`, side `side`, rolled by `roll`.
    public func fit(in gray: Image, centre: Point2, side: Double, roll: Double) throws(BridgeError) -> [Point2] {
        var out = [cb_point2f](repeating: cb_point2f(), count: 68)
        try check(cb_shape_predict(raw, gray.raw, centre.x, centre.y, side, roll, &out), "landmark fit")
        return out.map(\.point)
    }

    /// The same fit by dlib's own evaluation; needs `keepingReference`.
    public func referenceFit(in gray: Image, centre: Point2, side: Double, roll: Double) throws(BridgeError) -> [Point2] {
        var out = [cb_point2f](repeating: cb_point2f(), count: 68)
        try check(cb_shape_predict_reference(raw, gray.raw, centre.x, centre.y, side, roll, &out), "dlib landmark fit")
        return out.map(\.point)
    }
}
